'use client';
import { SnowflakeIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { setFreezeAction } from '@/lib/actions/policy';

/** The emergency freeze: while on, nothing is submitted upstream; approved requests wait. */
export function FreezeToggle({ frozen }: { frozen: boolean }) {
  const router = useRouter();
  const [message, setMessage] = useState<string | null>(null);
  const next = !frozen;
  return (
    <section aria-labelledby="freeze-heading" className="grid gap-2 rounded-lg border p-4">
      <h2 id="freeze-heading" className="flex items-center gap-2 font-semibold">
        <SnowflakeIcon className="size-4" aria-hidden /> Emergency freeze
      </h2>
      <p className="text-sm">
        {frozen
          ? 'On: nothing is submitted upstream. Approved requests wait and are submitted when the freeze is lifted.'
          : 'Off: approved requests are submitted as soon as the last approval lands.'}
      </p>
      <div>
        <ConfirmDialog
          trigger={
            <Button variant={frozen ? 'default' : 'destructive'}>
              {frozen ? 'Lift the freeze' : 'Freeze submissions'}
            </Button>
          }
          title={next ? 'Freeze all submissions?' : 'Lift the freeze?'}
          description={
            next
              ? 'Nothing will be sent to the custody service until the freeze is lifted. Every page shows a banner.'
              : 'Every approved request waiting now is submitted at once.'
          }
          confirmLabel={next ? 'Freeze' : 'Lift freeze'}
          destructive={next}
          onConfirm={async () => {
            const result = await setFreezeAction({ enabled: next });
            if (!result.ok) {
              setMessage(result.error);
              return true;
            }
            setMessage(
              result.data.enabled
                ? 'Submissions are frozen.'
                : `Freeze lifted; ${result.data.submitted} approved ${result.data.submitted === 1 ? 'request' : 'requests'} submitted.`,
            );
            router.refresh();
            return true;
          }}
        />
      </div>
      <p role="status" className="text-sm">
        {message}
      </p>
    </section>
  );
}
