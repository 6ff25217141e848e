'use client';
import { SnowflakeIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { RequestedChangeNotice } from '@/components/admin/requested-change';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { setFreezeAction } from '@/lib/actions/policy';
import type { RequestedChange } from '@/lib/actions/users';

/** The emergency freeze: while on, nothing is submitted upstream; approved requests wait. */
export function FreezeToggle({ frozen }: { frozen: boolean }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const [requested, setRequested] = useState<RequestedChange | null>(null);
  // Setting and lifting the freeze ask for the second factor again when this session's last check is stale.
  const stepUp = useStepUp();
  const next = !frozen;
  return (
    <section aria-labelledby="freeze-heading" className="grid gap-2 rounded-lg border p-4">
      <h2 id="freeze-heading" className="flex items-center gap-2 font-semibold">
        <SnowflakeIcon className="size-4" aria-hidden /> Emergency freeze
      </h2>
      <p className="text-sm">
        {frozen
          ? 'On: nothing is submitted upstream. Approved requests wait and are submitted when the freeze is lifted.'
          : 'Off: approved requests are submitted as soon as the last approval lands.'}{' '}
        Freezing is immediate; lifting the freeze waits for a second admin.
      </p>
      <div>
        <ConfirmDialog
          trigger={
            <Button variant={frozen ? 'default' : 'destructive'}>
              {frozen ? 'Request to lift the freeze' : 'Freeze submissions'}
            </Button>
          }
          title={next ? 'Freeze all submissions?' : 'Request to lift the freeze?'}
          description={
            next
              ? 'Nothing will be sent to the custody service until the freeze is lifted. Every page shows a banner.'
              : 'A second admin approves; then every approved request waiting is submitted at once.'
          }
          confirmLabel={next ? 'Freeze' : 'Request lift'}
          destructive={next}
          onConfirm={async () => {
            const result = await stepUp.withStepUp(() => setFreezeAction({ enabled: next }));
            if (!result.ok) {
              setMessage(result.error);
              return true;
            }
            if (result.data.kind === 'requested') {
              setRequested(result.data);
              setMessage(null);
            } else setMessage('Submissions are frozen.');
            router.refresh();
            return true;
          }}
        />
      </div>
      {requested ? <RequestedChangeNotice change={requested} /> : null}
      <p role="status" className="text-sm">
        {message}
      </p>
      {stepUp.dialog}
    </section>
  );
}
