'use client';
// Uploading a payout file: choose the source and a CSV or XLSX file; the server reads and checks every row.
// Rows with problems are listed each beside its own; a clean file shows the review (totals, fees, batches,
// warnings) before the one request is created.
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { RequestFlow } from '@/components/operations/request-flow';
import { useOperationRequest } from '@/components/operations/use-operation-request';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { NativeSelect } from '@/components/ui/input';
import { RemainingLimits } from '@/components/withdrawals/remaining-limits';
import { checkPayoutFileAction, createPayoutRequestAction, type PayoutCheck } from '@/lib/actions/payouts';
import type { LimitRemaining } from '@/lib/approvals/limits';
import { PAYOUT_BATCH_SIZE } from '@/lib/approvals/payouts';
import {
  MAX_PAYOUT_FILE_BYTES,
  MAX_PAYOUT_ROWS,
  PAYOUT_FILE_TOO_LARGE,
  type PayoutFileValues,
} from '@/lib/validation/payouts';
import { PayoutProblemsTable } from './payout-tables';
import { reviewOfRowCheck } from './row-check';

export interface PayoutFormProps {
  walletId: string;
  sources: Array<{ id: string; label: string }>;
  /** What each spending limit leaves before this payout (shown before a file is chosen). */
  limits: LimitRemaining[];
}

type Problems = NonNullable<PayoutCheck['problems']>;

/** The file's bytes as base64, in slices (one call per megabyte would overflow the argument list). */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function PayoutForm({ walletId, sources, limits }: PayoutFormProps) {
  const [problems, setProblems] = useState<Problems | null>(null);
  const [reading, setReading] = useState(false);
  const flow = useOperationRequest<PayoutFileValues>({
    schema: () => import('@/lib/validation/payout-schema').then((m) => m.payoutFileSchema),
    defaultValues: { walletId, source: 'master', fileName: '', content: '' },
    preview: async (input) =>
      reviewOfRowCheck(await checkPayoutFileAction(input), setProblems, {
        row: 'row',
        rows: 'rows',
        advice: ': fix the file and upload it again.',
      }),
    create: createPayoutRequestAction,
    // A refused file belongs to the file field.
    fieldFor: (key) => (key === 'file' ? 'fileName' : key),
  });
  const { register, formState, setValue, setError, clearErrors, control } = flow.form;
  const fileName = useWatch({ control, name: 'fileName' });
  const fileError = formState.errors.fileName?.message ?? formState.errors.content?.message;

  async function chooseFile(file: File | undefined) {
    setProblems(null);
    clearErrors(['fileName', 'content']);
    if (!file) {
      setValue('fileName', '');
      setValue('content', '');
      return;
    }
    setValue('fileName', file.name);
    // Refused here before anything is read or sent; the server checks the size again.
    if (file.size > MAX_PAYOUT_FILE_BYTES) {
      setValue('content', '');
      setError('content', { type: 'size', message: PAYOUT_FILE_TOO_LARGE });
      return;
    }
    setReading(true);
    try {
      setValue('content', base64Of(new Uint8Array(await file.arrayBuffer())));
    } finally {
      setReading(false);
    }
  }

  return (
    <RequestFlow
      flow={flow}
      confirmLabel="Create payout request"
      notice="Nothing is sent when you create the request"
    >
      <RemainingLimits limits={limits} />
      <form onSubmit={flow.requestReview} noValidate className="grid gap-4" aria-label="Payout file">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="source" label="From" error={formState.errors.source?.message}>
            <NativeSelect id="source" {...register('source')}>
              {sources.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field
            id="payout-file"
            label="Payout file (CSV or XLSX)"
            error={fileError}
            hint={`First row: address, amount, asset (symbol), and optionally reference, label. Up to ${MAX_PAYOUT_ROWS} rows and ${MAX_PAYOUT_FILE_BYTES / (1024 * 1024)} MB; sent in batches of ${PAYOUT_BATCH_SIZE}.`}
          >
            <input
              id="payout-file"
              type="file"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              aria-invalid={fileError ? true : undefined}
              aria-describedby={fileError ? 'payout-file-error' : 'payout-file-hint'}
              className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-background file:px-3 file:py-1.5 file:text-sm"
              onChange={(e) => void chooseFile(e.target.files?.[0])}
            />
          </Field>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button
            type="submit"
            disabled={flow.pending || reading || !fileName}
            aria-busy={flow.pending || reading || undefined}
          >
            {flow.pending ? 'Checking the file…' : 'Check file'}
          </Button>
          {!fileName ? <p className="text-sm text-muted-foreground">Choose a file to check it.</p> : null}
        </div>
      </form>
      {problems ? <PayoutProblems problems={problems} /> : null}
    </RequestFlow>
  );
}

/** The rows the server refused, each with its own problems, by their line in the file. */
function PayoutProblems({ problems }: { problems: Problems }) {
  return (
    <section aria-labelledby="problems-heading" className="grid gap-2">
      <h3 id="problems-heading" className="font-medium">
        Rows with problems ({problems.problemRows} of {problems.total})
      </h3>
      <PayoutProblemsTable rows={problems.rows} />
    </section>
  );
}
