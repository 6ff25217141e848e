import { expect, type Locator, type Page } from '@playwright/test';
import { demoBookAddressFor } from './address-book';
import { sandboxWallet } from './sandbox';

export { type CapturedAction, captureAction, replayAction as callAction } from './actions';

/** The Treasury wallet (testnet), where the withdrawal journeys move money. */
export function treasuryWallet() {
  return sandboxWallet('Treasury');
}

/**
 * Types a lowercase address into the first recipient row. The form checksums it when the field loses focus:
 * once that happens the form is hydrated, so typing is repeated until it does.
 */
export async function fillRecipientAddress(page: Page, typed: string): Promise<void> {
  const address = page.getByLabel('Recipient 1 address');
  await expect(async () => {
    await address.fill(typed);
    await address.blur();
    expect(await address.inputValue()).not.toBe(typed);
  }).toPass();
}

/**
 * Creates a one-recipient request through the form and returns its id (the page ends on the request). The
 * recipient is a demo address book entry past its cooling-off ("Tyrell Leasing" unless another is named): the
 * destination policy refuses anything else.
 */
export async function requestThroughForm(
  page: Page,
  walletId: string,
  options: { amount: string; kind?: 'withdraw' | 'withdrawSign'; address?: string; assetId?: string },
): Promise<string> {
  await page.goto(`/wallets/${walletId}/withdraw`);
  if (options.kind === 'withdrawSign') await page.getByLabel('Type').selectOption('withdrawSign');
  await fillRecipientAddress(page, options.address ?? demoBookAddressFor(walletId, 'Tyrell Leasing'));
  await page.getByLabel('Recipient 1 amount').fill(options.amount);
  if (options.assetId) await page.getByLabel('Recipient 1 asset').selectOption(options.assetId);
  await page.getByRole('button', { name: 'Review request' }).click();
  await expect(page.getByRole('heading', { name: 'Review' })).toBeVisible();
  await page.getByRole('button', { name: 'Create request' }).click();
  await expect(page).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

/** Clicks until the expected effect shows: a click that lands before hydration does nothing. */
export async function clickUntil(button: Locator, effect: () => Promise<void>): Promise<void> {
  await expect(async () => {
    if (await button.isVisible()) await button.click({ timeout: 2_000 });
    await effect();
  }).toPass({ timeout: 30_000 });
}
