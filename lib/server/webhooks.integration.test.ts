// The receiver against the real sandbox: its signed deliveries reach the route handler, are stored once,
// published on the bus, and show up in the webhook log reads with filters.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustodyClient } from '@/lib/custody';
import { webhookEvents } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import {
  type CustodyEvent,
  createEventBus,
  inProcessTransport,
  onCustodyEvent,
  setProcessEventBus,
} from './events';
import { loadTransactionDeliveries, loadWebhookLogPage, signWebhookBody } from './webhooks';

const HEADER = 'x-blockradar-signature';
// The receiver route reads the runtime: here it is the services the test wires below.
vi.mock('./runtime', async () => {
  const { currentServices, currentDb } = await import('./services');
  return { getRuntime: currentServices, getDb: currentDb };
});

let testDb: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let dataDir: string;
let POST: (request: Request) => Promise<Response>;
const answers: number[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'webhooks-it-'));
  const encryptionKey = Buffer.alloc(32, 9);
  ({ POST } = await import('@/app/api/webhooks/custody/route'));
  sandbox = await createSandbox({
    db: testDb.db,
    dbKind: testDb.handle.kind,
    encryptionKey,
    seed: 'webhooks-integration',
    blockTimeMs: 1000,
    webhookUrl: 'http://console.test/api/webhooks/custody',
    webhookRetryMs: [10],
    signatureHeader: HEADER,
    baseUrl: 'http://console.test/sandbox',
    dataDir,
    // Deliveries go straight to the route handler, as they would over HTTP.
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await POST(new Request(input, init));
      answers.push(res.status);
      return res;
    }) as typeof fetch,
  });
  const runtime = {
    config: { encryptionKey, sandboxMode: true, env: { WEBHOOK_SIGNATURE_HEADER: HEADER } },
    database: testDb.handle,
    sandbox,
  };
  const { connectSandboxWallets, createCustodyConnections } = await import('./wallets');
  const services = { ...runtime, custody: createCustodyConnections(runtime as never) };
  (await import('./services')).provideServices(services as never);
  await connectSandboxWallets(services as never);
  creds = await sandbox.credentials();
  setProcessEventBus(createEventBus(inProcessTransport()));
});

afterAll(async () => {
  setProcessEventBus(undefined);
  await sandbox?.stop();
  await testDb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function clientFor(walletId: string) {
  const wallet = creds.wallets.find((w) => w.id === walletId);
  if (!wallet) throw new Error('no wallet');
  return createCustodyClient({
    baseUrl: 'http://sandbox.internal/sandbox',
    fetch: sandbox.fetch,
    apiKey: wallet.apiKey,
  });
}

describe('receiver with the sandbox', () => {
  it('accepts a signed deposit webhook once, publishes it, and refuses forgeries', async () => {
    const wallet = creds.wallets[0]!;
    const child = wallet.addresses.find((a) => a.type === 'INTERNAL' && a.disableAutoSweep)!;
    const asset = wallet.assets[0]!;
    const seen: CustodyEvent[] = [];
    const off = onCustodyEvent((e) => {
      seen.push(e);
    });
    const res = await sandbox.handle(
      new Request('http://x/sandbox/control/deposits', {
        method: 'POST',
        headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ addressId: child.id, assetId: asset.id, amount: '1.5' }),
      }),
    );
    expect(res.status).toBe(200);
    const deposit = ((await res.json()) as { data: { id: string } }).data;
    await sandbox.drain();
    await vi.waitFor(() =>
      expect(seen.some((e) => e.transactionId === deposit.id && e.event === 'deposit.success')).toBe(true),
    );
    off();
    const stored = await testDb.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.transactionId, deposit.id));
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(answers.every((s) => s === 200)).toBe(true);
    const event = seen.find((e) => e.transactionId === deposit.id)!;
    expect(event).toMatchObject({ walletId: wallet.id, type: 'DEPOSIT', status: 'SUCCESS' });

    // Resending an unchanged transaction delivers the same bytes: acknowledged, stored once.
    const before = stored.length;
    await clientFor(wallet.id).transactions.resendWebhook({ walletId: wallet.id, id: deposit.id });
    await sandbox.drain();
    const after = await testDb.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.transactionId, deposit.id));
    expect(after.length).toBe(before);
    // The resend is a second entry of the same delivery, not a second delivery.
    const deliveries = await loadTransactionDeliveries(clientFor(wallet.id), wallet.id, deposit.id);
    const delivery = deliveries.find((d) => d.event === 'deposit.success');
    expect(deliveries.filter((d) => d.event === 'deposit.success')).toHaveLength(1);
    expect(delivery?.entries).toHaveLength(2);
    expect(delivery?.state).toBe('delivered');
    expect(delivery?.firstSentAt).toBe(delivery?.entries[0]?.createdAt);
    expect(delivery?.lastAttemptAt).toBe(delivery?.entries[1]?.updatedAt);

    // Forged and unknown-wallet deliveries.
    const raw = JSON.stringify({
      event: 'withdraw.success',
      data: { id: 'x', status: 'SUCCESS', type: 'WITHDRAW', reference: 'r', wallet: { id: wallet.id } },
    });
    const post = (body: string, headers: Record<string, string>) =>
      POST(
        new Request('http://console.test/api/webhooks/custody', {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', ...headers },
        }),
      );
    const badSignature = await post(raw, { [HEADER]: signWebhookBody(raw, 'wrong-key') });
    const unsigned = await post(raw, {});
    const unknownRaw = raw.replace(wallet.id, '00000000-0000-4000-8000-000000000000');
    const unknownWallet = await post(unknownRaw, { [HEADER]: signWebhookBody(unknownRaw, wallet.apiKey) });
    // One answer for all three: the receiver does not tell which wallet ids are connected.
    const answersOf = await Promise.all(
      [badSignature, unsigned, unknownWallet].map(async (r) => ({ status: r.status, body: await r.text() })),
    );
    expect(answersOf[0]).toEqual({
      status: 401,
      body: JSON.stringify({ received: false, error: 'Signature not accepted' }),
    });
    expect(answersOf[1]).toEqual(answersOf[0]);
    expect(answersOf[2]).toEqual(answersOf[0]);
    expect((await post('{"event":', {})).status).toBe(400);
    const good = await post(raw, { [HEADER]: signWebhookBody(raw, wallet.apiKey) });
    expect(await good.json()).toEqual({ received: true });
    const again = await post(raw, { [HEADER]: signWebhookBody(raw, wallet.apiKey) });
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    const big = await post(`{"pad":"${'x'.repeat(1024 * 1024)}"}`, {});
    expect(big.status).toBe(413);
  });

  it('reads the log as deliveries and filters by status and event on the server', async () => {
    const wallet = creds.wallets[1]!;
    const client = clientFor(wallet.id);
    const all = await loadWebhookLogPage(client, wallet.id, { page: 1, limit: 100 });
    expect(all.data.length).toBeGreaterThan(0);
    const every = [];
    for (let page = 1; ; page++) {
      const res = await client.webhooks.list({ walletId: wallet.id, page, limit: 100 });
      every.push(...res.data);
      if (page >= res.meta.totalPages) break;
    }
    const failedEntries = every.filter((d) => d.status === 'failed');
    expect(failedEntries.length).toBeGreaterThan(0);
    const failed = await loadWebhookLogPage(client, wallet.id, { page: 1, limit: 10, status: 'failed' });
    expect(failed.data.length).toBeGreaterThan(0);
    expect(failed.data.every((d) => d.needsAttention && d.latest.status === 'failed')).toBe(true);
    expect(failed.meta.totalItems).toBe(failed.needsAttention);

    // A failed delivery resent and delivered leaves the Failed filter and shows as resolved, with both entries.
    const target = failed.data[0]!;
    await client.transactions.resendWebhook({ walletId: wallet.id, id: target.transactionId });
    await sandbox.drain();
    const after = await loadWebhookLogPage(client, wallet.id, { page: 1, limit: 100, status: 'failed' });
    expect(after.data.map((d) => d.id)).not.toContain(target.id);
    expect(after.needsAttention).toBe(failed.needsAttention - 1);
    const resolved = await loadWebhookLogPage(client, wallet.id, { page: 1, limit: 100, status: 'resolved' });
    const group = resolved.data.find((d) => d.id === target.id);
    expect(group?.entries.map((e) => e.status)).toEqual(['failed', 'success']);
    expect(group?.attempts.at(-1)?.outcome).toBe('delivered');
    expect(group?.firstSentAt).toBe(target.firstSentAt);
    expect(group?.lastAttemptAt).toBe(group?.entries[1]?.updatedAt);
    // Resolved counts as delivered.
    const delivered = await loadWebhookLogPage(client, wallet.id, { page: 1, limit: 100, status: 'success' });
    expect(delivered.data.map((d) => d.id)).toContain(target.id);

    const event = all.events[0]!;
    const byEvent = await loadWebhookLogPage(client, wallet.id, { page: 1, limit: 100, event });
    expect(byEvent.data.length).toBeGreaterThan(0);
    expect(byEvent.data.every((d) => d.event === event)).toBe(true);
    const whole = await loadWebhookLogPage(client, wallet.id, { page: 1, limit: 100 });
    const second = await loadWebhookLogPage(client, wallet.id, { page: 2, limit: 10 });
    expect(second.data.map((d) => d.id)).toEqual(whole.data.slice(10, 20).map((d) => d.id));
  });
});
