'use client';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowDownToLineIcon } from 'lucide-react';
import { useState, useTransition } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { transactionKeys, walletKeys } from '@/lib/query-keys';
import { type SimulateDepositInput, simulateDepositSchema } from '@/lib/validation/wallets';
import { simulateDepositAction } from '../actions';

export interface SimulateDepositFormProps {
  walletId: string;
  addressId: string;
  assets: Array<{ id: string; symbol: string; decimals: number }>;
}

/** Sandbox only (admin, finance): asks the embedded service for a deposit to this address. */
export function SimulateDepositForm({ walletId, addressId, assets }: SimulateDepositFormProps) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const form = useForm<SimulateDepositInput>({
    resolver: zodResolver(simulateDepositSchema),
    defaultValues: { walletId, addressId, assetId: assets[0]?.id ?? '', amount: '' },
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    startTransition(async () => {
      const result = await simulateDepositAction(values);
      if (!result.ok) {
        setError(result.error);
        for (const [field, message] of Object.entries(result.fieldErrors ?? {})) {
          form.setError(field as keyof SimulateDepositInput, { message });
        }
        toast.error(`Deposit not simulated: ${result.error}`);
        return;
      }
      const { amount, symbol, status } = result.data;
      toast.success(`Deposit of ${amount} ${symbol} simulated (${status})`);
      form.reset({ walletId, addressId, assetId: values.assetId, amount: '' });
      void queryClient.invalidateQueries({ queryKey: walletKeys.detail(walletId) });
      void queryClient.invalidateQueries({ queryKey: transactionKeys.all(walletId) });
    });
  });

  return (
    <form
      onSubmit={onSubmit}
      className="flex flex-wrap items-start gap-3"
      noValidate
      aria-label="Simulate a deposit"
    >
      {error ? (
        <Alert variant="destructive" className="basis-full">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
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
  );
}
