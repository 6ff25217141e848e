import type { AbiFunction, AbiParameter } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  coerceParameter,
  ERC20_PRESET,
  integerBounds,
  parseAbiJson,
  revalidateWireCall,
  splitMethods,
  validateCall,
} from './abi';

const p = (type: string, extra: Partial<AbiParameter> = {}) =>
  ({ name: 'x', type, ...extra }) as AbiParameter;
const ok = (type: string, raw: unknown) => {
  const c = coerceParameter(p(type), raw);
  if (!c.ok) throw new Error(`expected ${type} to accept ${String(raw)}: ${c.message}`);
  return c.value;
};
const bad = (type: string, raw: unknown) => {
  const c = coerceParameter(p(type), raw);
  if (c.ok) throw new Error(`expected ${type} to refuse ${String(raw)}`);
  return c.message;
};

const LOWER = '0x52908400098527886e0f7030069857d2e4169ee7';
const CHECKSUMMED = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('parseAbiJson', () => {
  it('keeps functions, accepts {abi} wrappers and legacy constant flags', () => {
    const parsed = parseAbiJson(
      JSON.stringify({
        abi: [
          { type: 'event', name: 'Transfer', inputs: [] },
          { name: 'old', constant: true, inputs: [], outputs: [{ type: 'uint256' }] },
          {
            type: 'function',
            name: 'set',
            inputs: [{ name: 'v', type: 'uint8' }],
            stateMutability: 'nonpayable',
          },
        ],
      }),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.map((f) => f.name)).toEqual(['old', 'set']);
    const { reads, writes } = splitMethods(parsed.value);
    expect(reads.map((f) => f.name)).toEqual(['old']);
    expect(writes.map((f) => f.name)).toEqual(['set']);
  });

  it('refuses bad JSON, non-arrays, nameless entries and ABIs without functions', () => {
    expect(parseAbiJson('{nope')).toEqual({ ok: false, message: 'The ABI is not valid JSON.' });
    expect(parseAbiJson('{"a":1}').ok).toBe(false);
    expect(parseAbiJson('[{"type":"function","inputs":[]}]').ok).toBe(false);
    expect(parseAbiJson('[{"type":"event","name":"E","inputs":[]}]')).toEqual({
      ok: false,
      message: 'The ABI has no functions.',
    });
    expect(parseAbiJson('[{"type":"function","name":"f","inputs":[{"name":"a"}]}]').ok).toBe(false);
  });

  it('splits the ERC-20 preset into reads and writes', () => {
    const { reads, writes } = splitMethods(ERC20_PRESET);
    expect(reads.map((f) => f.name).sort()).toEqual(
      ['allowance', 'balanceOf', 'decimals', 'name', 'symbol', 'totalSupply'].sort(),
    );
    expect(writes.map((f) => f.name).sort()).toEqual(['approve', 'transfer', 'transferFrom']);
  });
});

describe('coerceParameter per type', () => {
  it('address: lowercase accepted and checksummed, bad checksum, length and zero address', () => {
    expect(ok('address', LOWER).wire).toBe(CHECKSUMMED);
    expect(ok('address', CHECKSUMMED).wire).toBe(CHECKSUMMED);
    expect(ok('address', '0x0000000000000000000000000000000000000000').wire).toMatch(/^0x0{40}$/);
    expect(bad('address', '0x52908400098527886E0F7030069857D2E4169Ee7')).toMatch(/checksum/);
    expect(bad('address', '0x1234')).toMatch(/40 characters/);
    expect(bad('address', 'vitalik.eth')).toMatch(/ENS/);
  });

  it('int8 and uint256 bounds', () => {
    expect(integerBounds('int8')).toEqual({ min: -128n, max: 127n });
    expect(ok('int8', '-128').viem).toBe(-128n);
    expect(ok('int8', '127').wire).toBe('127');
    expect(bad('int8', '128')).toMatch(/between -128 and 127/);
    expect(bad('int8', '-129')).toMatch(/between -128 and 127/);
    const max = (2n ** 256n - 1n).toString();
    expect(ok('uint256', max).wire).toBe(max);
    expect(ok('uint', '0').viem).toBe(0n);
    expect(bad('uint256', (2n ** 256n).toString())).toMatch(/between 0 and/);
    expect(bad('uint256', '-1')).toMatch(/cannot be negative/);
    expect(bad('uint256', '1.5')).toMatch(/whole number/);
    expect(bad('uint256', '1e18')).toMatch(/whole number/);
    expect(bad('uint256', '')).toMatch(/whole number/);
  });

  it('bool', () => {
    expect(ok('bool', 'true').viem).toBe(true);
    expect(ok('bool', false).wire).toBe(false);
    expect(bad('bool', 'yes')).toMatch(/true or false/);
  });

  it('bytes and bytes32', () => {
    expect(ok('bytes', '0x').wire).toBe('0x');
    expect(ok('bytes', '0xdeadbeef').wire).toBe('0xdeadbeef');
    expect(bad('bytes', '0xabc')).toMatch(/even number/);
    expect(bad('bytes', 'hello')).toMatch(/hex/);
    expect(ok('bytes32', `0x${'ab'.repeat(32)}`).wire).toHaveLength(66);
    expect(bad('bytes32', `0x${'ab'.repeat(31)}`)).toMatch(/exactly 64 hex digits/);
    expect(bad('bytes32', `0x${'zz'.repeat(32)}`)).toMatch(/exactly 64/);
  });

  it('string', () => {
    expect(ok('string', 'hello').wire).toBe('hello');
    expect(ok('string', '').wire).toBe('');
    expect(bad('string', 5)).toMatch(/text/);
  });

  it('arrays: dynamic, fixed size, nested items checked', () => {
    expect(ok('uint8[]', '[1, "2"]').wire).toEqual(['1', '2']);
    expect(ok('address[2]', JSON.stringify([LOWER, LOWER])).wire).toEqual([CHECKSUMMED, CHECKSUMMED]);
    expect(bad('address[2]', JSON.stringify([LOWER]))).toMatch(/exactly 2 items/);
    expect(bad('uint8[]', '[1, 300]')).toMatch(/value\[1\]: a uint8 is between 0 and 255/);
    expect(bad('uint8[]', 'not json')).toMatch(/JSON/);
    expect(bad('uint8[]', '{"a":1}')).toMatch(/JSON array/);
    expect(ok('uint256[][]', '[["1"],["2","3"]]').wire).toEqual([['1'], ['2', '3']]);
  });

  it('tuples: by name or by position, each component checked', () => {
    const tuple = p('tuple', {
      components: [
        { name: 'to', type: 'address' },
        { name: 'amount', type: 'uint96' },
      ],
    } as Partial<AbiParameter>);
    const byName = coerceParameter(tuple, JSON.stringify({ to: LOWER, amount: '5' }));
    expect(byName.ok && byName.value.wire).toEqual([CHECKSUMMED, '5']);
    const byPosition = coerceParameter(tuple, JSON.stringify([LOWER, 7]));
    expect(byPosition.ok && byPosition.value.viem).toEqual({ to: CHECKSUMMED, amount: 7n });
    const missing = coerceParameter(tuple, JSON.stringify({ to: LOWER }));
    expect(missing.ok ? '' : missing.message).toMatch(/amount is missing/);
    const negative = coerceParameter(tuple, JSON.stringify({ to: LOWER, amount: '-1' }));
    expect(negative.ok ? '' : negative.message).toMatch(/value\.amount.*cannot be negative/);
    const tupleArray = p('tuple[]', { components: [{ name: 'ok', type: 'bool' }] } as Partial<AbiParameter>);
    const list = coerceParameter(tupleArray, '[{"ok":true},{"ok":false}]');
    expect(list.ok && list.value.wire).toEqual([[true], [false]]);
  });
});

describe('validateCall', () => {
  const approve = ERC20_PRESET.find((f) => f.name === 'approve') as AbiFunction;

  it('encodes a good call and gives the upstream shape', () => {
    const v = validateCall({ address: LOWER, fn: approve, args: [LOWER, '1000'] });
    expect(v.ok).toBe(true);
    expect(v.call).toEqual({
      address: CHECKSUMMED,
      method: 'approve',
      abi: [approve],
      parameters: [CHECKSUMMED, '1000'],
    });
  });

  it('reports each bad field by name', () => {
    const v = validateCall({ address: '0x12', fn: approve, args: ['nope', '-5'] });
    expect(v.ok).toBe(false);
    expect(Object.keys(v.errors).sort()).toEqual(['address', 'args.0', 'args.1']);
    expect(v.errors['args.1']).toMatch(/spender|amount|value/);
  });

  it('re-checks a wire call against its own ABI entry (server side)', () => {
    const good = revalidateWireCall({
      address: LOWER,
      method: 'approve',
      abi: [approve],
      parameters: [LOWER, '1'],
    });
    expect(good.ok).toBe(true);
    const tampered = revalidateWireCall({
      address: LOWER,
      method: 'approve',
      abi: [approve],
      parameters: [LOWER, (2n ** 256n).toString()],
    });
    expect(tampered.ok).toBe(false);
    expect(revalidateWireCall({ address: LOWER, method: 'mint', abi: [approve], parameters: [] }).ok).toBe(
      false,
    );
  });
});
