import 'server-only';
// Signed raw transactions (#14) decoded for people: recipient, amount or token transfer, nonce, gas, chain;
// contract calls (#16, #17) decoded as the ERC-20 calls the console prices like withdrawals.
import {
  type AbiFunction,
  type Address,
  decodeFunctionData,
  encodeFunctionData,
  erc20Abi,
  formatEther,
  formatUnits,
  getAddress,
  type Hex,
  isAddress,
  isHex,
  maxUint256,
  parseAbi,
  parseTransaction,
  toFunctionSelector,
} from 'viem';
import type { DecodedSignedTransaction as DecodedTransaction } from '@/lib/approvals/withdrawals';
import { coerceParameter } from '@/lib/validation/abi';

/** `decimals`: of the token, to show a token transfer's amount (the bytes carry base units only). */
export function decodeSignedTransaction(serialized: string, decimals?: number): DecodedTransaction {
  try {
    const tx = parseTransaction(serialized as Hex);
    let tokenTransfer: DecodedTransaction['tokenTransfer'] = null;
    if (tx.data && tx.data !== '0x' && tx.to) {
      try {
        const call = decodeFunctionData({ abi: erc20Abi, data: tx.data });
        if (call.functionName === 'transfer') {
          const [recipient, amount] = call.args as readonly [string, bigint];
          tokenTransfer = {
            token: tx.to,
            recipient,
            rawAmount: amount.toString(),
            amount: decimals === undefined ? amount.toString() : formatUnits(amount, decimals),
          };
        }
      } catch {
        // Not an ERC-20 transfer: shown as a plain call.
      }
    }
    const gwei = (v: bigint | undefined) => (v === undefined ? null : `${formatUnits(v, 9)} gwei`);
    return {
      type: tx.type ?? 'legacy',
      chainId: tx.chainId ?? null,
      nonce: tx.nonce ?? null,
      gas: tx.gas === undefined ? null : tx.gas.toString(),
      maxFeePerGas: gwei(tx.maxFeePerGas),
      maxPriorityFeePerGas: gwei(tx.maxPriorityFeePerGas),
      gasPrice: gwei(tx.gasPrice),
      to: tx.to ?? null,
      value: formatEther(tx.value ?? 0n),
      tokenTransfer,
    };
  } catch (error) {
    return {
      type: 'unknown',
      chainId: null,
      nonce: null,
      gas: null,
      maxFeePerGas: null,
      maxPriorityFeePerGas: null,
      gasPrice: null,
      to: null,
      value: '0',
      tokenTransfer: null,
      error: error instanceof Error ? error.message.split('\n')[0] : 'Unreadable transaction',
    };
  }
}

// --- contract calls (#16, #17) -----------------------------------------------------------------------------

/**
 * The ERC-20 functions a contract call is decoded as, by selector. The request's own ABI only serves to
 * encode the call exactly as the service will; what the bytes mean is read against these canonical
 * signatures, so an ABI that names a parameter `amount` when it is the recipient, or calls `transfer`
 * something else, changes nothing.
 */
const ERC20_CALLS = [
  ...erc20Abi.filter(
    (e): e is Extract<(typeof erc20Abi)[number], { type: 'function' }> =>
      e.type === 'function' && ['transfer', 'transferFrom', 'approve'].includes(e.name),
  ),
  // OpenZeppelin's allowance helper (not in the standard, widely deployed: USDC among others).
  ...parseAbi(['function increaseAllowance(address spender, uint256 addedValue) returns (bool)']),
] as const;

export type Erc20Function = 'transfer' | 'transferFrom' | 'approve' | 'increaseAllowance';

/** One ERC-20 call as the token contract will execute it. */
export interface DecodedErc20Call {
  function: Erc20Function;
  /** `transfer(address,uint256)`. */
  signature: string;
  /** transferFrom's owner (checksummed); null for the others. */
  from: Address | null;
  /** The recipient (transfer, transferFrom) or the spender (approve, increaseAllowance), checksummed. */
  to: Address;
  role: 'recipient' | 'spender';
  /** Base units: moved, or allowed to the spender. */
  amount: bigint;
  /** An allowance of the largest uint256: the spender may move everything, now and later. */
  unlimited: boolean;
}

export type DecodedContractCall =
  | { ok: true; contract: Address; selector: Hex; call: DecodedErc20Call; value: bigint }
  | {
      ok: false;
      contract: string;
      selector: Hex | null;
      reason: 'unknown-function' | 'malformed';
      /** Why, in words, for the review ("unknown function 0x12345678"). */
      message: string;
      value: bigint;
    };

/** A contract call as the console holds it: its own ABI, method and arguments, or raw call data. */
export type ContractCallInput = { contract: string; value?: bigint } & (
  | { data: string }
  | { abi: readonly AbiFunction[]; method: string; parameters: readonly unknown[] }
);

const ROLE: Record<Erc20Function, 'recipient' | 'spender'> = {
  transfer: 'recipient',
  transferFrom: 'recipient',
  approve: 'spender',
  increaseAllowance: 'spender',
};

/** The call data the service will send for a call given by ABI, method and arguments (as the sandbox builds it). */
function encodeByAbi(call: {
  abi: readonly AbiFunction[];
  method: string;
  parameters: readonly unknown[];
}): Hex | string {
  const fn = call.abi.find(
    (f) => f.type === 'function' && f.name === call.method && f.inputs.length === call.parameters.length,
  );
  if (!fn) return `the ABI has no ${call.method} taking ${call.parameters.length} arguments`;
  const args: unknown[] = [];
  for (const [i, input] of fn.inputs.entries()) {
    const c = coerceParameter(input, call.parameters[i], input.name || `argument ${i + 1}`);
    if (!c.ok) return c.message;
    args.push(c.value.viem);
  }
  try {
    return encodeFunctionData({ abi: [fn], functionName: fn.name, args });
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0]! : 'the arguments do not encode';
  }
}

/**
 * A contract call decoded as one of the ERC-20 calls the console prices, or why it cannot be: an unknown
 * function (by selector) or call data that does not parse. Never throws.
 */
export function decodeContractCall(input: ContractCallInput): DecodedContractCall {
  const value = input.value ?? 0n;
  const data = 'data' in input ? input.data : encodeByAbi(input);
  const fail = (reason: 'unknown-function' | 'malformed', message: string, selector: Hex | null = null) => ({
    ok: false as const,
    contract: input.contract,
    selector,
    reason,
    message,
    value,
  });
  if (!isAddress(input.contract, { strict: false }))
    return fail('malformed', 'the contract address is not an address');
  if (!isHex(data, { strict: true }) || data.length % 2 !== 0)
    return fail('malformed', `the call data does not parse (${'data' in input ? 'not hex' : data})`);
  if (data.length < 10) return fail('malformed', 'the call data is shorter than a function selector');
  const selector = data.slice(0, 10).toLowerCase() as Hex;
  const fn = ERC20_CALLS.find((f) => toFunctionSelector(f) === selector);
  if (!fn) return fail('unknown-function', `unknown function ${selector}`, selector);
  let decoded: { functionName: string; args: readonly unknown[] };
  try {
    decoded = decodeFunctionData({ abi: [fn], data: data as Hex }) as typeof decoded;
  } catch {
    return fail('malformed', `the arguments of ${fn.name} do not parse`, selector);
  }
  const name = decoded.functionName as Erc20Function;
  const args = decoded.args;
  const from = name === 'transferFrom' ? getAddress(args[0] as string) : null;
  const to = getAddress((name === 'transferFrom' ? args[1] : args[0]) as string);
  const amount = args[args.length - 1] as bigint;
  return {
    ok: true,
    contract: getAddress(input.contract),
    selector,
    call: {
      function: name,
      signature: `${fn.name}(${fn.inputs.map((i) => i.type).join(',')})`,
      from,
      to,
      role: ROLE[name],
      amount,
      unlimited: ROLE[name] === 'spender' && amount === maxUint256,
    },
    value,
  };
}
