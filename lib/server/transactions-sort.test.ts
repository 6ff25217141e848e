// Sorting over the whole result and pages past the end: the wallet-wide list sorts upstream, #3 (per address,
// date order only) is sorted here; both clamp a page beyond the last one.
import { describe, expect, it } from 'vitest';
import type { CustodyClient } from '@/lib/custody';
import type { Transaction } from '@/lib/custody/schemas';
import { transaction } from '@/lib/custody/test-fixtures';
import { DEFAULT_TRANSACTION_SEARCH, filtersOf, type TransactionSearch } from '@/lib/validation/transactions';
import {
  compareTransactions,
  listTransactionPage,
  MAX_LOCAL_FILTER_SCAN,
  openTransactionCsvStream,
  type TransactionSource,
} from './transactions';

const ADDR_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const ADDR_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

function tx(n: number, overrides: Record<string, unknown> = {}): Transaction {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  // One row a minute, so date order is the numbering.
  const createdAt = new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString();
  return transaction({ id, reference: `ref-${n}`, createdAt, ...overrides }) as unknown as Transaction;
}

type Query = { page?: number; limit?: number; order?: string; sort?: string; addressId?: string };

const byDate = (order?: string) => (a: Transaction, b: Transaction) =>
  (order === 'ASC' ? 1 : -1) * (Date.parse(a.createdAt ?? '') - Date.parse(b.createdAt ?? ''));

function serve(rows: Transaction[], q: Query) {
  const page = q.page ?? 1;
  const limit = q.limit ?? 100;
  const data = rows.slice((page - 1) * limit, page * limit);
  return {
    data,
    message: 'ok',
    meta: {
      currentPage: page,
      itemCount: data.length,
      itemsPerPage: limit,
      totalItems: rows.length,
      totalPages: Math.ceil(rows.length / limit),
    },
  };
}

/**
 * A service: the wallet-wide list sorts by `sort` (amount as a number) like the sandbox, #3 by date only.
 * Each call is recorded with the endpoint it used.
 */
function fakeService(rows: Transaction[], calls: Array<Query & { endpoint: string }> = []): CustodyClient {
  return {
    wallets: {
      listTransactions: async (q: Query) => {
        calls.push({ ...q, endpoint: 'wallet' });
        const scoped = rows.filter((r) => !q.addressId || r.addressId === q.addressId);
        const sign = q.order === 'ASC' ? 1 : -1;
        const sorted =
          q.sort === 'amount'
            ? [...scoped].sort((a, b) => sign * (Number(a.amount) - Number(b.amount)))
            : [...scoped].sort(byDate(q.order));
        return serve(sorted, q);
      },
    },
    addresses: {
      listTransactions: async (q: Query) => {
        calls.push({ ...q, endpoint: 'address' });
        return serve(rows.filter((r) => r.addressId === q.addressId).sort(byDate(q.order)), q);
      },
    },
  } as unknown as CustodyClient;
}

const search = (patch: Partial<TransactionSearch>) => filtersOf({ ...DEFAULT_TRANSACTION_SEARCH, ...patch });
const SPEC_ONLY: TransactionSource = { kind: 'addresses', addressIds: [ADDR_A, ADDR_B] };

/** 130 rows over two addresses; the largest amounts are among the oldest rows (the last date pages). */
function ledger(): Transaction[] {
  return Array.from({ length: 130 }, (_, i) =>
    tx(i, {
      addressId: i % 2 === 0 ? ADDR_A : ADDR_B,
      // String order would put "9999.5" above "24421.45".
      amount: i === 3 ? '24421.45' : i === 4 ? '24150.56' : i === 5 ? '9999.5' : String(100 + i),
    }),
  );
}

describe('compareTransactions', () => {
  const rows = [
    tx(1, { amount: '9999.5' }),
    tx(2, { amount: '24421.45' }),
    tx(3, { amount: null }),
    tx(4, { amount: '24150.56' }),
    tx(5, { amount: 'n/a' }),
    tx(6, { amount: '24150.56' }),
  ];
  const amounts = (list: Transaction[]) => list.map((r) => r.amount);

  it('compares amounts as numbers, largest first, missing last, ties newest first', () => {
    const sorted = [...rows].sort(compareTransactions('amount', 'DESC'));
    expect(amounts(sorted)).toEqual(['24421.45', '24150.56', '24150.56', '9999.5', 'n/a', null]);
    expect(sorted[1]?.id).toBe(rows[5]?.id);
  });

  it('keeps missing amounts last when ascending too', () => {
    const sorted = [...rows].sort(compareTransactions('amount', 'ASC'));
    expect(amounts(sorted)).toEqual(['9999.5', '24150.56', '24150.56', '24421.45', null, 'n/a']);
  });

  it('sorts words A to Z and dates by time', () => {
    const typed = [tx(1, { type: 'WITHDRAW' }), tx(2, { type: 'DEPOSIT' }), tx(3, { type: 'SWAP' })];
    expect([...typed].sort(compareTransactions('type', 'ASC')).map((r) => r.type)).toEqual([
      'DEPOSIT',
      'SWAP',
      'WITHDRAW',
    ]);
    expect([...typed].sort(compareTransactions('createdAt', 'DESC')).map((r) => r.type)).toEqual([
      'SWAP',
      'DEPOSIT',
      'WITHDRAW',
    ]);
  });
});

describe('listTransactionPage: sort', () => {
  it('asks the wallet-wide list to sort, so page 1 holds the largest amount of all pages', async () => {
    const calls: Array<Query & { endpoint: string }> = [];
    const page = await listTransactionPage(
      fakeService(ledger(), calls),
      'w',
      search({ sort: 'amount', order: 'DESC' }),
    );
    expect(calls).toEqual([expect.objectContaining({ endpoint: 'wallet', sort: 'amount', order: 'DESC' })]);
    expect(page.data.slice(0, 2).map((r) => r.amount)).toEqual(['24421.45', '24150.56']);
  });

  it('sends no sort for date order (the same call a service without the extension knows)', async () => {
    const calls: Array<Query & { endpoint: string }> = [];
    await listTransactionPage(fakeService(ledger(), calls), 'w', search({}));
    expect(calls[0]?.sort).toBeUndefined();
  });

  it('uses the wallet-wide list with addressId to sort one address when it has it', async () => {
    const calls: Array<Query & { endpoint: string }> = [];
    const page = await listTransactionPage(
      fakeService(ledger(), calls),
      'w',
      search({ addressId: ADDR_B, sort: 'amount' }),
    );
    expect(calls[0]).toMatchObject({ endpoint: 'wallet', addressId: ADDR_B, sort: 'amount' });
    expect(page.data[0]?.amount).toBe('24421.45');
    expect(page.data.every((r) => r.addressId === ADDR_B)).toBe(true);
  });

  it('sorts the merged child-address rows itself when the service has #3 only', async () => {
    const calls: Array<Query & { endpoint: string }> = [];
    const client = fakeService(ledger(), calls);
    const first = await listTransactionPage(client, 'w', search({ sort: 'amount', limit: 50 }), SPEC_ONLY);
    expect(calls.every((c) => c.endpoint === 'address' && c.sort === undefined)).toBe(true);
    expect(first.data.slice(0, 3).map((r) => r.amount)).toEqual(['24421.45', '24150.56', '9999.5']);
    expect(first.meta).toMatchObject({ currentPage: 1, totalItems: 130, totalPages: 3 });
    expect(first.scanLimit).toBeUndefined();
    const ascending = await listTransactionPage(
      client,
      'w',
      search({ sort: 'amount', order: 'ASC', page: 3, limit: 50 }),
      SPEC_ONLY,
    );
    expect(ascending.data.at(-1)?.amount).toBe('24421.45');
  });

  it('sorts one address itself on a service with #3 only', async () => {
    const calls: Array<Query & { endpoint: string }> = [];
    const page = await listTransactionPage(
      fakeService(ledger(), calls),
      'w',
      search({ addressId: ADDR_A, sort: 'amount' }),
      SPEC_ONLY,
    );
    expect(new Set(calls.map((c) => `${c.endpoint}:${c.addressId}`))).toEqual(new Set([`address:${ADDR_A}`]));
    expect(page.data[0]?.amount).toBe('24150.56');
    expect(page.meta.totalItems).toBe(65);
  });

  it('says when the local sort stopped at its bound', async () => {
    const many = Array.from({ length: MAX_LOCAL_FILTER_SCAN + 10 }, (_, i) =>
      tx(i, { addressId: ADDR_A, amount: String(i) }),
    );
    const page = await listTransactionPage(fakeService(many), 'w', search({ sort: 'amount', limit: 10 }), {
      kind: 'addresses',
      addressIds: [ADDR_A],
    });
    expect(page.scanLimit).toBe(MAX_LOCAL_FILTER_SCAN);
    expect(page.meta.totalItems).toBe(MAX_LOCAL_FILTER_SCAN);
    // The newest rows are the ones kept: the largest amount among them is the newest row's.
    expect(page.data[0]?.amount).toBe(String(MAX_LOCAL_FILTER_SCAN + 9));
  });
});

describe('listTransactionPage: a page past the end', () => {
  it('answers the last page of the wallet-wide list, never an empty range', async () => {
    const calls: Array<Query & { endpoint: string }> = [];
    const page = await listTransactionPage(fakeService(ledger(), calls), 'w', search({ page: 999 }));
    expect(calls.map((c) => c.page)).toEqual([999, 3]);
    expect(page.meta).toEqual({
      currentPage: 3,
      itemCount: 30,
      itemsPerPage: 50,
      totalItems: 130,
      totalPages: 3,
    });
    expect(page.data).toHaveLength(30);
  });

  it('clamps a joined 1000-row page too', async () => {
    const page = await listTransactionPage(fakeService(ledger()), 'w', search({ page: 5, limit: 1000 }));
    expect(page.meta).toMatchObject({ currentPage: 1, itemCount: 130 });
  });

  it('clamps the merged child-address list, by date and sorted', async () => {
    const client = fakeService(ledger());
    const byDatePage = await listTransactionPage(client, 'w', search({ page: 999 }), SPEC_ONLY);
    expect(byDatePage.meta).toMatchObject({ currentPage: 3, itemCount: 30, totalItems: 130 });
    expect(byDatePage.data.at(-1)?.id).toBe(tx(0).id);
    const sorted = await listTransactionPage(client, 'w', search({ page: 999, sort: 'amount' }), SPEC_ONLY);
    expect(sorted.meta).toMatchObject({ currentPage: 3, itemCount: 30 });
  });

  it('answers page 1 of an empty list without reading again', async () => {
    const calls: Array<Query & { endpoint: string }> = [];
    const page = await listTransactionPage(fakeService([], calls), 'w', search({ page: 4 }));
    expect(calls).toHaveLength(1);
    expect(page.meta).toMatchObject({ currentPage: 1, itemCount: 0, totalItems: 0 });
  });
});

describe('openTransactionCsvStream: sort', () => {
  const amountsOf = (csv: string) =>
    csv
      .trimEnd()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(',')[6]);

  it("exports in the view's sort through the wallet-wide list", async () => {
    const calls: Array<Query & { endpoint: string }> = [];
    const stream = await openTransactionCsvStream(
      fakeService(ledger(), calls),
      'w',
      search({ sort: 'amount' }),
      () => {},
    );
    const amounts = amountsOf(await new Response(stream).text());
    expect(calls[0]).toMatchObject({ sort: 'amount', order: 'DESC' });
    expect(amounts).toHaveLength(130);
    expect(amounts.slice(0, 3)).toEqual(['24421.45', '24150.56', '9999.5']);
  });

  it("exports in the view's sort when the console sorts the child addresses itself", async () => {
    let done: { rows: number } | undefined;
    const stream = await openTransactionCsvStream(
      fakeService(ledger()),
      'w',
      search({ sort: 'amount' }),
      (o) => {
        done = o;
      },
      SPEC_ONLY,
    );
    const amounts = amountsOf(await new Response(stream).text()).map(Number);
    expect(amounts).toHaveLength(130);
    expect(amounts).toEqual([...amounts].sort((a, b) => b - a));
    expect(done).toEqual({ rows: 130 });
  });
});
