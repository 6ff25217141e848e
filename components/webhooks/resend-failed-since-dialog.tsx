'use client';
// "Resend every failed delivery since ...": pick a time, see how many deliveries still need someone (counted by
// the server from the log), then resend them, once per transaction, at most 100, the newest first.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { resendFailedSinceAction } from '@/lib/actions/webhooks';
import { sinceProblem } from '@/lib/validation/resend-since';
import { refreshDeliveriesSoon } from './resend-webhook-button';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A `datetime-local` value (the browser's own time zone) for a moment. */
function localInputValue(at: Date): string {
  const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

interface SinceForm {
  since: string;
}
const sinceResolver = lazyZodResolver<SinceForm>(() =>
  import('@/lib/validation/custody-ids').then((m) => m.resendSinceFormSchema),
);

export function ResendFailedSinceDialog({ walletId }: { walletId: string }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const form = useForm<SinceForm>({
    resolver: sinceResolver,
    mode: 'onChange',
    defaultValues: { since: '' },
  });
  const since = form.watch('since');
  const valid = sinceProblem(since) === null;
  const iso = valid ? new Date(since).toISOString() : null;
  const preview = useQuery({
    queryKey: ['webhooks', walletId, 'failed-since', iso],
    queryFn: async () => {
      const result = await resendFailedSinceAction({ walletId, since: iso ?? '', confirm: false });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
    enabled: iso !== null,
    staleTime: 5_000,
  });
  const count = preview.data?.resent ?? 0;

  const confirm = async () => {
    const valuesOk = await form.trigger();
    if (!valuesOk || !iso) return false;
    const result = await resendFailedSinceAction({ walletId, since: iso, confirm: true });
    if (!result.ok) {
      setError(result.error);
      return false;
    }
    const failed = result.data.outcomes.filter((o) => !o.ok);
    const sent = result.data.outcomes.length - failed.length;
    if (result.data.outcomes.length === 0)
      toast.success('Nothing left to resend: every delivery since then went through');
    else if (failed.length === 0) toast.success(`Resent ${sent} ${sent === 1 ? 'webhook' : 'webhooks'}`);
    else
      toast.warning(`Resent ${sent} of ${result.data.outcomes.length}; ${failed.length} failed`, {
        description: failed.map((f) => `${f.transactionId}: ${f.message}`).join('\n'),
      });
    refreshDeliveriesSoon(queryClient, walletId);
    return true;
  };

  return (
    <ConfirmDialog
      trigger={
        <Button size="sm" variant="outline">
          <History aria-hidden />
          Resend failed since…
        </Button>
      }
      title="Resend every failed delivery since a time"
      description="The custody service sends each transaction’s webhook again, four at a time. Deliveries that went through since are left alone, so nothing is delivered twice."
      confirmLabel={count > 0 ? `Resend ${count} ${count === 1 ? 'delivery' : 'deliveries'}` : 'Resend'}
      confirmDisabled={!valid || preview.isFetching || count === 0}
      error={error}
      onOpenChange={(open) => {
        setError(null);
        if (open) form.reset({ since: localInputValue(new Date(Date.now() - DAY_MS)) });
      }}
      onConfirm={confirm}
    >
      <form noValidate onSubmit={(event) => event.preventDefault()} className="grid gap-3">
        <Field id="resend-since" label="Failed since" error={form.formState.errors.since?.message}>
          <Input
            id="resend-since"
            type="datetime-local"
            aria-invalid={Boolean(form.formState.errors.since)}
            {...form.register('since')}
          />
        </Field>
        <p role="status" className="text-sm">
          {!valid
            ? 'Choose a time to count the failed deliveries since then.'
            : preview.isFetching
              ? 'Counting failed deliveries…'
              : preview.isError
                ? preview.error.message
                : preview.data
                  ? preview.data.matching === 0
                    ? 'No delivery has failed since then without being delivered later.'
                    : `${preview.data.matching} ${preview.data.matching === 1 ? 'delivery' : 'deliveries'} failed since then and ${preview.data.matching === 1 ? 'was' : 'were'} not delivered later${preview.data.matching > preview.data.resent ? `; the newest ${preview.data.resent} will be resent (at most 100 at once)` : ''}.${preview.data.truncated ? ' Only the newest 2,000 log entries were read.' : ''}`
                  : null}
        </p>
      </form>
    </ConfirmDialog>
  );
}
