import 'server-only';
// What a contract call moves, priced like a withdrawal: the token contract matched to a wallet asset (its
// contract address on the wallet's chain), the amount in the asset's units times the service's USD price
// (balances extension), to the cent; native coin sent with the call priced like a native withdrawal. A call
// the console cannot decode or price carries its reason: it needs the most approvals the policy asks.
import { formatUnits, zeroAddress } from 'viem';
import type { ContractDecodedCall, ContractMovement } from '@/lib/approvals/contracts';
import type { Blockchain, Wallet } from '@/lib/custody/schemas';
import { describeTokenAmount, type TokenUnits } from '@/lib/validation/abi-units';
import { addressKey } from '@/lib/validation/addresses';
import type { DecodedContractCall } from '../decode';
import type { SourceBalance } from '../types';
import { sumUsd, type UsdAmount, usdNumber, usdOf } from '../usd';

/** A wallet asset a call can move: what its amounts are counted and priced in. */
export interface PricedAsset {
  /** Wallet-asset id: what balances and withdrawals name it by. */
  id: string;
  symbol: string;
  decimals: number;
}

/** The wallet asset at `contract` on the wallet's own chain (a contract call runs there), or null. */
export function assetAt(wallet: Pick<Wallet, 'assets' | 'blockchain'>, contract: string): PricedAsset | null {
  const key = addressKey(contract);
  if (key === zeroAddress) return null;
  const sameChain = (chain: Blockchain | undefined) =>
    !chain || chain.id === wallet.blockchain.id || chain.slug === wallet.blockchain.slug;
  const found = (wallet.assets ?? []).find(
    (a) => addressKey(a.asset.address) === key && sameChain(a.asset.blockchain),
  );
  return found ? { id: found.id, symbol: found.asset.symbol, decimals: found.asset.decimals } : null;
}

/**
 * Prices per wallet-asset id as withdrawals read them (the source's balances), falling back on the master
 * wallet's for an asset the source holds none of (a balance of zero carries no price).
 */
export function priceBook(source: SourceBalance[], master: SourceBalance[]) {
  const price = (assetId: string) =>
    source.find((b) => b.assetId === assetId)?.priceUsd ??
    master.find((b) => b.assetId === assetId)?.priceUsd ??
    null;
  const nativeRow = source.find((b) => b.isNative) ?? master.find((b) => b.isNative) ?? null;
  return {
    price,
    native: nativeRow
      ? {
          symbol: nativeRow.symbol,
          decimals: nativeRow.decimals,
          price: price(nativeRow.assetId) ?? nativeRow.priceUsd,
        }
      : null,
  };
}

export type PriceBook = ReturnType<typeof priceBook>;

export interface PricedCall {
  decoded: ContractDecodedCall | null;
  native: { amount: string; symbol: string; usd: number | null } | null;
  /** USD of everything the call moves or allows; null when any part cannot be priced. */
  usd: UsdAmount | null;
  /** Why the call needs the highest quorum, in words; null when it is decoded and priced. */
  undecodable: string | null;
  /** The review's sentence about it, before the count of approvals ("This call could not be decoded (…)"). */
  headline: string | null;
  movements: ContractMovement[];
}

/**
 * One decoded call priced. `asset`: the wallet asset at the call's contract; `reported`: the units the
 * contract itself answers when it is not one (shown, never priced); `nativeSymbol`: the chain's coin.
 */
export function priceContractCall(
  decoded: DecodedContractCall,
  context: {
    asset: PricedAsset | null;
    reported: TokenUnits | null;
    prices: PriceBook;
    nativeSymbol: string;
  },
): PricedCall {
  const { asset, reported, prices, nativeSymbol } = context;
  const movements: ContractMovement[] = [];
  const reasons: string[] = [];
  const parts: Array<UsdAmount | null> = [];

  let shown: ContractDecodedCall | null = null;
  if (!decoded.ok) {
    reasons.push(decoded.message);
    // Nothing is known of what it moves: counted as an unknown amount at the contract.
    movements.push({
      destination: addressKey(decoded.contract),
      symbol: asset?.symbol ?? 'unknown',
      amount: '0',
      usd: null,
    });
    parts.push(null);
  } else {
    const { call } = decoded;
    const units = asset ?? reported;
    const tokenAmount = units ? formatUnits(call.amount, units.decimals) : null;
    const described = units ? describeTokenAmount(call.amount, units) : null;
    let usd: UsdAmount | null = null;
    if (call.unlimited) reasons.push('unlimited token approval');
    else if (!asset)
      reasons.push(
        `${decoded.contract} is not an asset of this wallet, so the console cannot price ${units ? units.symbol : 'its amount'}`,
      );
    else {
      const price = prices.price(asset.id);
      usd = tokenAmount === null ? null : usdOf(tokenAmount, price);
      if (usd === null) reasons.push(`no USD price for ${asset.symbol}`);
    }
    parts.push(usd);
    movements.push({
      destination: addressKey(call.to),
      symbol: units?.symbol ?? 'unknown',
      // An amount in unknown units is counted as nothing in units, and as unknown in USD.
      amount: tokenAmount ?? '0',
      usd,
    });
    shown = {
      function: call.function,
      signature: call.signature,
      token: units?.symbol ?? null,
      from: call.from,
      to: call.to,
      role: call.role,
      amount: described?.units ?? null,
      base: described?.base ?? `${call.amount.toLocaleString('en-US')} base units`,
      usd: usdNumber(usd),
      unlimited: call.unlimited,
    };
  }

  let native: PricedCall['native'] = null;
  if (decoded.value > 0n) {
    const n = prices.native;
    const amount = formatUnits(decoded.value, n?.decimals ?? 18);
    const usd = n ? usdOf(amount, n.price) : null;
    if (usd === null) reasons.push(`no USD price for the ${nativeSymbol} sent with the call`);
    parts.push(usd);
    movements.push({ destination: addressKey(decoded.contract), symbol: nativeSymbol, amount, usd });
    native = { amount, symbol: n?.symbol ?? nativeSymbol, usd: usdNumber(usd) };
  }

  const undecodable = reasons.length > 0 ? reasons.join('; ') : null;
  let headline: string | null = null;
  if (!decoded.ok) headline = `This call could not be decoded (${undecodable})`;
  else if (decoded.call.unlimited)
    headline = `Unlimited token approval: ${decoded.call.to} may move every ${shown?.token ?? 'token'} this address holds, now and later`;
  else if (undecodable) headline = `This call could not be priced (${undecodable})`;
  return { decoded: shown, native, usd: sumUsd(parts), undecodable, headline, movements };
}
