import { describe, expect, it } from 'vitest';
import { addressFiltersToQuery, parseAddressFilters } from './address-search';
import { addressFiltersSchema, connectWalletSchema, simulateDepositSchema } from './wallets';

describe('address list URL state', () => {
  it('round-trips filters through the query string', () => {
    const filters = parseAddressFilters({ page: '3', limit: '50', search: 'float', type: 'INTERNAL' });
    expect(filters).toEqual({ page: 3, limit: 50, search: 'float', type: 'INTERNAL' });
    const query = addressFiltersToQuery(filters);
    expect(query).toBe('?search=float&type=INTERNAL&page=3&limit=50');
    expect(parseAddressFilters(Object.fromEntries(new URLSearchParams(query)))).toEqual(filters);
  });
  it('falls back to defaults on bad values', () => {
    expect(parseAddressFilters({ page: '-2', limit: '7', type: 'NOPE', search: '   ' })).toEqual({
      page: 1,
      limit: 20,
      search: undefined,
      type: undefined,
    });
    expect(addressFiltersToQuery(parseAddressFilters({}))).toBe('');
  });
  it('writes spaces as + and reads them back, in the route handler too', () => {
    const query = addressFiltersToQuery({ search: 'Operating float', page: 1, limit: 20 });
    expect(query).toBe('?search=Operating+float');
    const raw = Object.fromEntries(new URLSearchParams(query));
    expect(addressFiltersSchema.parse(raw)).toEqual({ page: 1, limit: 20, search: 'Operating float' });
    expect(addressFiltersSchema.parse({ limit: '500', page: '2x', search: 'y'.repeat(101) })).toEqual({
      page: 1,
      limit: 20,
    });
  });
});

describe('wallet connection input', () => {
  it('rejects ids that could change the request path and keys with spaces', () => {
    expect(connectWalletSchema.safeParse({ walletId: '../x', apiKey: 'abcdefgh12' }).success).toBe(false);
    expect(connectWalletSchema.safeParse({ walletId: 'abc-123', apiKey: 'has space 123' }).success).toBe(
      false,
    );
    expect(connectWalletSchema.safeParse({ walletId: ' abc-123 ', apiKey: ' key_12345678 ' }).data).toEqual({
      walletId: 'abc-123',
      apiKey: 'key_12345678',
    });
  });
});

describe('simulated deposit input', () => {
  const base = { walletId: 'w-1', addressId: 'a-1', assetId: 'as-1' };
  it.each(['0', '-1', '1e5', 'abc', '', '01', '1.'])('refuses %j', (amount) => {
    expect(simulateDepositSchema.safeParse({ ...base, amount }).success).toBe(false);
  });
  it.each(['1', '0.5', '1000000.123456'])('accepts %j', (amount) => {
    expect(simulateDepositSchema.safeParse({ ...base, amount }).success).toBe(true);
  });
});
