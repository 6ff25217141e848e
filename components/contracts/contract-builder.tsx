'use client';
// The contract call builder: one call at a time from an ABI, then a batch of up to 20 to read, estimate,
// or request as a write or a sign-only write (reviewed first, then created for approval).
import { ArrowDownIcon, ArrowUpIcon, PencilIcon, Trash2Icon } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, useTransition } from 'react';
import { get, useForm, useWatch } from 'react-hook-form';
import type { AbiFunction } from 'viem';
import { RequestFlow } from '@/components/operations/request-flow';
import { useOperationRequest } from '@/components/operations/use-operation-request';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, NativeSelect } from '@/components/ui/input';
import { Link } from '@/components/ui/link';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { AddressIdLookup, type AddressOption } from '@/components/wallets/address-id-lookup';
import {
  createContractRequestAction,
  estimateContractFeesAction,
  lookUpContractSourceAction,
  previewContractRequestAction,
  readContractCallsAction,
  readTokenUnitsAction,
} from '@/lib/actions/contracts';
import type { FeeOutcome, ReadOutcome } from '@/lib/approvals/contracts';
import {
  type ContractRequestKind,
  type ContractRequestValues,
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

/** The call being built: the contract, its ABI, the method and what was typed for each input. */
interface CallDraftValues {
  address: string;
  abiMode: 'erc20' | 'json';
  abiText: string;
  methodId: string;
  args: string[];
}

/** A call of the batch: what is sent (the wire call), and how it was typed, to show and edit it. */
type BatchCall = WireCall & {
  key: number;
  draft: Omit<CallDraftValues, 'methodId'> & { fn: AbiFunction; token: TokenUnits | null };
};

const textareaClass =
  'min-h-20 w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-xs aria-invalid:border-destructive';

function isStructured(type: string) {
  return type.endsWith(']') || type.startsWith('tuple');
}

/** How a typed argument reads in the batch list: amounts with their token symbol. */
function argDisplay(call: BatchCall, i: number): string {
  const typed = call.draft.args[i] ?? '';
  return call.draft.token && isTokenAmountParam(call.draft.fn, i)
    ? `${typed} ${call.draft.token.symbol}`
    : typed;
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
  const draftForm = useForm<CallDraftValues>({
    defaultValues: {
      address: tokens[0]?.address ?? '',
      abiMode: 'erc20',
      abiText: '',
      methodId: '',
      args: [],
    },
  });
  const { register, setValue, setError, clearErrors, getValues } = draftForm;
  const draft = useWatch({ control: draftForm.control }) as CallDraftValues;
  const errorOf = (key: string): string | undefined =>
    (get(draftForm.formState.errors, key) as { message?: string } | undefined)?.message;
  const [editingKey, setEditingKey] = useState<number | null>(null);
  const nextKey = useRef(1);
  const [readOutcome, setReadOutcome] = useState<ReadOutcome | null>(null);
  const [feeOutcome, setFeeOutcome] = useState<FeeOutcome | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  // decimals() and symbol() read from contracts that are not wallet assets, by address key; null: no answer.
  const [reported, setReported] = useState<Record<string, TokenUnits | null>>({});

  // The form's `calls` hold the batch; the schema keeps what is sent, the wire calls (typed token units never
  // leave the browser).
  const flow = useOperationRequest<ContractRequestValues>({
    schema: () => import('@/lib/validation/contract-schema').then((m) => m.contractRequestSchema),
    defaultValues: {
      walletId,
      kind: 'contractWrite',
      addressId: sources.find((s) => /operating float/i.test(s.label))?.id ?? sources[0]?.id ?? '',
      calls: [],
    },
    preview: previewContractRequestAction,
    create: createContractRequestAction,
    onCreated: (id) => {
      setCreated(id);
      setBatch([]);
    },
  });
  const batch = (useWatch({ control: flow.form.control, name: 'calls' }) ?? []) as BatchCall[];
  const kind = useWatch({ control: flow.form.control, name: 'kind' });
  const sourceError = flow.form.formState.errors.addressId?.message;

  function setBatch(next: BatchCall[]) {
    flow.form.setValue('calls', next);
    setReadOutcome(null);
    setFeeOutcome(null);
  }

  const abi = useMemo(() => {
    if (draft.abiMode === 'erc20') return { ok: true as const, value: [...ERC20_PRESET] };
    return draft.abiText.trim() === '' ? null : parseAbiJson(draft.abiText);
  }, [draft.abiMode, draft.abiText]);
  const functions = abi?.ok ? abi.value : [];
  const { reads, writes } = splitMethods(functions);
  const fn = functions.find((f) => methodKey(f) === draft.methodId) ?? null;
  const args = draft.args ?? [];

  const checkedAddress = checkEvmAddress(draft.address);
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
    const chosen = functions.find((f) => methodKey(f) === key);
    setValue('args', chosen ? chosen.inputs.map((i) => (i.type === 'bool' ? 'false' : '')) : []);
    clearErrors();
  }

  function resetBuilder() {
    setEditingKey(null);
    setValue('methodId', '');
    setValue('args', []);
    clearErrors();
  }

  function showCallErrors(errors: Record<string, string>) {
    clearErrors();
    for (const [key, message] of Object.entries(errors))
      setError((key === 'address' ? 'address' : key === 'method' ? 'methodId' : key) as 'address', {
        type: 'validate',
        message,
      });
  }

  function addCall() {
    const values = getValues();
    if (!fn) {
      showCallErrors({ method: 'Choose a method.' });
      return;
    }
    if (unitsLookup) {
      showCallErrors({ form: "Reading the token's decimals: add the call in a moment." });
      return;
    }
    const v = validateCall({ address: values.address, fn, args: values.args, token });
    if (!v.ok || !v.call) {
      showCallErrors(v.errors);
      return;
    }
    if (editingKey === null && batch.length >= MAX_CONTRACT_CALLS) {
      showCallErrors({ form: `A batch holds at most ${MAX_CONTRACT_CALLS} calls.` });
      return;
    }
    const entry: BatchCall = {
      ...v.call,
      key: editingKey ?? nextKey.current++,
      draft: {
        fn,
        abiMode: values.abiMode,
        abiText: values.abiText,
        address: values.address,
        args: [...values.args],
        token: needsTokenUnits(fn) ? token : null,
      },
    };
    setBatch(editingKey === null ? [...batch, entry] : batch.map((c) => (c.key === editingKey ? entry : c)));
    resetBuilder();
  }

  function editCall(call: BatchCall) {
    setEditingKey(call.key);
    setValue('address', call.draft.address);
    setValue('abiMode', call.draft.abiMode);
    setValue('abiText', call.draft.abiText);
    setValue('methodId', methodKey(call.draft.fn));
    setValue('args', [...call.draft.args]);
    clearErrors();
  }

  function move(index: number, by: -1 | 1) {
    const next = [...batch];
    const [item] = next.splice(index, 1);
    if (item) next.splice(index + by, 0, item);
    setBatch(next);
  }

  const allReads = batch.length > 0 && batch.every((c) => isReadMethod(c.draft.fn));
  const allWrites = batch.length > 0 && batch.every((c) => !isReadMethod(c.draft.fn));
  const calls = batch.map(({ address, method, abi: callAbi, parameters }) => ({
    address,
    method,
    abi: callAbi,
    parameters,
  }));

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

  function request(requestKind: ContractRequestKind) {
    setBanner(null);
    setCreated(null);
    flow.form.setValue('kind', requestKind);
    void flow.requestReview();
  }

  const resultByIndex = (i: number) => readOutcome?.results.find((r) => r.index === i);
  const errorByIndex = (i: number) =>
    readOutcome?.errors.find((e) => e.index === i) ?? feeOutcome?.errors.find((e) => e.index === i);
  const feeByIndex = (i: number) => feeOutcome?.fees.find((f) => f.index === i);
  const busy = pending || flow.pending;

  return (
    <RequestFlow
      flow={flow}
      confirmLabel={kind === 'contractSign' ? 'Create sign-only request' : 'Create write request'}
      notice={
        kind === 'contractSign'
          ? 'Nothing is signed when you create the request'
          : 'Nothing is sent when you create the request'
      }
    >
      <div className="grid gap-6">
        <section aria-labelledby="builder-heading" className="grid gap-4 rounded-lg border p-4">
          <h3 id="builder-heading" className="text-lg font-semibold">
            {editingKey === null ? 'Build a call' : 'Edit call'}
          </h3>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              id="contract-address"
              label="Contract address"
              error={errorOf('address')}
              hint="0x followed by 40 hex digits"
            >
              <Input
                id="contract-address"
                className="font-mono"
                aria-invalid={errorOf('address') ? true : undefined}
                aria-describedby={errorOf('address') ? 'contract-address-error' : 'contract-address-hint'}
                {...register('address')}
              />
            </Field>
            <Field id="known-token" label="Known token">
              <NativeSelect
                id="known-token"
                value={
                  tokens.find((t) => t.address.toLowerCase() === draft.address.trim().toLowerCase())
                    ?.address ?? ''
                }
                onChange={(e) => e.target.value && setValue('address', e.target.value)}
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
              <NativeSelect id="abi-source" {...register('abiMode', { onChange: resetBuilder })}>
                <option value="erc20">ERC-20 preset</option>
                <option value="json">Paste JSON</option>
              </NativeSelect>
            </Field>
            {draft.abiMode === 'json' ? (
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
                  aria-invalid={abi && !abi.ok ? true : undefined}
                  aria-describedby={abi && !abi.ok ? 'abi-json-error' : 'abi-json-hint'}
                  {...register('abiText', {
                    onChange: () => {
                      setValue('methodId', '');
                      setValue('args', []);
                    },
                  })}
                />
              </Field>
            ) : null}
            <Field id="contract-method" label="Method" error={errorOf('methodId')}>
              <NativeSelect
                id="contract-method"
                aria-invalid={errorOf('methodId') ? true : undefined}
                aria-describedby={errorOf('methodId') ? 'contract-method-error' : undefined}
                {...register('methodId', { onChange: (e) => chooseMethod(e.target.value) })}
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
                // A corrected value is checked afresh (amounts live, everything else at Add call).
                const field = register(`args.${i}`, { onChange: () => clearErrors(`args.${i}`) });
                const isAmount = isTokenAmountParam(fn, i);
                const typed = (args[i] ?? '').trim();
                const amount = isAmount && token && typed !== '' ? parseTokenAmount(typed, token, fn) : null;
                // Amounts of a known token: typed in token units, refused at once when they do not fit.
                const label = isAmount && token ? `${name} (${token.symbol})` : `${name} (${input.type})`;
                const error = errorOf(`args.${i}`) ?? (amount && !amount.ok ? amount.message : undefined);
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
                      <NativeSelect id={id} {...field}>
                        <option value="true">true</option>
                        <option value="false">false</option>
                      </NativeSelect>
                    ) : isStructured(input.type) ? (
                      <textarea
                        id={id}
                        className={textareaClass}
                        aria-invalid={error ? true : undefined}
                        aria-describedby={describedBy}
                        {...field}
                      />
                    ) : (
                      <Input
                        id={id}
                        className="font-mono"
                        aria-invalid={error ? true : undefined}
                        aria-describedby={describedBy}
                        {...field}
                      />
                    )}
                  </Field>
                );
              })}
            </fieldset>
          ) : null}
          {errorOf('form') ? (
            <p role="alert" className="text-sm text-destructive">
              {errorOf('form')}
            </p>
          ) : null}
          <div className="flex gap-2">
            <Button type="button" disabled={unitsLookup} onClick={addCall}>
              {editingKey === null ? 'Add call' : 'Save call'}
            </Button>
            {editingKey !== null ? (
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
                  const outputType = call.draft.fn.outputs.map((o) => o.type).join(', ');
                  return (
                    <TableRow key={call.key}>
                      <TableCell>{i + 1}</TableCell>
                      <TableCell>
                        <span className="font-mono text-xs">
                          {call.draft.fn.name}({call.draft.args.map((_, j) => argDisplay(call, j)).join(', ')}
                          )
                        </span>
                        <span className="block text-xs text-muted-foreground">
                          {isReadMethod(call.draft.fn) ? 'Read' : 'Write'} on {shortAddress(call.address)}
                        </span>
                      </TableCell>
                      <TableCell>
                        {result ? (
                          <ReadValue call={call} value={result.value} outputType={outputType} />
                        ) : null}
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
                            onClick={() => setBatch(batch.filter((c) => c.key !== call.key))}
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
                <Link className="underline" href={`/approvals/${created}`}>
                  Open the request
                </Link>
              </AlertDescription>
            </Alert>
          ) : null}

          <div className="flex flex-wrap items-end gap-2">
            <Button type="button" disabled={busy || !allReads} onClick={runRead}>
              Read
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={busy || batch.length === 0}
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
                error={sourceError}
                hint="Holds the native coin for gas"
              >
                <NativeSelect
                  id="call-source"
                  aria-invalid={sourceError ? true : undefined}
                  {...flow.form.register('addressId')}
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
                    flow.form.setValue('addressId', found.id);
                  }}
                />
              ) : null}
              <div className="flex flex-wrap gap-2">
                {canWrite ? (
                  <Button
                    type="button"
                    disabled={busy || !allWrites}
                    onClick={() => request('contractWrite')}
                  >
                    Request write
                  </Button>
                ) : null}
                {canSign ? (
                  <Button
                    type="button"
                    variant="outline"
                    disabled={busy || !allWrites}
                    onClick={() => request('contractSign')}
                  >
                    Request sign-only
                  </Button>
                ) : null}
              </div>
            </div>
          ) : null}
        </section>
      </div>
    </RequestFlow>
  );
}

/** A read result; amounts of a known token in token units, with the base units as a detail. */
function ReadValue({ call, value, outputType }: { call: BatchCall; value: string; outputType: string }) {
  const { token, fn } = call.draft;
  const base = token && isTokenAmountRead(fn) ? baseUnitsOf(value) : null;
  if (base !== null && token) {
    return (
      <span className="text-xs break-all">
        <span className="font-medium">{describeTokenAmount(base, token).units}</span>
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
