'use client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { SnowflakeIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { lazyZodResolver } from '@/components/forms/lazy-zod-resolver';
import { showFieldErrors } from '@/components/forms/show-field-errors';
import { useStepUp } from '@/components/step-up/use-step-up';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { RelativeTime, useNow } from '@/components/ui/relative-time';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { approveRequestAction, cancelRequestAction, rejectRequestAction } from '@/lib/actions/approvals';
import { approveConfirmLabel } from '@/lib/approvals/approve-label';
import { isConfigurationReview } from '@/lib/approvals/configuration';
import { isCustodySettingsReview } from '@/lib/approvals/custody-settings';
import { MOVING_STATUSES, type RequestDetailDto } from '@/lib/approvals/requests';
import { explorerUrl, formatDateTime, formatUsd, shortAddress } from '@/lib/format';
import type { ApproveFormValues, RejectFormValues } from '@/lib/validation/approvals';
import { OutcomePanel } from './outcome-panel';
import { RequestPanels } from './request-panels';
import { StatusBadge } from './status-badge';

const approveResolver = lazyZodResolver(() =>
  import('@/lib/validation/approvals').then((m) => m.approveSchema),
);
const rejectResolver = lazyZodResolver(() =>
  import('@/lib/validation/approvals').then((m) => m.rejectSchema),
);

const TIMELINE_LABELS: Record<string, string> = {
  requested: 'Requested',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  expired: 'Expired',
  fully_approved: 'All approvals in',
  submitting: 'Submitting',
  submitted: 'Submitted',
  submit_failed: 'Submission refused upstream',
  submit_refused: 'Submission refused by the console',
  outcome_unknown: 'Outcome unknown',
  reconciled: 'Reconciled by reference',
  confirmed_absent: 'Not found at the service after the window',
  duplicate_detected: 'Duplicate payment detected',
  follow_up_parked: 'Follow-up stopped polling: waiting for a webhook or a person',
  resolution_proposed: 'Manual resolution recorded',
  resolution_confirmed: 'Manual resolution confirmed',
  resolution_discarded: 'Manual resolution discarded',
  hash: 'Transaction hash',
  confirmations: 'Confirmations',
  item_succeeded: 'Transaction succeeded',
  item_failed: 'Transaction failed',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

async function fetchDetail(id: string): Promise<RequestDetailDto> {
  const res = await fetch(`/approvals/${id}/feed`, { cache: 'no-store' });
  const body = (await res.json()) as { data?: RequestDetailDto; message?: string };
  if (!res.ok || !body.data) throw new Error(body.message ?? `HTTP ${res.status}`);
  return body.data;
}

function timelineDetail(kind: string, detail: Record<string, unknown>): string {
  if (kind === 'hash') return `#${Number(detail.index) + 1}: ${String(detail.hash)}`;
  if (kind === 'confirmations') return `#${Number(detail.index) + 1}: ${String(detail.confirmations)}`;
  if (kind === 'rejected' && detail.reason) return String(detail.reason);
  if ((kind === 'submit_failed' || kind === 'outcome_unknown') && detail.message)
    return String(detail.message);
  if (kind === 'submitted' && Array.isArray(detail.transactions))
    return (detail.transactions as Array<{ id: string }>).map((t) => t.id).join(', ');
  if (kind === 'duplicate_detected' && Array.isArray(detail.transactions))
    return `${String(detail.reference)}: ${(detail.transactions as string[]).join(', ')}`;
  if ((kind === 'resolution_proposed' || kind === 'resolution_confirmed') && detail.verdict)
    return `${String(detail.verdict).replace('_', ' ')}${detail.note ? `: ${String(detail.note)}` : ''}`;
  if (kind === 'reconciled' && detail.via) return `via ${String(detail.via)}`;
  if (kind === 'requested' && detail.requiredApprovals)
    return `${String(detail.requiredApprovals)} ${Number(detail.requiredApprovals) === 1 ? 'approval' : 'approvals'} needed`;
  return '';
}

type TimelineEvent = RequestDetailDto['timeline'][number];
type ActionOutcome = {
  ok: boolean;
  error?: string;
  fieldErrors?: Record<string, string>;
  stepUp?: { payloadHash: string };
};

/** Per-transaction steps that a batch repeats for every item: shown as one line each, with one detail per item. */
const PER_ITEM = new Set(['hash', 'confirmations', 'item_succeeded', 'item_failed']);

/**
 * The timeline as a person reads it: only the latest confirmation count of each transaction, and a run of
 * the same per-transaction step (five hashes of a five-recipient batch) as one entry.
 */
function compactTimeline(events: TimelineEvent[]) {
  const lastConfirmation = new Map<unknown, number>();
  for (const e of events) if (e.kind === 'confirmations') lastConfirmation.set(e.detail.index, e.id);
  const kept = events.filter(
    (e) => e.kind !== 'confirmations' || lastConfirmation.get(e.detail.index) === e.id,
  );
  const out: Array<TimelineEvent & { details: string[] }> = [];
  for (const e of kept) {
    const detail = timelineDetail(e.kind, e.detail);
    const previous = out[out.length - 1];
    if (previous && PER_ITEM.has(e.kind) && previous.kind === e.kind) {
      if (detail) previous.details.push(detail);
      continue;
    }
    out.push({ ...e, details: detail ? [detail] : [] });
  }
  return out;
}

export function RequestDetail({ initial }: { initial: RequestDetailDto }) {
  const queryClient = useQueryClient();
  const { data = initial, error } = useQuery({
    queryKey: ['approvals', 'request', initial.id],
    queryFn: () => fetchDetail(initial.id),
    initialData: initial,
    // Polling while something moves upstream; live events (['approvals']) refresh it sooner.
    refetchInterval: (q) => {
      const status = q.state.data?.status ?? '';
      if (MOVING_STATUSES.includes(status)) return 1_500;
      // Someone else may approve, reject, or the request may expire while this page is open.
      return status === 'PENDING_APPROVAL' ? 4_000 : false;
    },
  });
  const [pending, startTransition] = useTransition();
  // Every decision asks for its own second-factor check ("Confirm it is you"), bound to that decision.
  const stepUp = useStepUp();
  const now = useNow();
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // The code is held in memory only for the one call that submits, and cleared after it.
  const codeForm = useForm<ApproveFormValues>({
    resolver: approveResolver,
    defaultValues: { requestId: initial.id, twoFactorCode: '' },
  });
  const codeError = codeForm.formState.errors.twoFactorCode?.message;
  const rejectForm = useForm<RejectFormValues>({
    resolver: rejectResolver,
    defaultValues: { requestId: initial.id, reason: '' },
  });
  const reasonError = rejectForm.formState.errors.reason?.message;

  /** Runs an action, says how it went and refreshes the request; resolves whether it succeeded. */
  async function perform(action: () => Promise<ActionOutcome>, success: string): Promise<boolean> {
    setActionError(null);
    setNotice(null);
    const result = await stepUp.withStepUp(action);
    if (result.ok) setNotice(success);
    else {
      setActionError(result.error ?? 'The action failed.');
      // A code the server refuses goes back under the field.
      showFieldErrors(codeForm, result.fieldErrors, { fields: ['twoFactorCode'], type: 'server' });
    }
    await queryClient.invalidateQueries({ queryKey: ['approvals'] });
    return result.ok;
  }

  function run(action: () => Promise<ActionOutcome>, success: string) {
    startTransition(async () => {
      await perform(action, success);
    });
  }

  const needsCode =
    data.requiresTwoFactor === true &&
    ((data.can.approve && data.approvals + 1 >= data.requiredApprovals) || data.can.resubmit);
  const lastApproval = data.approvals + 1 >= data.requiredApprovals;
  /** The code for the submitting call, or null (and a field error) when it is not 6 digits. */
  async function codeForSubmission(): Promise<{ twoFactorCode?: string } | null> {
    if (!needsCode) return {};
    if (!(await codeForm.trigger('twoFactorCode'))) return null;
    const code = codeForm.getValues('twoFactorCode')?.trim();
    codeForm.reset({ requestId: data.id, twoFactorCode: '' });
    return { twoFactorCode: code };
  }

  async function reject(): Promise<boolean> {
    let rejected = false;
    await rejectForm.handleSubmit(async (values) => {
      rejected = await perform(async () => {
        const result = await rejectRequestAction(values);
        if (!result.ok)
          showFieldErrors(rejectForm, result.fieldErrors, { fields: ['reason'], type: 'server' });
        return result;
      }, 'Request rejected.');
    })();
    return rejected;
  }

  // Configuration changes act on the console, not on a wallet: no explorer links.
  const slug = isConfigurationReview(data.review) ? '' : data.review.wallet.slug;
  const network = 'wallet' in data.review ? data.review.wallet.network : '';
  const expired =
    data.status === 'PENDING_APPROVAL' && now !== null && new Date(data.expiresAt).getTime() <= now;
  return (
    <div className="grid gap-6">
      {stepUp.dialog}
      {data.can.notIndependent && data.status === 'PENDING_APPROVAL' ? (
        <Alert variant="warning">
          <AlertTitle>You cannot decide on this request</AlertTitle>
          <AlertDescription>{data.can.notIndependent}</AlertDescription>
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <p className="text-sm text-muted-foreground">
            <Link href="/approvals" className="underline">
              Approvals
            </Link>{' '}
            / {data.typeLabel}
          </p>
          <h1 className="text-2xl font-semibold tracking-tight">{data.summary}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span>
              Request status: <StatusBadge status={data.status} />
            </span>
            <span>Requested by {data.requesterEmail}</span>
            <RelativeTime iso={data.createdAt} />
            <span>
              Approvals {data.approvals} of {data.requiredApprovals}
            </span>
            {data.status === 'PENDING_APPROVAL' ? (
              <span>{expired ? 'Expired' : <RelativeTime iso={data.expiresAt} prefix="Expires " />}</span>
            ) : null}
            <span>{formatUsd(data.amountUsd)}</span>
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          {needsCode ? (
            <Field
              id="two-factor-code"
              label="Two-factor code"
              hint="Your approval submits: used once, never stored."
              error={codeError}
              className="gap-1"
            >
              <Controller
                control={codeForm.control}
                name="twoFactorCode"
                render={({ field }) => (
                  <Input
                    id="two-factor-code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    className="w-32 font-mono"
                    name={field.name}
                    ref={field.ref}
                    value={field.value ?? ''}
                    onBlur={field.onBlur}
                    aria-invalid={codeError ? true : undefined}
                    aria-describedby={codeError ? 'two-factor-code-error' : 'two-factor-code-hint'}
                    onChange={(e) => field.onChange(e.target.value.replace(/\D/g, ''))}
                  />
                )}
              />
            </Field>
          ) : null}
          {data.can.approve ? (
            <>
              <ConfirmDialog
                trigger={<Button disabled={pending}>Approve</Button>}
                title="Approve this request?"
                confirmLabel={approveConfirmLabel(data.review, lastApproval)}
                description={
                  lastApproval
                    ? isConfigurationReview(data.review) && !isCustodySettingsReview(data.review)
                      ? `Yours is the last approval needed: the console makes this change at once (${data.summary}).`
                      : data.frozen
                        ? `Yours is the last approval needed. The console is frozen: ${data.summary} is sent when an admin lifts the freeze.`
                        : isCustodySettingsReview(data.review)
                          ? `Yours is the last approval needed: the console sends this change to the custody service at once (${data.summary}).`
                          : `Yours is the last approval needed: the console sends ${data.summary} (${formatUsd(data.amountUsd)}) to the custody service at once.`
                    : `Your approval is recorded; ${data.requiredApprovals - data.approvals - 1} more needed before anything is sent.`
                }
                onConfirm={async () => {
                  const code = await codeForSubmission();
                  if (!code) return true;
                  run(async () => {
                    const result = await approveRequestAction({ requestId: data.id, ...code });
                    // The approval counts even when the service then refuses the submission (e.g. a wrong code).
                    if (result.ok && result.data.status === 'SUBMIT_FAILED')
                      return {
                        ok: false,
                        error:
                          'Your approval is recorded, but the custody service refused the submission: see below.',
                      };
                    return result;
                  }, 'Approved.');
                  return true;
                }}
              />
              <ConfirmDialog
                trigger={
                  <Button variant="outline" disabled={pending}>
                    Reject
                  </Button>
                }
                title="Reject this request"
                description="The requester sees your reason. Nothing is sent upstream."
                confirmLabel="Reject request"
                cancelLabel="Keep it open"
                destructive
                error={actionError}
                onOpenChange={(open) => {
                  if (open) setActionError(null);
                }}
                onConfirm={reject}
              >
                <Field id="reject-reason" label="Reason" error={reasonError}>
                  <Textarea
                    id="reject-reason"
                    aria-invalid={reasonError ? true : undefined}
                    aria-describedby={reasonError ? 'reject-reason-error' : undefined}
                    {...rejectForm.register('reason')}
                  />
                </Field>
              </ConfirmDialog>
            </>
          ) : null}
          {data.can.cancel ? (
            <Button
              variant="outline"
              disabled={pending}
              onClick={() => run(() => cancelRequestAction({ requestId: data.id }), 'Request cancelled.')}
            >
              Cancel request
            </Button>
          ) : null}
        </div>
      </div>

      {data.isRequester && data.status === 'PENDING_APPROVAL' ? (
        <p className="text-sm text-muted-foreground">You requested this: another person must approve it.</p>
      ) : null}
      <p role="status" className="text-sm">
        {notice}
      </p>
      {actionError ? (
        <Alert variant="destructive">
          <AlertDescription>{actionError}</AlertDescription>
        </Alert>
      ) : null}
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>Could not refresh the request: {error.message}</AlertDescription>
        </Alert>
      ) : null}
      {data.frozen &&
      ['APPROVED', 'SUBMIT_FAILED', 'OUTCOME_UNKNOWN', 'PENDING_APPROVAL'].includes(data.status) ? (
        <Alert variant="warning">
          <SnowflakeIcon aria-hidden />
          <AlertTitle>Submissions are frozen</AlertTitle>
          <AlertDescription>
            {data.status === 'APPROVED'
              ? 'Approved: it will be submitted when an admin lifts the freeze.'
              : 'Nothing is sent upstream while the freeze is on.'}
          </AlertDescription>
        </Alert>
      ) : null}
      {data.status === 'REJECTED' && data.rejectReason ? (
        <Alert variant="destructive">
          <AlertTitle>Rejected</AlertTitle>
          <AlertDescription>Reason: {data.rejectReason}</AlertDescription>
        </Alert>
      ) : null}
      <OutcomePanel data={data} run={run} pending={pending} codeForSubmission={codeForSubmission} />

      {/* Each operation kind brings its own review and result. */}
      <RequestPanels
        request={data}
        onChanged={() => void queryClient.invalidateQueries({ queryKey: ['approvals'] })}
      />

      {data.items.some((i) => i.transactionId || i.status) ? (
        <section aria-labelledby="transactions-heading" className="grid gap-2">
          <h2 id="transactions-heading" className="text-lg font-semibold">
            Transactions
          </h2>
          <Table aria-label="Submitted transactions">
            <TableHeader>
              <TableRow>
                <TableHead>#</TableHead>
                <TableHead>Reference</TableHead>
                <TableHead>Transaction</TableHead>
                <TableHead>Hash</TableHead>
                <TableHead>Confirmations</TableHead>
                <TableHead>Status</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.items.map((item) => {
                const hashUrl = explorerUrl(slug, network, 'tx', item.hash);
                return (
                  <TableRow key={item.index}>
                    <TableCell>{item.index + 1}</TableCell>
                    <TableCell className="font-mono text-xs">{item.reference}</TableCell>
                    <TableCell className="font-mono text-xs">
                      {item.transactionId ? (
                        <Link
                          className="underline"
                          href={`/wallets/${data.walletId}/transactions?id=${item.transactionId}&open=${item.transactionId}`}
                        >
                          {shortAddress(item.transactionId, 6)}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </TableCell>
                    <TableCell className="font-mono text-xs">
                      {item.hash ? (
                        hashUrl ? (
                          <a className="underline" href={hashUrl} target="_blank" rel="noreferrer">
                            {shortAddress(item.hash, 6)}
                          </a>
                        ) : (
                          shortAddress(item.hash, 6)
                        )
                      ) : (
                        '—'
                      )}
                    </TableCell>
                    <TableCell>{item.confirmations ?? '—'}</TableCell>
                    <TableCell>
                      {item.status ? <StatusBadge status={item.status} label={item.status} /> : '—'}
                      {item.error ? (
                        <span className="block text-xs text-destructive">{item.error}</span>
                      ) : null}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </section>
      ) : null}

      <section aria-labelledby="timeline-heading" className="grid gap-2">
        <h2 id="timeline-heading" className="text-lg font-semibold">
          Timeline
        </h2>
        <ol aria-label="Timeline" className="grid gap-1 border-l pl-4 text-sm">
          {compactTimeline(data.timeline).map((e) => (
            <li key={e.id}>
              <span className="font-medium">{TIMELINE_LABELS[e.kind] ?? e.kind}</span>
              {e.actorEmail ? <span> by {e.actorEmail}</span> : null}
              <span className="text-muted-foreground"> · {formatDateTime(e.at)}</span>
              {e.details.map((line) => (
                <span key={line} className="block break-all font-mono text-xs text-muted-foreground">
                  {line}
                </span>
              ))}
            </li>
          ))}
        </ol>
        <p className="text-xs text-muted-foreground">
          Payload SHA-256: <span className="font-mono break-all">{data.payloadHash}</span>
        </p>
      </section>
    </div>
  );
}
