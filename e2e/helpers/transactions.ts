// Data for the transactions journey: deposits made through the sandbox's control API onto an address no
// other spec uses, so filters and exports can be compared exactly.
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import {
  type SandboxTransaction,
  type SandboxWallet,
  sandboxCall,
  sandboxWallet,
  transactionStatus,
} from './sandbox';

const TX_WALLET_PREFIX = 'Payouts';
const TX_ADDRESS_NAME = 'Customer 005';

export function transactionsFixture() {
  const wallet = sandboxWallet(TX_WALLET_PREFIX);
  const address = wallet.addresses.find((a) => a.name === TX_ADDRESS_NAME);
  if (!address) throw new Error(`no ${TX_ADDRESS_NAME} in ${wallet.name}`);
  const asset = wallet.assets.find((a) => a.symbol === 'USDC') ?? wallet.assets[0];
  if (!asset) throw new Error(`no asset in ${wallet.name}`);
  return { wallet, address, asset };
}

/** A deposit onto the fixture address, waited for until it settled. */
export async function settledDeposit(
  request: APIRequestContext,
  wallet: SandboxWallet,
  addressId: string,
  assetId: string,
  amount: string,
) {
  const res = await sandboxCall<SandboxTransaction & { hash: string | null }>(
    request,
    wallet,
    'POST',
    '/control/deposits',
    {
      addressId,
      assetId,
      amount,
    },
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const tx = res.json.data;
  await expect.poll(() => transactionStatus(request, wallet, tx.id), { timeout: 30_000 }).toBe('SUCCESS');
  return tx;
}

/** A unique amount, so a row can be told apart by what a person sees. */
export function uniqueAmount(): string {
  return `${10 + Math.floor(Math.random() * 900)}.${String(Math.floor(Math.random() * 9000) + 1000)}`;
}

/**
 * The server-rendered table is visible before React has hydrated it; a choice made in that window is lost.
 * The live indicator connects only from the hydrated shell, so "Live" means the page is interactive.
 */
export async function waitForHydration(page: Page) {
  await expect(page.getByRole('status', { name: /Live updates/ })).toHaveText('Live');
}
