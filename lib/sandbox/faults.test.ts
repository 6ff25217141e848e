// Fault controls of the sandbox (POST/GET /control/faults): delayed and lost answers of money-moving and
// signing calls, spec-only mode, one-shot behaviour and authentication; in-process and over real HTTP.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCustodyClient } from '@/lib/custody/client';
import { createTestSandbox, TEST_SANDBOX_BASE_URL, type TestSandbox } from '@/test/sandbox';
import { serveSandbox } from '@/test/serve-sandbox';
import { EXTENSION_ROUTE_KEYS } from './extensions';
import { ENDPOINTS } from './handlers';
import type { Sandbox, SandboxCredentials } from './index';

type Wallet = SandboxCredentials['wallets'][number];

const RECIPIENT = '0x00000000000000000000000000000000000000aa';
let env: TestSandbox;
let sandbox: Sandbox;
let w: Wallet;
let other: Wallet;

beforeAll(async () => {
  env = await createTestSandbox({ seed: 'fault-controls' });
  sandbox = env.sandbox;
  w = env.credentials.wallets[0]!;
  other = env.credentials.wallets[1]!;
});

afterAll(async () => {
  await env?.close();
});

async function api(
  method: string,
  pathname: string,
  options: { key?: string | null; body?: unknown; on?: Sandbox } = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  const key = options.key === undefined ? w.apiKey : options.key;
  if (key) headers['x-api-key'] = key;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await (options.on ?? sandbox).handle(
    new Request(`${TEST_SANDBOX_BASE_URL}${pathname}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    }),
  );
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const setFaults = (body: Record<string, unknown>, key = w.apiKey) =>
  api('POST', '/control/faults', { body, key });
const faultsOf = async (key = w.apiKey) => (await api('GET', '/control/faults', { key })).json.data;

const usdc = (wallet: Wallet) => wallet.assets.find((a) => a.symbol === 'USDC')!;

function withdrawalInit(wallet: Wallet, reference: string, signal?: AbortSignal): RequestInit {
  return {
    method: 'POST',
    headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      assets: [{ id: usdc(wallet).id, address: RECIPIENT, amount: '1.25', reference }],
    }),
    ...(signal ? { signal } : {}),
  };
}

const withdrawUrl = (wallet: Wallet, base = TEST_SANDBOX_BASE_URL) =>
  `${base}/v1/wallets/${wallet.id}/withdraw`;

async function upstreamByReference(wallet: Wallet, reference: string) {
  const res = await api('GET', `/v1/wallets/${wallet.id}/transactions?reference=${reference}`, {
    key: wallet.apiKey,
  });
  expect(res.status).toBe(200);
  return res.json.data as Array<{ id: string; reference: string; type: string }>;
}

describe('fault state', () => {
  it('starts clear, answers the state in the envelope, and keeps what a partial update leaves out', async () => {
    expect(await faultsOf()).toEqual({ delayNextMs: 0, dropNextAnswer: false, specOnly: false });
    const set = await setFaults({ delayNextMs: 1500 });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({
      data: { delayNextMs: 1500, dropNextAnswer: false, specOnly: false },
      message: 'Faults updated successfully',
      statusCode: 200,
    });
    expect((await setFaults({ dropNextAnswer: true })).json.data).toEqual({
      delayNextMs: 1500,
      dropNextAnswer: true,
      specOnly: false,
    });
    expect((await setFaults({ delayNextMs: 0, dropNextAnswer: false })).json.data).toEqual({
      delayNextMs: 0,
      dropNextAnswer: false,
      specOnly: false,
    });
    expect((await api('GET', '/control/faults')).json.message).toBe('Faults fetched successfully');
  });

  it('400 for values out of range or unknown controls', async () => {
    for (const body of [
      { delayNextMs: -1 },
      { delayNextMs: 900_001 },
      { delayNextMs: 1.5 },
      { dropNextAnswer: 'yes' },
      { delayNextMS: 10 },
    ]) {
      const res = await setFaults(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.message).toMatch(/^Malformed body/);
    }
    expect((await setFaults({ delayNextMs: 900_000 })).status).toBe(200);
    expect((await setFaults({ delayNextMs: 0 })).status).toBe(200);
  });

  it("401 without or with a wrong key; one wallet's key sets that wallet's faults only", async () => {
    expect((await api('GET', '/control/faults', { key: null })).status).toBe(401);
    expect((await setFaults({ dropNextAnswer: true }, 'sbx_not-a-key')).status).toBe(401);
    const set = await setFaults({ dropNextAnswer: true, specOnly: true }, other.apiKey);
    expect(set.json.data).toEqual({ delayNextMs: 0, dropNextAnswer: true, specOnly: true });
    expect(await faultsOf()).toEqual({ delayNextMs: 0, dropNextAnswer: false, specOnly: false });
    // The first wallet's next withdrawal and lists are untouched by the other wallet's faults.
    const reference = `faults-own-${randomUUID()}`;
    const res = await sandbox.fetch(withdrawUrl(w), withdrawalInit(w, reference));
    expect(res.status).toBe(200);
    expect((await api('GET', `/v1/wallets/${w.id}/transactions`)).status).toBe(200);
    await setFaults({ dropNextAnswer: false, specOnly: false }, other.apiKey);
  });
});

describe('delayNextMs', () => {
  it('holds the next money-moving call, which executes even though the caller aborted first', async () => {
    await setFaults({ delayNextMs: 250 });
    const reference = `faults-delay-${randomUUID()}`;
    const controller = new AbortController();
    const call = sandbox.fetch(withdrawUrl(w), withdrawalInit(w, reference, controller.signal));
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(async () => expect(await upstreamByReference(w, reference)).toHaveLength(1), {
      timeout: 10_000,
      interval: 50,
    });
    // One-shot: taken by this call.
    expect(await faultsOf()).toMatchObject({ delayNextMs: 0 });
  });

  it('does not execute before the delay is over; stop() ends the wait and the call completes', async () => {
    const extra = await env.another();
    await api('POST', '/control/faults', { body: { delayNextMs: 900_000 }, on: extra });
    const reference = `faults-held-${randomUUID()}`;
    const controller = new AbortController();
    const call = extra.fetch(withdrawUrl(w), withdrawalInit(w, reference, controller.signal));
    await vi.waitFor(async () =>
      expect((await api('GET', '/control/faults', { on: extra })).json.data).toMatchObject({
        delayNextMs: 0,
      }),
    );
    // Other requests go through while the withdrawal is held.
    expect(await upstreamByReference(w, reference)).toHaveLength(0);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(await upstreamByReference(w, reference)).toHaveLength(0);
    await extra.stop();
    expect(await upstreamByReference(w, reference)).toHaveLength(1);
  });

  it('leaves reads and estimates alone: only money-moving and signing calls take it', async () => {
    await setFaults({ delayNextMs: 900_000 });
    expect((await api('GET', `/v1/wallets/${w.id}`)).status).toBe(200);
    const fee = await api('POST', `/v1/wallets/${w.id}/withdraw/network-fee`, {
      body: { assets: [{ id: usdc(w).id, address: RECIPIENT, amount: '1' }] },
    });
    expect(fee.status).toBe(200);
    expect(await faultsOf()).toMatchObject({ delayNextMs: 900_000 });
    await setFaults({ delayNextMs: 0 });
  });
});

describe('dropNextAnswer', () => {
  it('in-process: the call executes, then fetch rejects like a broken connection; one-shot', async () => {
    await setFaults({ dropNextAnswer: true });
    const reference = `faults-drop-${randomUUID()}`;
    const error = await sandbox.fetch(withdrawUrl(w), withdrawalInit(w, reference)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(await upstreamByReference(w, reference)).toHaveLength(1);
    expect(await faultsOf()).toMatchObject({ dropNextAnswer: false });
    const next = await sandbox.fetch(withdrawUrl(w), withdrawalInit(w, `faults-after-${randomUUID()}`));
    expect(next.status).toBe(200);
  });

  it('applies to signing calls too: the custody client sees a network failure of unknown outcome', async () => {
    await setFaults({ dropNextAnswer: true });
    const client = createCustodyClient({
      baseUrl: TEST_SANDBOX_BASE_URL,
      apiKey: w.apiKey,
      fetch: sandbox.fetch,
      retries: 0,
    });
    const reference = `faults-sign-${randomUUID()}`;
    await expect(
      client.withdraw.sign(
        { walletId: w.id },
        { assets: [{ id: usdc(w).id, address: RECIPIENT, amount: '2', reference }] },
      ),
    ).rejects.toMatchObject({ name: 'CustodyError', kind: 'network', outcomeUnknown: true });
    const signed = await upstreamByReference(w, reference);
    expect(signed.map((t) => t.type)).toEqual(['SIGNED']);
  });

  it('over HTTP: the call executes, then the answer is a 502 without a JSON body', async () => {
    const served = await serveSandbox(sandbox);
    try {
      await setFaults({ dropNextAnswer: true });
      const reference = `faults-http-drop-${randomUUID()}`;
      const res = await fetch(withdrawUrl(w, served.url), withdrawalInit(w, reference));
      expect(res.status).toBe(502);
      const text = await res.text();
      expect(() => JSON.parse(text)).toThrow();
      expect(await upstreamByReference(w, reference)).toHaveLength(1);
      const next = await fetch(withdrawUrl(w, served.url), withdrawalInit(w, `faults-http-${randomUUID()}`));
      expect(next.status).toBe(200);
    } finally {
      await served.close();
    }
  });

  it('over HTTP with a delay: the call executes after the client closed the connection', async () => {
    const served = await serveSandbox(sandbox);
    try {
      await setFaults({ delayNextMs: 250 });
      const reference = `faults-http-delay-${randomUUID()}`;
      const controller = new AbortController();
      const call = fetch(withdrawUrl(w, served.url), withdrawalInit(w, reference, controller.signal));
      // Aborted once the sandbox has taken the call (the fault is consumed when it starts waiting).
      await vi.waitFor(async () => expect(await faultsOf()).toMatchObject({ delayNextMs: 0 }), {
        interval: 5,
      });
      controller.abort();
      await expect(call).rejects.toMatchObject({ name: 'AbortError' });
      await vi.waitFor(async () => expect(await upstreamByReference(w, reference)).toHaveLength(1), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await served.close();
    }
  });
});

describe('specOnly', () => {
  const extensionRoutes = ENDPOINTS.filter((r) => r.summary.startsWith('Extension:'));
  const specRoutes = ENDPOINTS.filter((r) => /^#\d+ /.test(r.summary));

  function concrete(pattern: string, wallet: Wallet): string {
    const internal = wallet.addresses.find((a) => a.type === 'INTERNAL')!;
    return pattern
      .replace(':walletId', wallet.id)
      .replace(':addressId', internal.id)
      .replace(':id', '7d1d8f2e-0000-4000-8000-000000000000');
  }

  it('the extension list shared with the fault proxy is exactly the routes marked as extensions', () => {
    expect(new Set(extensionRoutes.map((r) => `${r.method} ${r.pattern}`))).toEqual(EXTENSION_ROUTE_KEYS);
    expect(extensionRoutes).toHaveLength(25);
    expect(specRoutes).toHaveLength(23);
  });

  it('answers every extension path as an unknown path while the 23 spec endpoints keep working', async () => {
    await setFaults({ specOnly: true });
    try {
      for (const route of extensionRoutes) {
        const pathname = concrete(route.pattern, w);
        const res = await api(route.method, pathname);
        expect(res, pathname).toEqual({
          status: 404,
          json: { statusCode: 404, message: `Cannot ${route.method} ${pathname}` },
        });
      }
      // The same answer an unknown path gets.
      expect(await api('GET', '/v1/nothing-here')).toEqual({
        status: 404,
        json: { statusCode: 404, message: 'Cannot GET /v1/nothing-here' },
      });
      for (const route of specRoutes) {
        const pathname = concrete(route.pattern, w);
        const res = await api(route.method, pathname, route.body ? { body: {} } : {});
        // Routed and handled: a 2xx, or the endpoint's own validation or lookup error, never "Cannot ...".
        expect(String(res.json.message), `${route.method} ${pathname}`).not.toMatch(/^Cannot /);
      }
      const client = createCustodyClient({
        baseUrl: TEST_SANDBOX_BASE_URL,
        apiKey: w.apiKey,
        fetch: sandbox.fetch,
        retries: 0,
      });
      const internal = w.addresses.find((a) => a.type === 'INTERNAL')!;
      expect((await client.wallets.get({ walletId: w.id })).data.id).toBe(w.id);
      const page = await client.addresses.listTransactions({ walletId: w.id, addressId: internal.id });
      expect(page.meta).toBeDefined();
      await expect(client.wallets.listTransactions({ walletId: w.id })).rejects.toMatchObject({
        kind: 'http',
        status: 404,
        message: `Cannot GET /v1/wallets/${w.id}/transactions`,
      });
      // Another wallet is not affected; the state is sticky across calls.
      expect((await api('GET', `/v1/wallets/${other.id}/transactions`, { key: other.apiKey })).status).toBe(
        200,
      );
      expect(await faultsOf()).toMatchObject({ specOnly: true });
    } finally {
      await setFaults({ specOnly: false });
    }
    expect((await api('GET', `/v1/wallets/${w.id}/transactions`)).status).toBe(200);
  });

  it('the specOnly option (SANDBOX_SPEC_ONLY) starts every wallet spec-only until switched off', async () => {
    const strict = await env.another({ specOnly: true });
    for (const wallet of [w, other]) {
      const res = await api('GET', `/v1/wallets/${wallet.id}/beneficiaries`, {
        key: wallet.apiKey,
        on: strict,
      });
      expect(res.status).toBe(404);
      expect((await api('GET', '/control/faults', { key: wallet.apiKey, on: strict })).json.data).toEqual({
        delayNextMs: 0,
        dropNextAnswer: false,
        specOnly: true,
      });
    }
    await api('POST', '/control/faults', { body: { specOnly: false }, on: strict });
    expect((await api('GET', `/v1/wallets/${w.id}/beneficiaries`, { on: strict })).status).toBe(200);
    expect(
      (await api('GET', `/v1/wallets/${other.id}/beneficiaries`, { key: other.apiKey, on: strict })).status,
    ).toBe(404);
  });
});

describe('OpenAPI document', () => {
  it('describes both fault controls with their body and state', async () => {
    const res = await sandbox.handle(new Request(`${TEST_SANDBOX_BASE_URL}/openapi.json`));
    const doc = (await res.json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const faults = doc.paths['/control/faults']!;
    expect(Object.keys(faults).sort()).toEqual(['get', 'post']);
    const body = JSON.stringify(faults.post!.requestBody);
    for (const field of ['delayNextMs', 'dropNextAnswer', 'specOnly']) expect(body).toContain(field);
    expect(body).toContain('900000');
    expect(JSON.stringify(faults.get!.responses)).toContain('dropNextAnswer');
  });
});
