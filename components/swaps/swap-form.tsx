'use client';
// Swap request: fill in, review what will happen, create the request (nothing is sent until approved).
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import {
  createSwapRequestAction,
  lookUpSwapAddressAction,
  previewSwapAction,
  swapBalancesAction,
} from '@/app/(console)/wallets/[walletId]/swaps/actions';
import { ReviewStep } from '@/components/approvals/review-step';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { AddressIdLookup, type AddressOption } from '@/components/wallets/address-id-lookup';
import type { SwapReview } from '@/lib/approvals/swaps';
import { formatAssetAmount, formatUsd } from '@/lib/format';
import { checkAmount, usdValueOf } from '@/lib/validation/amounts';
import { ORDER_EXPLANATIONS } from '@/lib/validation/settlement';
import {
  SWAP_ORDERS,
  type SwapFormValues,
  type SwapOrder,
  swapAmountLimit,
  validateSwap,
} from '@/lib/validation/swaps';
import { SwapReviewPanel } from './swap-review-panel';

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

type Values = Omit<SwapFormValues, 'walletId'>;

export function SwapForm({
  walletId,
  addresses: listed,
  assets,
  initialAddressId,
  addressSource = 'service',
  balancesAvailable = true,
}: SwapFormProps) {
  const router = useRouter();
  // Child addresses typed by hand (and checked by the server) join the list for this visit.
  const [typed, setTyped] = useState<AddressOption[]>([]);
  const addresses = [...listed, ...typed.filter((t) => !listed.some((a) => a.id === t.id))];
  const [values, setValues] = useState<Values>({
    addressId: initialAddressId ?? '',
    fromAssetId: '',
    toAssetId: '',
    amount: '',
    order: 'RECOMMENDED',
    metadata: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [review, setReview] = useState<{ review: SwapReview; requiredApprovals: number } | null>(null);
  const [pending, startTransition] = useTransition();

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

  function set<K extends keyof Values>(key: K, value: Values[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    setReview(null);
    setErrors((e) => {
      const { [key]: _, ...rest } = e;
      return rest;
    });
  }

  function toReview() {
    setFormError(null);
    const check = validateSwap(values, withBalances);
    if (!check.ok) {
      setErrors(check.fieldErrors);
      return;
    }
    startTransition(async () => {
      const result = await previewSwapAction({ walletId, ...values });
      if (!result.ok) {
        setErrors(result.fieldErrors ?? {});
        setFormError(result.error);
        return;
      }
      setReview(result.data);
    });
  }

  function create() {
    setFormError(null);
    startTransition(async () => {
      const result = await createSwapRequestAction({ walletId, ...values });
      if (!result.ok) {
        setErrors(result.fieldErrors ?? {});
        setFormError(result.error);
        setReview(null);
        return;
      }
      router.push(`/approvals/${result.data.id}`);
    });
  }

  const describedBy = (id: string) => (errors[id] ? `${id}-error` : `${id}-hint`);
  const from = withBalances.find((a) => a.id === values.fromAssetId);
  // Limits known before anything is sent show at the field as the amount is typed, and hold the review.
  const amountLimit = from && values.amount.trim() ? swapAmountLimit(values.amount, from) : null;
  const amountError = errors.amount ?? amountLimit ?? undefined;
  const amountCheck = from && values.amount.trim() ? checkAmount(values.amount, from.decimals) : null;
  const amountUsd = amountCheck?.ok && !amountError ? usdValueOf(amountCheck.value, from?.priceUsd) : null;
  const fromBalanceUsd = from?.balance != null ? usdValueOf(from.balance, from.priceUsd) : null;
  return (
    <div className="grid gap-4">
      <form
        aria-label="Swap"
        className="grid max-w-2xl gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          toReview();
        }}
      >
        <Field id="addressId" label="From child address" error={errors.addressId}>
          <NativeSelect
            id="addressId"
            value={values.addressId}
            aria-invalid={errors.addressId ? true : undefined}
            aria-describedby={errors.addressId ? 'addressId-error' : undefined}
            onChange={(e) => set('addressId', e.target.value)}
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
              set('addressId', found.id);
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
              value={values.fromAssetId}
              aria-invalid={errors.fromAssetId ? true : undefined}
              aria-describedby={
                from?.balance != null || errors.fromAssetId ? describedBy('fromAssetId') : undefined
              }
              onChange={(e) => set('fromAssetId', e.target.value)}
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
              value={values.toAssetId}
              aria-invalid={errors.toAssetId ? true : undefined}
              aria-describedby={errors.toAssetId ? 'toAssetId-error' : undefined}
              onChange={(e) => set('toAssetId', e.target.value)}
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
            value={values.amount}
            aria-invalid={amountError ? true : undefined}
            aria-describedby={amountError ? 'amount-error' : amountUsd !== null ? 'amount-hint' : undefined}
            onChange={(e) => set('amount', e.target.value)}
          />
        </Field>
        <fieldset className="grid gap-2">
          <legend className="text-sm font-medium">Order</legend>
          {SWAP_ORDERS.map((order) => (
            <label key={order} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="order"
                value={order}
                className="mt-1"
                checked={values.order === order}
                onChange={() => set('order', order as SwapOrder)}
              />
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
            value={values.metadata}
            aria-invalid={errors.metadata ? true : undefined}
            aria-describedby={describedBy('metadata')}
            onChange={(e) => set('metadata', e.target.value)}
          />
        </Field>
        {formError ? (
          <Alert variant="destructive">
            <AlertDescription>{formError}</AlertDescription>
          </Alert>
        ) : null}
        <div className="grid gap-2">
          <div>
            <Button
              type="submit"
              disabled={pending || amountLimit !== null}
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
      {review ? (
        <ReviewStep
          notice="Nothing is sent when you create the request"
          createLabel="Create swap request"
          pending={pending}
          onCreate={create}
          onEdit={() => setReview(null)}
        >
          <SwapReviewPanel review={review.review} requiredApprovals={review.requiredApprovals} />
        </ReviewStep>
      ) : null}
    </div>
  );
}
