import 'server-only';
// What a withdrawal or swap request means against the wallet as its custody service describes it (assets,
// sources, balances): the same checks for a person's form and for a system calling the console's API.
import type { SwapAsset, SwapFormValues, SwapPayload } from '@/lib/validation/swaps';
import { validateSwap } from '@/lib/validation/swaps';
import {
  type SourceBalanceMap,
  validateWithdrawal,
  type WithdrawalFormValues,
  type WithdrawalPayload,
} from '@/lib/validation/withdrawals';
import { checkDestinations, describeDestinationProblems } from './address-book';
import { verifyTypedSource } from './address-lookup';
import { sourceBalances, type WithdrawFormContext, withdrawFormContext } from './approvals';
import { WALLET_NOT_CONNECTED } from './errors';
import { currentDb } from './services';

export type PayloadCheck<P> =
  | { ok: true; payload: P }
  | { ok: false; error: string; fieldErrors?: Record<string, string>; status?: number };

/**
 * The source's balances the amounts are checked against: the master wallet's from the form context, a child
 * address's read from the service. Null (unknown, never blocking) when the service gives no balances or the
 * read fails: the custody service itself refuses what the source cannot pay.
 */
async function withdrawalBalances(
  walletId: string,
  source: string,
  context: WithdrawFormContext,
): Promise<SourceBalanceMap | null> {
  if (context.balances !== 'available' && context.balances !== 'failed') return null;
  if (source === 'master') {
    if (context.balances !== 'available') return null;
    return Object.fromEntries(context.assets.map((a) => [a.id, a.balance]));
  }
  try {
    const balances = await sourceBalances(walletId, source);
    return balances ? Object.fromEntries(balances.map((b) => [b.assetId, b.balance])) : null;
  } catch {
    return null;
  }
}

/** A withdrawal as typed, checked against the wallet; refuses with field errors. */
export async function checkWithdrawal(
  values: WithdrawalFormValues,
): Promise<PayloadCheck<WithdrawalPayload>> {
  const context = await withdrawFormContext(values.walletId);
  if (!context) return { ok: false, error: WALLET_NOT_CONNECTED, status: 404 };
  // A source off the list is an address id typed by hand: accepted once #5 confirms it is a child address.
  if (!context.sources.some((s) => s.id === values.source)) {
    const typed = await verifyTypedSource(values.walletId, values.source);
    if (!typed.ok)
      return { ok: false, error: 'Choose a source of this wallet.', fieldErrors: { source: typed.error } };
  }
  const validation = validateWithdrawal(values, {
    assets: context.assets,
    chain: { isEvmCompatible: context.wallet.isEvmCompatible },
    balances: await withdrawalBalances(values.walletId, values.source.trim(), context),
  });
  if (!validation.ok) return { ok: false, error: validation.error, fieldErrors: validation.fieldErrors };
  // Where the money may go, said at each recipient's address (the engine holds the request to the same rules).
  const { items } = validation.payload;
  const { problems } = await checkDestinations(
    await currentDb(),
    values.walletId,
    items.map((i) => i.address),
    new Date(),
  );
  if (problems.length > 0)
    return {
      ok: false,
      error: `${describeDestinationProblems(problems, items.length > 1 ? (i) => `Recipient ${i + 1}` : undefined)} Nothing was requested.`,
      fieldErrors: Object.fromEntries(problems.map((p) => [`rows.${p.index}.address`, p.message])),
    };
  return { ok: true, payload: validation.payload };
}

/**
 * The wallet's active assets with the child address's balance (what the amount is checked against); the
 * balance is null (unknown, not checked) when the service cannot report balances.
 */
async function swapAssets(walletId: string, addressId: string): Promise<SwapAsset[] | null> {
  if (addressId === 'master') return null;
  const context = await withdrawFormContext(walletId);
  if (!context) return null;
  // An address off the list is one typed by hand: #5 must confirm it is a child address of the wallet.
  if (!context.sources.some((s) => s.id === addressId) && !(await verifyTypedSource(walletId, addressId)).ok)
    return null;
  const balances = await sourceBalances(walletId, addressId);
  return context.assets.map((a) => {
    const held = balances?.find((b) => b.assetId === a.id);
    return {
      id: a.id,
      symbol: a.symbol,
      decimals: a.decimals,
      balance: held?.balance ?? (balances ? '0' : null),
      priceUsd: held?.priceUsd ?? a.priceUsd,
    };
  });
}

/** A swap as typed, checked against the address's balances as the custody service reports them. */
export async function checkSwap(values: SwapFormValues): Promise<PayloadCheck<SwapPayload>> {
  const assets = await swapAssets(values.walletId, values.addressId);
  if (!assets) {
    const error = 'Choose a child address of this wallet.';
    return { ok: false, error, fieldErrors: { addressId: error } };
  }
  const validation = validateSwap(values, assets);
  if (!validation.ok) return { ok: false, error: validation.error, fieldErrors: validation.fieldErrors };
  return { ok: true, payload: validation.payload };
}
