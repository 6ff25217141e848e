import type { Metadata } from 'next';
import { FactorEnrol } from '@/components/account/factor-enrol';
import { FactorList } from '@/components/account/factor-list';
import { PageHeader } from '@/components/shell/page-header';
import { Button } from '@/components/ui/button';
import { Link } from '@/components/ui/link';
import { listFactors, requiresSecondFactor } from '@/lib/server/factors/store';
import { requirePage } from '@/lib/server/page-guard';
import { getDb } from '@/lib/server/runtime';

export const metadata: Metadata = { title: 'Security' };

export default async function SecurityPage() {
  const actor = await requirePage('read');
  const factors = await listFactors(await getDb(), actor.id);
  const required = requiresSecondFactor(actor.role);
  return (
    <>
      <PageHeader
        title="Security"
        description={
          required
            ? 'Your second factors. You approve requests, so signing in needs one, and decisions ask for it again after 5 minutes.'
            : 'Your second factors: an authenticator app or a passkey.'
        }
        actions={
          <Button asChild variant="outline">
            <Link href="/change-password">Change password</Link>
          </Button>
        }
      />
      <div className="grid max-w-3xl gap-6">
        <FactorList
          factors={factors.map((f) => ({
            id: f.id,
            kind: f.kind,
            label: f.label,
            confirmed: f.confirmed,
            createdAt: f.createdAt.toISOString(),
            lastUsedAt: f.lastUsedAt?.toISOString() ?? null,
          }))}
        />
        <FactorEnrol />
      </div>
    </>
  );
}
