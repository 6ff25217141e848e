// Contract calls (#16 to #19): ABI parsing and per-type validation of call inputs, shared by the builder
// form and the server actions, so nothing the upstream would reject (or misread) is ever sent. The shapes the
// actions parse are in `contract-schema.ts`.
import { type AbiFunction, type AbiParameter, encodeFunctionData, erc20Abi, isHex, zeroAddress } from 'viem';
import { isTokenAmountParam, parseTokenAmount, type TokenUnits } from './abi-units';
import { checkEvmAddress } from './addresses';

/** Spec, Limits: contract read, write, sign-only and network-fee take 1 to 20 calls. */
export const MAX_CONTRACT_CALLS = 20;

export const CONTRACT_REQUEST_KINDS = ['contractWrite', 'contractSign'] as const;
export type ContractRequestKind = (typeof CONTRACT_REQUEST_KINDS)[number];

/** One call as the browser sends it (shape: `contract-schema.ts`), re-checked by `revalidateWireCall`. */
export interface SentCall {
  address: string;
  method: string;
  abi: Array<Record<string, unknown>>;
  parameters: unknown[];
}

/** A write (#16) or sign-only write (#17) as an approval request: the batch and the address it is made from. */
export interface ContractRequestValues {
  walletId: string;
  calls: SentCall[];
  kind: ContractRequestKind;
  addressId: string;
}

export const ERC20_PRESET: readonly AbiFunction[] = erc20Abi.filter(
  (e): e is Extract<(typeof erc20Abi)[number], { type: 'function' }> => e.type === 'function',
) as readonly AbiFunction[];

export type Check<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });

/** Reads never change state: view/pure (or the legacy `constant` flag). */
export function isReadMethod(fn: AbiFunction & { constant?: boolean }): boolean {
  return fn.stateMutability === 'view' || fn.stateMutability === 'pure' || fn.constant === true;
}

/** Stable key of a function among overloads: name(types). */
export function methodKey(fn: AbiFunction): string {
  return `${fn.name}(${fn.inputs.map((i) => i.type).join(',')})`;
}

export function splitMethods(abi: readonly AbiFunction[]): { reads: AbiFunction[]; writes: AbiFunction[] } {
  return { reads: abi.filter((f) => isReadMethod(f)), writes: abi.filter((f) => !isReadMethod(f)) };
}

function isParameter(value: unknown): value is AbiParameter {
  if (!value || typeof value !== 'object') return false;
  const p = value as { type?: unknown; components?: unknown };
  if (typeof p.type !== 'string') return false;
  if (p.type.startsWith('tuple')) return Array.isArray(p.components) && p.components.every(isParameter);
  return true;
}

/** A pasted JSON ABI: an array of entries (or `{abi: [...]}` as build tools write it); functions only. */
export function parseAbiJson(text: string): Check<AbiFunction[]> {
  if (text.trim() === '') return fail('Paste the contract ABI (JSON).');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('The ABI is not valid JSON.');
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'abi' in parsed)
    parsed = (parsed as { abi: unknown }).abi;
  if (!Array.isArray(parsed)) return fail('The ABI must be a JSON array of entries.');
  const functions: AbiFunction[] = [];
  for (const [i, entry] of parsed.entries()) {
    if (!entry || typeof entry !== 'object') return fail(`ABI entry ${i + 1} is not an object.`);
    const e = entry as Record<string, unknown>;
    // Entries without a type are functions in old (solc < 0.5) ABIs.
    if ((e.type ?? 'function') !== 'function') continue;
    if (typeof e.name !== 'string' || e.name === '') return fail(`ABI entry ${i + 1} has no name.`);
    const inputs = e.inputs ?? [];
    const outputs = e.outputs ?? [];
    if (!Array.isArray(inputs) || !inputs.every(isParameter))
      return fail(`The inputs of ${e.name} are not valid ABI parameters.`);
    if (!Array.isArray(outputs) || !outputs.every(isParameter))
      return fail(`The outputs of ${e.name} are not valid ABI parameters.`);
    const mutability =
      typeof e.stateMutability === 'string'
        ? e.stateMutability
        : e.constant === true
          ? 'view'
          : e.payable === true
            ? 'payable'
            : 'nonpayable';
    if (!['view', 'pure', 'nonpayable', 'payable'].includes(mutability))
      return fail(`${e.name} has an unknown stateMutability "${mutability}".`);
    functions.push({
      type: 'function',
      name: e.name,
      inputs: inputs as AbiParameter[],
      outputs: outputs as AbiParameter[],
      stateMutability: mutability as AbiFunction['stateMutability'],
    });
  }
  if (functions.length === 0) return fail('The ABI has no functions.');
  return { ok: true, value: functions };
}

const ARRAY_SUFFIX = /^(.*)\[(\d*)\]$/;
const INT_TYPE = /^(u?)int(\d*)$/;
const BYTES_TYPE = /^bytes(\d+)$/;

/** Bounds of intN/uintN. */
export function integerBounds(type: string): { min: bigint; max: bigint } | null {
  const m = INT_TYPE.exec(type);
  if (!m) return null;
  const bits = m[2] === '' ? 256 : Number(m[2]);
  if (bits < 8 || bits > 256 || bits % 8 !== 0) return null;
  if (m[1] === 'u') return { min: 0n, max: 2n ** BigInt(bits) - 1n };
  return { min: -(2n ** BigInt(bits - 1)), max: 2n ** BigInt(bits - 1) - 1n };
}

/** Values as they go to viem (bigints) and to the upstream (JSON: integers as decimal strings). */
export interface Coerced {
  viem: unknown;
  wire: unknown;
}

function label(param: AbiParameter, fallback: string) {
  return param.name ? `${param.name} (${param.type})` : `${fallback} (${param.type})`;
}

function parseStructured(raw: unknown, what: string): Check<unknown> {
  if (typeof raw !== 'string') return { ok: true, value: raw };
  const text = raw.trim();
  if (text === '') return fail(`Enter ${what} as JSON.`);
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return fail(`Enter ${what} as JSON (for example ["0x…", "1"]).`);
  }
}

/**
 * One value for one ABI parameter. `raw` is what a person typed (a string), or, inside arrays and tuples,
 * the JSON value found there. Returns a sentence naming the rule when the value does not fit the type.
 */
export function coerceParameter(param: AbiParameter, raw: unknown, where = 'value'): Check<Coerced> {
  const type = param.type;
  const array = ARRAY_SUFFIX.exec(type);
  if (array) {
    const inner = { ...param, type: array[1] ?? '' } as AbiParameter;
    const json = parseStructured(raw, 'the list');
    if (!json.ok) return json;
    if (!Array.isArray(json.value)) return fail(`${where}: expected a JSON array for ${type}.`);
    if (array[2] !== '' && json.value.length !== Number(array[2]))
      return fail(`${where}: ${type} takes exactly ${array[2]} items; this has ${json.value.length}.`);
    const viem: unknown[] = [];
    const wire: unknown[] = [];
    for (const [i, item] of json.value.entries()) {
      const c = coerceParameter(inner, item, `${where}[${i}]`);
      if (!c.ok) return c;
      viem.push(c.value.viem);
      wire.push(c.value.wire);
    }
    return { ok: true, value: { viem, wire } };
  }
  if (type === 'tuple') {
    const components = (param as { components?: readonly AbiParameter[] }).components ?? [];
    const json = parseStructured(raw, 'the tuple');
    if (!json.ok) return json;
    const value = json.value;
    const byName = value !== null && typeof value === 'object' && !Array.isArray(value);
    if (!byName && !Array.isArray(value))
      return fail(`${where}: expected a JSON object (or array) with ${components.length} fields.`);
    if (Array.isArray(value) && value.length !== components.length)
      return fail(`${where}: the tuple has ${components.length} fields; this has ${value.length}.`);
    const viem: Record<string, unknown> | unknown[] = components.every((c) => c.name) ? {} : [];
    const wire: unknown[] = [];
    for (const [i, component] of components.entries()) {
      const key = component.name ?? String(i);
      const item = byName ? (value as Record<string, unknown>)[key] : (value as unknown[])[i];
      if (item === undefined) return fail(`${where}: the field ${key} is missing.`);
      const c = coerceParameter(component, item, `${where}.${key}`);
      if (!c.ok) return c;
      if (Array.isArray(viem)) viem.push(c.value.viem);
      else viem[key] = c.value.viem;
      wire.push(c.value.wire);
    }
    return { ok: true, value: { viem, wire } };
  }
  // Scalars: from the form they are strings; inside JSON they may be numbers or booleans.
  if (type === 'bool') {
    if (raw === true || raw === 'true') return { ok: true, value: { viem: true, wire: true } };
    if (raw === false || raw === 'false') return { ok: true, value: { viem: false, wire: false } };
    return fail(`${where}: choose true or false.`);
  }
  if (type === 'string') {
    if (typeof raw !== 'string') return fail(`${where}: expected text.`);
    return { ok: true, value: { viem: raw, wire: raw } };
  }
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : null;
  if (text === null) return fail(`${where}: expected a ${type}.`);
  if (type === 'address') {
    if (text.toLowerCase() === zeroAddress)
      return { ok: true, value: { viem: zeroAddress, wire: zeroAddress } };
    const check = checkEvmAddress(text);
    if (!check.ok)
      return fail(`${where}: ${check.message.replace('Enter a recipient address.', 'enter an address.')}`);
    return { ok: true, value: { viem: check.address, wire: check.address } };
  }
  const bounds = integerBounds(type);
  if (bounds) {
    if (text === '') return fail(`${where}: enter a whole number.`);
    if (typeof raw === 'number' && !Number.isSafeInteger(raw))
      return fail(`${where}: write large numbers as strings, e.g. "1000000000000000000".`);
    if (!/^-?\d+$/.test(text))
      return fail(`${where}: a ${type} is a whole number (digits only, no decimals or exponent).`);
    const n = BigInt(text);
    if (n < bounds.min || n > bounds.max)
      return fail(
        bounds.min === 0n && n < 0n
          ? `${where}: a ${type} cannot be negative.`
          : `${where}: a ${type} is between ${bounds.min} and ${bounds.max}.`,
      );
    return { ok: true, value: { viem: n, wire: n.toString() } };
  }
  if (type === 'bytes') {
    if (!isHex(text, { strict: true }) || text.length % 2 !== 0)
      return fail(`${where}: bytes are 0x followed by an even number of hex digits.`);
    return { ok: true, value: { viem: text, wire: text } };
  }
  const fixed = BYTES_TYPE.exec(type);
  if (fixed) {
    const size = Number(fixed[1]);
    if (size < 1 || size > 32) return fail(`${where}: ${type} is not a valid type.`);
    if (!isHex(text, { strict: true }) || text.length !== 2 + size * 2)
      return fail(`${where}: a ${type} is 0x followed by exactly ${size * 2} hex digits.`);
    return { ok: true, value: { viem: text, wire: text } };
  }
  return fail(`${where}: the type ${type} is not supported.`);
}

/** A call as the builder holds it: the method's ABI entry and what was typed for each input. */
export interface CallDraft {
  address: string;
  fn: AbiFunction;
  args: string[];
  /** The contract's token, when known: its amount parameters are then typed in token units. */
  token?: TokenUnits | null;
}

/** A call as the upstream takes it (Call item). */
export interface WireCall {
  address: string;
  method: string;
  abi: AbiFunction[];
  parameters: unknown[];
}

export interface CallValidation {
  ok: boolean;
  call?: WireCall;
  /** `address`, `args.<i>` or `form`. */
  errors: Record<string, string>;
}

/** Checks a whole call and encodes it with viem; errors come back by field. */
export function validateCall(draft: CallDraft): CallValidation {
  const errors: Record<string, string> = {};
  const address = checkEvmAddress(draft.address ?? '');
  if (!address.ok)
    errors.address = address.message.replace('Enter a recipient address.', 'Enter the contract address.');
  const viemArgs: unknown[] = [];
  const parameters: unknown[] = [];
  for (const [i, input] of draft.fn.inputs.entries()) {
    if (draft.token && isTokenAmountParam(draft.fn, i)) {
      // Typed in token units, sent in base units.
      const amount = parseTokenAmount(draft.args[i] ?? '', draft.token, draft.fn);
      if (!amount.ok) errors[`args.${i}`] = amount.message;
      else {
        viemArgs.push(amount.value);
        parameters.push(amount.value.toString());
      }
      continue;
    }
    const c = coerceParameter(input, draft.args[i] ?? '', label(input, `argument ${i + 1}`));
    if (!c.ok) errors[`args.${i}`] = c.message;
    else {
      viemArgs.push(c.value.viem);
      parameters.push(c.value.wire);
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  try {
    encodeFunctionData({ abi: [draft.fn], functionName: draft.fn.name, args: viemArgs });
  } catch (error) {
    const message =
      error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : '';
    return { ok: false, errors: { form: `The call does not encode: ${message}` } };
  }
  return {
    ok: true,
    errors,
    call: {
      address: address.ok ? address.address : draft.address,
      method: draft.fn.name,
      abi: [draft.fn],
      parameters,
    },
  };
}

/**
 * Server side: a wire call (from the browser or a stored payload) re-checked against its own ABI entry,
 * so a tampered request cannot smuggle values the form would have refused.
 */
export function revalidateWireCall(call: {
  address: string;
  method: string;
  abi: unknown[];
  parameters?: unknown[];
}): CallValidation {
  const abi = parseAbiJson(JSON.stringify(call.abi));
  if (!abi.ok) return { ok: false, errors: { form: abi.message } };
  const fn = abi.value.find(
    (f) => f.name === call.method && f.inputs.length === (call.parameters ?? []).length,
  );
  if (!fn)
    return { ok: false, errors: { form: `The ABI has no method ${call.method} with that many inputs.` } };
  const args = (call.parameters ?? []).map((p) => (typeof p === 'string' ? p : JSON.stringify(p)));
  return validateCall({ address: call.address, fn, args });
}

/** Human text for a value given back by a read (string, number, array, object). */
export function formatReadResult(data: unknown): string {
  if (typeof data === 'string') return data;
  return JSON.stringify(data, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
}
