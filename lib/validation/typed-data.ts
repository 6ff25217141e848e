// EIP-712 typed data (#21): parsing the editor's JSON, checking that the types and the message agree, the
// permit and authorization forms, and the review in people's terms. Shared by the form and the actions.
import {
  formatUnits,
  getAddress,
  hashTypedData,
  size as hexSize,
  isAddress,
  isAddressEqual,
  isHex,
  maxUint256,
  validateTypedData,
} from 'viem';
import { checkAmount } from './amounts';

/**
 * A typed-data signature request (#21) as the action receives it: the EIP-712 document and the child address
 * that signs it (shape: `typed-data-schema.ts`). The document's meaning is checked by `checkTypedData`.
 */
export interface TypedDataRequest {
  walletId: string;
  addressId: string;
  domain: unknown;
  types: unknown;
  message: unknown;
  primaryType?: string | null | undefined;
}

export const TYPED_DATA_FORM_MODES = ['permit', 'transferWithAuthorization', 'json'] as const;

/**
 * The signature form as people fill it in: a permit, an authorization, or the three JSON texts. The document
 * the action receives is built from it (`buildPermit`, `buildTransferWithAuthorization`, `parseTypedDataText`);
 * the signing address is the action's own field.
 */
export interface TypedDataFormValues {
  walletId: string;
  addressId: string;
  mode: (typeof TYPED_DATA_FORM_MODES)[number];
  token: string;
  name: string;
  version: string;
  chainId: string;
  verifyingContract: string;
  spender: string;
  to: string;
  value: string;
  nonce: string;
  authNonce: string;
  deadline: string;
  validAfter: string;
  validBefore: string;
  domain: string;
  types: string;
  message: string;
}

interface TypedField {
  name: string;
  type: string;
}
export type TypedTypes = Record<string, TypedField[]>;

interface TypedDomain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: string;
}

/** What is stored and sent: numeric message values as decimal strings (spec #21). */
export interface TypedDataDocument {
  domain: TypedDomain;
  types: TypedTypes;
  primaryType: string;
  message: Record<string, unknown>;
}

export type TypedDataCheck =
  | { ok: true; value: TypedDataDocument; hash: `0x${string}` }
  | { ok: false; error: string; fieldErrors: Record<string, string> };

/** Chain ids of the networks the console knows, to prefill a domain. */
export const CHAIN_IDS: Record<string, number> = {
  'ethereum:testnet': 11155111,
  'ethereum:mainnet': 1,
  'base:testnet': 84532,
  'base:mainnet': 8453,
  'polygon:testnet': 80002,
  'polygon:mainnet': 137,
};

export const PERMIT_TYPES: TypedTypes = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
};

const TRANSFER_WITH_AUTHORIZATION_TYPES: TypedTypes = {
  TransferWithAuthorization: [
    { name: 'from', type: 'address' },
    { name: 'to', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'validAfter', type: 'uint256' },
    { name: 'validBefore', type: 'uint256' },
    { name: 'nonce', type: 'bytes32' },
  ],
};

/** A permit whose deadline is further away than this gets a warning. */
const LONG_DEADLINE_SECONDS = 30 * 24 * 3600;

// Limits on a document, from the form and the action alike (checked after JSON decoding, like metadata's in
// `control-characters.ts`): a permit has one type of five fields; these leave room for orders and batches while
// a document of a thousand fields, thousands of array items or megabytes of text is refused before it is
// hashed, stored, shown to approvers or sent to the custody service.
/** The most types a document may define (EIP712Domain not counted). */
export const MAX_TYPED_DATA_TYPES = 32;
/** The most fields one type may have. */
export const MAX_TYPED_DATA_FIELDS = 64;
/** How deep struct values may nest in the message, the primary type's being the first level. */
export const MAX_TYPED_DATA_DEPTH = 8;
/** The most items an array may hold (and a fixed-size array may declare). */
export const MAX_TYPED_DATA_ARRAY_ITEMS = 256;
/** The most characters a string value may hold. */
export const MAX_TYPED_DATA_STRING_CHARS = 1_000;
/** The most bytes a `bytes` value may hold. */
export const MAX_TYPED_DATA_BYTES = 4_096;
/** The most characters the domain, the types or the message may each hold, written as compact JSON. */
export const MAX_TYPED_DATA_CHARS = 20_000;

const count = (n: number) => n.toLocaleString('en-US');
const tooLong = (what: string) =>
  `The ${what} may have at most ${count(MAX_TYPED_DATA_CHARS)} characters (written as compact JSON).`;

/** Compact JSON length of a decoded value; a value that cannot be written back (too deep, say) is too long. */
function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const INTEGER = /^(u?)int(\d*)$/;
const FIXED_BYTES = /^bytes(\d+)$/;
const ARRAY = /^(.+)\[(\d*)\]$/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function parseJson(
  text: string,
  what: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: `Enter the ${what} as a JSON object.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      message: `The ${what} is not valid JSON (${error instanceof Error ? error.message : 'parse error'}).`,
    };
  }
  if (!isPlainObject(value)) return { ok: false, message: `The ${what} must be a JSON object.` };
  return { ok: true, value };
}

/** The type no other type refers to: EIP-712's primary type when the request does not name one. */
export function inferPrimaryType(types: TypedTypes): string | null {
  const referenced = new Set<string>();
  for (const fields of Object.values(types)) for (const f of fields) referenced.add(baseType(f.type));
  const roots = Object.keys(types).filter((name) => !referenced.has(name));
  return roots.length === 1 ? (roots[0] ?? null) : null;
}

function baseType(type: string): string {
  let t = type;
  while (ARRAY.test(t)) t = t.replace(/\[\d*\]$/, '');
  return t;
}

function isPrimitive(type: string): boolean {
  if (type === 'address' || type === 'bool' || type === 'string' || type === 'bytes') return true;
  const int = INTEGER.exec(type);
  if (int) {
    const bits = int[2] ? Number(int[2]) : 256;
    return bits >= 8 && bits <= 256 && bits % 8 === 0;
  }
  const bytes = FIXED_BYTES.exec(type);
  return bytes ? Number(bytes[1]) >= 1 && Number(bytes[1]) <= 32 : false;
}

/** Checks one value against its EIP-712 type; returns the stored form (integers as decimal strings). */
function checkValue(
  type: string,
  value: unknown,
  types: TypedTypes,
  path: string,
  errors: Record<string, string>,
  depth: number,
): unknown {
  const array = ARRAY.exec(type);
  if (array) {
    const [, inner = '', length] = array;
    if (!Array.isArray(value)) {
      errors[path] = `${path} must be an array (${type}).`;
      return value;
    }
    if (value.length > MAX_TYPED_DATA_ARRAY_ITEMS) {
      errors[path] =
        `${path} has ${count(value.length)} items: an array may have at most ${MAX_TYPED_DATA_ARRAY_ITEMS}.`;
      return value;
    }
    if (length && value.length !== Number(length)) {
      errors[path] = `${path} must have exactly ${length} items.`;
      return value;
    }
    return value.map((v, i) => checkValue(inner, v, types, `${path}[${i}]`, errors, depth));
  }
  const struct = types[type];
  if (struct) {
    if (!isPlainObject(value)) {
      errors[path] = `${path} must be an object of type ${type}.`;
      return value;
    }
    // Counted in the message, not the types: a recursive type (a tree of nodes) stays valid while it is shallow.
    if (depth + 1 > MAX_TYPED_DATA_DEPTH) {
      errors[path] =
        `${path} is a struct nested ${depth + 1} levels deep: struct types may nest at most ${MAX_TYPED_DATA_DEPTH} levels.`;
      return value;
    }
    return checkStruct(struct, value, types, path, errors, depth + 1);
  }
  const int = INTEGER.exec(type);
  if (int) {
    const signed = int[1] !== 'u';
    const bits = BigInt(int[2] ? Number(int[2]) : 256);
    const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof text !== 'string' || !(signed ? /^-?\d+$/ : /^\d+$/).test(text.trim())) {
      errors[path] =
        `${path} must be ${signed ? 'an integer' : 'a whole number'} written in decimal (${type}).`;
      return value;
    }
    const n = BigInt(text.trim());
    const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
    const min = signed ? -(1n << (bits - 1n)) : 0n;
    if (n > max || n < min) errors[path] = `${path} is out of range for ${type}.`;
    return n.toString();
  }
  if (type === 'address') {
    if (typeof value !== 'string' || !isAddress(value, { strict: false }))
      errors[path] = `${path} must be an address (0x followed by 40 hex digits).`;
    return value;
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') errors[path] = `${path} must be true or false.`;
    return value;
  }
  if (type === 'string') {
    if (typeof value !== 'string') errors[path] = `${path} must be a string.`;
    else if (value.length > MAX_TYPED_DATA_STRING_CHARS)
      errors[path] =
        `${path} is ${count(value.length)} characters long: a string may have at most ${count(MAX_TYPED_DATA_STRING_CHARS)}.`;
    return value;
  }
  if (type === 'bytes') {
    if (typeof value !== 'string' || !isHex(value, { strict: true }) || value.length % 2 !== 0)
      errors[path] = `${path} must be hex bytes (0x...).`;
    else if ((value.length - 2) / 2 > MAX_TYPED_DATA_BYTES)
      errors[path] =
        `${path} is ${count((value.length - 2) / 2)} bytes long: bytes may have at most ${count(MAX_TYPED_DATA_BYTES)}.`;
    return value;
  }
  const bytes = FIXED_BYTES.exec(type);
  if (bytes) {
    const n = Number(bytes[1]);
    if (typeof value !== 'string' || !isHex(value, { strict: true }) || hexSize(value as `0x${string}`) !== n)
      errors[path] = `${path} must be exactly ${n} bytes of hex (0x + ${n * 2} hex digits).`;
    return value;
  }
  errors[path] = `${path} has an unknown type ${type}.`;
  return value;
}

function checkStruct(
  fields: TypedField[],
  value: Record<string, unknown>,
  types: TypedTypes,
  path: string,
  errors: Record<string, string>,
  depth: number,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const at = path ? `${path}.${field.name}` : field.name;
    if (!Object.hasOwn(value, field.name) || value[field.name] === undefined || value[field.name] === null) {
      errors[at] = `${at} is missing (${field.type}).`;
      continue;
    }
    out[field.name] = checkValue(field.type, value[field.name], types, at, errors, depth);
  }
  const known = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(value))
    if (!known.has(key))
      errors[path ? `${path}.${key}` : key] = `${path ? `${path}.` : ''}${key} is not in the type.`;
  return out;
}

/** Too many types, or a type with too many fields: counted without reading the fields, so read first. */
function typeCountProblems(raw: Record<string, unknown>): string[] {
  // The domain's type follows from the domain object; viem adds it.
  const names = Object.keys(raw).filter((name) => name !== 'EIP712Domain');
  if (names.length > MAX_TYPED_DATA_TYPES)
    return [`Define at most ${MAX_TYPED_DATA_TYPES} types (this document has ${count(names.length)}).`];
  const problems: string[] = [];
  for (const name of names) {
    const fields = raw[name];
    if (Array.isArray(fields) && fields.length > MAX_TYPED_DATA_FIELDS)
      problems.push(
        `${name} has ${count(fields.length)} fields: a type may have at most ${MAX_TYPED_DATA_FIELDS}.`,
      );
  }
  return problems;
}

function checkTypes(raw: Record<string, unknown>, errors: string[]): TypedTypes | null {
  const types: TypedTypes = {};
  const tooMany = typeCountProblems(raw);
  if (tooMany.length) {
    errors.push(...tooMany);
    return null;
  }
  for (const [name, fields] of Object.entries(raw)) {
    if (name === 'EIP712Domain') continue;
    if (!IDENTIFIER.test(name)) errors.push(`"${name}" is not a valid type name.`);
    if (!Array.isArray(fields) || fields.length === 0) {
      errors.push(`${name} must be a non-empty array of {name, type}.`);
      continue;
    }
    const seen = new Set<string>();
    types[name] = [];
    for (const f of fields) {
      if (!isPlainObject(f) || typeof f.name !== 'string' || typeof f.type !== 'string') {
        errors.push(`Every field of ${name} needs a name and a type.`);
        continue;
      }
      if (seen.has(f.name)) errors.push(`${name} has the field ${f.name} twice.`);
      seen.add(f.name);
      types[name].push({ name: f.name, type: f.type });
    }
  }
  for (const [name, fields] of Object.entries(types))
    for (const f of fields) {
      const base = baseType(f.type);
      if (!isPrimitive(base) && !types[base])
        errors.push(`${name}.${f.name} has type ${f.type}, which is neither an EIP-712 type nor defined.`);
      const declared = Math.max(0, ...[...f.type.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
      if (declared > MAX_TYPED_DATA_ARRAY_ITEMS)
        errors.push(
          `${name}.${f.name} declares ${count(declared)} items (${f.type}): an array may have at most ${MAX_TYPED_DATA_ARRAY_ITEMS}.`,
        );
    }
  if (Object.keys(types).length === 0) errors.push('Define at least one type.');
  return errors.length ? null : types;
}

function checkDomain(raw: Record<string, unknown>, errors: string[]): TypedDomain | null {
  const { name, version, chainId, verifyingContract } = raw;
  if (typeof name !== 'string' || name.trim() === '') errors.push('domain.name must be a non-empty string.');
  if (typeof version !== 'string' || version.trim() === '')
    errors.push('domain.version must be a non-empty string.');
  if (typeof chainId !== 'number' || !Number.isSafeInteger(chainId) || chainId <= 0)
    errors.push('domain.chainId must be a positive whole number.');
  if (typeof verifyingContract !== 'string' || !isAddress(verifyingContract, { strict: false }))
    errors.push('domain.verifyingContract must be an address.');
  const extra = Object.keys(raw).filter(
    (k) => !['name', 'version', 'chainId', 'verifyingContract'].includes(k),
  );
  // The custody API takes exactly these four domain fields (#21); a salt would be signed by no one.
  if (extra.length)
    errors.push(
      `The domain takes name, version, chainId and verifyingContract only (not ${extra.join(', ')}).`,
    );
  if (errors.length) return null;
  return {
    name: name as string,
    version: version as string,
    chainId: chainId as number,
    verifyingContract: getAddress(verifyingContract as string),
  };
}

/** Integers as bigint, the form viem hashes and signs. */
function toViemMessage(types: TypedTypes, type: string, value: unknown): unknown {
  const array = ARRAY.exec(type);
  if (array && Array.isArray(value)) return value.map((v) => toViemMessage(types, array[1] ?? '', v));
  const struct = types[type];
  if (struct && isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const f of struct) out[f.name] = toViemMessage(types, f.type, value[f.name]);
    return out;
  }
  if (INTEGER.test(type) && (typeof value === 'string' || typeof value === 'number')) return BigInt(value);
  return value;
}

export function viemTypedData(doc: TypedDataDocument) {
  return {
    domain: { ...doc.domain, verifyingContract: doc.domain.verifyingContract as `0x${string}` },
    types: doc.types,
    primaryType: doc.primaryType,
    message: toViemMessage(doc.types, doc.primaryType, doc.message) as Record<string, unknown>,
  };
}

/**
 * The primary types whose signature a token checks against an address of the message: EIP-2612's owner (DAI's
 * holder), EIP-3009's from. Signed by any other address the signature is never usable as meant, so a document
 * naming someone else is a mistake or a trap (a spender collecting signatures to replay elsewhere).
 */
const SIGNED_BY: Record<string, { fields: string[]; what: string }> = {
  Permit: { fields: ['owner', 'holder'], what: 'permit' },
  TransferWithAuthorization: { fields: ['from'], what: 'authorization' },
  ReceiveWithAuthorization: { fields: ['from'], what: 'authorization' },
};

/**
 * Why the signing address may not sign this permit or authorization (its owner, holder or from is another
 * address), or null: documents of other kinds, and a signer not yet known, are not this rule's concern.
 */
export function signerProblem(doc: TypedDataDocument, signer: string | null | undefined): string | null {
  const rule = SIGNED_BY[doc.primaryType];
  if (!rule || !signer || !isAddress(signer, { strict: false })) return null;
  const field = doc.types[doc.primaryType]?.find((f) => f.type === 'address' && rule.fields.includes(f.name));
  const owner = field ? doc.message[field.name] : undefined;
  if (!field || typeof owner !== 'string' || !isAddress(owner, { strict: false })) return null;
  if (isAddressEqual(getAddress(owner), getAddress(signer))) return null;
  const who = field.name === 'from' ? 'from address' : field.name;
  return `The ${rule.what}'s ${who} ${getAddress(owner)} is not the address that signs it (${getAddress(signer)}).`;
}

/**
 * Checks a document already parsed from JSON: domain, types, and a message that agrees with the types. With
 * the signing address, a permit or authorization must also be that address's own (`signerProblem`).
 */
export function checkTypedData(
  input: {
    domain: unknown;
    types: unknown;
    message: unknown;
    primaryType?: string | null;
  },
  options: { signer?: string | null } = {},
): TypedDataCheck {
  const fieldErrors: Record<string, string> = {};
  // Size first: nothing larger than the limit is walked. Too many types or fields is said as such, though.
  for (const part of ['domain', 'types', 'message'] as const)
    if (jsonLength(input[part]) > MAX_TYPED_DATA_CHARS)
      fieldErrors[part] =
        (part === 'types' && isPlainObject(input.types) ? typeCountProblems(input.types) : []).join(' ') ||
        tooLong(part);
  if (Object.keys(fieldErrors).length)
    return { ok: false, error: Object.values(fieldErrors)[0] ?? tooLong('typed data'), fieldErrors };
  const domainErrors: string[] = [];
  const typeErrors: string[] = [];
  const domain = isPlainObject(input.domain) ? checkDomain(input.domain, domainErrors) : null;
  if (!isPlainObject(input.domain)) domainErrors.push('The domain must be a JSON object.');
  const types = isPlainObject(input.types) ? checkTypes(input.types, typeErrors) : null;
  if (!isPlainObject(input.types)) typeErrors.push('The types must be a JSON object.');
  if (domainErrors.length) fieldErrors.domain = domainErrors.join(' ');
  let primaryType: string | null = null;
  if (types) {
    // The custody API takes no primary type (#21): it signs the one type no other type uses.
    primaryType = inferPrimaryType(types);
    const named = input.primaryType?.trim();
    if (!primaryType)
      typeErrors.push('Cannot tell the primary type: exactly one type must be unused by the others.');
    else if (named && named !== primaryType)
      typeErrors.push(`The primary type must be the type no other type uses (${primaryType}), not ${named}.`);
  }
  if (typeErrors.length) fieldErrors.types = typeErrors.join(' ');
  let message: Record<string, unknown> | null = null;
  if (!isPlainObject(input.message)) fieldErrors.message = 'The message must be a JSON object.';
  else if (types && primaryType && types[primaryType]) {
    const errors: Record<string, string> = {};
    message = checkStruct(types[primaryType] ?? [], input.message, types, '', errors, 1);
    const list = Object.values(errors);
    if (list.length) fieldErrors.message = list.slice(0, 5).join(' ') + (list.length > 5 ? ' …' : '');
  }
  if (Object.keys(fieldErrors).length || !domain || !types || !primaryType || !message)
    return {
      ok: false,
      error: Object.values(fieldErrors)[0] ?? 'Check the typed data.',
      fieldErrors,
    };
  const value: TypedDataDocument = { domain, types, primaryType, message };
  const notTheSigner = signerProblem(value, options.signer);
  if (notTheSigner) return { ok: false, error: notTheSigner, fieldErrors: { message: notTheSigner } };
  try {
    const typed = viemTypedData(value);
    // biome-ignore lint/suspicious/noExplicitAny: caller-defined EIP-712 types, checked above and by viem.
    validateTypedData(typed as any);
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const hash = hashTypedData(typed as any);
    return { ok: true, value, hash };
  } catch (error) {
    const text =
      error instanceof Error ? ((error as { shortMessage?: string }).shortMessage ?? error.message) : '';
    return {
      ok: false,
      error: `The typed data cannot be encoded: ${text}`,
      fieldErrors: { message: `The typed data cannot be encoded: ${text}` },
    };
  }
}

/** The editor's three JSON texts; with the signing address, checked against it too (`checkTypedData`). */
export function parseTypedDataText(
  text: { domain: string; types: string; message: string },
  options: { signer?: string | null } = {},
): TypedDataCheck {
  const fieldErrors: Record<string, string> = {};
  // Pretty-printed text may be longer than its compact form; beyond twice the limit it is not read at all.
  for (const part of ['domain', 'types', 'message'] as const)
    if (text[part].trim().length > 2 * MAX_TYPED_DATA_CHARS) fieldErrors[part] = tooLong(part);
  if (Object.keys(fieldErrors).length)
    return { ok: false, error: Object.values(fieldErrors)[0] ?? tooLong('typed data'), fieldErrors };
  const domain = parseJson(text.domain, 'domain');
  const types = parseJson(text.types, 'types');
  const message = parseJson(text.message, 'message');
  if (!domain.ok) fieldErrors.domain = domain.message;
  if (!types.ok) fieldErrors.types = types.message;
  if (!message.ok) fieldErrors.message = message.message;
  if (!domain.ok || !types.ok || !message.ok)
    return { ok: false, error: Object.values(fieldErrors)[0] ?? 'Check the JSON.', fieldErrors };
  const rawTypes = types.value as Record<string, unknown>;
  // Accepts a whole eth_signTypedData_v4 object pasted into "types" too: {types, primaryType, ...}.
  const primaryType = typeof rawTypes.primaryType === 'string' ? rawTypes.primaryType : null;
  const typeMap = isPlainObject(rawTypes.types) ? rawTypes.types : rawTypes;
  return checkTypedData(
    { domain: domain.value, types: typeMap, message: message.value, primaryType },
    options,
  );
}

// --- the common kinds as forms -----------------------------------------------------------------------------

interface TokenDomainInput {
  name: string;
  version: string;
  chainId: string;
  verifyingContract: string;
  decimals: number;
}

export interface PermitFormValues extends TokenDomainInput {
  owner: string;
  spender: string;
  /** In token units (e.g. 12.5), or "max" for an unlimited allowance. */
  value: string;
  nonce: string;
  /** Unix seconds. */
  deadline: string;
}

export interface TransferWithAuthorizationFormValues extends TokenDomainInput {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

function tokenValue(value: string, decimals: number, errors: Record<string, string>): string {
  if (value.trim().toLowerCase() === 'max') return maxUint256.toString();
  const check = checkAmount(value, decimals, 'The token');
  if (!check.ok) {
    errors.value = check.message;
    return '0';
  }
  return check.units.toString();
}

function domainOf(input: TokenDomainInput, errors: Record<string, string>) {
  const chainId = Number(input.chainId);
  if (!/^\d+$/.test(input.chainId.trim()) || !Number.isSafeInteger(chainId) || chainId <= 0)
    errors.chainId = 'Enter the chain id as a positive whole number.';
  if (!input.name.trim()) errors.name = "Enter the token's EIP-712 name.";
  if (!input.version.trim()) errors.version = "Enter the token's EIP-712 version (often 1 or 2).";
  if (!isAddress(input.verifyingContract.trim(), { strict: false }))
    errors.verifyingContract = 'Enter the token contract address.';
  return {
    name: input.name.trim(),
    version: input.version.trim(),
    chainId,
    verifyingContract: input.verifyingContract.trim(),
  };
}

function whole(value: string, field: string, label: string, errors: Record<string, string>): string {
  const v = value.trim();
  if (!/^\d+$/.test(v)) errors[field] = `${label} must be a whole number.`;
  return v;
}

function address(value: string, field: string, label: string, errors: Record<string, string>): string {
  const v = value.trim();
  if (!isAddress(v, { strict: false })) errors[field] = `${label} must be an address (0x + 40 hex digits).`;
  return v;
}

function finish(
  errors: Record<string, string>,
  doc: Omit<TypedDataDocument, 'primaryType'> & { primaryType: string },
): TypedDataCheck {
  if (Object.keys(errors).length)
    return { ok: false, error: Object.values(errors)[0] ?? 'Check the form.', fieldErrors: errors };
  return checkTypedData(doc);
}

/** EIP-2612 Permit from the form. */
export function buildPermit(input: PermitFormValues): TypedDataCheck {
  const errors: Record<string, string> = {};
  const domain = domainOf(input, errors);
  const message = {
    owner: address(input.owner, 'owner', 'The owner', errors),
    spender: address(input.spender, 'spender', 'The spender', errors),
    value: tokenValue(input.value, input.decimals, errors),
    nonce: whole(input.nonce, 'nonce', 'The nonce', errors),
    deadline: whole(input.deadline, 'deadline', 'The deadline', errors),
  };
  return finish(errors, { domain, types: PERMIT_TYPES, primaryType: 'Permit', message });
}

/** EIP-3009 TransferWithAuthorization from the form. */
export function buildTransferWithAuthorization(input: TransferWithAuthorizationFormValues): TypedDataCheck {
  const errors: Record<string, string> = {};
  const domain = domainOf(input, errors);
  const nonce = input.nonce.trim();
  if (!/^0x[0-9a-fA-F]{64}$/.test(nonce))
    errors.nonce = 'The nonce must be 32 bytes of hex (0x + 64 hex digits).';
  const message = {
    from: address(input.from, 'from', 'From', errors),
    to: address(input.to, 'to', 'To', errors),
    value: tokenValue(input.value, input.decimals, errors),
    validAfter: whole(input.validAfter, 'validAfter', 'Valid after', errors),
    validBefore: whole(input.validBefore, 'validBefore', 'Valid before', errors),
    nonce,
  };
  if (!errors.validAfter && !errors.validBefore && BigInt(message.validBefore) <= BigInt(message.validAfter))
    errors.validBefore = '"Valid before" must be later than "valid after".';
  return finish(errors, {
    domain,
    types: TRANSFER_WITH_AUTHORIZATION_TYPES,
    primaryType: 'TransferWithAuthorization',
    message,
  });
}

// --- review in people's terms ------------------------------------------------------------------------------

export interface KnownToken {
  address: string;
  symbol: string;
  decimals: number;
}

export interface TypedDataDescription {
  kind: 'permit' | 'transferWithAuthorization' | 'other';
  primaryType: string;
  token: { address: string; symbol: string | null; decimals: number | null; name: string };
  chainId: number;
  /** Owner (permit) or from (authorization). */
  owner: string | null;
  /** Spender (permit) or to (authorization). */
  spender: string | null;
  value: { raw: string; units: string | null; unlimited: boolean } | null;
  nonce: string | null;
  /** Permit deadline or authorization validBefore, ISO; null when absent or out of range. */
  deadline: string | null;
  validAfter: string | null;
  warnings: string[];
}

/** The primary type's address field naming whose tokens the signature moves (owner, holder or from), if any. */
function holderFieldOf(doc: TypedDataDocument): string | null {
  const fields = doc.types[doc.primaryType] ?? [];
  const field = fields.find((f) => ['owner', 'holder', 'from'].includes(f.name) && f.type === 'address');
  return field && typeof doc.message[field.name] === 'string' ? field.name : null;
}

function sameFields(a: TypedField[] | undefined, b: TypedField[]): boolean {
  return !!a && a.length === b.length && a.every((f, i) => f.name === b[i]?.name && f.type === b[i]?.type);
}

function dateOf(seconds: string): string | null {
  const n = Number(seconds);
  // Beyond JavaScript's date range (e.g. max uint256 as "never"): shown as no date.
  if (!Number.isFinite(n) || n * 1000 > 8.64e15) return null;
  return new Date(n * 1000).toISOString();
}

/** Reads a document as a permit or authorization where it is one; warnings for what deserves a second look. */
export function describeTypedData(
  doc: TypedDataDocument,
  context: { signer: string | null; tokens: KnownToken[]; now: Date },
): TypedDataDescription {
  const m = doc.message;
  const verifying = doc.domain.verifyingContract;
  const token = context.tokens.find((t) => t.address.toLowerCase() === verifying.toLowerCase());
  const warnings: string[] = [];
  const isPermit = doc.primaryType === 'Permit' && sameFields(doc.types.Permit, PERMIT_TYPES.Permit ?? []);
  const isAuth =
    doc.primaryType === 'TransferWithAuthorization' &&
    sameFields(
      doc.types.TransferWithAuthorization,
      TRANSFER_WITH_AUTHORIZATION_TYPES.TransferWithAuthorization ?? [],
    );
  const description: TypedDataDescription = {
    kind: isPermit ? 'permit' : isAuth ? 'transferWithAuthorization' : 'other',
    primaryType: doc.primaryType,
    token: {
      address: verifying,
      symbol: token?.symbol ?? null,
      decimals: token?.decimals ?? null,
      name: doc.domain.name,
    },
    chainId: doc.domain.chainId,
    owner: null,
    spender: null,
    value: null,
    nonce: null,
    deadline: null,
    validAfter: null,
    warnings,
  };
  if (!isPermit && !isAuth) {
    warnings.push(
      `Not a permit or authorization (${doc.primaryType}): read the message below before approving.`,
    );
    // A permit-like document of another shape (DAI's holder, extra fields) still names whose tokens it moves.
    const holder = holderFieldOf(doc);
    if (holder && context.signer && String(m[holder]).toLowerCase() !== context.signer.toLowerCase())
      warnings.push(
        `The ${holder} is not the signing address: the signature would not be accepted as theirs.`,
      );
    return description;
  }
  const raw = String(m.value);
  const unlimited = BigInt(raw) === maxUint256;
  description.value = {
    raw,
    units: token ? formatUnits(BigInt(raw), token.decimals) : null,
    unlimited,
  };
  description.owner = String(isPermit ? m.owner : m.from);
  description.spender = String(isPermit ? m.spender : m.to);
  description.nonce = String(m.nonce);
  const deadline = String(isPermit ? m.deadline : m.validBefore);
  description.deadline = dateOf(deadline);
  if (isAuth) description.validAfter = dateOf(String(m.validAfter));
  if (unlimited)
    warnings.push('Unlimited value: the spender could move every token the owner holds, now and later.');
  const secondsLeft = Number(deadline) - Math.floor(context.now.getTime() / 1000);
  if (secondsLeft > LONG_DEADLINE_SECONDS)
    warnings.push(`The ${isPermit ? 'deadline' : 'validity'} is more than 30 days away.`);
  if (secondsLeft <= 0) warnings.push(`The ${isPermit ? 'deadline' : 'validity'} has already passed.`);
  if (!token)
    warnings.push('The verifying contract is not an asset of this wallet: the value is shown in base units.');
  if (context.signer && description.owner.toLowerCase() !== context.signer.toLowerCase())
    warnings.push(
      `The ${isPermit ? 'owner' : 'from address'} is not the signing address: the signature would not be accepted.`,
    );
  return description;
}
