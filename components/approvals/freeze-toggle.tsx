'use client';
import { SnowflakeIcon } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { setFreezeAction } from '@/app/(console)/admin/policy/actions';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';

/** The emergency freeze: while on, nothing is submitted upstream; approved requests wait. */
export function FreezeToggle({ frozen }: { frozen: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [pending, startTransition] = useTransition();
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
        <Button variant={frozen ? 'default' : 'destructive'} onClick={() => setOpen(true)}>
          {frozen ? 'Lift the freeze' : 'Freeze submissions'}
        </Button>
      </div>
      <p role="status" className="text-sm">
        {message}
      </p>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{next ? 'Freeze all submissions?' : 'Lift the freeze?'}</DialogTitle>
            <DialogDescription>
              {next
                ? 'Nothing will be sent to the custody service until the freeze is lifted. Every page shows a banner.'
                : 'Every approved request waiting now is submitted at once.'}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              variant={next ? 'destructive' : 'default'}
              disabled={pending}
              onClick={() =>
                startTransition(async () => {
                  const result = await setFreezeAction({ enabled: next });
                  setOpen(false);
                  if (!result.ok) {
                    setMessage(result.error);
                    return;
                  }
                  setMessage(
                    result.data.enabled
                      ? 'Submissions are frozen.'
                      : `Freeze lifted; ${result.data.submitted} approved ${result.data.submitted === 1 ? 'request' : 'requests'} submitted.`,
                  );
                  router.refresh();
                })
              }
            >
              {next ? 'Freeze' : 'Lift freeze'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </section>
  );
}
