import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walletConnections } from '@/lib/db/schema';
import { parseWebhookLogQuery, webhookLogSearch } from '@/lib/validation/webhooks';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import {
  MAX_WEBHOOK_BODY_BYTES,
  parseWebhookBody,
  readBodyLimited,
  redactWebhookPayload,
  runPool,
  signWebhookBody,
  storeWebhookEvent,
  verifyWebhookSignature,
  webhookDedupeKey,
} from './webhooks';

const WALLET_ID = '5d3c1a52-0f0e-4b1e-9d7e-3f1b9e1c2a10';

function body(overrides: Record<string, unknown> = {}, event = 'withdraw.success') {
  return JSON.stringify({
    event,
    data: {
      id: '0b7f3b0c-1111-4c2d-8e9f-000000000001',
      reference: 'ref-abc',
      status: 'SUCCESS',
      type: 'WITHDRAW',
      wallet: { id: WALLET_ID, name: 'Treasury' },
      ...overrides,
    },
  });
}

describe('signature verification', () => {
  const key = 'key-current';
  const raw = body();
  const good = signWebhookBody(raw, key);

  it('accepts the HMAC-SHA512 of the raw body under the wallet key', () => {
    expect(good).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyWebhookSignature(raw, good, [key])).toBe(true);
    expect(verifyWebhookSignature(raw, good.toUpperCase(), [key])).toBe(true);
  });

  it('refuses a tampered body', () => {
    expect(verifyWebhookSignature(raw.replace('SUCCESS', 'FAILED'), good, [key])).toBe(false);
    expect(verifyWebhookSignature(`${raw} `, good, [key])).toBe(false);
  });

  it('refuses a signature made with another key', () => {
    expect(verifyWebhookSignature(raw, signWebhookBody(raw, 'someone-else'), [key])).toBe(false);
  });

  it('refuses a missing, empty, truncated or non-hex signature, and no keys at all', () => {
    expect(verifyWebhookSignature(raw, null, [key])).toBe(false);
    expect(verifyWebhookSignature(raw, '', [key])).toBe(false);
    expect(verifyWebhookSignature(raw, good.slice(0, 64), [key])).toBe(false);
    expect(verifyWebhookSignature(raw, 'z'.repeat(128), [key])).toBe(false);
    expect(verifyWebhookSignature(raw, good, [])).toBe(false);
  });

  it('accepts any key of the list (previous key during the grace period)', () => {
    const previous = signWebhookBody(raw, 'key-previous');
    expect(verifyWebhookSignature(raw, previous, [key, 'key-previous'])).toBe(true);
    expect(verifyWebhookSignature(raw, previous, [key])).toBe(false);
  });
});

describe('rotated keys through the wallet registry', () => {
  let testDb: TestDatabase;
  const validUntil = new Date('2026-11-02T00:00:00Z');

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const encryptionKey = randomBytes(32);
    const { createCustodyConnections, sealApiKey } = await import('./wallets');
    const runtime = { config: { encryptionKey }, database: testDb.handle } as never;
    (await import('./services')).provideServices({
      ...(runtime as object),
      custody: createCustodyConnections(runtime),
    } as never);
    await testDb.db.insert(walletConnections).values({
      id: WALLET_ID,
      name: 'Treasury',
      blockchain: 'ethereum',
      network: 'testnet',
      address: '0x0000000000000000000000000000000000000001',
      apiKeySealed: sealApiKey(runtime, WALLET_ID, 'key-new'),
      apiKeyLast4: '-new',
      previousApiKeySealed: sealApiKey(runtime, WALLET_ID, 'key-old'),
      previousKeyValidUntil: validUntil,
      createdBy: 'test',
    });
  });
  afterAll(async () => {
    await testDb.close();
  });

  it('accepts the previous key within the grace period and refuses it after', async () => {
    const { webhookKeysFor } = await import('./wallets');
    const raw = body();
    const oldSig = signWebhookBody(raw, 'key-old');
    const newSig = signWebhookBody(raw, 'key-new');
    const during = await webhookKeysFor(WALLET_ID, new Date(validUntil.getTime() - 1000));
    const after = await webhookKeysFor(WALLET_ID, new Date(validUntil.getTime() + 1000));
    expect(verifyWebhookSignature(raw, oldSig, during)).toBe(true);
    expect(verifyWebhookSignature(raw, newSig, during)).toBe(true);
    expect(verifyWebhookSignature(raw, oldSig, after)).toBe(false);
    expect(verifyWebhookSignature(raw, newSig, after)).toBe(true);
    expect(await webhookKeysFor('unknown-wallet')).toEqual([]);
  });

  it('stores an event once and reports the redelivery as a duplicate', async () => {
    const raw = body({ status: 'FAILED' }, 'withdraw.failed');
    const parsed = parseWebhookBody(raw);
    if (!parsed.ok) throw new Error(parsed.error);
    const first = await storeWebhookEvent(testDb.db, {
      raw,
      walletId: parsed.walletId,
      envelope: parsed.envelope,
    });
    const second = await storeWebhookEvent(testDb.db, {
      raw,
      walletId: parsed.walletId,
      envelope: parsed.envelope,
    });
    expect(first.duplicate).toBe(false);
    expect(first.event).toMatchObject({
      walletId: WALLET_ID,
      event: 'withdraw.failed',
      status: 'FAILED',
      type: 'WITHDRAW',
      reference: 'ref-abc',
    });
    expect(first.event.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.duplicate).toBe(true);
    // A later state of the same transaction is a different body, so a new event.
    const settledRaw = body({ status: 'SUCCESS', updatedAt: '2026-11-01T00:00:01Z' });
    const settled = parseWebhookBody(settledRaw);
    if (!settled.ok) throw new Error(settled.error);
    const third = await storeWebhookEvent(testDb.db, {
      raw: settledRaw,
      walletId: WALLET_ID,
      envelope: settled.envelope,
    });
    expect(third.duplicate).toBe(false);
  });
});

describe('dedupe key', () => {
  it('is the same for the same bytes and differs for any change', () => {
    expect(webhookDedupeKey(body())).toBe(webhookDedupeKey(body()));
    expect(webhookDedupeKey(body())).not.toBe(webhookDedupeKey(body({ status: 'FAILED' })));
  });
});

describe('body reading', () => {
  const post = (payload: BodyInit, headers: Record<string, string> = {}) =>
    new Request('http://console.test/api/webhooks/custody', {
      method: 'POST',
      body: payload,
      headers,
      duplex: 'half',
    } as RequestInit);

  it('returns the raw text of a body within the limit', async () => {
    const raw = body();
    expect(await readBodyLimited(post(raw))).toEqual({ ok: true, raw });
  });

  it('refuses a declared Content-Length above the limit without reading', async () => {
    const result = await readBodyLimited(
      post('{}', { 'content-length': String(MAX_WEBHOOK_BODY_BYTES + 1) }),
    );
    expect(result).toMatchObject({ ok: false, status: 413 });
  });

  it('refuses a body that grows past the limit while streaming (no or false length)', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_WEBHOOK_BODY_BYTES + chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    expect(await readBodyLimited(post(stream))).toMatchObject({ ok: false, status: 413 });
    expect(await readBodyLimited(post('x'.repeat(101)), 100)).toMatchObject({ ok: false, status: 413 });
    expect(await readBodyLimited(post('x'.repeat(100)), 100)).toMatchObject({ ok: true });
  });
});

describe('payload parsing', () => {
  it('accepts { event, data } naming the wallet', () => {
    const parsed = parseWebhookBody(body());
    expect(parsed).toMatchObject({ ok: true, walletId: WALLET_ID, envelope: { event: 'withdraw.success' } });
  });

  it.each([
    ['not JSON', 'nope'],
    [
      'no event',
      JSON.stringify({ data: { id: 'x', status: 'SUCCESS', type: 'WITHDRAW', wallet: { id: 'w' } } }),
    ],
    ['no data', JSON.stringify({ event: 'withdraw.success' })],
    [
      'data without id',
      JSON.stringify({ event: 'e', data: { status: 'SUCCESS', type: 'WITHDRAW', wallet: { id: 'w' } } }),
    ],
    ['an array', '[]'],
  ])('refuses %s with 400', (_, raw) => {
    expect(parseWebhookBody(raw)).toMatchObject({ ok: false, status: 400 });
  });

  it('refuses a payload without data.wallet.id with 400', () => {
    const parsed = parseWebhookBody(body({ wallet: null }));
    expect(parsed).toMatchObject({ ok: false, status: 400, error: expect.stringContaining('wallet.id') });
  });
});

describe('payload redaction', () => {
  it('drops business, apiCredential and secret-looking fields anywhere', () => {
    const redacted = redactWebhookPayload({
      id: 'tx',
      wallet: {
        id: 'w',
        name: 'Treasury',
        business: { id: 'b', seedPhrase: 'abandon abandon', mnemonic: 'x' },
        apiCredential: { key: 'sk_live' },
      },
      toWallet: null,
      address: { id: 'a', privateKey: '0xdead', configurations: { showPrivateKey: true } },
      metadata: { note: 'ok' },
    });
    const text = JSON.stringify(redacted);
    expect(text).not.toContain('abandon');
    expect(text).not.toContain('sk_live');
    expect(text).not.toContain('0xdead');
    expect(redacted.wallet).toEqual({ id: 'w', name: 'Treasury' });
    expect(redacted.metadata).toEqual({ note: 'ok' });
    expect(redacted.toWallet).toBeNull();
  });
});

describe('bounded pool', () => {
  it('never runs more than the limit at once and keeps input order', async () => {
    let running = 0;
    let peak = 0;
    const results = await runPool([5, 1, 4, 2, 3, 0, 6, 7, 8, 9], 4, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(peak).toBe(4);
    expect(results.map((r) => (r.ok ? r.value : null))).toEqual([50, 10, 40, 20, 30, 0, 60, 70, 80, 90]);
  });

  it('records a failure per item and keeps going', async () => {
    const results = await runPool([1, 2, 3], 2, async (n) => {
      if (n === 2) throw new Error('two');
      return n;
    });
    expect(results[0]).toEqual({ ok: true, value: 1 });
    expect(results[1]).toMatchObject({ ok: false });
    expect(results[2]).toEqual({ ok: true, value: 3 });
    expect(await runPool([], 4, async () => 1)).toEqual([]);
  });
});

describe('webhook log query', () => {
  it('parses filters and falls back on bad values', () => {
    expect(
      parseWebhookLogQuery({ page: '2', limit: '50', status: 'failed', event: 'withdraw.success' }),
    ).toEqual({ page: 2, limit: 50, status: 'failed', event: 'withdraw.success' });
    expect(parseWebhookLogQuery({ page: '-1', limit: '7', status: 'nope', event: '<script>' })).toEqual({
      page: 1,
      limit: 25,
    });
    expect(parseWebhookLogQuery(new URLSearchParams('status=resolved&page=x'))).toEqual({
      page: 1,
      limit: 25,
      status: 'resolved',
    });
  });

  it('writes defaults out of the URL and reads back what it wrote', () => {
    expect(webhookLogSearch({ page: 1, limit: 25 })).toBe('');
    const query = { page: 3, limit: 100, status: 'failed' as const, event: 'deposit.swept.success' };
    const search = webhookLogSearch(query);
    expect(search).toContain('status=failed');
    expect(parseWebhookLogQuery(new URLSearchParams(search))).toEqual(query);
  });
});
