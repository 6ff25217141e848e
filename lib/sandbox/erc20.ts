// ERC-20 emulation: the sandbox's token contracts answer standard calls from the ledger instead of an EVM.
import {
  type Address,
  decodeFunctionData,
  encodeFunctionResult,
  erc20Abi,
  getAddress,
  type Hex,
  isAddressEqual,
  maxUint256,
  zeroAddress,
} from 'viem';

export interface TokenInfo {
  address: Address;
  name: string;
  symbol: string;
  decimals: number;
}

/** Storage behind a token contract; the sandbox backs it with its ledger tables. */
export interface TokenLedger {
  balanceOf(holder: Address): Promise<bigint>;
  setBalance(holder: Address, amount: bigint): Promise<void>;
  allowance(owner: Address, spender: Address): Promise<bigint>;
  setAllowance(owner: Address, spender: Address, amount: bigint): Promise<void>;
  totalSupply(): Promise<bigint>;
}

export class ContractRevertError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContractRevertError';
  }
}

export const ERC20_WRITE_METHODS = new Set(['transfer', 'approve', 'transferFrom']);

export interface Erc20Outcome {
  method: string;
  /** ABI-encoded return data, as an EVM call would give it. */
  returnData: Hex;
  /** True when the call changed (or, in a dry run, would change) the ledger. */
  mutates: boolean;
}

/**
 * Runs one call against a token. `dryRun` answers like eth_call: writes are checked and
 * their return value computed, but nothing is stored.
 */
export async function executeErc20(
  token: TokenInfo,
  ledger: TokenLedger,
  from: Address,
  data: Hex,
  options: { dryRun?: boolean } = {},
): Promise<Erc20Outcome> {
  let decoded: ReturnType<typeof decodeFunctionData<typeof erc20Abi>>;
  try {
    decoded = decodeFunctionData({ abi: erc20Abi, data });
  } catch {
    throw new ContractRevertError(
      `Token contract ${token.address} (${token.symbol}) does not implement the method with selector ${data.slice(0, 10)}; it answers name, symbol, decimals, totalSupply, balanceOf, allowance, transfer, approve and transferFrom`,
    );
  }
  const write = !options.dryRun;
  const result = (value: unknown, mutates = false): Erc20Outcome => ({
    method: decoded.functionName,
    returnData: encodeFunctionResult({
      abi: erc20Abi,
      functionName: decoded.functionName,
      // The result's type follows functionName; viem checks it while encoding.
      result: value as never,
    }),
    mutates,
  });
  switch (decoded.functionName) {
    case 'name':
      return result(token.name);
    case 'symbol':
      return result(token.symbol);
    case 'decimals':
      return result(token.decimals);
    case 'totalSupply':
      return result(await ledger.totalSupply());
    case 'balanceOf':
      return result(await ledger.balanceOf(getAddress(decoded.args[0])));
    case 'allowance':
      return result(await ledger.allowance(getAddress(decoded.args[0]), getAddress(decoded.args[1])));
    case 'approve': {
      const [spender, amount] = decoded.args;
      if (isAddressEqual(spender, zeroAddress))
        throw new ContractRevertError('ERC20: approve to the zero address');
      if (write) await ledger.setAllowance(from, getAddress(spender), amount);
      return result(true, true);
    }
    case 'transfer': {
      const [to, amount] = decoded.args;
      await move(ledger, from, getAddress(to), amount, write);
      return result(true, true);
    }
    case 'transferFrom': {
      const [owner, to, amount] = decoded.args;
      const ownerAddress = getAddress(owner);
      const allowed = await ledger.allowance(ownerAddress, from);
      if (allowed < amount) throw new ContractRevertError('ERC20: insufficient allowance');
      await move(ledger, ownerAddress, getAddress(to), amount, false);
      if (write) {
        // An unlimited approval stays unlimited, as in OpenZeppelin's ERC20.
        if (allowed !== maxUint256) await ledger.setAllowance(ownerAddress, from, allowed - amount);
        await move(ledger, ownerAddress, getAddress(to), amount, true);
      }
      return result(true, true);
    }
  }
}

async function move(ledger: TokenLedger, from: Address, to: Address, amount: bigint, write: boolean) {
  if (isAddressEqual(to, zeroAddress)) throw new ContractRevertError('ERC20: transfer to the zero address');
  const fromBalance = await ledger.balanceOf(from);
  if (fromBalance < amount) throw new ContractRevertError('ERC20: transfer amount exceeds balance');
  if (!write) return;
  await ledger.setBalance(from, fromBalance - amount);
  const toBalance = await ledger.balanceOf(to);
  await ledger.setBalance(to, toBalance + amount);
}

/** A ledger held in memory: unit tests, and dry runs over a snapshot. */
export class MemoryTokenLedger implements TokenLedger {
  readonly balances = new Map<string, bigint>();
  readonly allowances = new Map<string, bigint>();
  async balanceOf(holder: Address) {
    return this.balances.get(holder.toLowerCase()) ?? 0n;
  }
  async setBalance(holder: Address, amount: bigint) {
    this.balances.set(holder.toLowerCase(), amount);
  }
  async allowance(owner: Address, spender: Address) {
    return this.allowances.get(`${owner.toLowerCase()}:${spender.toLowerCase()}`) ?? 0n;
  }
  async setAllowance(owner: Address, spender: Address, amount: bigint) {
    this.allowances.set(`${owner.toLowerCase()}:${spender.toLowerCase()}`, amount);
  }
  async totalSupply() {
    let total = 0n;
    for (const v of this.balances.values()) total += v;
    return total;
  }
}
