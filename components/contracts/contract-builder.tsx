'use client';
// The contract call builder: one call at a time from an ABI, then a batch of up to 20 to read, estimate,
// or send for approval as a write or a sign-only write.
import { ArrowDownIcon, ArrowUpIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useMemo, useState, useTransition } from 'react';
import type { AbiFunction } from 'viem';
import {
  estimateContractFeesAction,
  lookUpContractSourceAction,
  readContractCallsAction,
  readTokenUnitsAction,
  requestContractSignAction,
  requestContractWriteAction,
} from '@/app/(console)/wallets/[walletId]/contracts/actions';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { AddressIdLookup, type AddressOption } from '@/components/wallets/address-id-lookup';
import type { FeeOutcome, ReadOutcome } from '@/lib/approvals/contracts';
import {
  ERC20_PRESET,
  isReadMethod,
  MAX_CONTRACT_CALLS,
  methodKey,
  parseAbiJson,
  splitMethods,
  validateCall,
  type WireCall,
} from '@/lib/validation/abi';
import {
  baseUnitsOf,
  describeTokenAmount,
  isTokenAmountParam,
  isTokenAmountRead,
  needsTokenUnits,
  parseTokenAmount,
  type TokenUnits,
} from '@/lib/validation/abi-units';
import { addressKey, checkEvmAddress } from '@/lib/validation/addresses';

export interface ContractBuilderProps {
  walletId: string;
  /** The wallet's token assets: their amounts are typed and shown in token units. */
  tokens: Array<{ symbol: string; address: string; decimals: number }>;
  sources: Array<{ id: string; label: string; address: string }>;
  /** `known`: the service cannot list addresses; the builder also takes an address id typed by hand. */
  addressSource?: 'service' | 'known';
  canWrite: boolean;
  canSign: boolean;
}

interface BatchCall {
  id: number;
  fn: AbiFunction;
  abiMode: 'erc20' | 'json';
  abiText: string;
  address: string;
  args: string[];
  /** The token the amounts were typed in (and read results are shown in), when known. */
  token: TokenUnits | null;
  wire: WireCall;
}

const textareaClass =
  'min-h-20 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-xs aria-invalid:border-destructive';

function isStructured(type: string) {
  return type.endsWith(']') || type.startsWith('tuple');
}

/** How a typed argument reads in the batch list: amounts with their token symbol. */
function argDisplay(call: BatchCall, i: number): string {
  const typed = call.args[i] ?? '';
  return call.token && isTokenAmountParam(call.fn, i) ? `${typed} ${call.token.symbol}` : typed;
}

function shortAddress(a: string) {
  return a.length > 12 ? `${a.slice(0, 6)}…${a.slice(-4)}` : a;
}

export function ContractBuilder({
  walletId,
  tokens,
  sources: listed,
  canWrite,
  canSign,
  addressSource = 'service',
}: ContractBuilderProps) {
  // Child addresses typed by hand (and checked by the server) join the list for this visit.
  const [typed, setTyped] = useState<AddressOption[]>([]);
  const sources = [...listed, ...typed.filter((t) => !listed.some((s) => s.id === t.id))];
  const [address, setAddress] = useState(tokens[0]?.address ?? '');
  const [abiMode, setAbiMode] = useState<'erc20' | 'json'>('erc20');
  const [abiText, setAbiText] = useState('');
  const [methodId, setMethodId] = useState('');
  const [args, setArgs] = useState<string[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [batch, setBatch] = useState<BatchCall[]>([]);
  const [nextId, setNextId] = useState(1);
  const [editingId, setEditingId] = useState<number | null>(null);
  const [source, setSource] = useState(
    sources.find((s) => /operating float/i.test(s.label))?.id ?? sources[0]?.id ?? '',
  );
  const [readOutcome, setReadOutcome] = useState<ReadOutcome | null>(null);
  const [feeOutcome, setFeeOutcome] = useState<FeeOutcome | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [created, setCreated] = useState<{ id: string; kind: string } | null>(null);
  const [pending, startTransition] = useTransition();
  // decimals() and symbol() read from contracts that are not wallet assets, by address key; null: no answer.
  const [reported, setReported] = useState<Record<string, TokenUnits | null>>({});

  const abi = useMemo(() => {
    if (abiMode === 'erc20') return { ok: true as const, value: [...ERC20_PRESET] };
    return abiText.trim() === '' ? null : parseAbiJson(abiText);
  }, [abiMode, abiText]);
  const functions = abi?.ok ? abi.value : [];
  const { reads, writes } = splitMethods(functions);
  const fn = functions.find((f) => methodKey(f) === methodId) ?? null;

  const checkedAddress = checkEvmAddress(address);
  const contractKey = checkedAddress.ok ? addressKey(checkedAddress.address) : null;
  const listedToken = contractKey ? tokens.find((t) => addressKey(t.address) === contractKey) : undefined;
  const wantsUnits = fn !== null && needsTokenUnits(fn);
  const unitsLookup = contractKey !== null && !listedToken && wantsUnits && !(contractKey in reported);
  const token: TokenUnits | null = listedToken
    ? { symbol: listedToken.symbol, decimals: listedToken.decimals }
    : contractKey
      ? (reported[contractKey] ?? null)
      : null;

  // A contract that is not a wallet asset: ask it for decimals() once, so amounts can be typed in units.
  const lookupAddress = unitsLookup && checkedAddress.ok ? checkedAddress.address : null;
  useEffect(() => {
    if (lookupAddress === null) return;
    let current = true;
    const key = addressKey(lookupAddress);
    const settle = (units: TokenUnits | null) => {
      if (current) setReported((r) => ({ ...r, [key]: units }));
    };
    readTokenUnitsAction({ walletId, address: lookupAddress })
      .then((result) => settle(result.ok ? result.data : null))
      .catch(() => settle(null));
    return () => {
      current = false;
    };
  }, [lookupAddress, walletId]);

  function chooseMethod(key: string) {
    setMethodId(key);
    const chosen = functions.find((f) => methodKey(f) === key);
    setArgs(chosen ? chosen.inputs.map((i) => (i.type === 'bool' ? 'false' : '')) : []);
    setErrors({});
  }

  function resetBuilder() {
    setEditingId(null);
    setMethodId('');
    setArgs([]);
    setErrors({});
  }

  function addCall() {
    if (!fn) {
      setErrors({ method: 'Choose a method.' });
      return;
    }
    if (unitsLookup) {
      setErrors({ form: "Reading the token's decimals: add the call in a moment." });
      return;
    }
    const v = validateCall({ address, fn, args, token });
    if (!v.ok || !v.call) {
      setErrors(v.errors);
      return;
    }
    if (editingId === null && batch.length >= MAX_CONTRACT_CALLS) {
      setErrors({ form: `A batch holds at most ${MAX_CONTRACT_CALLS} calls.` });
      return;
    }
    const entry: BatchCall = {
      id: editingId ?? nextId,
      fn,
      abiMode,
      abiText,
      address,
      args: [...args],
      token: needsTokenUnits(fn) ? token : null,
      wire: v.call,
    };
    setBatch((b) => (editingId === null ? [...b, entry] : b.map((c) => (c.id === editingId ? entry : c))));
    if (editingId === null) setNextId((n) => n + 1);
    setReadOutcome(null);
    setFeeOutcome(null);
    resetBuilder();
  }

  function editCall(call: BatchCall) {
    setEditingId(call.id);
    setAddress(call.address);
    setAbiMode(call.abiMode);
    setAbiText(call.abiText);
    setMethodId(methodKey(call.fn));
    setArgs([...call.args]);
    setErrors({});
  }

  function move(index: number, by: -1 | 1) {
    setBatch((b) => {
      const next = [...b];
      const [item] = next.splice(index, 1);
      if (item) next.splice(index + by, 0, item);
      return next;
    });
    setReadOutcome(null);
    setFeeOutcome(null);
  }

  const allReads = batch.length > 0 && batch.every((c) => isReadMethod(c.fn));
  const allWrites = batch.length > 0 && batch.every((c) => !isReadMethod(c.fn));
  const calls = batch.map((c) => c.wire);

  function runRead() {
    setBanner(null);
    setCreated(null);
    startTransition(async () => {
      const result = await readContractCallsAction({ walletId, calls });
      if (result.ok) setReadOutcome(result.data);
      else {
        setReadOutcome(null);
        setBanner(result.error);
      }
    });
  }

  function runEstimate() {
    setBanner(null);
    startTransition(async () => {
      const result = await estimateContractFeesAction({ walletId, calls });
      if (result.ok) setFeeOutcome(result.data);
      else {
        setFeeOutcome(null);
        setBanner(result.error);
      }
    });
  }

  function request(kind: 'write' | 'sign') {
    setBanner(null);
    setCreated(null);
    if (!source) {
      setErrors({ source: 'Choose the address the calls are made from.' });
      return;
    }
    startTransition(async () => {
      const action = kind === 'write' ? requestContractWriteAction : requestContractSignAction;
      const result = await action({ walletId, addressId: source, calls });
      if (result.ok) {
        setCreated({ id: result.data.id, kind });
        setBatch([]);
        setReadOutcome(null);
        setFeeOutcome(null);
      } else setBanner(result.error);
    });
  }

  const resultByIndex = (i: number) => readOutcome?.results.find((r) => r.index === i);
  const errorByIndex = (i: number) =>
    readOutcome?.errors.find((e) => e.index === i) ?? feeOutcome?.errors.find((e) => e.index === i);
  const feeByIndex = (i: number) => feeOutcome?.fees.find((f) => f.index === i);

  return (
    <div className="grid gap-6">
      <section aria-labelledby="builder-heading" className="grid gap-4 rounded-lg border p-4">
        <h3 id="builder-heading" className="text-lg font-semibold">
          {editingId === null ? 'Build a call' : 'Edit call'}
        </h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            id="contract-address"
            label="Contract address"
            error={errors.address}
            hint="0x followed by 40 hex digits"
          >
            <Input
              id="contract-address"
              value={address}
              className="font-mono"
              aria-invalid={errors.address ? true : undefined}
              aria-describedby={errors.address ? 'contract-address-error' : 'contract-address-hint'}
              onChange={(e) => setAddress(e.target.value)}
            />
          </Field>
          <Field id="known-token" label="Known token">
            <NativeSelect
              id="known-token"
              value={
                tokens.find((t) => t.address.toLowerCase() === address.trim().toLowerCase())?.address ?? ''
              }
              onChange={(e) => e.target.value && setAddress(e.target.value)}
            >
              <option value="">Other contract</option>
              {tokens.map((t) => (
                <option key={t.address} value={t.address}>
                  {t.symbol}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field id="abi-source" label="ABI">
            <NativeSelect
              id="abi-source"
              value={abiMode}
              onChange={(e) => {
                setAbiMode(e.target.value as 'erc20' | 'json');
                resetBuilder();
              }}
            >
              <option value="erc20">ERC-20 preset</option>
              <option value="json">Paste JSON</option>
            </NativeSelect>
          </Field>
          {abiMode === 'json' ? (
            <Field
              id="abi-json"
              label="ABI JSON"
              error={abi && !abi.ok ? abi.message : undefined}
              hint="The contract's ABI as a JSON array"
              className="sm:col-span-2"
            >
              <textarea
                id="abi-json"
                className={textareaClass}
                value={abiText}
                aria-invalid={abi && !abi.ok ? true : undefined}
                aria-describedby={abi && !abi.ok ? 'abi-json-error' : 'abi-json-hint'}
                onChange={(e) => {
                  setAbiText(e.target.value);
                  setMethodId('');
                  setArgs([]);
                }}
              />
            </Field>
          ) : null}
          <Field id="contract-method" label="Method" error={errors.method}>
            <NativeSelect
              id="contract-method"
              value={methodId}
              aria-invalid={errors.method ? true : undefined}
              aria-describedby={errors.method ? 'contract-method-error' : undefined}
              onChange={(e) => chooseMethod(e.target.value)}
              disabled={functions.length === 0}
            >
              <option value="">Choose a method</option>
              {reads.length ? (
                <optgroup label="Reads">
                  {reads.map((f) => (
                    <option key={methodKey(f)} value={methodKey(f)}>
                      {methodKey(f)}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {writes.length ? (
                <optgroup label="Writes">
                  {writes.map((f) => (
                    <option key={methodKey(f)} value={methodKey(f)}>
                      {methodKey(f)}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </NativeSelect>
          </Field>
        </div>
        {fn && fn.inputs.length > 0 ? (
          <fieldset className="grid gap-3 sm:grid-cols-2">
            <legend className="mb-2 text-sm font-medium">Inputs of {fn.name}</legend>
            {fn.inputs.map((input, i) => {
              const id = `arg-${i}`;
              const name = input.name || `argument ${i + 1}`;
              const set = (value: string) => {
                setArgs((a) => a.map((v, j) => (j === i ? value : v)));
                // A corrected value is checked afresh (amounts live, everything else at Add call).
                setErrors(({ [`args.${i}`]: _fixed, ...rest }) => rest);
              };
              const isAmount = isTokenAmountParam(fn, i);
              const typed = (args[i] ?? '').trim();
              const amount = isAmount && token && typed !== '' ? parseTokenAmount(typed, token, fn) : null;
              // Amounts of a known token: typed in token units, refused at once when they do not fit.
              const label = isAmount && token ? `${name} (${token.symbol})` : `${name} (${input.type})`;
              const error = errors[`args.${i}`] ?? (amount && !amount.ok ? amount.message : undefined);
              const hint = isStructured(input.type)
                ? 'JSON: an array, or an object for a tuple'
                : isAmount && token
                  ? amount?.ok
                    ? `Sends ${amount.value.toString()} base units (uint256).`
                    : `In ${token.symbol}, up to ${token.decimals} decimals.`
                  : isAmount && unitsLookup
                    ? "Reading the token's decimals…"
                    : isAmount && contractKey && !listedToken && contractKey in reported
                      ? 'This contract does not answer decimals(): enter base units.'
                      : undefined;
              const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
              return (
                <Field key={id} id={id} label={label} error={error} hint={hint}>
                  {input.type === 'bool' ? (
                    <NativeSelect id={id} value={args[i] ?? 'false'} onChange={(e) => set(e.target.value)}>
                      <option value="true">true</option>
                      <option value="false">false</option>
                    </NativeSelect>
                  ) : isStructured(input.type) ? (
                    <textarea
                      id={id}
                      className={textareaClass}
                      value={args[i] ?? ''}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={describedBy}
                      onChange={(e) => set(e.target.value)}
                    />
                  ) : (
                    <Input
                      id={id}
                      className="font-mono"
                      value={args[i] ?? ''}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={describedBy}
                      onChange={(e) => set(e.target.value)}
                    />
                  )}
                </Field>
              );
            })}
          </fieldset>
        ) : null}
        {errors.form ? (
          <p role="alert" className="text-sm text-destructive">
            {errors.form}
          </p>
        ) : null}
        <div className="flex gap-2">
          <Button type="button" disabled={unitsLookup} onClick={addCall}>
            {editingId === null ? 'Add call' : 'Save call'}
          </Button>
          {editingId !== null ? (
            <Button type="button" variant="outline" onClick={resetBuilder}>
              Cancel edit
            </Button>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="batch-heading" className="grid gap-3">
        <h3 id="batch-heading" className="text-lg font-semibold">
          Calls ({batch.length} of {MAX_CONTRACT_CALLS})
        </h3>
        {batch.length === 0 ? (
          <p className="text-sm text-muted-foreground">No calls yet: build one above and add it.</p>
        ) : (
          <Table aria-label="Calls in this batch">
            <TableHeader>
              <TableRow>
                <TableHead>#</TableHead>
                <TableHead>Call</TableHead>
                <TableHead>Result</TableHead>
                <TableHead>Network fee</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {batch.map((call, i) => {
                const result = resultByIndex(i);
                const failure = errorByIndex(i);
                const fee = feeByIndex(i);
                const outputType = call.fn.outputs.map((o) => o.type).join(', ');
                return (
                  <TableRow key={call.id}>
                    <TableCell>{i + 1}</TableCell>
                    <TableCell>
                      <span className="font-mono text-xs">
                        {call.fn.name}({call.args.map((_, j) => argDisplay(call, j)).join(', ')})
                      </span>
                      <span className="block text-xs text-muted-foreground">
                        {isReadMethod(call.fn) ? 'Read' : 'Write'} on {shortAddress(call.wire.address)}
                      </span>
                    </TableCell>
                    <TableCell>
                      {result ? <ReadValue call={call} value={result.value} outputType={outputType} /> : null}
                      {failure ? (
                        <span className="block text-xs text-destructive">Failed: {failure.message}</span>
                      ) : null}
                    </TableCell>
                    <TableCell className="text-xs">{fee ? fee.fee : null}</TableCell>
                    <TableCell>
                      <div className="flex gap-1">
                        <Button
                          type="button"
                          size="icon"
                          variant="ghost"
                          aria-label={`Move call ${i + 1} up`}
                          disabled={i === 0}
                          onClick={() => move(i, -1)}
                        >
                          <ArrowUpIcon aria-hidden />
                        </Button>
                        <Button
                          type="button"
                          size="icon"
                          variant="ghost"
                          aria-label={`Move call ${i + 1} down`}
                          disabled={i === batch.length - 1}
                          onClick={() => move(i, 1)}
                        >
                          <ArrowDownIcon aria-hidden />
                        </Button>
                        <Button
                          type="button"
                          size="icon"
                          variant="ghost"
                          aria-label={`Edit call ${i + 1}`}
                          onClick={() => editCall(call)}
                        >
                          <PencilIcon aria-hidden />
                        </Button>
                        <Button
                          type="button"
                          size="icon"
                          variant="ghost"
                          aria-label={`Remove call ${i + 1}`}
                          onClick={() => {
                            setBatch((b) => b.filter((c) => c.id !== call.id));
                            setReadOutcome(null);
                            setFeeOutcome(null);
                          }}
                        >
                          <Trash2Icon aria-hidden />
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}

        {readOutcome ? (
          <p role="status" className="text-sm">
            {readOutcome.message}: {readOutcome.results.length}{' '}
            {readOutcome.results.length === 1 ? 'result' : 'results'}, {readOutcome.errors.length}{' '}
            {readOutcome.errors.length === 1 ? 'error' : 'errors'}
          </p>
        ) : null}
        {feeOutcome ? (
          <p role="status" className="text-sm">
            Total network fee: {feeOutcome.total ?? '—'}
            {feeOutcome.errors.length ? ` (${feeOutcome.errors.length} could not be estimated)` : ''}
          </p>
        ) : null}
        {banner ? (
          <Alert variant="destructive">
            <AlertDescription>{banner}</AlertDescription>
          </Alert>
        ) : null}
        {created ? (
          <Alert>
            <AlertDescription>
              Request created: it waits for approval.{' '}
              <Link className="underline" href={`/approvals/${created.id}`}>
                Open the request
              </Link>
            </AlertDescription>
          </Alert>
        ) : null}

        <div className="flex flex-wrap items-end gap-2">
          <Button type="button" disabled={pending || !allReads} onClick={runRead}>
            Read
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={pending || batch.length === 0}
            onClick={runEstimate}
          >
            Estimate fees
          </Button>
          {batch.length > 0 && !allReads && !allWrites ? (
            <p className="text-xs text-muted-foreground">A batch is all reads or all writes.</p>
          ) : null}
        </div>

        {canWrite || canSign ? (
          <div className="grid gap-3 rounded-lg border p-4">
            <Field
              id="call-source"
              label="From address"
              error={errors.source}
              hint="Holds the native coin for gas"
            >
              <NativeSelect
                id="call-source"
                value={source}
                aria-invalid={errors.source ? true : undefined}
                onChange={(e) => setSource(e.target.value)}
              >
                {sources.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.label} ({shortAddress(s.address)})
                  </option>
                ))}
              </NativeSelect>
            </Field>
            {addressSource === 'known' ? (
              <AddressIdLookup
                walletId={walletId}
                lookUp={lookUpContractSourceAction}
                onFound={(found) => {
                  setTyped((list) => (list.some((s) => s.id === found.id) ? list : [...list, found]));
                  setSource(found.id);
                }}
              />
            ) : null}
            <div className="flex flex-wrap gap-2">
              {canWrite ? (
                <Button type="button" disabled={pending || !allWrites} onClick={() => request('write')}>
                  Request write
                </Button>
              ) : null}
              {canSign ? (
                <Button
                  type="button"
                  variant="outline"
                  disabled={pending || !allWrites}
                  onClick={() => request('sign')}
                >
                  Request sign-only
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}
      </section>
    </div>
  );
}

/** A read result; amounts of a known token in token units, with the base units as a detail. */
function ReadValue({ call, value, outputType }: { call: BatchCall; value: string; outputType: string }) {
  const base = call.token && isTokenAmountRead(call.fn) ? baseUnitsOf(value) : null;
  if (base !== null && call.token) {
    return (
      <span className="text-xs break-all">
        <span className="font-medium">{describeTokenAmount(base, call.token).units}</span>
        <span className="block font-mono text-muted-foreground">
          {value} base units ({outputType})
        </span>
      </span>
    );
  }
  return (
    <span className="font-mono text-xs break-all">
      {value}
      {outputType ? <span className="text-muted-foreground"> ({outputType})</span> : null}
    </span>
  );
}
