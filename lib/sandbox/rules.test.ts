import {
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  maxUint256,
  parseAbi,
  zeroAddress,
} from 'viem';
import { describe, expect, it } from 'vitest';
import { base32 } from '@/lib/crypto/totp-secret';
import { ContractRevertError, executeErc20, MemoryTokenLedger } from './erc20';
import { coerceArg, stringifyResult } from './handlers/contracts';
import { pageMeta, paging } from './handlers/paging';
import { totpCode, verifyTotp } from './keys';
import { applyDelta, InsufficientBalanceError, parseAmount, usdValue } from './money';
import { quoteSwap } from './rates';

describe('amount validation', () => {
  it('accepts positive decimals within the asset decimals, as base units', () => {
    expect(parseAmount('1.5', 6)).toEqual({ ok: true, value: 1_500_000n });
    expect(parseAmount('0.000001', 6)).toEqual({ ok: true, value: 1n });
    expect(parseAmount('100', 18)).toEqual({ ok: true, value: 100n * 10n ** 18n });
  });

  it.each([
    ['0', 'greater than zero'],
    ['0.0', 'greater than zero'],
    ['-1', 'not a positive decimal'],
    ['1e6', 'not a positive decimal'],
    ['abc', 'not a positive decimal'],
    ['01.5', 'not a positive decimal'],
    ['.5', 'not a positive decimal'],
    ['1.1234567', 'more than 6 decimal places'],
  ])('refuses %s', (input, message) => {
    const result = parseAmount(input, 6, 'USDC');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });

  it('refuses non-strings', () => {
    expect(parseAmount(null, 6).ok).toBe(false);
    expect(parseAmount({}, 6).ok).toBe(false);
  });

  it('computes USD values in cents without floats', () => {
    expect(usdValue(1_500_000n, 6, '1')).toBe('1.5');
    expect(usdValue(10n ** 18n / 3n, 18, '3000')).toBe('999.99');
    expect(usdValue(123n, 18, '3000')).toBe('0');
  });
});

describe('ledger arithmetic', () => {
  it('adds and subtracts in base units', () => {
    expect(applyDelta(10n, 5n)).toBe(15n);
    expect(applyDelta(10n, -10n)).toBe(0n);
  });

  it('never overdraws', () => {
    expect(() => applyDelta(10n, -11n)).toThrow(InsufficientBalanceError);
    try {
      applyDelta(3n, -7n);
    } catch (error) {
      expect(error).toBeInstanceOf(InsufficientBalanceError);
      expect((error as InsufficientBalanceError).available).toBe(3n);
      expect((error as InsufficientBalanceError).required).toBe(7n);
    }
  });
});

describe('rate table', () => {
  it('quotes stablecoins one to one with no slippage order', () => {
    const q = quoteSwap(
      { symbol: 'USDC', decimals: 6 },
      { symbol: 'USDT', decimals: 6 },
      1_000_000n,
      'NO_SLIPPAGE',
    );
    expect(q.rate).toBe('1');
    expect(q.toAmount).toBe(1_000_000n);
  });

  it('converts across decimals and takes the order spread', () => {
    const q = quoteSwap(
      { symbol: 'ETH', decimals: 18 },
      { symbol: 'USDC', decimals: 6 },
      10n ** 18n,
      'RECOMMENDED',
    );
    // 3000 USD less 0.30 %.
    expect(q.toAmount).toBe(2_991_000_000n);
    expect(q.rate).toBe('2991');
    const cheap = quoteSwap(
      { symbol: 'ETH', decimals: 18 },
      { symbol: 'USDC', decimals: 6 },
      10n ** 18n,
      'CHEAPEST',
    );
    expect(cheap.toAmount).toBeGreaterThan(q.toAmount);
  });

  it('refuses pairs without a price', () => {
    expect(() => quoteSwap({ symbol: 'DOGE', decimals: 8 }, { symbol: 'USDC', decimals: 6 }, 1n)).toThrow(
      /No rate/,
    );
  });
});

describe('ERC-20 emulation', () => {
  const token = {
    address: getAddress('0x1111111111111111111111111111111111111111'),
    name: 'USD Coin',
    symbol: 'USDC',
    decimals: 6,
  };
  const alice = getAddress('0x000000000000000000000000000000000000a11c');
  const bob = getAddress('0x0000000000000000000000000000000000000b0b');
  const call = (functionName: string, args: unknown[] = []) =>
    // biome-ignore lint/suspicious/noExplicitAny: test helper over the whole ERC-20 ABI.
    encodeFunctionData({ abi: erc20Abi, functionName: functionName as any, args: args as any });
  const decode = (functionName: string, data: `0x${string}`) =>
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    decodeFunctionResult({ abi: erc20Abi, functionName: functionName as any, data });

  it('answers the standard reads from the ledger', async () => {
    const ledger = new MemoryTokenLedger();
    await ledger.setBalance(alice, 700n);
    await ledger.setBalance(bob, 300n);
    expect(decode('name', (await executeErc20(token, ledger, alice, call('name'))).returnData)).toBe(
      'USD Coin',
    );
    expect(decode('symbol', (await executeErc20(token, ledger, alice, call('symbol'))).returnData)).toBe(
      'USDC',
    );
    expect(decode('decimals', (await executeErc20(token, ledger, alice, call('decimals'))).returnData)).toBe(
      6,
    );
    expect(
      decode('totalSupply', (await executeErc20(token, ledger, alice, call('totalSupply'))).returnData),
    ).toBe(1000n);
    expect(
      decode('balanceOf', (await executeErc20(token, ledger, bob, call('balanceOf', [alice]))).returnData),
    ).toBe(700n);
  });

  it('transfer moves balances and refuses overdrafts', async () => {
    const ledger = new MemoryTokenLedger();
    await ledger.setBalance(alice, 100n);
    await executeErc20(token, ledger, alice, call('transfer', [bob, 40n]));
    expect(await ledger.balanceOf(alice)).toBe(60n);
    expect(await ledger.balanceOf(bob)).toBe(40n);
    await expect(executeErc20(token, ledger, alice, call('transfer', [bob, 61n]))).rejects.toThrow(
      'transfer amount exceeds balance',
    );
    await expect(executeErc20(token, ledger, alice, call('transfer', [zeroAddress, 1n]))).rejects.toThrow(
      'zero address',
    );
  });

  it('a dry run computes the answer but changes nothing', async () => {
    const ledger = new MemoryTokenLedger();
    await ledger.setBalance(alice, 100n);
    const out = await executeErc20(token, ledger, alice, call('transfer', [bob, 40n]), { dryRun: true });
    expect(decode('transfer', out.returnData)).toBe(true);
    expect(await ledger.balanceOf(alice)).toBe(100n);
  });

  it('approve and transferFrom spend the allowance', async () => {
    const ledger = new MemoryTokenLedger();
    await ledger.setBalance(alice, 100n);
    await executeErc20(token, ledger, alice, call('approve', [bob, 50n]));
    expect(
      decode(
        'allowance',
        (await executeErc20(token, ledger, bob, call('allowance', [alice, bob]))).returnData,
      ),
    ).toBe(50n);
    await expect(executeErc20(token, ledger, bob, call('transferFrom', [alice, bob, 51n]))).rejects.toThrow(
      'insufficient allowance',
    );
    await executeErc20(token, ledger, bob, call('transferFrom', [alice, bob, 30n]));
    expect(await ledger.allowance(alice, bob)).toBe(20n);
    expect(await ledger.balanceOf(bob)).toBe(30n);
    await executeErc20(token, ledger, alice, call('approve', [bob, maxUint256]));
    await executeErc20(token, ledger, bob, call('transferFrom', [alice, bob, 10n]));
    expect(await ledger.allowance(alice, bob)).toBe(maxUint256);
  });

  it('an unknown method fails with a clear message', async () => {
    const ledger = new MemoryTokenLedger();
    const mint = encodeFunctionData({ abi: parseAbi(['function mint(address,uint256)']), args: [alice, 1n] });
    const attempt = executeErc20(token, ledger, alice, mint);
    await expect(attempt).rejects.toBeInstanceOf(ContractRevertError);
    await expect(executeErc20(token, ledger, alice, mint)).rejects.toThrow(/does not implement the method/);
  });
});

describe('request helpers', () => {
  it('coerces JSON parameters to ABI types', () => {
    expect(coerceArg('uint256', '42')).toBe(42n);
    expect(coerceArg('uint256', 7)).toBe(7n);
    expect(coerceArg('bool', 'true')).toBe(true);
    expect(coerceArg('uint8[]', ['1', 2])).toEqual([1n, 2n]);
    expect(() => coerceArg('uint256', '1.5')).toThrow(/integer/);
  });

  it('stringifies results', () => {
    expect(stringifyResult(10n)).toBe('10');
    expect(stringifyResult(true)).toBe('true');
    expect(stringifyResult([1n, 'a'])).toBe('["1","a"]');
  });

  it('pages with defaults and bounds', () => {
    expect(paging(new URLSearchParams())).toEqual({ page: 1, limit: 100, offset: 0 });
    expect(paging(new URLSearchParams('page=3&limit=20'))).toEqual({ page: 3, limit: 20, offset: 40 });
    expect(() => paging(new URLSearchParams('page=0'))).toThrow(/positive/);
    expect(pageMeta(205, 3, 100, 5)).toEqual({
      currentPage: 3,
      itemCount: 5,
      itemsPerPage: 100,
      totalItems: 205,
      totalPages: 3,
    });
  });
});

describe('two-factor codes', () => {
  it('base32-encodes per RFC 4648', () => {
    expect(base32(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
  });

  it('verifies the current code and refuses others', () => {
    const secret = base32(Buffer.from('12345678901234567890'));
    // RFC 6238 test vector (SHA-1, T = 59 s): 94287082, last six digits.
    expect(totpCode(secret, 59_000)).toBe('287082');
    expect(verifyTotp(secret, '287082', 59_000)).toBe(true);
    expect(verifyTotp(secret, '287083', 59_000)).toBe(false);
    expect(verifyTotp(secret, '287082', 59_000 + 10 * 30_000)).toBe(false);
    expect(verifyTotp(secret, undefined, 59_000)).toBe(false);
  });
});
