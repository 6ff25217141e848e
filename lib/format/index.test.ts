import { describe, expect, it } from 'vitest';
import {
  assetLabel,
  explorerUrl,
  formatAmount,
  formatAmountRange,
  formatAssetAmount,
  formatDate,
  formatDateTime,
  formatRelative,
  formatSignificant,
  formatUsd,
  shortAddress,
} from './index';

describe('formatAmount', () => {
  it.each([
    ['1234567.5', 6, '1,234,567.5'],
    ['0.000001', 6, '0.000001'],
    ['0.0000001', 6, '0'],
    ['1.123456789', 2, '1.12'],
    ['1.129', 2, '1.12'],
    ['10.500000', 6, '10.5'],
    ['0', 18, '0'],
    ['-0.0000001', 6, '0'],
    ['-42.25', 2, '-42.25'],
    ['000123.40', 6, '123.4'],
    ['1', 0, '1'],
    ['1.9', 0, '1'],
  ])('%s with %i decimals is %s', (value, decimals, expected) => {
    expect(formatAmount(value, decimals)).toBe(expected);
  });

  it('keeps every digit of an 18-decimal amount (no float rounding)', () => {
    expect(formatAmount('123456789012345678.123456789012345678', 18)).toBe(
      '123,456,789,012,345,678.123456789012345678',
    );
  });

  it('accepts numbers and bigints', () => {
    expect(formatAmount(1500, 2)).toBe('1,500');
    expect(formatAmount(0.1, 6)).toBe('0.1');
    expect(formatAmount(10n ** 20n, 0)).toBe('100,000,000,000,000,000,000');
  });

  it('pads to a minimum and caps at a maximum of fraction digits', () => {
    expect(formatAmount('5', 6, { minFractionDigits: 2 })).toBe('5.00');
    expect(formatAmount('5.123456', 6, { maxFractionDigits: 4 })).toBe('5.1234');
    expect(formatAmount('5000', 6, { group: false })).toBe('5000');
  });

  it('shows a dash for missing values and passes through what is not a decimal', () => {
    expect(formatAmount(null, 6)).toBe('—');
    expect(formatAmount(undefined, 6)).toBe('—');
    expect(formatAmount('', 6)).toBe('—');
    expect(formatAmount('1e5', 6)).toBe('1e5');
  });
});

describe('formatUsd', () => {
  it('formats numbers and decimal strings with cents', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd('0.005')).toBe('$0.01');
    expect(formatUsd('1000000')).toBe('$1,000,000.00');
    expect(formatUsd(-3)).toBe('-$3.00');
    expect(formatUsd(-0)).toBe('$0.00');
  });
  it('shows a dash for unknown values', () => {
    expect(formatUsd(null)).toBe('—');
    expect(formatUsd('abc')).toBe('—');
    expect(formatUsd(Number.NaN)).toBe('—');
  });
});

describe('shortAddress', () => {
  it('keeps the 0x prefix and both ends', () => {
    expect(shortAddress('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234…5678');
    expect(shortAddress('0x1234567890abcdef1234567890abcdef12345678', 6)).toBe('0x123456…345678');
    expect(shortAddress('TXYZabcdefghijklmnop')).toBe('TXYZ…mnop');
  });
  it('leaves short values alone and dashes missing ones', () => {
    expect(shortAddress('0x1234')).toBe('0x1234');
    expect(shortAddress(null)).toBe('—');
  });
});

describe('dates', () => {
  it('formats in UTC', () => {
    expect(formatDateTime('2026-03-03T14:05:09.000Z')).toBe('03 Mar 2026, 14:05:09 UTC');
    expect(formatDate('2026-03-03T23:59:59.000Z')).toBe('03 Mar 2026');
    expect(formatDateTime('not a date')).toBe('—');
    expect(formatDate(null)).toBe('—');
  });
  it('formats relative times both ways', () => {
    const now = Date.parse('2026-03-03T12:00:00Z');
    expect(formatRelative('2026-03-03T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2026-03-03T14:00:00Z', now)).toBe('in 2 h');
    expect(formatRelative('2026-03-01T12:00:00Z', now)).toBe('2 d ago');
    expect(formatRelative('2026-03-03T11:59:58Z', now)).toBe('just now');
    expect(formatRelative('2026-03-03T11:59:30Z', now)).toBe('30 s ago');
  });
});

describe('explorerUrl', () => {
  const hash = '0xabc123';
  it('picks the testnet or mainnet explorer of the chain', () => {
    expect(explorerUrl('ethereum', 'testnet', 'tx', hash)).toBe('https://sepolia.etherscan.io/tx/0xabc123');
    expect(explorerUrl('ethereum', 'mainnet', 'address', '0xdef')).toBe('https://etherscan.io/address/0xdef');
    expect(explorerUrl('base', 'testnet', 'tx', hash)).toBe('https://sepolia.basescan.org/tx/0xabc123');
    expect(explorerUrl('polygon', 'mainnet', 'tx', hash)).toBe('https://polygonscan.com/tx/0xabc123');
    expect(explorerUrl('Polygon', 'testnet', 'address', '0x1')).toBe(
      'https://amoy.polygonscan.com/address/0x1',
    );
  });
  it('handles non-EVM explorers', () => {
    expect(explorerUrl('tron', 'mainnet', 'tx', 'abc')).toBe('https://tronscan.org/#/transaction/abc');
    expect(explorerUrl('solana', 'testnet', 'address', 'So1')).toBe(
      'https://explorer.solana.com/address/So1?cluster=devnet',
    );
  });
  it('returns null for unknown chains or empty values, and encodes the value', () => {
    expect(explorerUrl('unknown-chain', 'mainnet', 'tx', hash)).toBeNull();
    expect(explorerUrl('ethereum', 'mainnet', 'tx', null)).toBeNull();
    expect(explorerUrl(null, 'mainnet', 'tx', hash)).toBeNull();
    expect(explorerUrl('ethereum', 'mainnet', 'tx', '0x1/../x?y')).toBe(
      'https://etherscan.io/tx/0x1%2F..%2Fx%3Fy',
    );
  });
});

describe('assetLabel', () => {
  it('marks inactive assets', () => {
    expect(assetLabel({ symbol: 'USDC', isActive: true })).toBe('USDC');
    expect(assetLabel({ symbol: 'USDT', isActive: false })).toBe('USDT (inactive)');
    expect(assetLabel(null)).toBe('—');
  });
});

describe('formatAssetAmount', () => {
  it('groups, keeps the asset decimals and names the symbol', () => {
    expect(formatAssetAmount('1250.5', 6, 'USDC')).toBe('1,250.5 USDC');
    expect(formatAssetAmount('249061.750000', 6, 'USDC')).toBe('249,061.75 USDC');
    expect(formatAssetAmount('9999999', 6, 'USDC')).toBe('9,999,999 USDC');
    expect(formatAssetAmount('0.1234567', 6, 'USDC')).toBe('0.123456 USDC');
    expect(formatAssetAmount(null, 6, 'USDC')).toBe('—');
  });
});

describe('formatSignificant', () => {
  it.each([
    ['0.000332333333333333', '0.000332333'],
    ['3000.123456', '3,000.12'],
    ['1', '1'],
    ['0.99999999', '1'],
    ['1234567.89', '1,234,568'],
    ['0', '0'],
  ])('%s reads %s', (value, expected) => {
    expect(formatSignificant(value)).toBe(expected);
  });
  it('takes the number of digits and shows unknown values as a dash', () => {
    expect(formatSignificant(0.000332333333, 3)).toBe('0.000332');
    expect(formatSignificant(null)).toBe('—');
    expect(formatSignificant('')).toBe('—');
  });
});

describe('formatAmountRange', () => {
  it('reads both ends grouped with the unit once', () => {
    expect(formatAmountRange('10000', '1000000', 'USDC')).toBe('from 10,000 to 1,000,000 USDC');
    expect(formatAmountRange('0.5', '2.25')).toBe('from 0.5 to 2.25');
  });
  it('says which end is open instead of showing a sentinel', () => {
    expect(formatAmountRange('500', null, 'USDT')).toBe('500 USDT or more (no upper limit)');
    expect(formatAmountRange(null, '1000000', 'USDC')).toBe('up to 1,000,000 USDC (no lower limit)');
    expect(formatAmountRange(null, null, 'USDC')).toBe('any amount (no limit)');
  });
});
