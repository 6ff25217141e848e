// The fault proxy between the custody client and the sandbox served over real HTTP: what the client sees
// for each injected failure, and what reached the service.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CustodyError } from '@/lib/custody';
import { createCustodyClient } from '@/lib/custody/client';
import type { SandboxCredentials } from '@/lib/sandbox';
import { type FaultProxy, startFaultProxy } from './fault-proxy';
import { createTestSandbox, type TestSandbox } from './sandbox';
import { type ServedSandbox, serveSandbox } from './serve-sandbox';

type Wallet = SandboxCredentials['wallets'][number];

const RECIPIENT = '0x00000000000000000000000000000000000000aa';
const WITHDRAW = { method: 'POST', path: /\/withdraw$/ };
let env: TestSandbox;
let served: ServedSandbox;
let proxy: FaultProxy;
let w: Wallet;

beforeAll(async () => {
  env = await createTestSandbox({ seed: 'fault-proxy' });
  w = env.credentials.wallets[0]!;
  served = await serveSandbox(env.sandbox);
  proxy = await startFaultProxy({ target: served.url });
});

afterEach(() => proxy.setFault(null));

afterAll(async () => {
  await proxy?.close();
  await served?.close();
  await env?.close();
});

const client = (options: { timeoutMs?: number; retries?: number } = {}) =>
  createCustodyClient({
    baseUrl: proxy.url,
    apiKey: w.apiKey,
    // Generous for calls that pass: a loaded machine must not turn them into timeouts. Timeout tests set their own.
    timeoutMs: options.timeoutMs ?? 10_000,
    retries: options.retries ?? 0,
    sleep: async () => {},
  });

const usdc = () => w.assets.find((a) => a.symbol === 'USDC')!;

function withdraw(reference: string, timeoutMs?: number) {
  return client(timeoutMs === undefined ? {} : { timeoutMs }).withdraw.fromMaster(
    { walletId: w.id },
    { assets: [{ id: usdc().id, address: RECIPIENT, amount: '1.5', reference }] },
  );
}

async function failure(promise: Promise<unknown>): Promise<CustodyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CustodyError);
  return error as CustodyError;
}

/** Straight to the served sandbox (the wallet transactions extension), bypassing the proxy. */
async function viaHttp(reference: string) {
  const res = await fetch(`${served.url}/v1/wallets/${w.id}/transactions?reference=${reference}`, {
    headers: { 'x-api-key': w.apiKey },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ id: string; type: string }> }).data;
}

describe('passing through', () => {
  it('forwards with the path prefix kept and records every call', async () => {
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sandbox$/);
    const before = proxy.calls.length;
    const wallet = await client().wallets.get({ walletId: w.id });
    expect(wallet.data.id).toBe(w.id);
    const call = proxy.calls[before]!;
    expect(call).toMatchObject({ method: 'GET', path: `/v1/wallets/${w.id}`, forwarded: true, status: 200 });
    expect(call.fault).toBeUndefined();
    const list = await client().wallets.listTransactions({ walletId: w.id, limit: 5 });
    expect(list.data.length).toBeGreaterThan(0);
    expect(proxy.calls.at(-1)!.query).toEqual({ limit: '5' });
  });
});

describe('fault modes', () => {
  it("'500' answers without forwarding: an unknown outcome for a withdrawal that never reached the service", async () => {
    proxy.setFault({ mode: '500', match: WITHDRAW });
    const reference = `proxy-500-${randomUUID()}`;
    const before = proxy.forwardedCount(WITHDRAW);
    const error = await failure(withdraw(reference));
    expect(error).toMatchObject({ kind: 'http', status: 500, outcomeUnknown: true });
    expect(error.message).toBe('Injected upstream failure');
    expect(proxy.forwardedCount(WITHDRAW)).toBe(before);
    expect(proxy.calls.at(-1)).toMatchObject({ fault: '500', forwarded: false, status: 500 });
    expect(await viaHttp(reference)).toHaveLength(0);
    // One-shot by default: the next withdrawal passes.
    expect((await withdraw(`proxy-after-500-${randomUUID()}`)).data.status).toBe('PENDING');
    expect(proxy.forwardedCount(WITHDRAW)).toBe(before + 1);
  });

  it("'429' sends Retry-After; a read retries after it and succeeds", async () => {
    proxy.setFault({ mode: '429', retryAfterSeconds: 7, match: { method: 'GET' } });
    const error = await failure(client().wallets.get({ walletId: w.id }));
    expect(error).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 7000, outcomeUnknown: false });
    proxy.setFault({ mode: '429', times: 2 });
    const path = `/v1/wallets/${w.id}`;
    const before = proxy.forwardedCount({ method: 'GET', path });
    const wallet = await client({ retries: 2 }).wallets.get({ walletId: w.id });
    expect(wallet.data.id).toBe(w.id);
    expect(proxy.calls.slice(-3).map((c) => c.status)).toEqual([429, 429, 200]);
    expect(proxy.forwardedCount({ method: 'GET', path })).toBe(before + 1);
  });

  it("'hang' never answers: the client times out and nothing reached the service", async () => {
    proxy.setFault({ mode: 'hang', match: WITHDRAW });
    const reference = `proxy-hang-${randomUUID()}`;
    const before = proxy.forwardedCount(WITHDRAW);
    const error = await failure(withdraw(reference, 300));
    expect(error).toMatchObject({ kind: 'timeout', status: 0, outcomeUnknown: true });
    expect(proxy.forwardedCount(WITHDRAW)).toBe(before);
    expect(proxy.calls.at(-1)).toMatchObject({ fault: 'hang', forwarded: false });
    expect(proxy.calls.at(-1)!.status).toBeUndefined();
    expect(await viaHttp(reference)).toHaveLength(0);
  });

  it("'malformed' forwards, then answers 200 with a body that is not JSON", async () => {
    proxy.setFault({ mode: 'malformed', match: WITHDRAW });
    const reference = `proxy-malformed-${randomUUID()}`;
    const error = await failure(withdraw(reference));
    expect(error).toMatchObject({ kind: 'malformed', status: 200, outcomeUnknown: true });
    expect(error.details?.reason).toBe('invalid-json');
    expect(proxy.calls.at(-1)).toMatchObject({ fault: 'malformed', forwarded: true, upstreamStatus: 200 });
    expect(await viaHttp(reference)).toHaveLength(1);
  });

  it("'reset' destroys the connection without forwarding", async () => {
    proxy.setFault({ mode: 'reset', match: WITHDRAW });
    const reference = `proxy-reset-${randomUUID()}`;
    const before = proxy.forwardedCount(WITHDRAW);
    const error = await failure(withdraw(reference));
    expect(error).toMatchObject({ kind: 'network', status: 0, outcomeUnknown: true });
    expect(proxy.forwardedCount(WITHDRAW)).toBe(before);
    expect(await viaHttp(reference)).toHaveLength(0);
  });

  it("'drop-after-execution': the service carried the withdrawal out, the client never heard", async () => {
    proxy.setFault({ mode: 'drop-after-execution', match: WITHDRAW });
    const reference = `proxy-drop-${randomUUID()}`;
    const before = proxy.forwardedCount(WITHDRAW);
    const error = await failure(withdraw(reference));
    expect(error).toMatchObject({ kind: 'network', outcomeUnknown: true });
    expect(proxy.forwardedCount(WITHDRAW)).toBe(before + 1);
    expect(proxy.calls.at(-1)).toMatchObject({ fault: 'drop-after-execution', upstreamStatus: 200 });
    expect(proxy.calls.at(-1)!.status).toBeUndefined();
    const upstream = await viaHttp(reference);
    expect(upstream.map((t) => t.type)).toEqual(['WITHDRAW']);
  });

  it("'late': the client times out first, the service acts afterwards", async () => {
    proxy.setFault({ mode: 'late', lateMs: 600, match: WITHDRAW });
    const reference = `proxy-late-${randomUUID()}`;
    const before = proxy.forwardedCount(WITHDRAW);
    const error = await failure(withdraw(reference, 300));
    expect(error).toMatchObject({ kind: 'timeout', outcomeUnknown: true });
    // The client's timer is due before the proxy's, so the request is still held at this point.
    expect(proxy.forwardedCount(WITHDRAW)).toBe(before);
    await proxy.whenIdle();
    expect(proxy.forwardedCount(WITHDRAW)).toBe(before + 1);
    expect(proxy.calls.at(-1)).toMatchObject({ fault: 'late', forwarded: true, upstreamStatus: 200 });
    expect(await viaHttp(reference)).toHaveLength(1);
  });

  it("'spec-only' answers the extension paths 404 like an unknown path and lets spec calls pass", async () => {
    proxy.setFault({ mode: 'spec-only' });
    const c = client();
    const internal = w.addresses.find((a) => a.type === 'INTERNAL')!;
    for (const attempt of [
      () => c.wallets.listTransactions({ walletId: w.id }),
      () => c.wallets.listAddresses({ walletId: w.id }),
      () => c.beneficiaries.list({ walletId: w.id }),
    ]) {
      const error = await failure(attempt());
      expect(error).toMatchObject({ kind: 'http', status: 404 });
      expect(error.message).toMatch(new RegExp(`^Cannot GET /v1/wallets/${w.id}/`));
    }
    expect(proxy.calls.slice(-3).every((call) => !call.forwarded && call.fault === 'spec-only')).toBe(true);
    // Spec endpoints pass and the fault stays in place (sticky unless `times` says otherwise).
    expect((await c.wallets.get({ walletId: w.id })).data.id).toBe(w.id);
    const page = await c.addresses.listTransactions({ walletId: w.id, addressId: internal.id });
    expect(page.meta).toBeDefined();
    await expect(c.wallets.listTransactions({ walletId: w.id })).rejects.toMatchObject({ status: 404 });
  });

  it('applies only to matching requests and for `times` of them', async () => {
    proxy.setFault({ mode: '500', match: { method: 'POST' }, times: 2 });
    expect((await client().wallets.get({ walletId: w.id })).data.id).toBe(w.id);
    expect((await failure(withdraw(`proxy-times-a-${randomUUID()}`))).status).toBe(500);
    expect((await failure(withdraw(`proxy-times-b-${randomUUID()}`))).status).toBe(500);
    expect((await withdraw(`proxy-times-c-${randomUUID()}`)).data.status).toBe('PENDING');
    proxy.setFault({ mode: '500', times: Number.POSITIVE_INFINITY });
    for (let i = 0; i < 3; i++)
      expect((await failure(client().wallets.get({ walletId: w.id }))).status).toBe(500);
  });
});

describe('close', () => {
  it('ends hanging and held requests without waiting for them', async () => {
    const own = await startFaultProxy({ target: served.url });
    const c = createCustodyClient({ baseUrl: own.url, apiKey: w.apiKey, timeoutMs: 60_000, retries: 0 });
    own.setFault({ mode: 'hang', match: { method: 'GET' } });
    const hanging = failure(c.wallets.get({ walletId: w.id }));
    const seen = async (n: number) => {
      while (own.calls.length < n) await new Promise((resolve) => setImmediate(resolve));
    };
    await seen(1);
    own.setFault({ mode: 'late', lateMs: 600_000, match: WITHDRAW });
    const reference = `proxy-close-${randomUUID()}`;
    const held = failure(
      c.withdraw.fromMaster(
        { walletId: w.id },
        { assets: [{ id: usdc().id, address: RECIPIENT, amount: '1', reference }] },
      ),
    );
    await seen(2);
    await own.close();
    expect((await hanging).kind).toBe('network');
    expect((await held).kind).toBe('network');
    expect(own.forwardedCount()).toBe(0);
    expect(await viaHttp(reference)).toHaveLength(0);
  });
});
