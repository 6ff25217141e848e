import { describe, expect, it } from 'vitest';
import { createCustodyClient } from '@/lib/custody/client';
import { CustodyError } from '@/lib/custody/errors';
import * as f from '@/lib/custody/test-fixtures';
import { createSharedReads } from './upstream-reads';

const BASE = 'http://custody.test';
const KEY_A = 'sk_test_aaaaaaaaaaaaaaaaaaaaaaaa';
const KEY_B = 'sk_test_bbbbbbbbbbbbbbbbbbbbbbbb';

/** An upstream whose answers are released by the test, so concurrency is explicit rather than timed. */
function gatedUpstream(respond: (call: f.RecordedCall, index: number) => Response | Promise<Response>) {
  const gates: Array<() => void> = [];
  const recorded = f.fakeFetch(async (call, index) => {
    await new Promise<void>((resolve) => gates.push(resolve));
    return respond(call, index);
  });
  return {
    ...recorded,
    release: () => {
      for (const open of gates.splice(0)) open();
    },
  };
}

function client(fetch: ReturnType<typeof createSharedReads>['fetch'], apiKey = KEY_A) {
  return createCustodyClient({ baseUrl: BASE, apiKey, fetch, retries: 0 });
}

async function settle<T>(promises: Promise<T>[]) {
  return Promise.allSettled(promises);
}

describe('shared reads', () => {
  it('sends concurrent identical reads upstream once and gives every caller the parsed result', async () => {
    const upstream = gatedUpstream(() => f.json(f.envelope(f.transaction())));
    const shared = createSharedReads(upstream.fetch);
    const reads = Array.from({ length: 5 }, () =>
      client(shared.fetch).wallets.getTransaction({ walletId: f.WALLET_ID, id: f.TX_ID }),
    );
    await expect.poll(() => upstream.calls.length).toBe(1);
    upstream.release();
    const results = await Promise.all(reads);
    expect(upstream.calls).toHaveLength(1);
    expect(results.map((r) => r.data.id)).toEqual(Array(5).fill(f.TX_ID));
  });

  it('gives every caller the same error, and keeps no error', async () => {
    const upstream = gatedUpstream(() => f.json({ statusCode: 404, message: 'Transaction not found' }, 404));
    const shared = createSharedReads(upstream.fetch);
    const read = () => client(shared.fetch).wallets.get({ walletId: f.WALLET_ID });
    const first = settle([read(), read(), read()]);
    await expect.poll(() => upstream.calls.length).toBe(1);
    upstream.release();
    for (const outcome of await first) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(CustodyError);
      expect((reason as CustodyError).message).toBe('Transaction not found');
    }
    // Not remembered: the next read asks again, even for a cacheable path.
    const again = settle([read()]);
    await expect.poll(() => upstream.calls.length).toBe(2);
    upstream.release();
    await again;
  });

  it('keeps reads of different keys apart', async () => {
    const upstream = gatedUpstream(() => f.json(f.envelope(f.wallet())));
    const shared = createSharedReads(upstream.fetch);
    const reads = [
      client(shared.fetch, KEY_A).wallets.get({ walletId: f.WALLET_ID }),
      client(shared.fetch, KEY_B).wallets.get({ walletId: f.WALLET_ID }),
    ];
    await expect.poll(() => upstream.calls.length).toBe(2);
    upstream.release();
    await Promise.all(reads);
    expect(upstream.calls.map((c) => c.headers.get('x-api-key')).sort()).toEqual([KEY_A, KEY_B]);
  });

  it('never shares or keeps a POST', async () => {
    const upstream = f.fakeFetch(() => f.json(f.envelope(f.transaction())));
    const shared = createSharedReads(upstream.fetch);
    const body = {
      assets: [{ id: f.ASSET_ID, address: '0x976EA74026E726554dB657fA54763abd0C3a0aa9', amount: '1' }],
    };
    await Promise.all([
      client(shared.fetch).withdraw.fromMaster({ walletId: f.WALLET_ID }, body),
      client(shared.fetch).withdraw.fromMaster({ walletId: f.WALLET_ID }, body),
    ]);
    await client(shared.fetch).withdraw.fromMaster({ walletId: f.WALLET_ID }, body);
    expect(upstream.calls).toHaveLength(3);
    expect(upstream.calls.every((c) => c.method === 'POST')).toBe(true);
  });

  it('keeps the wallet read for its lifetime, then asks again', async () => {
    let clock = 1_000;
    const upstream = f.fakeFetch(() => f.json(f.envelope(f.wallet())));
    const shared = createSharedReads(upstream.fetch, { ttlMs: 3_000, now: () => clock });
    const read = () => client(shared.fetch).wallets.get({ walletId: f.WALLET_ID });
    await read();
    clock += 2_999;
    const kept = await read();
    expect(kept.data.id).toBe(f.WALLET_ID);
    expect(upstream.calls).toHaveLength(1);
    clock += 1;
    await read();
    expect(upstream.calls).toHaveLength(2);
  });

  it('keeps the wallet through an estimate, which changes nothing', async () => {
    const upstream = f.fakeFetch((call) =>
      call.method === 'POST'
        ? f.json(f.envelope({ networkFee: '0.001', networkFeeInUSD: '2.1', estimatedArrivalTime: 30 }))
        : f.json(f.envelope(f.wallet())),
    );
    const shared = createSharedReads(upstream.fetch, { now: () => 0 });
    const init = { headers: { 'x-api-key': KEY_A } };
    await shared.fetch(`${BASE}/v1/wallets/${f.WALLET_ID}`, { ...init, method: 'GET' });
    await shared.fetch(`${BASE}/v1/wallets/${f.WALLET_ID}/withdraw/network-fee`, { ...init, method: 'POST' });
    await shared.fetch(`${BASE}/v1/wallets/${f.WALLET_ID}`, { ...init, method: 'GET' });
    expect(upstream.calls.map((c) => c.method)).toEqual(['GET', 'POST']);
  });

  it('does not keep reads other than the wallet, balances and address and beneficiary lists', async () => {
    const upstream = f.fakeFetch(() => f.json(f.envelope(f.transaction())));
    const shared = createSharedReads(upstream.fetch, { now: () => 0 });
    await client(shared.fetch).wallets.getTransaction({ walletId: f.WALLET_ID, id: f.TX_ID });
    await client(shared.fetch).wallets.getTransaction({ walletId: f.WALLET_ID, id: f.TX_ID });
    expect(upstream.calls).toHaveLength(2);
  });

  it('never shares or keeps a read with showPrivateKey', async () => {
    const upstream = f.fakeFetch(() => f.json(f.envelope(f.wallet())));
    const shared = createSharedReads(upstream.fetch, { now: () => 0 });
    const reveal = () => client(shared.fetch).wallets.get({ walletId: f.WALLET_ID, showPrivateKey: true });
    await Promise.all([reveal(), reveal()]);
    await reveal();
    expect(upstream.calls).toHaveLength(3);
    expect(upstream.calls.every((c) => c.url.includes('showPrivateKey=true'))).toBe(true);
  });

  it('forgets what it kept for a key after a write through that key', async () => {
    const upstream = f.fakeFetch((call) =>
      call.method === 'PATCH'
        ? f.json(f.envelope({ isActive: false, name: 'Treasury settlement', rules: [] }))
        : f.json(f.envelope(f.wallet())),
    );
    const shared = createSharedReads(upstream.fetch, { now: () => 0 });
    const custody = client(shared.fetch);
    await custody.wallets.get({ walletId: f.WALLET_ID });
    await custody.wallets.get({ walletId: f.WALLET_ID });
    await custody.autoSettlement.update({ walletId: f.WALLET_ID }, { isActive: false });
    await custody.wallets.get({ walletId: f.WALLET_ID });
    expect(upstream.calls.map((c) => c.method)).toEqual(['GET', 'PATCH', 'GET']);
  });

  it('forgets a wallet on request (a webhook arrived for it)', async () => {
    const upstream = f.fakeFetch(() => f.json(f.envelope(f.wallet())));
    const shared = createSharedReads(upstream.fetch, { now: () => 0 });
    await client(shared.fetch).wallets.get({ walletId: f.WALLET_ID });
    shared.forgetWallet(f.WALLET_ID);
    await client(shared.fetch).wallets.get({ walletId: f.WALLET_ID });
    expect(upstream.calls).toHaveLength(2);
  });

  it('lets a caller time out alone, and aborts upstream only when every caller has gone', async () => {
    const upstream = f.fakeFetch(() => new Promise<Response>(() => {}));
    const shared = createSharedReads(upstream.fetch);
    const impatient = new AbortController();
    const patient = new AbortController();
    const init = { method: 'GET', headers: { 'x-api-key': KEY_A } };
    const url = `${BASE}/v1/wallets/${f.WALLET_ID}/transactions/${f.TX_ID}`;
    const first = shared.fetch(url, { ...init, signal: impatient.signal });
    const second = shared.fetch(url, { ...init, signal: patient.signal });
    await expect.poll(() => upstream.calls.length).toBe(1);
    impatient.abort(new Error('first caller timed out'));
    await expect(first).rejects.toThrow('first caller timed out');
    expect(upstream.calls[0]!.signal?.aborted).toBe(false);
    patient.abort(new Error('second caller timed out'));
    await expect(second).rejects.toThrow('second caller timed out');
    expect(upstream.calls[0]!.signal?.aborted).toBe(true);
  });

  it('hands each caller a body of its own', async () => {
    const upstream = f.fakeFetch(() => f.json({ hello: 'world' }));
    const shared = createSharedReads(upstream.fetch, { now: () => 0 });
    const init = { method: 'GET', headers: { 'x-api-key': KEY_A } };
    const url = `${BASE}/v1/wallets/${f.WALLET_ID}`;
    const [a, b] = await Promise.all([shared.fetch(url, init), shared.fetch(url, init)]);
    const c = await shared.fetch(url, init);
    expect(await a!.json()).toEqual({ hello: 'world' });
    expect(await b!.json()).toEqual({ hello: 'world' });
    expect(await c.json()).toEqual({ hello: 'world' });
    expect(upstream.calls).toHaveLength(1);
  });
});
