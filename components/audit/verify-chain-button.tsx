'use client';
import { ShieldCheckIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { verifyAuditChainAction } from '@/lib/actions/audit';
import type { ChainVerdict } from '@/lib/audit-verdict';

export function VerifyChainButton() {
  const [pending, startTransition] = useTransition();
  const [verdict, setVerdict] = useState<ChainVerdict | { error: string } | null>(null);
  return (
    <div className="flex flex-col items-end gap-2">
      <Button
        variant="outline"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            const result = await verifyAuditChainAction();
            setVerdict(result.ok ? result.data : { error: result.error });
          })
        }
      >
        <ShieldCheckIcon aria-hidden />
        Verify chain
      </Button>
      <div aria-live="polite">
        {verdict === null ? null : 'error' in verdict ? (
          <Alert variant="destructive">
            <AlertDescription>{verdict.error}</AlertDescription>
          </Alert>
        ) : verdict.ok ? (
          <Alert variant="success">
            <AlertDescription>Chain intact: {verdict.entries} entries verified.</AlertDescription>
          </Alert>
        ) : (
          <Alert variant="destructive">
            <AlertDescription>
              Chain broken at entry {verdict.brokenAt}: {verdict.reason}.
            </AlertDescription>
          </Alert>
        )}
      </div>
    </div>
  );
}
