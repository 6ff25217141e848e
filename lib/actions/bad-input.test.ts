// Bad input at every money-moving, settlement, whitelist, contract, typed-data and user action, against the
// real database and sandbox: each attempt gets a message, nothing reaches the custody service (counted at
// the sandbox), no approval request is created, and the attempt is in the audit log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, gt, sql } from 'drizzle-orm';
import { erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, operationRequests } from '@/lib/db/schema';
import type { Sandbox, SandboxCredentials } from '@/lib/sandbox';
import { provideServices } from '@/lib/server/services';
import { trustRecipients } from '@/test/address-book';
import { type CountingConsole, openCountingConsole } from '@/test/counting-console';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { TEST_SANDBOX_BASE_URL } from '@/test/sandbox';
import { oneCellBombWorkbook } from '@/test/workbooks';

const state = vi.hoisted(() => ({
  user: null as null | {
    id: string;
    email: string;
    name: string;
    role: string;
    mustChangePassword: boolean;
    sessionId?: string;
  },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { createUser } = await import('@/lib/server/users');
const { startSession } = await import('@/lib/server/sessions');
const { loadWalletView } = await import('@/lib/server/wallet-views');
const withdrawals = await import('./withdrawals');
const swaps = await import('./swaps');
const settlement = await import('./settlement');
const whitelist = await import('./whitelist');
const depositAddresses = await import('./deposit-addresses');
const contracts = await import('./contracts');
const signing = await import('./signing');
const users = await import('./users');
const payouts = await import('./payouts');

type Action = (
  input: unknown,
) => Promise<{ ok: boolean; error?: string; fieldErrors?: Record<string, string> }>;

const dataDir = mkdtempSync(path.join(tmpdir(), 'bad-input-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
let actorId: string;
/** Every request the console sends the sandbox, as the sandbox receives it. */
let requests: CountingConsole['requests'];

beforeAll(async () => {
  t = await createTestDatabase();
  ({ sandbox, wallet, requests } = await openCountingConsole(t, dataDir));
  // The valid inputs pay an address book entry past its cooling-off (the destination policy).
  await trustRecipients(t.db, wallet.id, [RECIPIENT]);
  const created = await createUser(t.db, {
    email: 'bad-input-admin@example.com',
    name: 'Admin',
    role: 'admin',
  });
  if (!created.ok) throw new Error(created.error);
  actorId = created.user.id;
  // A fresh second factor: the changes that ask for it again reach their own checks.
  const session = await startSession(t.db, { userId: actorId, stepUpAt: Date.now() });
  state.user = { ...created.user, mustChangePassword: false, sessionId: session.id };
  workbookBomb = Buffer.from(await oneCellBombWorkbook()).toString('base64');
}, 120_000);

afterAll(async () => {
  provideServices(undefined);
  await sandbox.stop();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

// ---------------------------------------------------------------- inputs that would be accepted

const RECIPIENT = '0x1111111111111111111111111111111111111111';
/** A valid address no address book entry holds: the destination policy refuses it. */
const OUTSIDE_BOOK = '0x2222222222222222222222222222222222222222';
const child = () => wallet.addresses.find((a) => a.type === 'INTERNAL') ?? wallet.addresses[0]!;
const asset = (symbol: string) => wallet.assets.find((a) => a.symbol === symbol) ?? wallet.assets[0]!;

const validWithdrawal = () => ({
  walletId: wallet.id,
  kind: 'withdraw',
  source: 'master',
  rows: [
    {
      address: RECIPIENT,
      amount: '1',
      assetId: asset('USDC').id,
      reference: 'inv-1',
      note: '',
      metadata: '',
    },
  ],
});
const validSwap = () => ({
  walletId: wallet.id,
  addressId: child().id,
  fromAssetId: asset('USDC').id,
  toAssetId: asset('USDT').id,
  amount: '1',
  order: 'RECOMMENDED',
});
const validRule = () => ({
  name: 'Onward',
  isActive: true,
  order: 'CHEAPEST',
  slippageTolerance: '-1',
  sourceAssets: ['USDC'],
  sourceBlockchain: wallet.blockchain,
  minAmount: '-1',
  maxAmount: '-1',
  destinationBlockchain: wallet.blockchain,
  destinationAsset: 'USDC',
  destinationAddress: RECIPIENT,
});
const validWhitelist = () => ({
  walletId: wallet.id,
  form: {
    address: RECIPIENT,
    name: 'Treasury',
    metadata: '',
    disableAutoSweep: false,
    enableGaslessWithdraw: false,
    showPrivateKey: false,
  },
});
const transferAbi = erc20Abi.filter((e) => e.type === 'function' && e.name === 'transfer');
const validContract = () => ({
  walletId: wallet.id,
  kind: 'contractWrite',
  addressId: child().id,
  calls: [
    { address: asset('USDC').address, method: 'transfer', abi: transferAbi, parameters: [RECIPIENT, '1'] },
  ],
});
const validTypedData = () => ({
  walletId: wallet.id,
  addressId: child().id,
  domain: { name: 'Token', version: '1', chainId: 1, verifyingContract: asset('USDC').address },
  types: { Vote: [{ name: 'choice', type: 'uint8' }] },
  primaryType: 'Vote',
  message: { choice: 1 },
});
/** The valid request's domain and signer with another document (the primary type left to inference). */
const typedDocument = (doc: { types: unknown; message: unknown }) => ({
  ...validTypedData(),
  primaryType: undefined,
  ...doc,
});
/** One type of `count` fields of one type and value. */
const wideTypes = (count: number, type = 'uint8', value: unknown = 1) => ({
  types: { Wide: Array.from({ length: count }, (_, i) => ({ name: `f${i}`, type })) },
  message: Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, value])),
});
/** A primary type referring to `count - 1` other types. */
const manyTypes = (count: number) => ({
  types: Object.fromEntries([
    ['Root', Array.from({ length: count - 1 }, (_, i) => ({ name: `t${i}`, type: `T${i}` }))],
    ...Array.from({ length: count - 1 }, (_, i) => [`T${i}`, [{ name: 'x', type: 'uint8' }]]),
  ]),
  message: Object.fromEntries(Array.from({ length: count - 1 }, (_, i) => [`t${i}`, { x: 1 }])),
});
/** `levels` struct types each holding the next, and a message that fills every level. */
const nestedTypes = (levels: number) => {
  const types: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++)
    types[`L${i}`] = i === levels - 1 ? [{ name: 'x', type: 'uint8' }] : [{ name: 'n', type: `L${i + 1}` }];
  let message: Record<string, unknown> = { x: 1 };
  for (let i = 1; i < levels; i++) message = { n: message };
  return { types, message };
};
const PERMIT_FIELDS = ['owner', 'spender', 'value', 'nonce', 'deadline'];
/** An EIP-2612 permit the child address signs, with fields changed. */
const permitOf = (changes: Record<string, unknown> = {}) => ({
  ...validTypedData(),
  types: {
    Permit: PERMIT_FIELDS.map((name) => ({ name, type: /owner|spender/.test(name) ? 'address' : 'uint256' })),
  },
  primaryType: 'Permit',
  message: {
    owner: child().address,
    spender: RECIPIENT,
    value: '1',
    nonce: '0',
    deadline: '4102444800',
    ...changes,
  },
});
/** An EIP-3009 authorization from the child address, with fields changed. */
const authorizationOf = (changes: Record<string, unknown> = {}) => ({
  ...validTypedData(),
  types: {
    TransferWithAuthorization: [
      { name: 'from', type: 'address' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'validAfter', type: 'uint256' },
      { name: 'validBefore', type: 'uint256' },
      { name: 'nonce', type: 'bytes32' },
    ],
  },
  primaryType: 'TransferWithAuthorization',
  message: {
    from: child().address,
    to: RECIPIENT,
    value: '1',
    validAfter: '0',
    validBefore: '4102444800',
    nonce: `0x${'ab'.repeat(32)}`,
    ...changes,
  },
});
const csvFile = (text: string) => Buffer.from(text).toString('base64');
/** A payout workbook of about 100 KB whose one label cell unpacks to 100 MB, as the form sends it (base64). */
let workbookBomb = '';
const validPayout = () => ({
  walletId: wallet.id,
  source: 'master',
  fileName: 'payroll.csv',
  content: csvFile(`address,amount,asset,reference\n${RECIPIENT},1,USDC,pay-1\n`),
});
const validUser = () => ({
  email: `new-${crypto.randomUUID()}@example.com`,
  name: 'New person',
  role: 'viewer',
});

// ---------------------------------------------------------------- the cases

interface Case {
  name: string;
  action: Action;
  input: () => unknown;
  /** The check needs a read of the wallet (its assets, an address): reads are allowed, writes never. */
  reads?: boolean;
  /** The field the refusal must be named at, and its sentence. */
  expects?: { field: string; message: RegExp };
}

const NUL = 'a\u0000b';
const CONTROLS = ['\u0000', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\u009b'];
const HTML = '<script>alert(1)</script>';
const SQL = "x'); drop table users; --";
const HUGE = 'x'.repeat(200_000);

function deep(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = { a: [value] };
  return value;
}

/**
 * Sets a value at a dotted path of a fresh copy (`rows.0.amount`); `undefined` deletes the key. A function
 * is called first: values that depend on the sandbox's wallet are made when the case runs.
 */
function set(input: unknown, at: string, given: unknown): unknown {
  const value = typeof given === 'function' ? (given as () => unknown)() : given;
  const copy = structuredClone(input) as Record<string, unknown>;
  const keys = at.split('.');
  let node = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

const cases: Case[] = [];
function add(
  prefix: string,
  action: Action,
  valid: () => unknown,
  changes: Array<[string, string, unknown]>,
  reads = false,
) {
  for (const [name, at, value] of changes)
    cases.push({ name: `${prefix}: ${name}`, action, input: () => set(valid(), at, value), reads });
}
/** Whole-input shapes every action refuses. */
function shapes(prefix: string, action: Action) {
  for (const [name, value] of [
    ['no input', undefined],
    ['null', null],
    ['a string', 'hello'],
    ['a number', 42],
    ['an array', []],
    ['an empty object', {}],
    ['5000-deep nesting', deep(5000)],
  ] as const)
    cases.push({ name: `${prefix}: ${name}`, action, input: () => value });
}
/** The same field with wrong types, control characters and an oversized text. */
function textField(prefix: string, action: Action, valid: () => unknown, at: string) {
  add(prefix, action, valid, [
    [`${at} missing`, at, undefined],
    [`${at} a number`, at, 12345],
    [`${at} null`, at, null],
    [`${at} an object`, at, { $gt: '' }],
    [`${at} oversized`, at, HUGE],
    ...CONTROLS.map((c, i): [string, string, unknown] => [
      `${at} control character ${i + 1}`,
      at,
      `ok${c}ok`,
    ]),
  ]);
}

for (const [label, action] of [
  ['withdraw request', withdrawals.createWithdrawalRequestAction],
  ['withdraw preview', withdrawals.previewWithdrawalAction],
] as const) {
  shapes(label, action);
  for (const at of ['walletId', 'source', 'rows.0.address', 'rows.0.amount', 'rows.0.assetId'])
    textField(label, action, validWithdrawal, at);
  add(label, action, validWithdrawal, [
    ['kind unknown', 'kind', 'steal'],
    ['no rows', 'rows', []],
    ['21 rows', 'rows', () => Array.from({ length: 21 }, () => validWithdrawal().rows[0])],
    ['rows not an array', 'rows', 'all'],
    ['reference with NUL', 'rows.0.reference', NUL],
    ['note with escape', 'rows.0.note', 'x\u001bx'],
    ['metadata with NUL', 'rows.0.metadata', `{"a":"${NUL}"}`],
  ]);
  add(
    label,
    action,
    validWithdrawal,
    [
      ['negative amount', 'rows.0.amount', '-1'],
      ['zero amount', 'rows.0.amount', '0'],
      ['overlong decimals', 'rows.0.amount', '1.1234567890123456789012345'],
      ['amount in words', 'rows.0.amount', 'ten'],
      ['amount with exponent', 'rows.0.amount', '1e6'],
      ['amount beyond any balance', 'rows.0.amount', '9'.repeat(60)],
      ['unknown asset', 'rows.0.assetId', '00000000-0000-4000-8000-000000000000'],
      ['HTML as asset', 'rows.0.assetId', HTML],
      ['bad address', 'rows.0.address', '0x1234'],
      ['address with bad checksum', 'rows.0.address', '0x1111111111111111111111111111111111111AbC'],
      ['HTML as address', 'rows.0.address', HTML],
      ['SQL as address', 'rows.0.address', SQL],
      ['address outside the address book', 'rows.0.address', OUTSIDE_BOOK],
      ['unknown wallet', 'walletId', 'not-a-connected-wallet'],
      ['SQL as wallet', 'walletId', SQL],
      ['unknown source', 'source', '00000000-0000-4000-8000-000000000000'],
    ],
    true,
  );
}

for (const [label, action] of [
  ['swap request', swaps.createSwapRequestAction],
  ['swap preview', swaps.previewSwapAction],
] as const) {
  shapes(label, action);
  for (const at of ['walletId', 'addressId', 'fromAssetId', 'amount'])
    textField(label, action, validSwap, at);
  add(label, action, validSwap, [
    ['order unknown', 'order', 'FREE'],
    ['metadata with NUL', 'metadata', NUL],
  ]);
  add(
    label,
    action,
    validSwap,
    [
      ['negative amount', 'amount', '-5'],
      ['zero amount', 'amount', '0'],
      ['overlong amount', 'amount', '1'.repeat(90)],
      ['unknown asset', 'toAssetId', '00000000-0000-4000-8000-000000000000'],
      ['same asset both sides', 'toAssetId', () => asset('USDC').id],
      ['HTML as asset', 'fromAssetId', HTML],
      ['master as source', 'addressId', 'master'],
      ['unknown address', 'addressId', '00000000-0000-4000-8000-000000000000'],
    ],
    true,
  );
}

{
  const label = 'settlement rule';
  const action = settlement.createAddressRuleAction;
  const valid = () => ({ walletId: wallet.id, addressId: child().id, rule: validRule() });
  shapes(label, action);
  for (const at of ['rule.name', 'rule.sourceBlockchain', 'rule.destinationAsset', 'rule.destinationAddress'])
    textField(label, action, valid, at);
  add(label, action, valid, [
    ['order unknown', 'rule.order', 'SOMETIMES'],
    ['isActive as text', 'rule.isActive', 'true'],
    ['no source assets', 'rule.sourceAssets', []],
    ['source assets not a list', 'rule.sourceAssets', 'USDC'],
    ['slippage over 100', 'rule.slippageTolerance', '150'],
    ['negative minimum', 'rule.minAmount', '-5'],
    ['maximum in words', 'rule.maxAmount', 'lots'],
    ['bad destination address', 'rule.destinationAddress', '0xdead'],
    ['name with NUL', 'rule.name', NUL],
  ]);
  add(
    label,
    action,
    valid,
    [
      ['1000 source assets', 'rule.sourceAssets', Array.from({ length: 1000 }, (_, i) => `T${i}`)],
      ['unknown source asset', 'rule.sourceAssets', ['NOPE']],
      ['HTML as source asset', 'rule.sourceAssets', [HTML.slice(0, 30)]],
      ['a source asset twice', 'rule.sourceAssets', ['USDC', 'USDC']],
      ['unknown source chain', 'rule.sourceBlockchain', 'solana'],
      ['SQL as destination chain', 'rule.destinationBlockchain', SQL],
      ['unknown destination asset', 'rule.destinationAsset', 'DOGE'],
      ['HTML as destination asset', 'rule.destinationAsset', '<b>USDC</b>'],
      ['destination outside the address book', 'rule.destinationAddress', OUTSIDE_BOOK],
    ],
    true,
  );
  const update = settlement.updateAddressRuleAction;
  const validUpdate = () => ({ ...valid(), ruleId: '00000000-0000-4000-8000-000000000000' });
  add('settlement update', update, validUpdate, [
    ['ruleId missing', 'ruleId', undefined],
    ['ruleId with NUL', 'ruleId', NUL],
    ['name with NUL', 'rule.name', NUL],
  ]);
  add('settlement update', update, validUpdate, [['SQL as chain', 'rule.sourceBlockchain', SQL]], true);
  add(
    'settlement toggle',
    settlement.setWalletSettlementAction,
    () => ({ walletId: wallet.id, isActive: true }),
    [
      ['isActive as text', 'isActive', 'false'],
      ['walletId with NUL', 'walletId', NUL],
      ['walletId missing', 'walletId', undefined],
    ],
  );
}

{
  const label = 'whitelist';
  const action = whitelist.whitelistAddressAction;
  shapes(label, action);
  for (const at of ['walletId', 'form.address']) textField(label, action, validWhitelist, at);
  add(label, action, validWhitelist, [
    ['name a number', 'form.name', 12345],
    ['name an object', 'form.name', { $ne: null }],
    ['name oversized', 'form.name', HUGE],
    ...CONTROLS.map((c, i): [string, string, unknown] => [
      `name control character ${i + 1}`,
      'form.name',
      `ok${c}ok`,
    ]),
  ]);
  add(label, action, validWhitelist, [
    ['bad address', 'form.address', '0x12'],
    ['HTML as address', 'form.address', HTML],
    ['SQL as address', 'form.address', SQL],
    ['metadata not JSON', 'form.metadata', '{nope'],
    ['metadata an array', 'form.metadata', '[1,2]'],
    ['metadata with NUL', 'form.metadata', `{"a":"${NUL}"}`],
    ['flag as text', 'form.showPrivateKey', 'yes'],
    ['short private key', 'form.privateKey', '0x1234'],
    ['private key with NUL', 'form.privateKey', `0x${'1'.repeat(63)}\u0000`],
  ]);
}

{
  const label = 'remove whitelisted';
  const action = whitelist.removeWhitelistedAddressAction;
  const valid = () => ({ walletId: wallet.id, addressId: wallet.addresses[0]!.id });
  shapes(label, action);
  for (const at of ['walletId', 'addressId']) textField(label, action, valid, at);
}

{
  const label = 'deposit address';
  const action = depositAddresses.createDepositAddressAction;
  const valid = () => ({
    walletId: wallet.id,
    form: { name: 'Customer 1', metadata: '', disableAutoSweep: false, enableGaslessWithdraw: false },
  });
  shapes(label, action);
  for (const at of ['walletId', 'form.name']) textField(label, action, valid, at);
  add(label, action, valid, [
    ['name blank', 'form.name', '   '],
    ['metadata not JSON', 'form.metadata', '{nope'],
    ['metadata an array', 'form.metadata', '[1,2]'],
    ['flag as text', 'form.disableAutoSweep', 'yes'],
  ]);
}

for (const [label, action] of [
  ['contract request', contracts.createContractRequestAction],
  ['contract preview', contracts.previewContractRequestAction],
] as const) {
  shapes(label, action);
  for (const at of ['walletId', 'addressId', 'calls.0.method']) textField(label, action, validContract, at);
  add(label, action, validContract, [
    ['kind unknown', 'kind', 'contractDeploy'],
    ['no calls', 'calls', []],
    ['21 calls', 'calls', () => Array.from({ length: 21 }, () => validContract().calls[0])],
    ['abi not a list', 'calls.0.abi', 'transfer'],
    ['parameters 5000 deep', 'calls.0.parameters', [deep(5000)]],
    ['parameter with NUL', 'calls.0.parameters', [RECIPIENT, NUL]],
    ['contract address HTML', 'calls.0.address', HTML],
    ['contract address short', 'calls.0.address', '0x12'],
    ['method not in the ABI', 'calls.0.method', 'mint'],
    ['negative amount', 'calls.0.parameters', [RECIPIENT, '-1']],
    ['amount beyond uint256', 'calls.0.parameters', [RECIPIENT, '9'.repeat(90)]],
    ['recipient not an address', 'calls.0.parameters', ['0xnope', '1']],
    ['missing parameter', 'calls.0.parameters', [RECIPIENT]],
  ]);
  add(
    label,
    action,
    validContract,
    [
      ['unknown address id', 'addressId', '00000000-0000-4000-8000-000000000000'],
      ['SQL as address id', 'addressId', SQL],
      ['unknown wallet', 'walletId', 'not-a-connected-wallet'],
    ],
    true,
  );
}

for (const [label, action] of [
  ['typed data request', signing.createTypedDataRequestAction],
  ['typed data preview', signing.previewTypedDataAction],
] as const) {
  shapes(label, action);
  for (const at of ['walletId', 'addressId']) textField(label, action, validTypedData, at);
  add(label, action, validTypedData, [
    ['domain missing', 'domain', undefined],
    ['domain a string', 'domain', 'Token'],
    ['types missing', 'types', undefined],
    ['message 5000 deep', 'message', deep(5000)],
    ['message with NUL', 'message.choice', NUL],
    ['message key with NUL', 'message', { [NUL]: 1 }],
    ['types disagree with message', 'message', { other: 1 }],
    ['value out of range', 'message.choice', 300],
    ['verifying contract HTML', 'domain.verifyingContract', HTML],
    ['chain id negative', 'domain.chainId', -1],
    ['primary type unknown', 'primaryType', 'Nope'],
    ['primary type with NUL', 'primaryType', `Vote${NUL}`],
  ]);
  add(
    label,
    action,
    validTypedData,
    [['unknown address id', 'addressId', '00000000-0000-4000-8000-000000000000']],
    true,
  );
  // The document's limits (refused before any read) and a permit the signing address does not own (after
  // reading the address from the custody service), each with its sentence at the JSON field it concerns.
  const typedLimits: Array<[string, () => unknown, string, RegExp, boolean?]> = [
    [
      'a type of 65 fields',
      () => typedDocument(wideTypes(65)),
      'types',
      /^Wide has 65 fields: a type may have at most 64\.$/,
    ],
    [
      'a type of 1,000 fields',
      () => typedDocument(wideTypes(1000)),
      'types',
      /^Wide has 1,000 fields: a type may have at most 64\.$/,
    ],
    [
      '33 types',
      () => typedDocument(manyTypes(33)),
      'types',
      /^Define at most 32 types \(this document has 33\)\.$/,
    ],
    [
      'structs nested 9 levels',
      () => typedDocument(nestedTypes(9)),
      'message',
      /^(n\.){7}n is a struct nested 9 levels deep: struct types may nest at most 8 levels\.$/,
    ],
    [
      'an array of 257 items',
      () =>
        typedDocument({
          types: { List: [{ name: 'items', type: 'uint8[]' }] },
          message: { items: Array.from({ length: 257 }, () => 1) },
        }),
      'message',
      /^items has 257 items: an array may have at most 256\.$/,
    ],
    [
      'an array declaring 1,000 items',
      () =>
        typedDocument({ types: { List: [{ name: 'items', type: 'uint8[1000]' }] }, message: { items: [] } }),
      'types',
      /^List\.items declares 1,000 items \(uint8\[1000\]\): an array may have at most 256\.$/,
    ],
    [
      'a string of 1,001 characters',
      () =>
        typedDocument({
          types: { Note: [{ name: 'text', type: 'string' }] },
          message: { text: 'x'.repeat(1001) },
        }),
      'message',
      /^text is 1,001 characters long: a string may have at most 1,000\.$/,
    ],
    [
      '4,097 bytes',
      () =>
        typedDocument({
          types: { Blob: [{ name: 'data', type: 'bytes' }] },
          message: { data: `0x${'ab'.repeat(4097)}` },
        }),
      'message',
      /^data is 4,097 bytes long: bytes may have at most 4,096\.$/,
    ],
    [
      'a message of 21,000 characters',
      () => typedDocument(wideTypes(21, 'string', 'x'.repeat(1000))),
      'message',
      /^The message may have at most 20,000 characters \(written as compact JSON\)\.$/,
    ],
    [
      'a permit of another owner',
      () => permitOf({ owner: OUTSIDE_BOOK }),
      'message',
      /^The permit's owner 0x2222222222222222222222222222222222222222 is not the address that signs it \(0x[0-9a-fA-F]{40}\)\.$/,
      true,
    ],
    [
      'an authorization from another address',
      () => authorizationOf({ from: OUTSIDE_BOOK }),
      'message',
      /^The authorization's from address 0x2222222222222222222222222222222222222222 is not the address that signs it \(0x[0-9a-fA-F]{40}\)\.$/,
      true,
    ],
  ];
  for (const [name, input, field, message, reads] of typedLimits)
    cases.push({ name: `${label}: ${name}`, action, input, reads, expects: { field, message } });
}

for (const [label, action] of [
  ['payout check', payouts.checkPayoutFileAction],
  ['payout request', payouts.createPayoutRequestAction],
] as const) {
  shapes(label, action);
  for (const at of ['walletId', 'source', 'fileName', 'content']) textField(label, action, validPayout, at);
  add(label, action, validPayout, [
    ['an .xls file', 'fileName', 'payroll.xls'],
    ['content not base64', 'content', '%%%'],
    ['an empty file', 'content', ''],
    ['no asset column', 'content', () => csvFile(`address,amount\n${RECIPIENT},1\n`)],
    ['a header only', 'content', () => csvFile('address,amount,asset\n')],
    ['named .xlsx but text', 'fileName', 'payroll.xlsx'],
  ]);
  add(label, action, () => ({ ...validPayout(), fileName: 'payroll.xlsx' }), [
    ['a workbook whose one cell unpacks to 100 MB', 'content', () => workbookBomb],
  ]);
  add(
    label,
    action,
    validPayout,
    [['source not of the wallet', 'source', '00000000-0000-4000-8000-000000000000']],
    true,
  );
}
add(
  'payout request',
  payouts.createPayoutRequestAction,
  validPayout,
  [
    [
      'row with a bad checksum',
      'content',
      () => csvFile('address,amount,asset\n0x52908400098527886e0F7030069857D2E4169EE7,1,USDC\n'),
    ],
    [
      'row with too many decimals',
      'content',
      () => csvFile(`address,amount,asset\n${RECIPIENT},0.0000001,USDC\n`),
    ],
    ['row with an unknown asset', 'content', () => csvFile(`address,amount,asset\n${RECIPIENT},1,DOGE\n`)],
    [
      'row paying the zero address',
      'content',
      () => csvFile('address,amount,asset\n0x0000000000000000000000000000000000000000,1,USDC\n'),
    ],
    [
      'one reference twice',
      'content',
      () => csvFile(`address,amount,asset,reference\n${RECIPIENT},1,USDC,a\n${RECIPIENT},2,USDC,a\n`),
    ],
    [
      'a reference with HTML',
      'content',
      () => csvFile(`address,amount,asset,reference\n${RECIPIENT},1,USDC,${HTML}\n`),
    ],
    [
      'a label with NUL',
      'content',
      () => csvFile(`address,amount,asset,label\n${RECIPIENT},1,USDC,${NUL}\n`),
    ],
  ],
  true,
);

{
  const label = 'add user';
  const action = users.addUserAction;
  shapes(label, action);
  for (const at of ['email', 'name']) textField(label, action, validUser, at);
  add(label, action, validUser, [
    ['role unknown', 'role', 'root'],
    ['role missing', 'role', undefined],
    ['email without @', 'email', 'someone'],
    ['email HTML', 'email', `${HTML}@example.com`],
    ['email SQL', 'email', `${SQL}@example.com`],
    ['name with NUL', 'name', `Nia${NUL}`],
    ['name blank', 'name', '   '],
  ]);
  const resend = users.resendInvitationAction;
  shapes('send the invitation again', resend);
  add('send the invitation again', resend, () => ({ userId: actorId }), [
    ['user id not a uuid', 'userId', SQL],
    ['user id with NUL', 'userId', NUL],
  ]);
  const reset = users.requestResetLinkAction;
  shapes('request a reset link', reset);
  add('request a reset link', reset, () => ({ userId: actorId, scope: 'password' }), [
    ['user id not a uuid', 'userId', SQL],
    ['scope unknown', 'scope', 'everything'],
    ['scope missing', 'scope', undefined],
  ]);
  const role = users.changeUserRoleAction;
  shapes('change role', role);
  add('change role', role, () => ({ userId: actorId, role: 'viewer' }), [
    ['user id not a uuid', 'userId', SQL],
    ['user id with NUL', 'userId', NUL],
    ['role unknown', 'role', 'superadmin'],
    ['role a number', 'role', 1],
  ]);
}

// ------------------------------------------------- decoded text: JSON escapes, text direction, metadata depth

/** A NUL written as a JSON escape: six characters of text, a NUL once decoded. */
const ESCAPED_NUL = '{"invoice":"A\\u0000"}';
const ESCAPED_NUL_KEY = '{"in\\u0000voice":"A"}';
const ESCAPED_OVERRIDE = '{"invoice":"\\u202Eevil"}';
/** 100 levels: the form took it while the console API refuses anything past its limit. */
const DEEP_METADATA = () => JSON.stringify(deep(100));
const RLO = '\u202E';
{
  const metadataCases: Array<[string, Action, () => unknown, string, string]> = [
    [
      'withdraw request',
      withdrawals.createWithdrawalRequestAction,
      validWithdrawal,
      'rows.0.metadata',
      'rows.0.metadata',
    ],
    [
      'withdraw preview',
      withdrawals.previewWithdrawalAction,
      validWithdrawal,
      'rows.0.metadata',
      'rows.0.metadata',
    ],
    ['swap request', swaps.createSwapRequestAction, validSwap, 'metadata', 'metadata'],
    ['swap preview', swaps.previewSwapAction, validSwap, 'metadata', 'metadata'],
    ['whitelist', whitelist.whitelistAddressAction, validWhitelist, 'form.metadata', 'metadata'],
    [
      'deposit address',
      depositAddresses.createDepositAddressAction,
      () => ({
        walletId: wallet.id,
        form: { name: 'Customer 1', metadata: '', disableAutoSweep: false, enableGaslessWithdraw: false },
      }),
      'form.metadata',
      'metadata',
    ],
  ];
  for (const [label, action, valid, at, field] of metadataCases)
    for (const [name, value, message] of [
      ['escaped NUL', ESCAPED_NUL, /^Metadata: remove control characters\.$/],
      ['escaped NUL in a key', ESCAPED_NUL_KEY, /^Metadata: remove control characters\.$/],
      ['escaped text-direction override', ESCAPED_OVERRIDE, /^Metadata: remove text-direction characters/],
      ['nested 100 levels', DEEP_METADATA, /^Metadata: nested more than 16 levels deep\.$/],
    ] as const)
      cases.push({
        name: `${label}: metadata with ${name}`,
        action,
        input: () => set(valid(), at, value),
        expects: { field, message },
      });
  const named: Array<[string, Action, () => unknown, string, string]> = [
    ['add user', users.addUserAction, validUser, 'name', 'name'],
    ['whitelist', whitelist.whitelistAddressAction, validWhitelist, 'form.name', 'name'],
    [
      'settlement rule',
      settlement.createAddressRuleAction,
      () => ({ walletId: wallet.id, addressId: child().id, rule: validRule() }),
      'rule.name',
      'name',
    ],
  ];
  for (const [label, action, valid, at, field] of named)
    cases.push({
      name: `${label}: name with a text-direction override`,
      action,
      input: () => set(valid(), at, `Acme${RLO}gnp.exe`),
      expects: { field, message: /^Remove text-direction characters/ },
    });
}

// ---------------------------------------------------------------- the run

const REFUSED = ['invalid', 'failed', 'denied'];
/** The audit log's last id (its primary key's end: no scan of the log, however long it has grown). */
const lastAuditId = async () =>
  (await t.db.select({ last: sql<number>`coalesce(max(${auditLog.id}), 0)::int` }).from(auditLog))[0]!.last;
const approvalRequests = async () =>
  (await t.db.select({ n: sql<number>`count(*)::int` }).from(operationRequests))[0]!;

describe('bad input at the actions', () => {
  it('has at least 200 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it('accepts the valid inputs the cases start from (so each case fails on its own change)', async () => {
    const checks: Array<[string, Action, unknown]> = [
      ['withdraw preview', withdrawals.previewWithdrawalAction, validWithdrawal()],
      ['swap preview', swaps.previewSwapAction, validSwap()],
      ['contract preview', contracts.previewContractRequestAction, validContract()],
      ['typed data preview', signing.previewTypedDataAction, validTypedData()],
      ['permit preview', signing.previewTypedDataAction, permitOf()],
      [
        'permit preview, owner in lower case',
        signing.previewTypedDataAction,
        permitOf({ owner: child().address.toLowerCase() }),
      ],
      ['authorization preview', signing.previewTypedDataAction, authorizationOf()],
      ['payout check', payouts.checkPayoutFileAction, validPayout()],
    ];
    for (const [name, action, input] of checks) {
      const result = await action(input);
      expect({ name, ...result }).toMatchObject({ name, ok: true });
    }
  });

  it("refuses a workbook bomb at the payout check, naming the limit, while another person's wallet read is answered", async () => {
    const sent = requests.length;
    const [check, read] = await Promise.all([
      payouts.checkPayoutFileAction({ ...validPayout(), fileName: 'payroll.xlsx', content: workbookBomb }),
      loadWalletView(wallet.id, null),
    ]);
    expect(read.ok).toBe(true);
    expect(check.ok).toBe(false);
    expect(JSON.stringify(check)).toContain('unpacks to more than');
    expect(requests.slice(sent).filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('creates a deposit address once, or says plainly that a service with the spec alone has no such call', async () => {
    const form = {
      name: 'Customer bad-input',
      metadata: '{"customerId":"c1"}',
      disableAutoSweep: false,
      enableGaslessWithdraw: false,
    };
    const sent = requests.length;
    const created = await depositAddresses.createDepositAddressAction({ walletId: wallet.id, form });
    expect(created).toMatchObject({ ok: true, data: { name: 'Customer bad-input' } });
    expect(requests.slice(sent).filter((r) => r.method === 'POST')).toHaveLength(1);

    const faults = (body: unknown) =>
      sandbox.fetch(`${TEST_SANDBOX_BASE_URL}/control/faults`, {
        method: 'POST',
        headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await faults({ specOnly: true });
    try {
      const refused = await depositAddresses.createDepositAddressAction({ walletId: wallet.id, form });
      expect(refused).toMatchObject({
        ok: false,
        error: expect.stringContaining('This custody service does not offer new deposit addresses'),
      });
    } finally {
      await faults({ specOnly: false });
    }
  });

  it('asks to remove a whitelisted address without writing upstream, and refuses an internal one', async () => {
    const external = wallet.addresses.find((a) => a.type === 'EXTERNAL')!;
    const sent = requests.length;
    const removed = await whitelist.removeWhitelistedAddressAction({
      walletId: wallet.id,
      addressId: external.id,
    });
    expect(removed).toMatchObject({ ok: true, data: { kind: 'requested' } });
    // Read to build the review; written only when a second admin approves.
    expect(requests.slice(sent).filter((r) => r.method !== 'GET')).toEqual([]);
    const internal = wallet.addresses.find((a) => a.type === 'INTERNAL')!;
    const approvals = (await approvalRequests()).n;
    const refused = await whitelist.removeWhitelistedAddressAction({
      walletId: wallet.id,
      addressId: internal.id,
    });
    expect(refused).toMatchObject({
      ok: false,
      error: 'Only whitelisted (external) addresses can be removed from the whitelist.',
    });
    expect((await approvalRequests()).n).toBe(approvals);
  });

  it('names an unknown address id at the field of a contract write', async () => {
    const result = await contracts.createContractRequestAction({
      ...validContract(),
      addressId: '00000000-0000-4000-8000-000000000000',
    });
    expect(result).toMatchObject({
      ok: false,
      error: 'This address is not part of the wallet.',
      fieldErrors: { addressId: 'This address is not part of the wallet.' },
    });
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = await lastAuditId();
    const sent = requests.length;
    const approvals = (await approvalRequests()).n;

    const result = await c.action(c.input());

    expect(result.ok).toBe(false);
    const message = result.error ?? '';
    expect(message.length).toBeGreaterThan(0);
    // A sentence, never a stack trace or the raw input.
    expect(message).not.toMatch(/\n\s+at |ZodError|TypeError/);
    expect(message.includes('\u0000')).toBe(false);
    if (c.expects) expect(result.fieldErrors?.[c.expects.field]).toMatch(c.expects.message);
    const reached = requests.slice(sent);
    expect(reached.filter((r) => r.method !== 'GET')).toEqual([]);
    if (!c.reads) expect(reached).toEqual([]);
    expect((await approvalRequests()).n).toBe(approvals);
    // The refusal itself is in the log (a fresh second factor's use may be logged before it).
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, actorId), gt(auditLog.id, before)));
    expect(entries.some((e) => REFUSED.includes(e.outcome))).toBe(true);
  });
});
