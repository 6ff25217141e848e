import { type AbiFunction, maxUint256 } from 'viem';
import { describe, expect, it } from 'vitest';
import { ERC20_PRESET, parseAbiJson, revalidateWireCall, validateCall } from './abi';
import {
  baseUnitsOf,
  decimalsOf,
  describeTokenAmount,
  formatTokenUnits,
  hasTokenAmountParams,
  isTokenAmountParam,
  isTokenAmountRead,
  parseTokenAmount,
  symbolOf,
} from './abi-units';

const USDC = { symbol: 'USDC', decimals: 6 };
const DAI = { symbol: 'DAI', decimals: 18 };
const RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7';
const TOKEN = '0x00000000000000000000000000000000000000aa';

const preset = (name: string) => ERC20_PRESET.find((f) => f.name === name)!;
function abiFn(entry: Record<string, unknown>): AbiFunction {
  const parsed = parseAbiJson(
    JSON.stringify([{ type: 'function', stateMutability: 'nonpayable', outputs: [], ...entry }]),
  );
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value[0]!;
}
const uint = (name: string) => ({ name, type: 'uint256' });
const addr = (name: string) => ({ name, type: 'address' });

describe('which parameters are token amounts', () => {
  it('takes the amount of transfer, transferFrom and approve from the ERC-20 preset', () => {
    expect(isTokenAmountParam(preset('transfer'), 1)).toBe(true);
    expect(isTokenAmountParam(preset('transfer'), 0)).toBe(false);
    expect(isTokenAmountParam(preset('transferFrom'), 2)).toBe(true);
    expect(isTokenAmountParam(preset('approve'), 1)).toBe(true);
  });

  it('recognises value, wad, _value and permit-like methods, and only their amounts', () => {
    expect(isTokenAmountParam(abiFn({ name: 'transfer', inputs: [addr('dst'), uint('wad')] }), 1)).toBe(true);
    expect(isTokenAmountParam(abiFn({ name: 'transfer', inputs: [addr('_to'), uint('_value')] }), 1)).toBe(
      true,
    );
    const permit = abiFn({
      name: 'permit',
      inputs: [addr('owner'), addr('spender'), uint('value'), uint('deadline'), { name: 'v', type: 'uint8' }],
    });
    expect(permit.inputs.map((_, i) => isTokenAmountParam(permit, i))).toEqual([
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(hasTokenAmountParams(permit)).toBe(true);
  });

  it('leaves other methods, other names and other types in base units', () => {
    expect(isTokenAmountParam(abiFn({ name: 'mint', inputs: [addr('to'), uint('amount')] }), 1)).toBe(false);
    expect(isTokenAmountParam(abiFn({ name: 'transfer', inputs: [addr('to'), uint('id')] }), 1)).toBe(false);
    expect(
      isTokenAmountParam(
        abiFn({ name: 'transfer', inputs: [addr('to'), { name: 'amount', type: 'uint128' }] }),
        1,
      ),
    ).toBe(false);
    expect(hasTokenAmountParams(preset('balanceOf'))).toBe(false);
  });

  it('reads of balanceOf, allowance and totalSupply answer amounts; decimals does not', () => {
    expect(isTokenAmountRead(preset('balanceOf'))).toBe(true);
    expect(isTokenAmountRead(preset('allowance'))).toBe(true);
    expect(isTokenAmountRead(preset('totalSupply'))).toBe(true);
    expect(isTokenAmountRead(preset('decimals'))).toBe(false);
    expect(isTokenAmountRead(preset('symbol'))).toBe(false);
  });
});

describe('token units and base units', () => {
  it('parses token units into exact base units', () => {
    expect(parseTokenAmount('1.5', USDC)).toEqual({ ok: true, value: 1_500_000n });
    expect(parseTokenAmount('0.000001', USDC)).toEqual({ ok: true, value: 1n });
    expect(parseTokenAmount('250500', USDC)).toEqual({ ok: true, value: 250_500_000_000n });
    expect(parseTokenAmount('1.000000000000000001', DAI)).toEqual({ ok: true, value: 10n ** 18n + 1n });
    expect(parseTokenAmount(' 0 ', USDC)).toEqual({ ok: true, value: 0n });
  });

  it('refuses more decimal places than the token has, instead of rounding', () => {
    const check = parseTokenAmount('1.0000001', USDC);
    expect(check).toEqual({ ok: false, message: 'USDC has 6 decimals: use at most 6 digits after the dot.' });
    expect(parseTokenAmount('1.5', { symbol: 'WHOLE', decimals: 0 })).toEqual({
      ok: false,
      message: 'WHOLE has no decimals: enter a whole number.',
    });
    // Trailing zeros beyond the decimals change nothing, so they are accepted.
    expect(parseTokenAmount('1.50000000', USDC)).toEqual({ ok: true, value: 1_500_000n });
  });

  it('refuses what is not a plain decimal, and max outside allowances', () => {
    for (const text of ['', '-1', '1e6', '1,5', '0x10', 'abc'])
      expect(parseTokenAmount(text, USDC).ok, text).toBe(false);
    expect(parseTokenAmount('max', USDC, preset('approve'))).toEqual({ ok: true, value: maxUint256 });
    expect(parseTokenAmount('max', USDC, preset('transfer')).ok).toBe(false);
  });

  it('formats base units as token units and both ways together', () => {
    expect(formatTokenUnits(1_500_000n, USDC)).toBe('1.5');
    expect(formatTokenUnits(250_500_000_000n, USDC)).toBe('250,500');
    expect(formatTokenUnits(maxUint256, USDC)).toBe('unlimited');
    expect(describeTokenAmount(1_500_000n, USDC)).toEqual({
      units: '1.5 USDC',
      base: '1,500,000 base units',
    });
    expect(describeTokenAmount(1n, DAI)).toEqual({ units: '0.000000000000000001 DAI', base: '1 base units' });
  });

  it('takes base units only from non-negative integers', () => {
    expect(baseUnitsOf('1500000')).toBe(1_500_000n);
    expect(baseUnitsOf(7)).toBe(7n);
    expect(baseUnitsOf('1.5')).toBeNull();
    expect(baseUnitsOf('-1')).toBeNull();
    expect(baseUnitsOf({})).toBeNull();
  });

  it('accepts decimals() and symbol() answers only when they make sense', () => {
    expect(decimalsOf('6')).toBe(6);
    expect(decimalsOf(18)).toBe(18);
    expect(decimalsOf('256')).toBeNull();
    expect(decimalsOf('six')).toBeNull();
    expect(symbolOf('USDC')).toBe('USDC');
    expect(symbolOf('')).toBeNull();
    expect(symbolOf('<script>')).toBeNull();
  });
});

describe('a call built in token units', () => {
  it('sends base units and passes the server check of base units', () => {
    const v = validateCall({ address: TOKEN, fn: preset('transfer'), args: [RECIPIENT, '1.5'], token: USDC });
    expect(v.ok).toBe(true);
    expect(v.call?.parameters).toEqual([RECIPIENT, '1500000']);
    expect(revalidateWireCall(v.call!).call?.parameters).toEqual([RECIPIENT, '1500000']);
  });

  it('refuses excess decimals at the amount field', () => {
    const v = validateCall({
      address: TOKEN,
      fn: preset('approve'),
      args: [RECIPIENT, '0.1234567'],
      token: USDC,
    });
    expect(v.ok).toBe(false);
    expect(v.errors).toEqual({ 'args.1': 'USDC has 6 decimals: use at most 6 digits after the dot.' });
  });

  it('without a known token, takes the amount in base units as before', () => {
    expect(validateCall({ address: TOKEN, fn: preset('transfer'), args: [RECIPIENT, '1.5'] }).ok).toBe(false);
    expect(
      validateCall({ address: TOKEN, fn: preset('transfer'), args: [RECIPIENT, '1500000'] }).call?.parameters,
    ).toEqual([RECIPIENT, '1500000']);
  });
});
