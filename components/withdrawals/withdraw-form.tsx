'use client';
import { useQuery } from '@tanstack/react-query';
import { PlusIcon, Trash2Icon, UploadIcon } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { RecipientPicker } from '@/components/address-book/recipient-picker';
import { RequestFlow } from '@/components/operations/request-flow';
import { useOperationRequest } from '@/components/operations/use-operation-request';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { AddressIdLookup, type AddressOption } from '@/components/wallets/address-id-lookup';
import { RemainingLimits } from '@/components/withdrawals/remaining-limits';
import {
  createWithdrawalRequestAction,
  lookUpWithdrawSourceAction,
  previewWithdrawalAction,
  sourceBalancesAction,
} from '@/lib/actions/withdrawals';
import { ADDRESS_BOOK_SOURCE_LABELS, type BookOption } from '@/lib/approvals/address-book';
import type { LimitRemaining } from '@/lib/approvals/limits';
import { type KnownAddress, lookAlikeOf } from '@/lib/approvals/look-alike';
import { typedAgainstLimits } from '@/lib/approvals/typed-limits';
import { formatAssetAmount, formatUsd } from '@/lib/format';
import { addressKey, checkRecipientAddress } from '@/lib/validation/addresses';
import { checkAmount, usdValueOf } from '@/lib/validation/amounts';
import type { CsvLineError } from '@/lib/validation/csv';
import {
  duplicateRecipients,
  emptyRow,
  MAX_RECIPIENTS,
  type SourceBalanceMap,
  type WithdrawalFormValues,
  withdrawalLimitErrors,
} from '@/lib/validation/withdrawals';

/** The CSV import (with papaparse) loads at the first import, not with the page. */
const loadCsvReader = () => import('@/lib/validation/withdrawal-csv').then((m) => m.parseWithdrawalCsv);

export interface WithdrawFormProps {
  context: {
    wallet: { id: string; name: string; network: string; blockchain: string; isEvmCompatible: boolean };
    assets: Array<{
      id: string;
      symbol: string;
      decimals: number;
      balance: string | null;
      priceUsd: string | null;
    }>;
    sources: Array<{ id: string; label: string; address: string }>;
    /** `known`: the service cannot list addresses; the form also takes an address id typed by hand. */
    addressSource: 'service' | 'known';
    balances: 'available' | 'unsupported' | 'failed';
  };
  /** What each spending limit leaves before this request (the form shows it before an amount is typed). */
  limits: LimitRemaining[];
  canSign: boolean;
  /** The wallet's address book: recipients are picked from it by name, and look-alikes of it are flagged. */
  book?: BookOption[];
  /** Recipients of the console's past withdrawals from this wallet: look-alikes of them are flagged too. */
  paidBefore?: string[];
}

const NO_BOOK: BookOption[] = [];
const NONE_PAID: string[] = [];

export function WithdrawForm({
  context,
  limits: spending,
  canSign,
  book = NO_BOOK,
  paidBefore = NONE_PAID,
}: WithdrawFormProps) {
  const chain = { isEvmCompatible: context.wallet.isEvmCompatible };
  const firstAsset = context.assets[0]?.id ?? '';
  // The form keeps its first schema (loaded at its first validation); it reads the source's latest known
  // balances here.
  const balancesRef = useRef<SourceBalanceMap | null>(null);
  const flow = useOperationRequest<WithdrawalFormValues>({
    schema: () =>
      import('@/lib/validation/withdrawal-schema').then((m) =>
        m.withdrawalSchemaFor(() => ({ assets: context.assets, chain, balances: balancesRef.current })),
      ),
    mode: 'onTouched',
    defaultValues: {
      walletId: context.wallet.id,
      kind: 'withdraw',
      source: 'master',
      rows: [emptyRow(firstAsset)],
    },
    preview: previewWithdrawalAction,
    create: createWithdrawalRequestAction,
  });
  const { register, control, formState, setValue, getValues } = flow.form;
  const rows = useFieldArray({ control, name: 'rows' });
  const watched = useWatch({ control, name: 'rows' }) ?? [];
  const kind = useWatch({ control, name: 'kind' });
  const source = useWatch({ control, name: 'source' });
  const [csvText, setCsvText] = useState('');
  const [csvErrors, setCsvErrors] = useState<CsvLineError[]>([]);
  const [csvNote, setCsvNote] = useState<string | null>(null);
  // Child addresses typed by hand (and checked by the server) join the list for this visit.
  const [typedSources, setTypedSources] = useState<AddressOption[]>([]);
  const sources = [
    ...context.sources,
    ...typedSources.filter((t) => !context.sources.some((s) => s.id === t.id)),
  ];

  const childBalances = useQuery({
    queryKey: ['withdraw-source-balances', context.wallet.id, source],
    enabled: source !== 'master' && context.balances !== 'unsupported',
    queryFn: async () => {
      const result = await sourceBalancesAction({ walletId: context.wallet.id, addressId: source });
      if (!result.ok) throw new Error(result.error);
      return result.data;
    },
  });
  const balanceOf = (assetId: string): string | null =>
    source === 'master'
      ? (context.assets.find((a) => a.id === assetId)?.balance ?? null)
      : (childBalances.data?.find((b) => b.assetId === assetId)?.balance ?? null);
  // What the amounts are checked against: null while unknown (no balances, a failed read, still loading).
  const knownBalances: SourceBalanceMap | null =
    source === 'master'
      ? context.balances === 'available'
        ? Object.fromEntries(context.assets.map((a) => [a.id, a.balance]))
        : null
      : childBalances.data
        ? Object.fromEntries(childBalances.data.map((b) => [b.assetId, b.balance]))
        : null;
  balancesRef.current = knownBalances;
  const limits = withdrawalLimitErrors(
    { rows: watched.map((r) => ({ amount: r?.amount ?? '', assetId: r?.assetId ?? '' })) },
    { assets: context.assets, balances: knownBalances },
  );
  const limitReasons = Object.entries(limits).map(([key, message]) => {
    const index = /^rows\.(\d+)\./.exec(key)?.[1];
    return index === undefined ? message : `Recipient ${Number(index) + 1}: ${message}`;
  });

  // A typed address names the console's own entry when the service also lists it (whitelisted, a beneficiary).
  const bookByAddress = useMemo(() => {
    const byAddress = new Map<string, BookOption>();
    for (const entry of book) {
      const key = addressKey(entry.address);
      const held = byAddress.get(key);
      if (!held || (held.source !== 'console' && entry.source === 'console')) byAddress.set(key, entry);
    }
    return byAddress;
  }, [book]);
  // The entry picked for each row (by the row's field id): two entries may share an address, and the row names
  // the one picked, not whichever the address finds first.
  const [pickedEntries, setPickedEntries] = useState<Record<string, BookOption>>({});
  const entryOfRow = (fieldId: string, address: string) => {
    const picked = pickedEntries[fieldId];
    return picked && addressKey(picked.address) === addressKey(address)
      ? picked
      : bookByAddress.get(addressKey(address));
  };
  const known: KnownAddress[] = useMemo(
    () => [
      ...book.map((e) => ({ address: e.address, label: `address book “${e.name}”` })),
      ...paidBefore.map((address) => ({ address, label: 'paid before by the console' })),
    ],
    [book, paidBefore],
  );

  const duplicates = useMemo(
    () => duplicateRecipients(watched.map((r) => ({ address: r?.address ?? '', assetId: r?.assetId ?? '' }))),
    [watched],
  );

  async function importCsv(text: string) {
    let parseWithdrawalCsv: Awaited<ReturnType<typeof loadCsvReader>>;
    try {
      parseWithdrawalCsv = await loadCsvReader();
    } catch {
      setCsvErrors([]);
      setCsvNote('The CSV could not be read: the page lost its connection. Import it again.');
      return;
    }
    const { rows: parsed, errors } = parseWithdrawalCsv(text, { assets: context.assets, chain });
    setCsvErrors(errors);
    if (parsed.length === 0) {
      setCsvNote(null);
      return;
    }
    const current = getValues('rows');
    const onlyEmpty = current.length === 1 && !current[0]?.address && !current[0]?.amount;
    const room = MAX_RECIPIENTS - (onlyEmpty ? 0 : current.length);
    const taken = parsed.slice(0, Math.max(0, room));
    if (onlyEmpty) rows.replace(taken);
    else rows.append(taken);
    const left = parsed.length - taken.length;
    setCsvNote(
      `Imported ${taken.length} ${taken.length === 1 ? 'row' : 'rows'}.${
        left > 0 ? ` ${left} left out: at most ${MAX_RECIPIENTS} recipients per request.` : ''
      }`,
    );
  }

  return (
    <RequestFlow
      flow={flow}
      confirmLabel="Create request"
      notice="Nothing is sent when you create the request"
    >
      <div className="grid gap-6">
        <section aria-labelledby="csv-heading" className="grid gap-2 rounded-lg border p-4">
          <h3 id="csv-heading" className="font-medium">
            Import recipients from CSV
          </h3>
          <p className="text-xs text-muted-foreground">
            Columns: address,amount,asset,reference,note (asset by symbol; header optional; at most{' '}
            {MAX_RECIPIENTS} rows).
          </p>
          <Label htmlFor="csv-text">Paste CSV</Label>
          <textarea
            id="csv-text"
            className="min-h-20 rounded-md border border-input bg-background px-3 py-2 font-mono text-xs"
            value={csvText}
            onChange={(e) => setCsvText(e.target.value)}
          />
          <div className="flex flex-wrap items-center gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => importCsv(csvText)}
              disabled={!csvText.trim()}
            >
              Import pasted CSV
            </Button>
            <Label
              htmlFor="csv-file"
              className="inline-flex cursor-pointer items-center gap-1 text-sm underline"
            >
              <UploadIcon className="size-4" aria-hidden /> Upload CSV file
            </Label>
            <input
              id="csv-file"
              type="file"
              accept=".csv,text/csv"
              className="sr-only"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (file) importCsv(await file.text());
                e.target.value = '';
              }}
            />
          </div>
          <div aria-live="polite">
            {csvNote ? <p className="text-sm">{csvNote}</p> : null}
            {csvErrors.length > 0 ? (
              <ul aria-label="CSV errors" className="grid gap-1 text-sm text-destructive">
                {csvErrors.map((e) => (
                  <li key={`${e.line}-${e.message}`}>
                    Line {e.line}: {e.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </section>

        <form onSubmit={flow.requestReview} noValidate className="grid gap-4" aria-label="Withdrawal request">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="kind" label="Type">
              <NativeSelect
                id="kind"
                {...register('kind', {
                  onChange: (e) => {
                    if (e.target.value === 'withdrawSign') setValue('source', 'master');
                  },
                })}
              >
                <option value="withdraw">Withdraw (broadcast)</option>
                {canSign ? <option value="withdrawSign">Sign only (not broadcast)</option> : null}
              </NativeSelect>
            </Field>
            <Field id="source" label="From" error={formState.errors.source?.message}>
              <NativeSelect id="source" {...register('source')}>
                {(kind === 'withdrawSign' ? sources.filter((s) => s.id === 'master') : sources).map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {context.addressSource === 'known' && kind !== 'withdrawSign' ? (
              <div className="sm:col-span-2">
                <AddressIdLookup
                  walletId={context.wallet.id}
                  lookUp={lookUpWithdrawSourceAction}
                  onFound={(found) => {
                    setTypedSources((list) =>
                      list.some((s) => s.id === found.id) ? list : [...list, found],
                    );
                    setValue('source', found.id, { shouldValidate: true });
                  }}
                />
              </div>
            ) : null}
          </div>
          <RemainingLimits
            limits={spending}
            typed={typedAgainstLimits(
              spending,
              watched.map((row) => {
                const asset = context.assets.find((a) => a.id === row?.assetId);
                const check = asset && row?.amount ? checkAmount(row.amount, asset.decimals) : null;
                return {
                  amount: check?.ok ? check.value : null,
                  symbol: asset?.symbol ?? '',
                  decimals: asset?.decimals ?? 18,
                  priceUsd: asset?.priceUsd ?? null,
                };
              }),
            )}
          />
          {context.balances === 'unsupported' ? (
            <p className="text-sm text-muted-foreground">
              Balances are not available from this service. The request is not checked against a balance here;
              the custody service refuses what the source cannot pay.
            </p>
          ) : context.balances === 'failed' && source === 'master' ? (
            <p className="text-sm text-muted-foreground">
              Balances could not be read just now. The request is not checked against a balance here.
            </p>
          ) : source !== 'master' && childBalances.isError ? (
            <p className="text-sm text-muted-foreground">
              The balances of this address could not be read just now. The request is not checked against a
              balance here.
            </p>
          ) : null}

          {rows.fields.map((field, index) => {
            const row = watched[index];
            const errors = formState.errors.rows?.[index];
            const asset = context.assets.find((a) => a.id === row?.assetId);
            const amountCheck =
              asset && row?.amount ? checkAmount(row.amount, asset.decimals, asset.symbol) : null;
            const usd = amountCheck?.ok ? usdValueOf(amountCheck.value, asset?.priceUsd) : null;
            const amountError = errors?.amount?.message ?? limits[`rows.${index}.amount`];
            const balance = asset ? balanceOf(asset.id) : null;
            const balanceUsd = balance !== null && asset ? usdValueOf(balance, asset.priceUsd) : null;
            const dup = duplicates.find((g) => g.includes(index));
            const id = (name: string) => `rows-${index}-${name}`;
            return (
              <fieldset key={field.id} className="grid gap-3 rounded-lg border p-4">
                <legend className="px-1 text-sm font-medium">Recipient {index + 1}</legend>
                <div className="grid gap-3 md:grid-cols-[2fr_1fr_1fr]">
                  <div className="grid content-start gap-1.5">
                    <Field
                      id={id('address')}
                      label={`Recipient ${index + 1} address`}
                      error={errors?.address?.message}
                    >
                      <Input
                        id={id('address')}
                        autoComplete="off"
                        spellCheck={false}
                        className="font-mono"
                        aria-invalid={errors?.address ? true : undefined}
                        aria-describedby={errors?.address ? `${id('address')}-error` : undefined}
                        {...register(`rows.${index}.address`, {
                          onBlur: (e) => {
                            const check = checkRecipientAddress(e.target.value, chain);
                            // A lowercase address is accepted and shown checksummed.
                            if (check.ok && check.address !== e.target.value)
                              setValue(`rows.${index}.address`, check.address);
                          },
                        })}
                      />
                    </Field>
                    <RecipientPicker
                      label={`Pick recipient ${index + 1} from the address book`}
                      options={book}
                      onPick={(entry) => {
                        setPickedEntries((current) => ({ ...current, [field.id]: entry }));
                        setValue(`rows.${index}.address`, entry.address, {
                          shouldValidate: true,
                          shouldDirty: true,
                        });
                      }}
                    />
                    <RecipientBookNote
                      address={row?.address ?? ''}
                      entry={entryOfRow(field.id, row?.address ?? '')}
                      known={known}
                    />
                  </div>
                  <Field
                    id={id('amount')}
                    label={`Recipient ${index + 1} amount`}
                    error={amountError}
                    hint={
                      usd !== null
                        ? `≈ ${formatUsd(usd)}`
                        : asset?.priceUsd
                          ? undefined
                          : 'USD value unavailable'
                    }
                  >
                    <Input
                      id={id('amount')}
                      inputMode="decimal"
                      autoComplete="off"
                      aria-invalid={amountError ? true : undefined}
                      aria-describedby={amountError ? `${id('amount')}-error` : `${id('amount')}-hint`}
                      {...register(`rows.${index}.amount`)}
                    />
                  </Field>
                  <Field
                    id={id('asset')}
                    label={`Recipient ${index + 1} asset`}
                    error={errors?.assetId?.message}
                    hint={
                      asset && balance !== null
                        ? `Balance ${formatAssetAmount(balance, asset.decimals, asset.symbol)}${balanceUsd !== null ? ` (≈ ${formatUsd(balanceUsd)})` : ''}`
                        : undefined
                    }
                  >
                    <NativeSelect
                      id={id('asset')}
                      aria-describedby={
                        errors?.assetId
                          ? `${id('asset')}-error`
                          : asset && balance !== null
                            ? `${id('asset')}-hint`
                            : undefined
                      }
                      {...register(`rows.${index}.assetId`)}
                    >
                      {context.assets.map((a) => {
                        const held = balanceOf(a.id);
                        return (
                          <option key={a.id} value={a.id}>
                            {a.symbol}
                            {held !== null
                              ? ` (balance ${formatAssetAmount(held, a.decimals, a.symbol)})`
                              : ''}
                          </option>
                        );
                      })}
                    </NativeSelect>
                  </Field>
                </div>
                <div className="grid gap-3 md:grid-cols-3">
                  <Field
                    id={id('reference')}
                    label={`Recipient ${index + 1} reference (optional)`}
                    error={errors?.reference?.message}
                    hint="Generated from the request unless you give one"
                  >
                    <Input id={id('reference')} autoComplete="off" {...register(`rows.${index}.reference`)} />
                  </Field>
                  <Field
                    id={id('note')}
                    label={`Recipient ${index + 1} note (optional)`}
                    error={errors?.note?.message}
                  >
                    <Input id={id('note')} autoComplete="off" {...register(`rows.${index}.note`)} />
                  </Field>
                  <Field
                    id={id('metadata')}
                    label={`Recipient ${index + 1} metadata JSON (optional)`}
                    error={errors?.metadata?.message}
                  >
                    <Input
                      id={id('metadata')}
                      autoComplete="off"
                      className="font-mono"
                      placeholder='{"invoice": "42"}'
                      {...register(`rows.${index}.metadata`)}
                    />
                  </Field>
                </div>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  {dup ? (
                    <p className="text-sm font-medium">
                      Same recipient and asset as recipient{' '}
                      {dup
                        .filter((i) => i !== index)
                        .map((i) => i + 1)
                        .join(', ')}
                      .
                    </p>
                  ) : (
                    <span />
                  )}
                  {rows.fields.length > 1 ? (
                    <Button type="button" variant="ghost" size="sm" onClick={() => rows.remove(index)}>
                      <Trash2Icon aria-hidden /> Remove recipient {index + 1}
                    </Button>
                  ) : null}
                </div>
              </fieldset>
            );
          })}

          <div className="grid gap-2">
            <div className="flex flex-wrap gap-2">
              <Button
                type="button"
                variant="outline"
                disabled={rows.fields.length >= MAX_RECIPIENTS}
                aria-describedby={
                  rows.fields.length >= MAX_RECIPIENTS ? 'withdraw-recipient-limit' : undefined
                }
                onClick={() => rows.append(emptyRow(firstAsset))}
              >
                <PlusIcon aria-hidden /> Add recipient
              </Button>
              <Button
                type="submit"
                disabled={flow.pending || limitReasons.length > 0}
                aria-describedby={limitReasons.length > 0 ? 'withdraw-review-blocked' : undefined}
              >
                {flow.pending ? 'Checking…' : 'Review request'}
              </Button>
            </div>
            {rows.fields.length >= MAX_RECIPIENTS ? (
              <p id="withdraw-recipient-limit" className="text-sm text-muted-foreground">
                At most {MAX_RECIPIENTS} recipients per request.
              </p>
            ) : null}
            {limitReasons.length > 0 ? (
              <div id="withdraw-review-blocked" className="text-sm text-destructive">
                <p className="font-medium">Review is unavailable until this is fixed:</p>
                <ul className="list-disc pl-5">
                  {limitReasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </div>
            ) : null}
          </div>
        </form>
      </div>
    </RequestFlow>
  );
}

/** Under a recipient: the book entry it is, or a look-alike warning naming the entry it imitates. */
function RecipientBookNote({
  address,
  entry,
  known,
}: {
  address: string;
  entry: BookOption | undefined;
  known: KnownAddress[];
}) {
  if (!address.trim()) return null;
  if (entry)
    return (
      <p className="text-xs">
        <span className="font-medium">{entry.name}</span> · {ADDRESS_BOOK_SOURCE_LABELS[entry.source]}
        {entry.coolingOffUntil ? ' · still cooling off: it cannot receive money yet' : ''}
        {entry.outsideBook
          ? ' · not in the console’s address book: it cannot be paid while money goes only to address book entries'
          : ''}
      </p>
    );
  const imitated = lookAlikeOf(address, known);
  if (!imitated) return null;
  return (
    <p role="alert" className="text-xs font-medium text-destructive">
      Look-alike of {imitated.address} ({imitated.label}): same first and last characters, different in
      between. Compare every character before you go on.
    </p>
  );
}
