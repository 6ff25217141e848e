// Holds the custody client and the sandbox router to the table of endpoints: the client calls no path the table
// does not name, and the sandbox serves each documented endpoint at the table's (Blockradar's) path.
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/sandbox/handlers';
import { matchRoute } from '@/lib/sandbox/router';
import { createCustodyClient } from './client';
import { CUSTODY_ENDPOINTS, type CustodyEndpoint } from './endpoints';
import * as f from './test-fixtures';

const BASE = 'http://custody.test/api';
const NOT_DOCUMENTED = 'extension: not documented';
/** One value for every path parameter any endpoint takes. */
const PARAMS = { walletId: 'wallet-1', addressId: 'address-1', id: 'id-1', transactionId: 'id-1' };

const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;
const templateRegex = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
const concrete = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: keyof typeof PARAMS) => PARAMS[name]);
/** The sandbox's `:param` pattern as the table writes it. */
const asTemplate = (pattern: string) => pattern.replace(/:(\w+)/g, '{$1}');

/** Calls every method of the client once against a recording fetch; the answers (errors) do not matter. */
async function clientCalls(): Promise<Array<{ name: string; method: string; path: string }>> {
  const { fetch, calls } = f.fakeFetch(() => f.json({ statusCode: 418, message: 'recorded' }, 418));
  const client = createCustodyClient({ baseUrl: BASE, apiKey: 'sk_test_endpoints', fetch, retries: 0 });
  const out: Array<{ name: string; method: string; path: string }> = [];
  for (const [group, methods] of Object.entries(client)) {
    for (const [name, fn] of Object.entries(
      methods as Record<string, (...args: unknown[]) => Promise<unknown>>,
    )) {
      const before = calls.length;
      await fn({ ...PARAMS }, {}).catch(() => undefined);
      const made = calls.slice(before);
      expect(made, `${group}.${name} makes one request`).toHaveLength(1);
      const url = new URL(made[0]!.url);
      out.push({
        name: `${group}.${name}`,
        method: made[0]!.method,
        path: url.pathname.slice(new URL(BASE).pathname.length),
      });
    }
  }
  return out;
}

describe('the table of custody endpoints', () => {
  it('names each endpoint once, with a reference page, a section or "extension: not documented"', () => {
    const keys = CUSTODY_ENDPOINTS.map(key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const e of CUSTODY_ENDPOINTS) {
      expect(e.docs, key(e)).toMatch(
        /^(https:\/\/docs\.blockradar\.co\/api-reference\/[a-z0-9-]+\/[a-z0-9-]+|Blockradar API reference › .+|extension: not documented)$/,
      );
      expect(e.client !== undefined || e.sandbox, `${key(e)} is called or served`).toBe(true);
    }
    // The spec's 23 are all there, each once.
    expect(
      CUSTODY_ENDPOINTS.map((e) => e.spec)
        .filter((n) => n !== undefined)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
  });

  it('holds every path the client calls, under the method that calls it', async () => {
    const calls = await clientCalls();
    for (const call of calls) {
      const rows = CUSTODY_ENDPOINTS.filter(
        (e) => e.method === call.method && templateRegex(e.path).test(call.path),
      );
      expect(
        rows.map((e) => e.client),
        `${call.name} calls ${call.method} ${call.path}`,
      ).toEqual([call.name]);
    }
    // And the table names no client method that does not exist.
    const called = new Set(calls.map((c) => c.name));
    const named = CUSTODY_ENDPOINTS.flatMap((e) => (e.client ? [e.client] : []));
    expect(new Set(named)).toEqual(called);
  });

  it('the client removes a whitelisted address at the documented path', async () => {
    const calls = await clientCalls();
    expect(calls.find((c) => c.name === 'addresses.removeWhitelisted')).toEqual({
      name: 'addresses.removeWhitelisted',
      method: 'DELETE',
      path: `/v1/wallets/${PARAMS.walletId}/addresses/whitelist/${PARAMS.addressId}`,
    });
  });

  it('holds exactly the routes the sandbox serves', () => {
    const served = ENDPOINTS.map((r) => `${r.method} ${asTemplate(r.pattern)}`).sort();
    const listed = CUSTODY_ENDPOINTS.filter((e) => e.sandbox)
      .map(key)
      .sort();
    expect(served).toEqual(listed);
  });

  it.each(CUSTODY_ENDPOINTS.filter((e) => e.sandbox && e.docs !== NOT_DOCUMENTED))(
    'the sandbox answers $method $path at that path',
    (e: CustodyEndpoint) => {
      const match = matchRoute(e.method, concrete(e.path));
      expect(match, `${key(e)} is routed`).toBeTypeOf('object');
      if (typeof match !== 'object') return;
      expect(asTemplate(match.route.pattern)).toBe(e.path);
    },
  );
});
