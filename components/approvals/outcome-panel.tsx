'use client';
// What the console knows of a submitted request's outcome, what it does next and when, and the safe actions:
// look now, resubmit (only once "not executed" is established, confirmed in words), or a two-person manual
// resolution when the service offers no way to settle it.
import { useState, useTransition } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { showFieldErrors } from '@/components/forms/show-field-errors';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useNow } from '@/components/ui/relative-time';
import { Textarea } from '@/components/ui/textarea';
import {
  checkRequestAction,
  confirmResolutionAction,
  discardResolutionAction,
  proposeResolutionAction,
  resubmitRequestAction,
} from '@/lib/actions/approvals';
import { isConfigurationReview } from '@/lib/approvals/configuration';
import {
  RESOLUTION_LABELS,
  RESUBMIT_ACKNOWLEDGEMENT,
  type RequestDetailDto,
  referencesInDoubt,
} from '@/lib/approvals/requests';
import { formatDateTime } from '@/lib/format';
import type { ResolutionFormValues } from '@/lib/validation/resolution';

const resolutionResolver = lazyZodResolver(() =>
  import('@/lib/validation/resolution').then((m) => m.resolutionSchema),
);

type ActionOutcome = {
  ok: boolean;
  error?: string;
  fieldErrors?: Record<string, string>;
  /** The server asks for the second factor again (the caller's `run` handles it). */
  stepUp?: { payloadHash: string };
};

export interface OutcomePanelProps {
  data: RequestDetailDto;
  /** Runs a server action, shows its result and refreshes the request. */
  run(action: () => Promise<ActionOutcome>, success: string): void;
  pending: boolean;
  /** The two-factor code for a resubmission, or null when it is missing (the field then says so). */
  codeForSubmission(): Promise<{ twoFactorCode?: string } | null>;
}

function when(iso: string | null): string {
  return iso ? formatDateTime(iso) : '—';
}

export function OutcomePanel({ data, run, pending, codeForSubmission }: OutcomePanelProps) {
  const { followUp } = data;
  const doubt = referencesInDoubt(data.items);
  const references = doubt.references.join(', ');
  const codeRefused =
    data.requiresTwoFactor === true && /two-factor|2fa|\bcode\b/i.test(data.lastError ?? '');
  const now = useNow();
  const windowPassed = now !== null && new Date(followUp.windowEndsAt).getTime() <= now;
  const showsOutcome = ['SUBMITTING', 'SUBMITTED', 'OUTCOME_UNKNOWN', 'SUBMIT_FAILED', 'DUPLICATE'].includes(
    data.status,
  );
  if (!showsOutcome && !data.resolution) return null;

  return (
    <section aria-labelledby="outcome-heading" className="grid gap-3">
      <h2 id="outcome-heading" className="sr-only">
        Outcome at the custody service
      </h2>
      {data.status === 'DUPLICATE' ? <DuplicateAlert data={data} /> : null}
      {data.status === 'OUTCOME_UNKNOWN' ? (
        <Alert variant={data.confirmedAbsentAt ? 'default' : 'warning'}>
          <AlertTitle className="font-semibold">
            {data.confirmedAbsentAt
              ? 'Not found at the service: may be resubmitted'
              : 'Outcome unknown: do not send again'}
          </AlertTitle>
          <AlertDescription className="grid gap-1">
            <span>
              The last attempt ({when(followUp.lastAttemptAt)}) got no usable answer
              {data.lastError ? `: ${data.lastError}` : ''}.
              {data.confirmedAbsentAt ? '' : ' The service may still have carried it out.'}
              {doubt.atService > 0
                ? ` ${doubt.atService} of ${data.items.length} payments are at the service already; only the other ${doubt.references.length} are in doubt.`
                : ''}
            </span>
            {data.confirmedAbsentAt ? (
              <span>
                {data.resolution?.verdict === 'not_paid'
                  ? `Two people confirmed at ${when(data.confirmedAbsentAt)} that the service shows no payment with reference ${references}.`
                  : `At ${when(data.confirmedAbsentAt)}, ${windowMinutes(data)} minutes after the attempt, the service showed no transaction with reference ${references}.`}{' '}
                An approver may resubmit it with the same reference; the console looks once more just before
                sending. A very late execution of the first attempt would show up here as a duplicate.
              </span>
            ) : (
              <>
                <span>
                  {followUp.lastLookupAt
                    ? `Last looked up ${when(followUp.lastLookupAt)}: the service shows no transaction with reference ${references} yet.`
                    : `The console looks for reference ${references} at the service and in its webhooks.`}
                </span>
                <span>
                  {!windowPassed
                    ? `Nobody can resubmit before ${when(followUp.windowEndsAt)}: a late execution is still possible until then.`
                    : followUp.lastLookupAt
                      ? 'The window for a late execution has passed; the next check settles it.'
                      : 'The window for a late execution has passed, but this service offers no lookup that can show the payment is absent (no list by reference for this source). Check the service’s own dashboard; two people can then resolve it below.'}{' '}
                  {followUp.parkedAt
                    ? 'The console no longer polls: it waits for a webhook or a person.'
                    : followUp.nextAt
                      ? `Next check ${when(followUp.nextAt)}.`
                      : ''}
                </span>
              </>
            )}
          </AlertDescription>
        </Alert>
      ) : null}
      {data.status === 'SUBMITTING' ? (
        <p className="text-sm text-muted-foreground" role="status">
          Sending to the custody service; waiting for its answer (up to its timeout).
        </p>
      ) : null}
      {data.status === 'SUBMITTED' ? (
        <p className="text-sm text-muted-foreground" role="status">
          Submitted; following it at the service.{' '}
          {followUp.parkedAt
            ? `Polling stopped ${when(followUp.parkedAt)} after ${followUp.rounds} checks without news: the console waits for the service's webhook. Check now, or resolve it by hand after checking the service's dashboard.`
            : followUp.nextAt
              ? `Next check ${when(followUp.nextAt)}; webhooks update it sooner.`
              : ''}
        </p>
      ) : null}
      {data.status === 'SUBMIT_FAILED' && data.lastError ? (
        <Alert variant="destructive">
          <AlertTitle className="font-semibold">
            {codeRefused ? 'Two-factor code not accepted' : 'Submission failed'}
          </AlertTitle>
          <AlertDescription>
            {data.lastError.replace(/\.?$/, '.')}{' '}
            {codeRefused
              ? 'The approvals are kept: enter the current two-factor code and resubmit.'
              : isConfigurationReview(data.review)
                ? 'The console could not make the change, so nothing changed; another admin may resubmit it.'
                : 'The service refused it, so nothing was executed; an approver may resubmit it.'}
          </AlertDescription>
        </Alert>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {data.can.checkNow ? (
          <Button
            variant="outline"
            disabled={pending}
            onClick={() => run(() => checkRequestAction({ requestId: data.id }), 'Looked up at the service.')}
          >
            Check now
          </Button>
        ) : null}
        {data.can.resubmit ? (
          <ResubmitButton data={data} run={run} codeForSubmission={codeForSubmission} />
        ) : null}
      </div>

      {data.resolution ? <ResolutionRecord data={data} run={run} pending={pending} /> : null}
      {data.can.proposeResolution ? <ResolutionForm data={data} run={run} /> : null}
    </section>
  );
}

function windowMinutes(data: RequestDetailDto): number {
  if (!data.followUp.lastAttemptAt) return 10;
  const start = new Date(data.followUp.lastAttemptAt).getTime();
  return Math.round((new Date(data.followUp.windowEndsAt).getTime() - start) / 60_000);
}

function DuplicateAlert({ data }: { data: RequestDetailDto }) {
  return (
    <Alert variant="destructive">
      <AlertTitle className="font-semibold">
        Duplicate payment: more than one transaction carries this request&apos;s reference
      </AlertTitle>
      <AlertDescription className="grid gap-2">
        {data.duplicates.map((d) => (
          <div key={d.reference}>
            <p>
              Reference <span className="font-mono">{d.reference}</span>:
            </p>
            <ul className="list-disc pl-5">
              {d.transactions.map((t) => (
                <li key={t.id}>
                  <a
                    className="font-mono underline"
                    href={`/wallets/${data.walletId}/transactions?id=${t.id}&open=${t.id}`}
                  >
                    {t.id}
                  </a>{' '}
                  · {t.status}
                  {t.hash ? <span className="break-all font-mono"> · {t.hash}</span> : null}
                </li>
              ))}
            </ul>
          </div>
        ))}
        <p>
          What to do: check each transaction in the custody service, contact the recipient of the extra
          payment to recover it, and record what was done in your ledger. The console has notified the
          approvers and written this to the audit log; it will not send anything more for this request.
        </p>
      </AlertDescription>
    </Alert>
  );
}

function ResubmitButton({
  data,
  run,
  codeForSubmission,
}: Pick<OutcomePanelProps, 'data' | 'run' | 'codeForSubmission'>) {
  const [acknowledged, setAcknowledged] = useState(false);
  const unknown = data.status === 'OUTCOME_UNKNOWN';
  const doubt = referencesInDoubt(data.items);
  return (
    <ConfirmDialog
      trigger={<Button>Resubmit</Button>}
      title="Resubmit this request"
      confirmLabel="Resubmit with the same reference"
      confirmDisabled={unknown && !acknowledged}
      description={
        <span className="grid gap-2">
          {data.items.length > 0 ? (
            <span>
              {doubt.atService > 0
                ? `${doubt.atService} of ${data.items.length} payments are at the service already and are not sent again. `
                : ''}
              Just before sending, the console looks up reference {doubt.references.join(', ')} once more. If
              the service has it, the console links it and sends nothing.
            </span>
          ) : (
            // A change of the service's settings (a rule, the whitelist) has no transaction to look up.
            <span>The console sends the same change to the custody service again.</span>
          )}
          {unknown ? (
            <label className="flex items-start gap-2 text-foreground">
              <input
                type="checkbox"
                className="mt-1"
                checked={acknowledged}
                onChange={(e) => setAcknowledged(e.target.checked)}
              />
              <span>{RESUBMIT_ACKNOWLEDGEMENT}</span>
            </label>
          ) : null}
        </span>
      }
      onConfirm={async () => {
        if (unknown && !acknowledged) return false;
        const code = await codeForSubmission();
        if (!code) return false;
        run(
          () =>
            resubmitRequestAction({
              requestId: data.id,
              acknowledged: unknown ? acknowledged : undefined,
              ...code,
            }),
          'Resubmitted.',
        );
        return true;
      }}
    />
  );
}

function ResolutionRecord({ data, run, pending }: Pick<OutcomePanelProps, 'data' | 'run' | 'pending'>) {
  const r = data.resolution;
  if (!r) return null;
  return (
    <Alert variant="default">
      <AlertTitle>
        {r.confirmedByEmail ? 'Resolved by hand' : 'Manual resolution waiting for a second person'}
      </AlertTitle>
      <AlertDescription className="grid gap-2">
        <span>
          {r.byEmail} recorded “{RESOLUTION_LABELS[r.verdict]}” at {when(r.at)}
          {r.transactionIds.length ? ` (transaction ${r.transactionIds.join(', ')})` : ''}: {r.note}
        </span>
        {r.confirmedByEmail ? (
          <span>
            Confirmed by {r.confirmedByEmail} at {when(r.confirmedAt)}.
          </span>
        ) : (
          <span className="flex flex-wrap gap-2">
            {data.can.confirmResolution ? (
              <ConfirmDialog
                trigger={<Button disabled={pending}>Confirm resolution</Button>}
                title="Confirm the manual resolution"
                description={`You checked the custody service yourself and confirm what ${r.byEmail} recorded: ${RESOLUTION_LABELS[r.verdict]}${r.transactionIds.length ? ` (transaction ${r.transactionIds.join(', ')})` : ''}. Their note: “${r.note}”. This is audited under your name.`}
                confirmLabel="Confirm"
                onConfirm={async () => {
                  run(() => confirmResolutionAction({ requestId: data.id }), 'Resolution confirmed.');
                  return true;
                }}
              />
            ) : (
              <span className="text-muted-foreground">A different approver must confirm it.</span>
            )}
            {data.can.discardResolution ? (
              <Button
                variant="outline"
                disabled={pending}
                onClick={() =>
                  run(() => discardResolutionAction({ requestId: data.id }), 'Resolution discarded.')
                }
              >
                Discard
              </Button>
            ) : null}
          </span>
        )}
      </AlertDescription>
    </Alert>
  );
}

function ResolutionForm({ data, run }: Pick<OutcomePanelProps, 'data' | 'run'>) {
  const [open, setOpen] = useState(false);
  const [submitting, startTransition] = useTransition();
  const form = useForm<ResolutionFormValues>({
    resolver: resolutionResolver,
    defaultValues: {
      requestId: data.id,
      verdict: data.can.resolutionVerdicts[0] ?? 'paid',
      transactionIds: data.items.map((i) => ({ value: i.transactionId ?? '' })),
      note: '',
    },
  });
  const ids = useFieldArray({ control: form.control, name: 'transactionIds' });
  const verdict = form.watch('verdict');
  const { errors } = form.formState;
  if (!open)
    return (
      <div>
        <Button variant="outline" onClick={() => setOpen(true)}>
          Resolve by hand…
        </Button>
      </div>
    );
  return (
    <form
      className="grid max-w-xl gap-3 rounded-md border p-4"
      aria-label="Manual resolution"
      onSubmit={form.handleSubmit((values) =>
        startTransition(() => {
          run(async () => {
            const result = await proposeResolutionAction(values);
            if (!result.ok) showFieldErrors(form, result.fieldErrors, { type: 'server' });
            return result;
          }, 'Resolution recorded: a second person must confirm it.');
        }),
      )}
    >
      <p className="text-sm text-muted-foreground">
        Check the custody service’s own dashboard for reference{' '}
        {data.items.map((i) => i.reference).join(', ')}, then record what it shows. Nothing changes until a
        second person confirms.
      </p>
      <fieldset className="grid gap-1">
        <legend className="text-sm font-medium">The service shows</legend>
        {data.can.resolutionVerdicts.map((v) => (
          <label key={v} className="flex items-center gap-2 text-sm">
            <input type="radio" value={v} {...form.register('verdict')} />
            {RESOLUTION_LABELS[v]}
          </label>
        ))}
        {!data.can.resolutionVerdicts.includes('not_paid') && data.status === 'OUTCOME_UNKNOWN' ? (
          <p className="text-xs text-muted-foreground">
            “Not paid” can be recorded after {when(data.followUp.windowEndsAt)}.
          </p>
        ) : null}
      </fieldset>
      {verdict === 'paid'
        ? ids.fields.map((f, i) => (
            <Field
              key={f.id}
              id={`resolution-tx-${i}`}
              label={`Transaction id of payment ${i + 1}`}
              error={errors.transactionIds?.[i]?.value?.message}
            >
              <Input
                id={`resolution-tx-${i}`}
                className="font-mono"
                autoComplete="off"
                aria-invalid={errors.transactionIds?.[i]?.value ? true : undefined}
                aria-describedby={errors.transactionIds?.[i]?.value ? `resolution-tx-${i}-error` : undefined}
                {...form.register(`transactionIds.${i}.value`)}
              />
            </Field>
          ))
        : null}
      <Field id="resolution-note" label="Where you checked and what you saw" error={errors.note?.message}>
        <Textarea
          id="resolution-note"
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={errors.note ? 'resolution-note-error' : undefined}
          {...form.register('note')}
        />
      </Field>
      <div className="flex gap-2">
        <Button type="submit" disabled={submitting}>
          Record resolution
        </Button>
        <Button type="button" variant="outline" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
