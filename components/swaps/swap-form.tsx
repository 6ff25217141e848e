'use client';
// Swap request: fill in, review what will happen, create the request (nothing is sent until approved).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useWatch } from 'react-hook-form';
import { RequestFlow } from '@/components/operations/request-flow';
import { messagesOf, useOperationRequest } from '@/components/operations/use-operation-request';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { AddressIdLookup, type AddressOption } from '@/components/wallets/address-id-lookup';
import {
  createSwapRequestAction,
  lookUpSwapAddressAction,
  previewSwapAction,
  swapBalancesAction,
} from '@/lib/actions/swaps';
import { ORDER_EXPLANATIONS } from '@/lib/custody/constants';
import { formatAssetAmount, formatUsd } from '@/lib/format';
import { checkAmount, usdValueOf } from '@/lib/validation/amounts';
import { SWAP_ORDERS, type SwapFormValues, swapAmountLimit, validateSwap } from '@/lib/validation/swaps';

export interface SwapFormProps {
  walletId: string;
  addresses: Array<{ id: string; label: string; address: string }>;
  assets: Array<{ id: string; symbol: string; decimals: number; priceUsd: string | null }>;
  initialAddressId?: string;
  /** `known`: the service cannot list addresses; the form also takes an address id typed by hand. */
  addressSource?: 'service' | 'known';
  /** False when the service has no balances endpoint: balances are unknown and not checked here. */
  balancesAvailable?: boolean;
}

export function SwapForm({
  walletId,
  addresses: listed,
  assets,
  initialAddressId,
  addressSource = 'service',
  balancesAvailable = true,
}: SwapFormProps) {
  // Child addresses typed by hand (and checked by the server) join the list for this visit.
  const [typed, setTyped] = useState<AddressOption[]>([]);
  const addresses = [...listed, ...typed.filter((t) => !listed.some((a) => a.id === t.id))];
  const flow = useOperationRequest<SwapFormValues>({
    schema: () => import('@/lib/validation/swap-schema').then((m) => m.swapFormSchema),
    defaultValues: {
      walletId,
      addressId: initialAddressId ?? '',
      fromAssetId: '',
      toAssetId: '',
      amount: '',
      order: 'RECOMMENDED',
      metadata: '',
    },
    // The amount against the address's balance as the form knows it; the action checks it again.
    toInput: (values) => {
      const check = validateSwap(values, withBalances);
      return check.ok ? { ok: true, input: values } : { ok: false, fieldErrors: check.fieldErrors };
    },
    preview: previewSwapAction,
    create: createSwapRequestAction,
  });
  const { register, control, setValue, formState } = flow.form;
  const values = useWatch({ control }) as SwapFormValues;
  const errors = messagesOf(formState.errors);

  const balances = useQuery({
    queryKey: ['swaps', 'balances', walletId, values.addressId],
    enabled: values.addressId !== '' && balancesAvailable,
    queryFn: async () => {
      const result = await swapBalancesAction({ walletId, addressId: values.addressId });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
  });
  const withBalances = assets.map((a) => {
    const held = balances.data?.find((b) => b.assetId === a.id);
    return {
      ...a,
      balance: balances.data ? (held?.balance ?? '0') : null,
      priceUsd: held?.priceUsd ?? a.priceUsd,
    };
  });

  const describedBy = (id: keyof SwapFormValues) => (errors[id] ? `${id}-error` : `${id}-hint`);
  const from = withBalances.find((a) => a.id === values.fromAssetId);
  // Limits known before anything is sent show at the field as the amount is typed, and hold the review.
  const amountLimit = from && values.amount.trim() ? swapAmountLimit(values.amount, from) : null;
  const amountError = errors.amount ?? amountLimit ?? undefined;
  const amountCheck = from && values.amount.trim() ? checkAmount(values.amount, from.decimals) : null;
  const amountUsd = amountCheck?.ok && !amountError ? usdValueOf(amountCheck.value, from?.priceUsd) : null;
  const fromBalanceUsd = from?.balance != null ? usdValueOf(from.balance, from.priceUsd) : null;
  return (
    <RequestFlow
      flow={flow}
      confirmLabel="Create swap request"
      notice="Nothing is sent when you create the request"
    >
      <form aria-label="Swap" className="grid max-w-2xl gap-4" noValidate onSubmit={flow.requestReview}>
        <Field id="addressId" label="From child address" error={errors.addressId}>
          <NativeSelect
            id="addressId"
            aria-invalid={errors.addressId ? true : undefined}
            aria-describedby={errors.addressId ? 'addressId-error' : undefined}
            {...register('addressId')}
          >
            <option value="">Choose an address</option>
            {addresses.map((a) => (
              <option key={a.id} value={a.id}>
                {a.label}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {addressSource === 'known' ? (
          <AddressIdLookup
            walletId={walletId}
            lookUp={lookUpSwapAddressAction}
            onFound={(found) => {
              setTyped((list) => (list.some((a) => a.id === found.id) ? list : [...list, found]));
              setValue('addressId', found.id, { shouldValidate: formState.isSubmitted });
            }}
          />
        ) : null}
        {balancesAvailable ? null : (
          <p className="text-sm text-muted-foreground">
            Balances are not available from this service. The amount is not checked against a balance here;
            the custody service refuses what the address cannot pay.
          </p>
        )}
        {values.addressId && balancesAvailable && balances.isPending ? (
          <Skeleton className="h-5 w-64" />
        ) : null}
        {balances.error ? (
          <Alert variant="destructive">
            <AlertDescription>Could not read the balances: {balances.error.message}</AlertDescription>
          </Alert>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="fromAssetId"
            label="From asset"
            error={errors.fromAssetId}
            hint={
              from?.balance != null
                ? `Balance: ${formatAssetAmount(from.balance, from.decimals, from.symbol)}${fromBalanceUsd !== null ? ` (≈ ${formatUsd(fromBalanceUsd)})` : ''}`
                : undefined
            }
          >
            <NativeSelect
              id="fromAssetId"
              aria-invalid={errors.fromAssetId ? true : undefined}
              aria-describedby={
                from?.balance != null || errors.fromAssetId ? describedBy('fromAssetId') : undefined
              }
              {...register('fromAssetId')}
            >
              <option value="">Choose an asset</option>
              {withBalances.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.symbol}
                  {a.balance !== null
                    ? ` (balance ${formatAssetAmount(a.balance, a.decimals, a.symbol)})`
                    : ''}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="toAssetId" label="To asset" error={errors.toAssetId}>
            <NativeSelect
              id="toAssetId"
              aria-invalid={errors.toAssetId ? true : undefined}
              aria-describedby={errors.toAssetId ? 'toAssetId-error' : undefined}
              {...register('toAssetId')}
            >
              <option value="">Choose an asset</option>
              {assets
                .filter((a) => a.id !== values.fromAssetId)
                .map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.symbol}
                  </option>
                ))}
            </NativeSelect>
          </Field>
        </div>
        <Field
          id="amount"
          label="Amount"
          error={amountError}
          hint={amountUsd !== null ? `≈ ${formatUsd(amountUsd)}` : undefined}
        >
          <Input
            id="amount"
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountError ? 'amount-error' : amountUsd !== null ? 'amount-hint' : undefined}
            {...register('amount')}
          />
        </Field>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Order</legend>
          {SWAP_ORDERS.map((order) => (
            <label key={order} className="flex items-start gap-2 text-sm">
              <input type="radio" value={order} className="mt-1" {...register('order')} />
              <span>
                <span className="font-medium">{order}</span>
                <span className="block text-muted-foreground">{ORDER_EXPLANATIONS[order]}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <Field
          id="metadata"
          label="Metadata (optional JSON object)"
          error={errors.metadata}
          hint='The reference is assigned by the console. Example: {"invoice": "A-12"}'
        >
          <textarea
            id="metadata"
            className="min-h-16 rounded-md border border-input bg-background px-3 py-2 font-mono text-sm"
            aria-invalid={errors.metadata ? true : undefined}
            aria-describedby={describedBy('metadata')}
            {...register('metadata')}
          />
        </Field>
        <div className="grid gap-2">
          <div>
            <Button
              type="submit"
              disabled={flow.pending || amountLimit !== null}
              aria-describedby={amountLimit ? 'swap-review-blocked' : undefined}
            >
              Review swap
            </Button>
          </div>
          {amountLimit ? (
            <p id="swap-review-blocked" className="text-sm text-destructive">
              Review is unavailable until the amount is fixed: {amountLimit}
            </p>
          ) : null}
        </div>
      </form>
    </RequestFlow>
  );
}
