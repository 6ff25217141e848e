import { type AbiFunction, encodeFunctionData, erc20Abi, getAddress, maxUint256, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeContractCall } from './decode';

const TOKEN = '0x1c7d4b196cb0c7b01d743fbc6116a902379c7238';
const ALICE = '0x00000000000000000000000000000000000000aa';
const BOB = '0x000000000000000000000000000000000000b0b0';
const fn = (name: string) => erc20Abi.find((e) => e.type === 'function' && e.name === name) as AbiFunction;
const increaseAllowance = parseAbi([
  'function increaseAllowance(address spender, uint256 addedValue) returns (bool)',
])[0] as AbiFunction;

/** Each function by its ABI entry and arguments as stored in a request (integers as decimal strings). */
const CASES = [
  {
    name: 'transfer',
    abi: fn('transfer'),
    parameters: [BOB, '1000000000000'],
    expected: {
      function: 'transfer',
      from: null,
      to: getAddress(BOB),
      role: 'recipient',
      amount: 10n ** 12n,
    },
  },
  {
    name: 'transferFrom',
    abi: fn('transferFrom'),
    parameters: [ALICE, BOB, '250'],
    expected: {
      function: 'transferFrom',
      from: getAddress(ALICE),
      to: getAddress(BOB),
      role: 'recipient',
      amount: 250n,
    },
  },
  {
    name: 'approve',
    abi: fn('approve'),
    parameters: [BOB, '42'],
    expected: { function: 'approve', from: null, to: getAddress(BOB), role: 'spender', amount: 42n },
  },
  {
    name: 'increaseAllowance',
    abi: increaseAllowance,
    parameters: [BOB, '7'],
    expected: { function: 'increaseAllowance', from: null, to: getAddress(BOB), role: 'spender', amount: 7n },
  },
] as const;

const encode = (abi: AbiFunction, parameters: readonly string[]) =>
  encodeFunctionData({
    abi: [abi],
    functionName: abi.name,
    args: parameters.map((p, i) => (abi.inputs[i]?.type === 'uint256' ? BigInt(p) : p)),
  });

describe('decodeContractCall', () => {
  describe.each(CASES)('$name', ({ abi, parameters, expected }) => {
    it('by ABI, method and arguments', () => {
      const decoded = decodeContractCall({ contract: TOKEN, abi: [abi], method: abi.name, parameters });
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) return;
      expect(decoded.contract).toBe(getAddress(TOKEN));
      expect(decoded.call).toMatchObject({ ...expected, unlimited: false });
      expect(decoded.value).toBe(0n);
    });

    it('by raw call data', () => {
      const decoded = decodeContractCall({ contract: TOKEN, data: encode(abi, parameters) });
      expect(decoded.ok && decoded.call).toMatchObject({ ...expected, unlimited: false });
    });
  });

  it('reads the arguments by position, whatever the request ABI calls them', () => {
    // The same bytes as transfer(BOB, 5): the names lie, the selector and the types do not.
    const lying: AbiFunction = {
      type: 'function',
      name: 'transfer',
      stateMutability: 'nonpayable',
      inputs: [
        { name: 'amount', type: 'address' },
        { name: 'recipient', type: 'uint256' },
      ],
      outputs: [],
    };
    const decoded = decodeContractCall({
      contract: TOKEN,
      abi: [lying],
      method: 'transfer',
      parameters: [BOB, '5'],
    });
    expect(decoded.ok && decoded.call).toMatchObject({
      function: 'transfer',
      to: getAddress(BOB),
      amount: 5n,
    });
  });

  it('a method named transfer with other types is another function: unknown', () => {
    const other = parseAbi(['function transfer(address to, uint128 amount)'])[0] as AbiFunction;
    const decoded = decodeContractCall({
      contract: TOKEN,
      abi: [other],
      method: 'transfer',
      parameters: [BOB, '5'],
    });
    expect(decoded).toMatchObject({ ok: false, reason: 'unknown-function', selector: expect.any(String) });
    expect(decoded.ok || decoded.message).toMatch(/^unknown function 0x[0-9a-f]{8}$/);
  });

  it('an unknown selector is not decoded, and says which', () => {
    const mint = parseAbi(['function mint(address to, uint256 amount)'])[0] as AbiFunction;
    const data = encode(mint, [BOB, '1']);
    const decoded = decodeContractCall({ contract: TOKEN, data });
    expect(decoded).toMatchObject({
      ok: false,
      reason: 'unknown-function',
      selector: data.slice(0, 10),
      message: `unknown function ${data.slice(0, 10)}`,
    });
  });

  it('malformed call data is not decoded', () => {
    const transfer = encode(fn('transfer'), [BOB, '1']);
    // Cut inside the amount word.
    expect(decodeContractCall({ contract: TOKEN, data: transfer.slice(0, 74) })).toMatchObject({
      ok: false,
      reason: 'malformed',
      selector: '0xa9059cbb',
    });
    expect(decodeContractCall({ contract: TOKEN, data: '0xa9059c' })).toMatchObject({
      ok: false,
      reason: 'malformed',
      selector: null,
    });
    expect(decodeContractCall({ contract: TOKEN, data: 'not hex' })).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(decodeContractCall({ contract: 'not an address', data: transfer })).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    // Arguments that do not fit the request's own ABI entry never reach the bytes.
    expect(
      decodeContractCall({
        contract: TOKEN,
        abi: [fn('transfer')],
        method: 'transfer',
        parameters: [BOB, '-1'],
      }),
    ).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('an approval of the largest uint256 is unlimited, by ABI and by call data', () => {
    const parameters = [BOB, maxUint256.toString()];
    const byAbi = decodeContractCall({
      contract: TOKEN,
      abi: [fn('approve')],
      method: 'approve',
      parameters,
    });
    expect(byAbi.ok && byAbi.call).toMatchObject({
      function: 'approve',
      amount: maxUint256,
      unlimited: true,
    });
    const byData = decodeContractCall({ contract: TOKEN, data: encode(increaseAllowance, parameters) });
    expect(byData.ok && byData.call).toMatchObject({ function: 'increaseAllowance', unlimited: true });
    // One below is a (very large) limited allowance.
    const below = decodeContractCall({
      contract: TOKEN,
      abi: [fn('approve')],
      method: 'approve',
      parameters: [BOB, (maxUint256 - 1n).toString()],
    });
    expect(below.ok && below.call.unlimited).toBe(false);
  });

  it('carries the native value sent with the call', () => {
    const decoded = decodeContractCall({
      contract: TOKEN,
      data: encode(fn('transfer'), [BOB, '1']),
      value: 10n ** 18n,
    });
    expect(decoded.value).toBe(10n ** 18n);
    const unknown = decodeContractCall({ contract: TOKEN, data: '0xd0e30db0', value: 5n });
    expect(unknown).toMatchObject({ ok: false, reason: 'unknown-function', value: 5n });
  });
});
