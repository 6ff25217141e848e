// Bad input at every route handler (the console's own JSON and CSV routes, with a session, and the console API,
// with a token), against the real database and sandbox. Each case answers 4xx with a sentence (never a stack or
// a server error), sends nothing to the custody service (counted at the sandbox) and leaves an audit entry; and
// another person's read still answers afterwards. The actions' corpus is lib/actions/bad-input.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, serviceTokens } from '@/lib/db/schema';
import type { Sandbox, SandboxCredentials } from '@/lib/sandbox';
import { provideServices } from '@/lib/server/services';
import { type CountingConsole, openCountingConsole } from '@/test/counting-console';
import { createTestDatabase, type TestDatabase } from '@/test/db';

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

const { createUser } = await import('@/lib/server/users');
const { startSession } = await import('@/lib/server/sessions');
const { issueToken, tokenActorId } = await import('@/lib/server/service-tokens/tokens');
const api = await import('@/lib/server/service-tokens/routes');

type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

/** The session routes by their folder under app/, each with its dynamic segments. */
const SESSION_ROUTES: Array<{ route: string; params: string[]; handler: () => Promise<Handler> }> = [
  {
    route: 'api/wallets/[walletId]',
    params: ['walletId'],
    handler: async () => (await import('@/app/api/wallets/[walletId]/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/transactions',
    params: ['walletId'],
    handler: async () => (await import('@/app/api/wallets/[walletId]/transactions/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/transactions/export.csv',
    params: ['walletId'],
    handler: async () => (await import('@/app/api/wallets/[walletId]/transactions/export.csv/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/transactions/[transactionId]',
    params: ['walletId', 'transactionId'],
    handler: async () =>
      (await import('@/app/api/wallets/[walletId]/transactions/[transactionId]/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/transactions/[transactionId]/webhooks',
    params: ['walletId', 'transactionId'],
    handler: async () =>
      (await import('@/app/api/wallets/[walletId]/transactions/[transactionId]/webhooks/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/addresses',
    params: ['walletId'],
    handler: async () => (await import('@/app/api/wallets/[walletId]/addresses/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/addresses/[addressId]/balances',
    params: ['walletId', 'addressId'],
    handler: async () =>
      (await import('@/app/api/wallets/[walletId]/addresses/[addressId]/balances/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/addresses/[addressId]/transactions',
    params: ['walletId', 'addressId'],
    handler: async () =>
      (await import('@/app/api/wallets/[walletId]/addresses/[addressId]/transactions/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/address-book/export.csv',
    params: ['walletId'],
    handler: async () => (await import('@/app/api/wallets/[walletId]/address-book/export.csv/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/statements/export.csv',
    params: ['walletId'],
    handler: async () => (await import('@/app/api/wallets/[walletId]/statements/export.csv/route')).GET,
  },
  {
    route: 'api/wallets/[walletId]/webhooks',
    params: ['walletId'],
    handler: async () => (await import('@/app/api/wallets/[walletId]/webhooks/route')).GET,
  },
  { route: 'api/search', params: [], handler: async () => (await import('@/app/api/search/route')).GET },
];

/** Path segments that name nothing: each refused before any lookup. */
const BAD_SEGMENTS: Array<[string, string]> = [
  ['a NUL', 'wal\u0000let'],
  ['an escape character', 'wal\u001blet'],
  ['a text-direction override', 'wal\u202elet'],
  ['a slash', '../etc'],
  ['a space', 'wallet 1'],
  ['nothing', ''],
  ['101 characters', 'w'.repeat(101)],
  ['a quote', "w'1"],
];

/** Query strings refused by name, on any route that reads one. */
const BAD_QUERY_TEXT: Array<[string, string]> = [
  ['a NUL in a value', 'q=ab%00c'],
  ['a NUL in a name', 'a%00b=1'],
  ['a text-direction override in a value', 'q=a%E2%80%AEb'],
  ['an escape character in a value', 'q=a%1Bb'],
];

/** Query values each route's own rules refuse. */
const BAD_QUERY_VALUES: Record<string, string[]> = {
  'api/wallets/[walletId]/transactions': [
    'page=0',
    'page=-1',
    'page=abc',
    'page=1e9',
    'limit=2000',
    'limit=7',
    'sort=password',
    'order=sideways',
    'status=BOGUS',
    'type=TELEPORT',
    'id=not-a-uuid',
    'hash=0xzz',
    'addressId=nope',
    `reference=${'r'.repeat(201)}`,
    `assets=${Array.from({ length: 21 }, (_, i) => `A${i}`).join(',')}`,
    'open=nope',
  ],
  'api/wallets/[walletId]/transactions/export.csv': ['sort=password', 'status=BOGUS', 'hash=0xzz', 'id=1'],
  'api/wallets/[walletId]/statements/export.csv': [
    'from=2026-13-45',
    'to=2026-02-30',
    'from=2026-10-01&to=2026-09-01',
    'from=yesterday',
    'asset=%3Cscript%3E',
    `from=${'9'.repeat(11)}`,
  ],
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'bad-input-routes-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
let adminId: string;
let viewer: NonNullable<typeof state.user>;
let token: string;
let tokenId: string;
/** Every request the console sends the sandbox, as the sandbox receives it. */
let requests: CountingConsole['requests'];

beforeAll(async () => {
  t = await createTestDatabase();
  ({ sandbox, wallet, requests } = await openCountingConsole(t, dataDir));
  const created = await createUser(t.db, { email: 'routes-admin@example.com', name: 'Admin', role: 'admin' });
  if (!created.ok) throw new Error(created.error);
  adminId = created.user.id;
  const session = await startSession(t.db, { userId: adminId, stepUpAt: Date.now() });
  state.user = { ...created.user, mustChangePassword: false, sessionId: session.id };
  const other = await createUser(t.db, {
    email: 'routes-viewer@example.com',
    name: 'Viewer',
    role: 'viewer',
  });
  if (!other.ok) throw new Error(other.error);
  const otherSession = await startSession(t.db, { userId: other.user.id });
  viewer = { ...other.user, mustChangePassword: false, sessionId: otherSession.id };
  const issued = issueToken();
  token = issued.token;
  const [row] = await t.db
    .insert(serviceTokens)
    .values({
      name: 'Back office',
      secretHash: issued.secretHash,
      prefix: issued.prefix,
      scopes: ['read', 'withdrawals:request', 'swaps:request'],
      walletIds: [wallet.id],
      dailyCapUsd: '100000',
      rateLimitPerMinute: 100_000,
      expiresAt: new Date(Date.now() + 86_400_000),
      createdBy: adminId,
      createdByEmail: 'routes-admin@example.com',
    })
    .returning();
  tokenId = row!.id;
}, 120_000);

afterAll(async () => {
  provideServices(undefined);
  await sandbox.stop();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Case {
  name: string;
  call: () => Promise<Response>;
  /** Whose audit entry the refusal leaves: the signed-in person's or the token's. */
  by: 'person' | 'token';
  /** The check needs a read of the wallet (its assets, balances, addresses): reads are allowed, writes never. */
  reads?: boolean;
}

/** Refusals that need to read the wallet first, as the forms' do (lib/actions/bad-input.test.ts). */
const NEEDS_A_READ = new Set([
  'POST /api/v1/wallets/{w}/withdrawals: amount zero',
  'POST /api/v1/wallets/{w}/swaps: a negative amount',
  'POST /api/v1/wallets/{w}/swaps: an unknown address',
]);

const cases: Case[] = [];

const walletSegment = () => wallet.id;
const child = () => wallet.addresses.find((a) => a.type === 'INTERNAL') ?? wallet.addresses[0]!;
/** Good values for each segment, so a case changes only the one it names. */
const goodParam: Record<string, () => string> = {
  walletId: walletSegment,
  transactionId: () => '00000000-0000-4000-8000-000000000001',
  addressId: () => child().id,
};

function sessionCall(route: (typeof SESSION_ROUTES)[number], params: Record<string, string>, query = '') {
  return async () => {
    const handler = await route.handler();
    const url = `http://console.test/${route.route.replace(/\[(\w+)\]/g, (_, name: string) =>
      encodeURIComponent(params[name] ?? ''),
    )}${query ? `?${query}` : ''}`;
    return handler(new Request(url), { params: Promise.resolve(params) });
  };
}

for (const route of SESSION_ROUTES) {
  const good = () => Object.fromEntries(route.params.map((p) => [p, goodParam[p]!()]));
  for (const param of route.params) {
    for (const [what, value] of BAD_SEGMENTS) {
      cases.push({
        name: `${route.route}: ${param} with ${what}`,
        by: 'person',
        call: () => sessionCall(route, { ...good(), [param]: value })(),
      });
    }
  }
  for (const [what, query] of BAD_QUERY_TEXT) {
    cases.push({
      name: `${route.route}: query with ${what}`,
      by: 'person',
      call: () => sessionCall(route, good(), query)(),
    });
  }
  for (const query of BAD_QUERY_VALUES[route.route] ?? []) {
    cases.push({
      name: `${route.route}: ?${query.slice(0, 60)}`,
      by: 'person',
      call: () => sessionCall(route, good(), query)(),
    });
  }
}
cases.push({
  name: 'api/wallets/[walletId]/transactions/[transactionId]: a transaction id that is not a UUID',
  by: 'person',
  call: () => sessionCall(SESSION_ROUTES[3]!, { walletId: walletSegment(), transactionId: 'not-a-uuid' })(),
});

// ---------------------------------------------------------------- the console API

function apiCall(
  handler: Handler,
  pathname: string,
  params: Record<string, string>,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  return () =>
    handler(
      new Request(`http://console.test${pathname}`, {
        method: init.method ?? 'GET',
        body: init.body,
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
      }),
      { params: Promise.resolve(params) },
    );
}

const usdc = () => wallet.assets.find((a) => a.symbol === 'USDC') ?? wallet.assets[0]!;
const item = (over: Record<string, unknown> = {}) => ({
  assetId: usdc().id,
  address: '0x1111111111111111111111111111111111111111',
  amount: '1',
  ...over,
});
const withdrawal = (body: unknown, headers: Record<string, string> = {}) =>
  apiCall(
    api.requestWithdrawal as Handler,
    `/api/v1/wallets/${wallet.id}/withdrawals`,
    { walletId: wallet.id },
    { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers },
  )();
const swap = (body: unknown) =>
  apiCall(
    api.requestSwap as Handler,
    `/api/v1/wallets/${wallet.id}/swaps`,
    { walletId: wallet.id },
    { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body) },
  )();
const swapBody = (over: Record<string, unknown> = {}) => ({
  addressId: child().id,
  fromAssetId: usdc().id,
  toAssetId: wallet.assets.find((a) => a.symbol !== 'USDC')?.id ?? usdc().id,
  amount: '1',
  order: 'FASTEST',
  ...over,
});

const WITHDRAWAL_BODIES: Array<[string, () => unknown]> = [
  ['broken JSON', () => '{"items":'],
  ['JSON that is a string', () => '"withdraw"'],
  ['an empty object', () => ({})],
  ['no items', () => ({ items: [] })],
  ['5000-deep nesting', () => `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['a NUL written inside JSON text', () => '{"items":[{"assetId":"a","address":"b\\u0000","amount":"1"}]}'],
  ['a NUL in a key', () => '{"a\\u0000":1}'],
  ['a text-direction override in the note', () => ({ items: [item({ note: 'pay\u202eout' })] })],
  ['a NUL in the metadata', () => ({ items: [item({ metadata: { a: 'x\u0000y' } })] })],
  ['metadata nested 40 deep', () => ({ items: [item({ metadata: nest(40) })] })],
  ['metadata over 10,000 characters', () => ({ items: [item({ metadata: { a: 'x'.repeat(10_001) } })] })],
  ['a body over 64 KiB', () => ({ items: [item({ note: 'n'.repeat(70_000) })] })],
  ['an unknown field', () => ({ items: [item({ memo: 'x' })] })],
  ['a top-level unknown field', () => ({ items: [item()], priority: 'high' })],
  ['amount zero', () => ({ items: [item({ amount: '0' })] })],
  ['a negative amount', () => ({ items: [item({ amount: '-1' })] })],
  ['amount in exponent notation', () => ({ items: [item({ amount: '1e3' })] })],
  ['amount as a number', () => ({ items: [item({ amount: 1 })] })],
  ['amount with letters', () => ({ items: [item({ amount: '1O' })] })],
  ['amount with too many decimals', () => ({ items: [item({ amount: '0.0000000000000000001' })] })],
  ['amount over the balance', () => ({ items: [item({ amount: '99999999999' })] })],
  ['an empty amount', () => ({ items: [item({ amount: '' })] })],
  ['an address that is not one', () => ({ items: [item({ address: 'not-an-address' })] })],
  [
    'an address with a bad checksum',
    () => ({ items: [item({ address: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01' })] }),
  ],
  [
    'an address outside the address book',
    () => ({ items: [item({ address: '0x2222222222222222222222222222222222222222' })] }),
  ],
  [
    'an address with a zero-width space',
    () => ({ items: [item({ address: '0x1111111111111111111111111111111111111111\u200b' })] }),
  ],
  ['an unknown asset', () => ({ items: [item({ assetId: '00000000-0000-4000-8000-000000000009' })] })],
  ['an empty asset', () => ({ items: [item({ assetId: '' })] })],
  ['a reference over 64 characters', () => ({ items: [item({ reference: 'r'.repeat(65) })] })],
  ['a reference with a NUL', () => ({ items: [item({ reference: 'r\u0000' })] })],
  ['a note over 1000 characters', () => ({ items: [item({ note: 'n'.repeat(1001) })] })],
  ['a source that is not an address of the wallet', () => ({ source: 'nope', items: [item()] })],
  ['a source over 100 characters', () => ({ source: 's'.repeat(101), items: [item()] })],
  ['too many items', () => ({ items: Array.from({ length: 1001 }, () => item()) })],
  ['items that is an object', () => ({ items: item() })],
  ['metadata that is a list', () => ({ items: [item({ metadata: [1, 2] })] })],
];

function nest(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 0; i < depth; i++) value = { n: value };
  return value;
}

for (const [what, body] of WITHDRAWAL_BODIES)
  cases.push({
    name: `POST /api/v1/wallets/{w}/withdrawals: ${what}`,
    by: 'token',
    call: () => withdrawal(body()),
  });
for (const [what, key] of [
  ['an empty Idempotency-Key', ' '],
  ['an Idempotency-Key over 200 characters', 'k'.repeat(201)],
  ['an Idempotency-Key with a control character', 'k\u0007'],
  ['an Idempotency-Key with non-ASCII text', 'clé'],
] as const)
  cases.push({
    name: `POST /api/v1/wallets/{w}/withdrawals: ${what}`,
    by: 'token',
    call: () => withdrawal({ items: [item()] }, { 'idempotency-key': key }),
  });

const SWAP_BODIES: Array<[string, () => unknown]> = [
  ['broken JSON', () => '{'],
  ['an empty object', () => ({})],
  ['an unknown order', () => swapBody({ order: 'NOW' })],
  ['a negative amount', () => swapBody({ amount: '-5' })],
  ['amount zero', () => swapBody({ amount: '0' })],
  ['amount with letters', () => swapBody({ amount: 'ten' })],
  ['the same asset on both sides', () => swapBody({ toAssetId: usdc().id })],
  ['an unknown address', () => swapBody({ addressId: '00000000-0000-4000-8000-00000000000a' })],
  ['an address id with a NUL', () => swapBody({ addressId: 'a\u0000' })],
  ['an unknown asset', () => swapBody({ fromAssetId: 'nope' })],
  ['an unknown field', () => swapBody({ slippage: 50 })],
  ['metadata with a text-direction override', () => swapBody({ metadata: { note: 'a\u202eb' } })],
  ['metadata nested 40 deep', () => swapBody({ metadata: nest(40) })],
  [
    'a NUL written inside JSON text',
    () => '{"addressId":"\\u0000","fromAssetId":"a","toAssetId":"b","amount":"1","order":"FASTEST"}',
  ],
];
for (const [what, body] of SWAP_BODIES)
  cases.push({ name: `POST /api/v1/wallets/{w}/swaps: ${what}`, by: 'token', call: () => swap(body()) });

const API_READS: Array<[string, () => Promise<Response>]> = [
  ['GET /api/v1/wallets?page=0', () => apiCall(api.listWallets as Handler, '/api/v1/wallets?page=0', {})()],
  [
    'GET /api/v1/wallets?limit=1000',
    () => apiCall(api.listWallets as Handler, '/api/v1/wallets?limit=1000', {})(),
  ],
  [
    'GET /api/v1/wallets?page=abc',
    () => apiCall(api.listWallets as Handler, '/api/v1/wallets?page=abc', {})(),
  ],
  [
    'GET /api/v1/wallets/{w}/transactions?sort=password',
    () =>
      apiCall(
        api.listWalletTransactions as Handler,
        `/api/v1/wallets/${wallet.id}/transactions?sort=password`,
        {
          walletId: wallet.id,
        },
      )(),
  ],
  [
    'GET /api/v1/wallets/{w}/transactions?status=BOGUS',
    () =>
      apiCall(
        api.listWalletTransactions as Handler,
        `/api/v1/wallets/${wallet.id}/transactions?status=BOGUS`,
        {
          walletId: wallet.id,
        },
      )(),
  ],
  [
    'GET /api/v1/wallets/{w}/transactions?limit=0',
    () =>
      apiCall(api.listWalletTransactions as Handler, `/api/v1/wallets/${wallet.id}/transactions?limit=0`, {
        walletId: wallet.id,
      })(),
  ],
  [
    'GET /api/v1/requests?page=-1',
    () => apiCall(api.listRequests as Handler, '/api/v1/requests?page=-1', {})(),
  ],
  [
    'GET /api/v1/requests/{id} with a NUL',
    () => apiCall(api.getRequest as Handler, '/api/v1/requests/a%00', { requestId: 'a\u0000' })(),
  ],
  [
    'GET /api/v1/requests/{id} that is not an id',
    () => apiCall(api.getRequest as Handler, '/api/v1/requests/nope', { requestId: 'nope' })(),
  ],
  [
    'GET /api/v1/wallets/{w} with a text-direction override',
    () => apiCall(api.getWallet as Handler, '/api/v1/wallets/a%E2%80%AEb', { walletId: 'a\u202eb' })(),
  ],
  [
    'GET /api/v1/wallets/{w} of another wallet',
    () => apiCall(api.getWallet as Handler, '/api/v1/wallets/w-2', { walletId: 'w-2' })(),
  ],
];
for (const [name, call] of API_READS) cases.push({ name, by: 'token', call });

// ---------------------------------------------------------------- the checks

async function auditEntries(by: Case['by']): Promise<number> {
  const actor = by === 'person' ? adminId : tokenActorId(tokenId);
  const [row] = await t.db.select({ n: count() }).from(auditLog).where(eq(auditLog.actorId, actor));
  return row?.n ?? 0;
}

describe('bad input at the routes', () => {
  it('has at least 200 cases, each named once', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it('answers a good read on each route, so each case fails on its own change', async () => {
    const wallets = (await import('@/app/api/wallets/[walletId]/route')).GET;
    const read = await wallets(new Request(`http://console.test/api/wallets/${wallet.id}`), {
      params: Promise.resolve({ walletId: wallet.id }),
    });
    expect(read.status).toBe(200);
    const listed = await apiCall(api.listWallets as Handler, '/api/v1/wallets', {})();
    expect(listed.status).toBe(200);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const sent = requests.length;
    const audited = await auditEntries(c.by);
    const response = await c.call();
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const text = await response.text();
    const body = JSON.parse(text) as { message?: string };
    expect(typeof body.message).toBe('string');
    expect(body.message!.length).toBeGreaterThan(5);
    expect(text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|TypeError|SyntaxError/);
    const reached = requests.slice(sent);
    expect(
      reached.filter((r) => r.method !== 'GET'),
      'writes sent upstream',
    ).toEqual([]);
    if (!NEEDS_A_READ.has(c.name)) expect(reached, 'requests sent upstream').toEqual([]);
    expect(await auditEntries(c.by)).toBeGreaterThan(audited);
  });

  it("still answers another person's read", async () => {
    state.user = viewer;
    const wallets = (await import('@/app/api/wallets/[walletId]/route')).GET;
    const read = await wallets(new Request(`http://console.test/api/wallets/${wallet.id}`), {
      params: Promise.resolve({ walletId: wallet.id }),
    });
    expect(read.status).toBe(200);
  });
});
