'use client';
import { useQueryClient } from '@tanstack/react-query';
import {
  ArrowDownToLineIcon,
  CheckCircle2Icon,
  CircleDashedIcon,
  CircleIcon,
  XCircleIcon,
} from 'lucide-react';
import { useState } from 'react';
import { FormBanner } from '@/components/forms/form-banner';
import { useActionForm } from '@/components/forms/use-action-form';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { sweepStateOf } from '@/components/wallets/deposit-sweep';
import { useAddressTransaction } from '@/components/wallets/queries';
import { simulateDepositAction } from '@/lib/actions/addresses';
import type { Transaction } from '@/lib/custody/schemas';
import { transactionKeys, walletKeys } from '@/lib/query-keys';
import type { SimulateDepositInput } from '@/lib/validation/wallets';

const loadSimulateDepositSchema = () =>
  import('@/lib/validation/wallets').then((m) => m.simulateDepositSchema);

export interface SimulateDepositFormProps {
  walletId: string;
  addressId: string;
  assets: Array<{ id: string; symbol: string; decimals: number }>;
  /** Whether deposits to this address move on to the master wallet (auto-sweep on). */
  addressSweeps: boolean;
}

interface FollowedDeposit {
  id: string;
  amount: string;
  symbol: string;
  status: string;
}

/** Sandbox only (admin, finance): asks the embedded service for a deposit to this address. */
export function SimulateDepositForm({
  walletId,
  addressId,
  assets,
  addressSweeps,
}: SimulateDepositFormProps) {
  const queryClient = useQueryClient();
  const [followed, setFollowed] = useState<FollowedDeposit | null>(null);
  const { form, onSubmit, pending, banner } = useActionForm(
    (values: SimulateDepositInput) => simulateDepositAction(values),
    {
      schema: loadSimulateDepositSchema,
      defaultValues: { walletId, addressId, assetId: assets[0]?.id ?? '', amount: '' },
      onFailure: (result) => toast.error(`Deposit not simulated: ${result.error}`),
      onSuccess: ({ amount, symbol, status, transactionId }, values) => {
        toast.success(`Deposit of ${amount} ${symbol} simulated (${status})`);
        setFollowed({ id: transactionId, amount, symbol, status });
        form.reset({ walletId, addressId, assetId: values.assetId, amount: '' });
        void queryClient.invalidateQueries({ queryKey: walletKeys.detail(walletId) });
        void queryClient.invalidateQueries({ queryKey: transactionKeys.all(walletId) });
      },
    },
  );
  const { errors } = form.formState;

  return (
    <div className="grid gap-4">
      <form
        onSubmit={onSubmit}
        className="flex flex-wrap items-start gap-3"
        noValidate
        aria-label="Simulate a deposit"
      >
        <FormBanner message={banner} className="basis-full" />
        <Field id="deposit-asset" label="Asset" error={errors.assetId?.message} className="w-40">
          <NativeSelect id="deposit-asset" {...form.register('assetId')}>
            {assets.map((a) => (
              <option key={a.id} value={a.id}>
                {a.symbol}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field id="deposit-amount" label="Amount" error={errors.amount?.message} className="w-48">
          <Input
            id="deposit-amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 25"
            aria-invalid={Boolean(errors.amount)}
            aria-describedby={errors.amount ? 'deposit-amount-error' : undefined}
            {...form.register('amount')}
          />
        </Field>
        <Button type="submit" disabled={pending} className="mt-6">
          <ArrowDownToLineIcon aria-hidden />
          {pending ? 'Simulating…' : 'Simulate deposit'}
        </Button>
      </form>
      {followed ? (
        <DepositProgress
          key={followed.id}
          walletId={walletId}
          addressId={addressId}
          deposit={followed}
          addressSweeps={addressSweeps}
        />
      ) : null}
    </div>
  );
}

type StepState = 'done' | 'current' | 'waiting' | 'failed';

/** Nothing more will happen to the deposit: it failed, or it settled and (when the address sweeps) the sweep ended. */
function isFinished(tx: Transaction | null | undefined, addressSweeps: boolean): boolean {
  if (!tx) return false;
  if (tx.status === 'FAILED') return true;
  if (tx.status !== 'SUCCESS') return false;
  const sweep = sweepStateOf(tx, addressSweeps);
  return !addressSweeps || sweep === 'swept' || sweep === 'failed';
}

const STEP_ICON = {
  done: CheckCircle2Icon,
  current: CircleDashedIcon,
  waiting: CircleIcon,
  failed: XCircleIcon,
} as const;

const STEP_WORD: Record<StepState, string> = {
  done: 'done',
  current: 'in progress',
  waiting: 'waiting',
  failed: 'failed',
};

/**
 * The deposit just simulated, followed step by step as the service reports it (each webhook refreshes the
 * read): received and confirming, settled, then swept to the master wallet when the address sweeps.
 */
function DepositProgress({
  walletId,
  addressId,
  deposit,
  addressSweeps,
}: {
  walletId: string;
  addressId: string;
  deposit: FollowedDeposit;
  addressSweeps: boolean;
}) {
  const query = useAddressTransaction(walletId, addressId, deposit.id, (tx) => isFinished(tx, addressSweeps));
  const tx = query.data ?? null;
  const status = tx?.status ?? deposit.status;
  const sweep = tx ? sweepStateOf(tx, addressSweeps) : addressSweeps ? 'after-settlement' : 'stays';

  const steps: Array<{ label: string; state: StepState; detail?: string }> = [
    {
      label: 'Received',
      state: status === 'PENDING' ? 'current' : 'done',
      detail:
        status === 'PENDING' && typeof tx?.confirmations === 'number'
          ? `${tx.confirmations} confirmation${tx.confirmations === 1 ? '' : 's'}`
          : undefined,
    },
    {
      label: 'Settled',
      state: status === 'SUCCESS' ? 'done' : status === 'FAILED' ? 'failed' : 'waiting',
    },
  ];
  if (addressSweeps) {
    steps.push({
      label: 'Swept to the master wallet',
      state:
        sweep === 'swept'
          ? 'done'
          : sweep === 'failed'
            ? 'failed'
            : sweep === 'sweeping'
              ? 'current'
              : 'waiting',
      detail:
        sweep === 'failed' && typeof tx?.assetSweptResponse === 'string' ? tx.assetSweptResponse : undefined,
    });
  }
  const summary =
    status === 'FAILED'
      ? 'failed'
      : sweep === 'swept'
        ? 'settled and swept'
        : sweep === 'failed'
          ? 'settled, sweep failed'
          : status === 'SUCCESS'
            ? addressSweeps
              ? 'settled, sweeping'
              : 'settled'
            : 'pending';

  return (
    <section aria-label="Deposit progress" className="grid gap-2 rounded-md border p-3 text-sm">
      <p role="status" aria-live="polite" className="font-medium">
        Deposit of {deposit.amount} {deposit.symbol}: {summary}
      </p>
      <ol className="flex flex-wrap gap-x-6 gap-y-1">
        {steps.map((step) => {
          const Icon = STEP_ICON[step.state];
          return (
            <li key={step.label} className="flex items-center gap-1.5">
              <Icon
                aria-hidden
                className={
                  step.state === 'done'
                    ? 'size-4 text-success'
                    : step.state === 'failed'
                      ? 'size-4 text-destructive'
                      : 'size-4 text-muted-foreground'
                }
              />
              <span>
                {step.label}
                <span className="sr-only"> ({STEP_WORD[step.state]})</span>
                {step.detail ? <span className="ml-1 text-muted-foreground">· {step.detail}</span> : null}
              </span>
            </li>
          );
        })}
      </ol>
      {query.isError ? (
        <p className="text-destructive">Could not read the deposit: {query.error.message}</p>
      ) : null}
      <p className="text-xs text-muted-foreground">Transaction {deposit.id}</p>
    </section>
  );
}
