// The console API against the real sandbox and a real database: a token made through a second admin's approval
// and shown once; its withdrawal becomes a request people approve and is submitted once; an Idempotency-Key
// repeated gives one request; a token without the scope, for another wallet, expired, revoked, over its cap or
// over its rate is refused with a JSON error that says why; the webhook of the token's system is signed.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { and, count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONSOLE_SCOPE } from '@/lib/approvals/configuration';
import { TOKEN_HOLDER_REFUSAL } from '@/lib/approvals/service-tokens';
import { alertOutbox, auditLog, operationRequests, rateLimitWindows, serviceTokens } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { sandboxTransactions } from '@/lib/sandbox/db/schema';
import { MAX_METADATA_DEPTH, parseMetadata } from '@/lib/validation/control-characters';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import type { ApprovalEngine } from '../approvals';
import { createUser } from '../users';

// No person is signed in: the API never reads a session (the mock only keeps next-auth out of the test).
vi.mock('@/lib/server/auth', () => ({ auth: async () => null }));
vi.mock('../runtime', async () => {
  const { currentServices, currentDb } = await import('../services');
  return { getRuntime: currentServices, getDb: currentDb };
});

const routes = await import('./routes');
const { API_ROUTES, openApiDocument } = await import('./contract');
const { createTokenEventQueue, tokenWebhook } = await import('./webhooks');
const { deliverDueAlerts } = await import('../alerts/worker');
const { createAlertSenders } = await import('../alerts/senders');
const { outboundRules } = await import('../alerts/outbound');

let testDb: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let dataDir: string;
let engine: ApprovalEngine;
let wallet: SandboxCredentials['wallets'][number];
let other: SandboxCredentials['wallets'][number];
const encryptionKey = Buffer.alloc(32, 11);
type Person = { id: string; email: string; role: string };
const people: Record<'adminA' | 'adminB' | 'finance1' | 'finance2', Person> = {} as never;

async function person(role: 'admin' | 'finance', name: string): Promise<Person> {
  const created = await createUser(testDb.db, {
    email: `${name}-${crypto.randomUUID()}@example.com`,
    name,
    role,
  });
  if (!created.ok) throw new Error(created.error);
  return { id: created.user.id, email: created.user.email, role };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'api-it-'));
  sandbox = await createSandbox({
    db: testDb.db,
    dbKind: testDb.handle.kind,
    encryptionKey,
    seed: 'api-integration',
    blockTimeMs: 200,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    webhookRetryMs: [],
    signatureHeader: 'x-blockradar-signature',
    baseUrl: 'http://console.test/sandbox',
    dataDir,
    fetch: async () => new Response('ok'),
  });
  const runtime = {
    config: {
      encryptionKey,
      sandboxMode: true,
      origin: 'http://console.test',
      env: { UNKNOWN_OUTCOME_WINDOW_MS: 600_000, ALERT_FROM: 'alerts@example.com', ALERT_MAX_ATTEMPTS: 3 },
    },
    database: testDb.handle,
    sandbox,
  };
  const { connectSandboxWallets, createCustodyConnections } = await import('../wallets');
  const services = { ...runtime, custody: createCustodyConnections(runtime as never) };
  (await import('../services')).provideServices(services as never);
  await connectSandboxWallets(services as never);
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  other = creds.wallets[1]!;
  engine = await (await import('../approvals')).getApprovalEngine();
  people.adminA = await person('admin', 'ada');
  people.adminB = await person('admin', 'bea');
  people.finance1 = await person('finance', 'fin');
  people.finance2 = await person('finance', 'fay');
  // The token's withdrawals pay an address book entry past its cooling-off (the destination policy).
  for (const w of [wallet, other])
    await trustRecipients(testDb.db, w.id, ['0x000000000000000000000000000000000000dEaD']);
}, 120_000);

afterAll(async () => {
  (await import('../services')).provideServices(undefined);
  await sandbox?.stop();
  await testDb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

interface TokenSettings {
  scopes?: string[];
  walletIds?: string[];
  dailyCapUsd?: string;
  rateLimitPerMinute?: number;
  allowedCidrs?: string[];
  webhookUrl?: string;
}

/** Admin A asks for a token, admin B approves, admin A is shown it once. */
async function makeToken(
  settings: TokenSettings = {},
): Promise<{ token: string; id: string; webhookSecret: string | null }> {
  const webhookUrlSealed = settings.webhookUrl
    ? (await import('@/lib/crypto/aead')).encryptSecret(
        settings.webhookUrl,
        encryptionKey,
        'service-token-webhook',
      )
    : null;
  const requested = await engine.create(people.adminA, 'serviceTokenCreate', CONSOLE_SCOPE, {
    name: `System ${crypto.randomUUID().slice(0, 6)}`,
    scopes: settings.scopes ?? ['read', 'withdrawals:request'],
    walletIds: settings.walletIds ?? [wallet.id],
    dailyCapUsd: settings.dailyCapUsd ?? '100000',
    minApprovals: 2,
    allowedCidrs: settings.allowedCidrs ?? [],
    rateLimitPerMinute: settings.rateLimitPerMinute ?? 600,
    webhookUrlSealed,
    webhookHint: null,
    expiresInDays: 1,
  });
  if (!requested.ok) throw new Error(requested.error);
  const approved = await engine.approve(people.adminB, requested.data.id);
  if (!approved.ok) throw new Error(approved.error);
  const taken = await engine.takeTokenSecret(people.adminA, requested.data.id);
  if (!taken.ok) throw new Error(taken.error);
  const [row] = await testDb.db
    .select()
    .from(serviceTokens)
    .where(eq(serviceTokens.prefix, taken.data.token.slice(4, 16)));
  return { token: taken.data.token, id: row!.id, webhookSecret: taken.data.webhookSecret };
}

// biome-ignore lint/suspicious/noExplicitAny: the test reads the API's JSON as any caller would, field by field.
type ApiJson = Record<string, any>;

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(
  handler: Handler,
  token: string | null,
  options: {
    params?: Record<string, string>;
    body?: unknown;
    key?: string;
    method?: string;
    path?: string;
  } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.key) headers['idempotency-key'] = options.key;
  const response = await handler(
    new Request(`http://console.test${options.path ?? '/api/v1/test'}`, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
    { params: Promise.resolve(options.params ?? {}) },
  );
  return { status: response.status, headers: response.headers, body: (await response.json()) as ApiJson };
}

const usdc = () => wallet.assets.find((a) => a.symbol === 'USDC')!;
const withdrawal = (amount: string, reference?: string) => ({
  assetId: usdc().id,
  address: '0x000000000000000000000000000000000000dEaD',
  amount,
  ...(reference ? { reference } : {}),
});

describe('console API for systems', () => {
  it('shows a new token once, to the admin who asked, and stores only its hash', async () => {
    const requested = await engine.create(people.adminA, 'serviceTokenCreate', CONSOLE_SCOPE, {
      name: 'Once',
      scopes: ['read'],
      walletIds: [wallet.id],
      dailyCapUsd: '10',
      minApprovals: 2,
      allowedCidrs: [],
      rateLimitPerMinute: 60,
      webhookUrlSealed: null,
      webhookHint: null,
      expiresInDays: 1,
    });
    if (!requested.ok) throw new Error(requested.error);
    // The requester cannot approve their own token.
    expect((await engine.approve(people.adminA, requested.data.id)).ok).toBe(false);
    expect((await engine.approve(people.adminB, requested.data.id)).ok).toBe(true);
    expect(await engine.takeTokenSecret(people.adminB, requested.data.id)).toMatchObject({
      ok: false,
      status: 403,
    });
    const taken = await engine.takeTokenSecret(people.adminA, requested.data.id);
    if (!taken.ok) throw new Error(taken.error);
    expect(taken.data.token).toMatch(/^cct_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(await engine.takeTokenSecret(people.adminA, requested.data.id)).toMatchObject({
      ok: false,
      status: 410,
    });
    const [row] = await testDb.db.select().from(serviceTokens).where(eq(serviceTokens.name, 'Once'));
    expect(JSON.stringify(row)).not.toContain(taken.data.token.slice(17));
    expect(row?.secretSeenBy).toEqual([people.adminA.id]);
  });

  it('turns a withdrawal into one request people approve, once per Idempotency-Key, submitted once', async () => {
    const { token, id } = await makeToken();
    const reference = `payroll-${crypto.randomUUID().slice(0, 8)}`;
    const body = withdrawal('1.25', reference);
    const first = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body,
      key: `key-${reference}`,
    });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ status: 'PENDING_APPROVAL', requiredApprovals: 2, approvals: 0 });
    const again = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body,
      key: `key-${reference}`,
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const changed = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body: withdrawal('2', reference),
      key: `key-${reference}`,
    });
    expect(changed).toMatchObject({ status: 422, body: { code: 'idempotency_key_reused' } });
    const [made] = await testDb.db
      .select({ n: count() })
      .from(operationRequests)
      .where(eq(operationRequests.requesterId, `token:${id}`));
    expect(made?.n).toBe(1);

    // The admin who was shown the token could have made the request: they may not approve it.
    const byHolder = await engine.approve(people.adminA, first.body.data.id);
    expect(byHolder).toMatchObject({ ok: false, error: TOKEN_HOLDER_REFUSAL });
    expect((await engine.approve(people.finance1, first.body.data.id)).ok).toBe(true);
    const polled = await call(routes.getRequest as Handler, token, {
      params: { requestId: first.body.data.id },
    });
    expect(polled.body.data).toMatchObject({ status: 'PENDING_APPROVAL', approvals: 1 });
    expect((await engine.approve(people.finance2, first.body.data.id)).ok).toBe(true);
    const after = await call(routes.getRequest as Handler, token, {
      params: { requestId: first.body.data.id },
    });
    expect(['SUBMITTED', 'SUCCESS']).toContain(after.body.data.status);
    expect(after.body.data.approvedBy).toEqual([people.finance1.email, people.finance2.email]);
    const sent = await testDb.db
      .select({ id: sandboxTransactions.id })
      .from(sandboxTransactions)
      .where(eq(sandboxTransactions.reference, reference));
    expect(sent).toHaveLength(1);
    // Another token does not see this token's request.
    const { token: stranger } = await makeToken();
    const peek = await call(routes.getRequest as Handler, stranger, {
      params: { requestId: first.body.data.id },
    });
    expect(peek).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('refuses a token without the scope, for another wallet, expired or revoked, with a JSON error', async () => {
    const readOnly = await makeToken({ scopes: ['read'] });
    const noScope = await call(routes.requestWithdrawal as Handler, readOnly.token, {
      params: { walletId: wallet.id },
      body: withdrawal('1'),
    });
    expect(noScope).toMatchObject({ status: 403, body: { code: 'scope_missing' } });
    expect(noScope.body.message).toContain('withdrawals:request');
    const wrongWallet = await call(routes.getWallet as Handler, readOnly.token, {
      params: { walletId: other.id },
    });
    expect(wrongWallet).toMatchObject({ status: 403, body: { code: 'wallet_not_allowed' } });
    expect(await call(routes.listWallets as Handler, null)).toMatchObject({
      status: 401,
      body: { code: 'unauthenticated' },
    });
    expect(await call(routes.listWallets as Handler, `${readOnly.token.slice(0, -1)}x`)).toMatchObject({
      status: 401,
    });
    const listed = await call(routes.listWallets as Handler, readOnly.token);
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([wallet.id]);

    await testDb.db
      .update(serviceTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(serviceTokens.id, readOnly.id));
    const expired = await call(routes.listWallets as Handler, readOnly.token);
    expect(expired).toMatchObject({ status: 401, body: { code: 'token_expired' } });

    const revoked = await makeToken();
    const { revokeToken } = await import('./tokens');
    await revokeToken(testDb.db, revoked.id, people.adminB.email);
    expect(await call(routes.listWallets as Handler, revoked.token)).toMatchObject({
      status: 401,
      body: { code: 'token_revoked' },
    });
    // Every call is audited, refused ones included.
    const audited = await testDb.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'api.call'), eq(auditLog.outcome, 'denied')));
    expect(audited[0]?.n).toBeGreaterThanOrEqual(5);
  });

  it('refuses a call from outside the token’s networks', async () => {
    const fenced = await makeToken({ allowedCidrs: ['10.20.0.0/16'] });
    const refused = await call(routes.listWallets as Handler, fenced.token);
    expect(refused).toMatchObject({ status: 403, body: { code: 'network_refused' } });
    expect(refused.body.message).toContain('10.20.0.0/16');
  });

  it('keeps a token under its daily cap, also when two calls arrive at once', async () => {
    const capped = await makeToken({ dailyCapUsd: '10' });
    const send = () =>
      call(routes.requestWithdrawal as Handler, capped.token, {
        params: { walletId: wallet.id },
        body: withdrawal('6'),
      });
    const outcomes = await Promise.all([send(), send()]);
    expect(outcomes.map((o) => o.status).sort()).toEqual([201, 422]);
    const over = outcomes.find((o) => o.status === 422)!;
    expect(over.body.code).toBe('daily_cap_exceeded');
    expect(over.body.message).toContain('10 USD');
    const [made] = await testDb.db
      .select({ n: count() })
      .from(operationRequests)
      .where(eq(operationRequests.requesterId, `token:${capped.id}`));
    expect(made?.n).toBe(1);
    // A rejected request no longer counts against the cap.
    const created = outcomes.find((o) => o.status === 201)!;
    expect((await engine.reject(people.finance1, created.body.data.id, 'not this one')).ok).toBe(true);
    expect((await send()).status).toBe(201);
  });

  it('answers 429 with Retry-After over the token’s calls per minute', async () => {
    const slow = await makeToken({ rateLimitPerMinute: 2 });
    expect((await call(routes.listWallets as Handler, slow.token)).status).toBe(200);
    expect((await call(routes.listWallets as Handler, slow.token)).status).toBe(200);
    const limited = await call(routes.listWallets as Handler, slow.token);
    expect(limited).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.message).toBe(
      `This token may make 2 calls a minute. Try again in ${limited.headers.get('retry-after')} s.`,
    );
    // Counted in the database, where every console instance on it counts the same token's calls.
    const [window] = await testDb.db
      .select({ count: rateLimitWindows.count })
      .from(rateLimitWindows)
      .where(eq(rateLimitWindows.key, slow.id));
    expect(window?.count).toBe(3);
  });

  it('signs each step of the token’s requests to its system’s webhook', async () => {
    const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      const hooked = await makeToken({ webhookUrl: url });
      expect(hooked.webhookSecret).toMatch(/^whsec_/);
      const made = await call(routes.requestWithdrawal as Handler, hooked.token, {
        params: { walletId: wallet.id },
        body: withdrawal('0.5'),
      });
      expect(made.status).toBe(201);
      const queue = createTokenEventQueue(testDb.db);
      expect(await queue()).toBeGreaterThanOrEqual(1);
      // Reading again queues nothing twice.
      expect(await queue()).toBe(0);
      const delivered = await deliverDueAlerts({
        db: testDb.db,
        senders: createAlertSenders({ from: 'x@example.com', rules: outboundRules('', true) }),
        openChatUrl: () => '',
        systemWebhook: (tokenId) => tokenWebhook(testDb.db, encryptionKey, tokenId),
      });
      expect(delivered.sent).toBeGreaterThanOrEqual(1);
      const event = received.find((r) => JSON.parse(r.body).data.id === made.body.data.id)!;
      expect(JSON.parse(event.body)).toMatchObject({
        type: 'request.requested',
        data: { status: 'PENDING_APPROVAL' },
      });
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(event.headers['x-console-signature']))!;
      expect(v1).toBe(createHmac('sha256', hooked.webhookSecret!).update(`${t}.${event.body}`).digest('hex'));
      const rows = await testDb.db
        .select()
        .from(alertOutbox)
        .where(and(eq(alertOutbox.userId, hooked.id), like(alertOutbox.dedupeKey, 'event:%')));
      expect(rows.every((r) => r.channel === 'system')).toBe(true);
    } finally {
      server.close();
    }
  });

  it('refuses the approval of someone a token holder added, and of the holder; neither is offered it', async () => {
    const { token } = await makeToken();
    // Admin A (shown the token) added a finance person: that person is A's second account as far as four eyes go.
    const added = await createUser(testDb.db, {
      email: `added-${crypto.randomUUID()}@example.com`,
      name: 'Added',
      role: 'finance',
      createdBy: people.adminA.id,
    });
    if (!added.ok) throw new Error(added.error);
    const made = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body: withdrawal('0.1'),
    });
    expect(made.status).toBe(201);
    const byAdded = await engine.approve(
      { id: added.user.id, email: added.user.email, role: 'finance' },
      made.body.data.id,
    );
    expect(byAdded).toMatchObject({ ok: false, error: TOKEN_HOLDER_REFUSAL });
    // The page offers neither of them the approval.
    const [row] = await testDb.db
      .select()
      .from(operationRequests)
      .where(eq(operationRequests.id, made.body.data.id));
    expect((await engine.abilities(people.adminA, row!, [])).canApprove).toBe(false);
    expect((await engine.abilities(people.finance1, row!, [])).canApprove).toBe(true);
  });

  it('cancels a revoked token’s waiting requests; none of them can be approved after', async () => {
    const revoked = await makeToken();
    const made = await call(routes.requestWithdrawal as Handler, revoked.token, {
      params: { walletId: wallet.id },
      body: withdrawal('0.2'),
    });
    expect(made.status).toBe(201);
    const { revokeToken, tokenActorId } = await import('./tokens');
    await revokeToken(testDb.db, revoked.id, people.adminB.email);
    expect(await engine.cancelRequestsOf(people.adminB, tokenActorId(revoked.id), 'revoked')).toBe(1);
    const [row] = await testDb.db
      .select()
      .from(operationRequests)
      .where(eq(operationRequests.id, made.body.data.id));
    expect(row?.status).toBe('CANCELLED');
    expect((await engine.approve(people.finance1, made.body.data.id)).ok).toBe(false);
  });

  it('names each bad field as the API calls it, and lists wallets without internal fields', async () => {
    const { token } = await makeToken();
    const single = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body: { assetId: usdc().id, address: '0x1234', amount: '1' },
    });
    expect(single.status).toBe(422);
    expect(Object.keys(single.body.fieldErrors)).toEqual(['address']);
    const batch = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body: {
        items: [
          withdrawal('1'),
          { assetId: usdc().id, address: '0x000000000000000000000000000000000000dEaD' },
        ],
      },
    });
    expect(batch.status).toBe(422);
    expect(batch.body.message).toContain('items.1.amount');
    const listed = await call(routes.listWallets as Handler, token);
    expect(Object.keys(listed.body.data[0]).sort()).toEqual([
      'address',
      'blockchain',
      'id',
      'name',
      'network',
    ]);
  });

  it('holds metadata to the form’s own depth and text rules, named at the field, and sends nothing', async () => {
    const { token } = await makeToken({ scopes: ['withdrawals:request', 'swaps:request'] });
    let deep: unknown = 'leaf';
    for (let i = 0; i < MAX_METADATA_DEPTH + 1; i++) deep = { a: deep };
    const form = parseMetadata(JSON.stringify(deep));
    expect(form).toEqual({ ok: false, message: 'Metadata: nested more than 16 levels deep.' });
    const before = await testDb.db.select({ id: operationRequests.id }).from(operationRequests);
    const single = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body: { ...withdrawal('1'), metadata: deep },
      key: 'metadata-depth-1',
    });
    expect(single.status).toBe(422);
    expect(single.body.fieldErrors).toEqual({ metadata: !form.ok && form.message });
    const batch = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body: { items: [withdrawal('1'), { ...withdrawal('2'), metadata: deep }] },
      key: 'metadata-depth-2',
    });
    expect(batch.status).toBe(422);
    expect(batch.body.fieldErrors).toEqual({ 'items.1.metadata': !form.ok && form.message });
    const swap = await call(routes.requestSwap as Handler, token, {
      params: { walletId: wallet.id },
      body: {
        addressId: wallet.addresses[0]!.id,
        fromAssetId: usdc().id,
        toAssetId: usdc().id,
        amount: '1',
        order: 'RECOMMENDED',
        metadata: deep,
      },
      key: 'metadata-depth-3',
    });
    expect(swap.status).toBe(422);
    expect(swap.body.fieldErrors.metadata).toBe(!form.ok && form.message);
    // A NUL written as an escape is a NUL once the body is decoded.
    const nul = await call(routes.requestWithdrawal as Handler, token, {
      params: { walletId: wallet.id },
      body: { ...withdrawal('1'), metadata: { invoice: 'A\u0000' } },
      key: 'metadata-nul',
    });
    expect(nul.status).toBe(400);
    expect(nul.body.message).toMatch(/remove control characters/);
    expect(await testDb.db.select({ id: operationRequests.id }).from(operationRequests)).toHaveLength(
      before.length,
    );
  });

  it('serves an OpenAPI document that validates and lists every route of the API', async () => {
    const document = openApiDocument('http://console.test');
    await expect(validate(structuredClone(document) as never)).resolves.toMatchObject({ valid: true });
    const documented = Object.entries(document.paths).flatMap(([p, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(documented.sort()).toEqual([...API_ROUTES].sort());
    // Every route file under app/api/v1 is documented, and every documented route has its file.
    const root = path.join(process.cwd(), 'app/api/v1');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name === 'route.ts') files.push(path.relative(root, dir));
      }
    };
    walk(root);
    const served = files
      .filter((f) => f !== 'openapi.json')
      .map((f) => `/api/v1/${f.replace(/\[(\w+)\]/g, '{$1}')}`)
      .sort();
    expect([...new Set(API_ROUTES.map((r) => r.split(' ')[1]))].sort()).toEqual(served);
  });
});
