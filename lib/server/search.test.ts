import { describe, expect, it } from 'vitest';
import type { CustodyClient } from '@/lib/custody';
import { CustodyError } from '@/lib/custody/errors';
import { address, transaction } from '@/lib/custody/test-fixtures';
import { planSearch, type SearchableWallet, searchConsole } from './search';

const UUID = 'c0ffee00-1234-4abc-8def-0123456789ab';
const HASH = `0x${'cd'.repeat(32)}`;

describe('planSearch', () => {
  it('looks a UUID up as a transaction id and an address id', () => {
    expect(planSearch(UUID)).toEqual({ transactions: 'id', addresses: 'id' });
  });
  it('looks a 64-hex string up as a hash only', () => {
    expect(planSearch(HASH)).toEqual({ transactions: 'hash', addresses: null });
  });
  it('looks an EVM address up among addresses only', () => {
    expect(planSearch(`0x${'1'.repeat(40)}`)).toEqual({ transactions: null, addresses: 'search' });
  });
  it('treats anything else as a reference or an address name', () => {
    expect(planSearch('payout-42')).toEqual({ transactions: 'reference', addresses: 'search' });
  });
});

function wallet(id: string, name: string, client: Partial<Record<string, unknown>>): SearchableWallet {
  return { id, name, client: client as unknown as CustodyClient };
}

const page = <T>(data: T[]) => ({
  data,
  message: 'ok',
  meta: { currentPage: 1, itemCount: data.length, itemsPerPage: 5, totalItems: data.length, totalPages: 1 },
});

describe('searchConsole', () => {
  it('finds a transaction by hash in the wallet that has it and links to its open drawer', async () => {
    const seen: Record<string, unknown>[] = [];
    const tx = transaction({ id: UUID, hash: HASH });
    const a = wallet('w-a', 'A', {
      wallets: {
        listTransactions: async (q: Record<string, unknown>) => {
          seen.push(q);
          return page([]);
        },
      },
    });
    const b = wallet('w-b', 'B', { wallets: { listTransactions: async () => page([tx]) } });
    const result = await searchConsole([a, b], `  ${HASH} `, null);
    expect(seen[0]).toMatchObject({ walletId: 'w-a', hash: HASH });
    expect(result.hits).toHaveLength(1);
    expect(result.hits[0]).toMatchObject({
      kind: 'transaction',
      walletId: 'w-b',
      href: `/wallets/w-b/transactions?id=${UUID}&open=${UUID}`,
    });
    expect(result.failures).toEqual([]);
  });

  it('treats an unknown address id as no hit and reports a failing wallet without losing the others', async () => {
    const notFound = new CustodyError({
      kind: 'http',
      status: 404,
      message: 'Address not found',
      method: 'GET',
      path: '/x',
    } as never);
    const ok = wallet('w-ok', 'OK', {
      wallets: { listTransactions: async () => page([]) },
      addresses: { get: async () => ({ data: address({ id: UUID }), message: 'ok' }) },
    });
    const missing = wallet('w-missing', 'Missing', {
      wallets: { listTransactions: async () => page([]) },
      addresses: { get: async () => Promise.reject(notFound) },
    });
    const broken = wallet('w-broken', 'Broken', {
      wallets: {
        listTransactions: async () =>
          Promise.reject(
            new CustodyError({
              kind: 'http',
              status: 401,
              message: 'Invalid API key',
              method: 'GET',
              path: '/x',
            } as never),
          ),
      },
      addresses: { get: async () => Promise.reject(notFound) },
    });
    const result = await searchConsole([ok, missing, broken], UUID, null);
    expect(result.hits.map((h) => [h.kind, h.walletId])).toEqual([['address', 'w-ok']]);
    expect(result.hits[0]?.href).toBe(`/wallets/w-ok/addresses/${UUID}`);
    expect(result.failures).toEqual([
      { walletId: 'w-broken', walletName: 'Broken', message: 'Invalid API key' },
    ]);
  });
});
