import type { Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { sandboxAddress, sandboxWallet } from './helpers/sandbox';

/** The value shown for one setting of the address's configuration ("Auto-sweep" → "On"). */
function settingValue(page: Page, label: string) {
  return page
    .locator('dl > div')
    .filter({ has: page.getByRole('term').filter({ hasText: new RegExp(`^${label}`) }) })
    .getByRole('definition');
}

test('finance opens a sweeping child address, sees its balances and transactions, and follows a simulated deposit to its sweep without reload', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Payouts');
  const address = sandboxAddress(wallet, 'Customer 005');
  expect(address.type, 'an internal child address').toBe('INTERNAL');
  expect(address.disableAutoSweep, 'a child address that sweeps').toBe(false);
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC') ?? wallet.assets[0]!;

  const { page, context } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}/addresses/${address.id}`,
  );
  await expect(page.getByRole('heading', { name: 'Customer 005', level: 2 })).toBeVisible();
  // A QR code of the deposit address beside it, for a sender's wallet app to scan.
  await expect(page.getByRole('img', { name: `QR code of the address ${address.address}` })).toBeVisible();
  await expect(page.getByRole('status', { name: /Live updates/ })).toHaveText('Live');

  // Settings in plain words.
  await expect(settingValue(page, 'Auto-sweep')).toHaveText('On');
  await expect(page.getByText('Deposits move on to the master wallet once they settle.')).toBeVisible();

  // Balances per asset, from the service's balances extension.
  const balances = page.getByRole('table', { name: 'Balances' });
  await expect(balances.getByRole('rowheader', { name: new RegExp(`^${usdc.symbol}\\b`) })).toBeVisible();

  // The address's own transactions, through the shared table kit.
  const transactions = page.getByRole('table', { name: 'Address transactions' });
  await expect(transactions).toBeVisible();
  await expect(transactions.getByRole('columnheader', { name: 'Sweep' })).toBeVisible();
  await expectAccessible(page);

  // A marker on the window survives only if the page is never reloaded.
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = 'still here';
  });

  // A unique amount names the new row.
  const amount = `7.${Math.floor(100 + Math.random() * 899)}3`;
  const form = page.getByRole('form', { name: 'Simulate a deposit' });
  await form.getByLabel('Asset').selectOption({ label: usdc.symbol });
  await form.getByLabel('Amount').fill(amount);
  await form.getByRole('button', { name: 'Simulate deposit' }).click();

  // The deposit's progress on this page: received, settled, then swept to the master wallet.
  const progress = page.getByRole('region', { name: 'Deposit progress' });
  await expect(progress).toBeVisible();
  await expect(progress.getByRole('status')).toContainText(`Deposit of ${amount} ${usdc.symbol}`);
  await expect(progress.getByRole('listitem')).toHaveText([
    /^Received/,
    /^Settled/,
    /^Swept to the master wallet/,
  ]);
  await expect(progress.getByRole('status')).toHaveText(
    `Deposit of ${amount} ${usdc.symbol}: settled and swept`,
    { timeout: 60_000 },
  );
  await expect(
    progress.getByRole('listitem').filter({ hasText: 'Swept to the master wallet' }),
  ).toContainText('(done)');

  // The same deposit in the transactions table, settled and swept, without a reload.
  const row = transactions.getByRole('row', {
    name: new RegExp(`^Deposit of ${amount.replace('.', '\\.')} ${usdc.symbol}, `),
  });
  await expect(row).toHaveCount(1, { timeout: 60_000 });
  await expect(row).toContainText('SUCCESS', { timeout: 60_000 });
  await expect(row).toContainText('Swept', { timeout: 60_000 });
  await expect(row).not.toContainText('Sweeping');

  // Its details, sweep included, in the drawer.
  await row.click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText('Swept at')).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);

  expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe(
    'still here',
  );
  await expectAccessible(page);
  await context.close();
});

test('an address that keeps its deposits says so, and its deposit settles on the page without a sweep step', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Payouts');
  const address = sandboxAddress(wallet, 'Operating float 2');
  expect(address.disableAutoSweep, 'an address that keeps its deposits').toBe(true);
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC') ?? wallet.assets[0]!;

  const { page, context } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}/addresses/${address.id}`,
  );
  await expect(page.getByRole('heading', { name: 'Operating float 2', level: 2 })).toBeVisible();
  await expect(page.getByRole('status', { name: /Live updates/ })).toHaveText('Live');
  await expect(settingValue(page, 'Auto-sweep')).toHaveText('Off');
  const balances = page.getByRole('table', { name: 'Balances' });
  const usdcBalance = balances.getByRole('row', { name: new RegExp(`^${usdc.symbol}\\b`) });
  await expect(usdcBalance).toBeVisible();

  const amount = `2.${Math.floor(100 + Math.random() * 899)}1`;
  const form = page.getByRole('form', { name: 'Simulate a deposit' });
  await form.getByLabel('Asset').selectOption({ label: usdc.symbol });
  await form.getByLabel('Amount').fill(amount);
  await form.getByRole('button', { name: 'Simulate deposit' }).click();

  const progress = page.getByRole('region', { name: 'Deposit progress' });
  await expect(progress.getByRole('listitem')).toHaveText([/^Received/, /^Settled/]);
  await expect(progress.getByRole('status')).toHaveText(`Deposit of ${amount} ${usdc.symbol}: settled`, {
    timeout: 60_000,
  });
  const row = page.getByRole('table', { name: 'Address transactions' }).getByRole('row', {
    name: new RegExp(`^Deposit of ${amount.replace('.', '\\.')} ${usdc.symbol}, SUCCESS, Stays on address`),
  });
  await expect(row).toHaveCount(1, { timeout: 60_000 });
  await expectAccessible(page);
  await context.close();
});
