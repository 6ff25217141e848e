import { describe, expect, it } from 'vitest';
import { transactionSearchSchema } from './transaction-search-schema';
import {
  clampPage,
  classifyTransactionSearch,
  DEFAULT_TRANSACTION_SEARCH,
  filtersOf,
  hasActiveFilters,
  parseTransactionSearch,
  parseTransactionSearchStrict,
  serializeTransactionSearch,
  upstreamPagesFor,
} from './transactions';

const TX = '3f1c2a4b-5d6e-4f70-8a9b-0c1d2e3f4a5b';
const ADDR = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const HASH = `0x${'ab'.repeat(32)}`;

describe('transaction URL state', () => {
  it('has defaults: newest first, page 1, 50 rows, no filters', () => {
    expect(parseTransactionSearch(new URLSearchParams())).toEqual(DEFAULT_TRANSACTION_SEARCH);
    expect(DEFAULT_TRANSACTION_SEARCH).toMatchObject({ order: 'DESC', page: 1, limit: 50, assets: [] });
    expect(serializeTransactionSearch(DEFAULT_TRANSACTION_SEARCH)).toBe('');
  });

  it('round-trips every field through the query string', () => {
    const state = parseTransactionSearch({
      status: 'FAILED',
      type: 'WITHDRAW',
      assets: 'usdc, USDT',
      order: 'ASC',
      id: TX,
      hash: HASH,
      reference: 'payout-42',
      page: '3',
      limit: '250',
      open: TX,
    });
    expect(state).toMatchObject({
      status: 'FAILED',
      type: 'WITHDRAW',
      assets: ['USDC', 'USDT'],
      order: 'ASC',
      page: 3,
      limit: 250,
    });
    const qs = serializeTransactionSearch(state);
    expect(parseTransactionSearch(new URLSearchParams(qs))).toEqual(state);
  });

  it('falls back field by field on bad values and keeps the good ones', () => {
    const state = parseTransactionSearch({
      status: 'pending?',
      type: 'DROP TABLE',
      order: 'sideways',
      page: '-2',
      limit: '7',
      id: 'not-a-uuid',
      open: '42',
      assets: '<script>',
      hash: 'x',
    });
    expect(state).toEqual(DEFAULT_TRANSACTION_SEARCH);
    expect(parseTransactionSearch({ status: 'SUCCESS', page: 'abc' })).toMatchObject({
      status: 'SUCCESS',
      page: 1,
    });
  });

  it('takes the first value of a repeated parameter', () => {
    expect(parseTransactionSearch({ status: ['FAILED', 'SUCCESS'] }).status).toBe('FAILED');
  });

  it('treats an empty parameter as absent', () => {
    expect(parseTransactionSearch(new URLSearchParams('status=&type=&limit=&page='))).toEqual(
      DEFAULT_TRANSACTION_SEARCH,
    );
  });

  it('allows up to 1000 rows per page and nothing in between the offered sizes', () => {
    expect(parseTransactionSearch({ limit: '1000' }).limit).toBe(1000);
    expect(parseTransactionSearch({ limit: '1001' }).limit).toBe(50);
    expect(parseTransactionSearch({ limit: '2.5' }).limit).toBe(50);
  });

  it('drops filters the per-address endpoint does not have', () => {
    const state = parseTransactionSearch({
      addressId: ADDR,
      type: 'SWAP',
      reference: 'r-1',
      status: 'SUCCESS',
    });
    expect(state).toMatchObject({
      addressId: ADDR,
      type: undefined,
      reference: undefined,
      status: 'SUCCESS',
    });
    expect(parseTransactionSearch({ addressId: ADDR, type: 'DEPOSIT' }).type).toBe('DEPOSIT');
  });

  it('strict parsing names each bad field', () => {
    const bad = parseTransactionSearchStrict(new URLSearchParams('status=nope&limit=3'));
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error).toContain('status');
      expect(bad.error).toContain('limit');
    }
    const good = parseTransactionSearchStrict(new URLSearchParams('status=PENDING&assets=USDC'));
    expect(good).toEqual({
      ok: true,
      data: { ...DEFAULT_TRANSACTION_SEARCH, status: 'PENDING', assets: ['USDC'] },
    });
  });

  it('knows when a filter narrows the list, and leaves the drawer out of the filters', () => {
    expect(hasActiveFilters(DEFAULT_TRANSACTION_SEARCH)).toBe(false);
    expect(hasActiveFilters({ ...DEFAULT_TRANSACTION_SEARCH, assets: ['USDC'] })).toBe(true);
    expect(hasActiveFilters({ ...DEFAULT_TRANSACTION_SEARCH, open: TX })).toBe(false);
    expect(filtersOf({ ...DEFAULT_TRANSACTION_SEARCH, open: TX })).not.toHaveProperty('open');
  });
});

describe('transaction sort in the URL', () => {
  it('defaults to date, newest first, and leaves both out of the URL', () => {
    expect(DEFAULT_TRANSACTION_SEARCH).toMatchObject({ sort: 'createdAt', order: 'DESC' });
    expect(serializeTransactionSearch({ sort: 'createdAt', order: 'DESC' })).toBe('');
  });

  it('reads and writes a sort by any sortable column', () => {
    const state = parseTransactionSearch(new URLSearchParams('sort=amount&order=DESC&page=2'));
    expect(state).toMatchObject({ sort: 'amount', order: 'DESC', page: 2 });
    expect(serializeTransactionSearch(state)).toBe('sort=amount&page=2');
    expect(serializeTransactionSearch({ sort: 'status', order: 'ASC' })).toBe('sort=status&order=ASC');
    expect(parseTransactionSearch(new URLSearchParams('sort=amountUSD&order=ASC'))).toMatchObject({
      sort: 'amountUSD',
      order: 'ASC',
    });
  });

  it('falls back to the date on an unknown or unsortable column', () => {
    expect(parseTransactionSearch({ sort: 'reference' }).sort).toBe('createdAt');
    expect(parseTransactionSearch({ sort: 'AMOUNT' }).sort).toBe('createdAt');
    expect(parseTransactionSearch({ order: 'desc' }).order).toBe('DESC');
  });

  it('is refused strictly by the route handlers, naming the field', () => {
    const bad = parseTransactionSearchStrict(new URLSearchParams('sort=reference'));
    expect(bad).toEqual({ ok: false, error: expect.stringContaining('sort: must be one of createdAt') });
    const parsed = transactionSearchSchema.safeParse({ sort: 'nope', page: '0', status: 'SUCCESS' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.')).sort()).toEqual(['page', 'sort']);
    const good = transactionSearchSchema.safeParse({ sort: 'amount', order: 'ASC', status: '' });
    expect(good.data).toEqual({ ...DEFAULT_TRANSACTION_SEARCH, sort: 'amount', order: 'ASC' });
  });
});

describe('clampPage', () => {
  it('keeps a page that has rows', () => {
    expect(clampPage(1, 130, 50)).toBe(1);
    expect(clampPage(3, 130, 50)).toBe(3);
  });

  it('turns a page past the end into the last page', () => {
    expect(clampPage(999, 130, 50)).toBe(3);
    expect(clampPage(4, 150, 50)).toBe(3);
    expect(clampPage(2, 1, 1000)).toBe(1);
  });

  it('is page 1 when there are no rows', () => {
    expect(clampPage(999, 0, 50)).toBe(1);
    expect(clampPage(0, 10, 50)).toBe(1);
  });
});

describe('classifyTransactionSearch', () => {
  it('recognises ids, hashes and references', () => {
    expect(classifyTransactionSearch(` ${TX.toUpperCase()} `)).toEqual({ field: 'id', value: TX });
    expect(classifyTransactionSearch(HASH)).toEqual({ field: 'hash', value: HASH });
    expect(classifyTransactionSearch('ab'.repeat(32))).toEqual({ field: 'hash', value: 'ab'.repeat(32) });
    expect(classifyTransactionSearch('payout-42')).toEqual({ field: 'reference', value: 'payout-42' });
  });

  it('refuses empty input and references on an address', () => {
    expect(classifyTransactionSearch('  ').field).toBeNull();
    expect(classifyTransactionSearch('payout-42', 'address').field).toBeNull();
  });
});

describe('upstreamPagesFor', () => {
  it('asks once up to the upstream maximum', () => {
    expect(upstreamPagesFor(3, 50)).toEqual([{ page: 3, limit: 50 }]);
    expect(upstreamPagesFor(1, 500)).toEqual([{ page: 1, limit: 500 }]);
  });

  it('splits a 1000-row page into consecutive 500-row pages', () => {
    expect(upstreamPagesFor(1, 1000)).toEqual([
      { page: 1, limit: 500 },
      { page: 2, limit: 500 },
    ]);
    expect(upstreamPagesFor(3, 1000)).toEqual([
      { page: 5, limit: 500 },
      { page: 6, limit: 500 },
    ]);
  });
});
