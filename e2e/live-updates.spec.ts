import { contextAs, expect, expectAccessible, test } from './fixtures';
import { sandboxWallet, simulateDeposit } from './helpers/sandbox';

test('a simulated deposit shows up, then settles and sweeps, in the open webhook log without reload', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Payouts');
  const customer = wallet.addresses.find((a) => a.type === 'INTERNAL' && !a.disableAutoSweep);
  expect(customer, 'a sweeping customer address in the seed').toBeTruthy();
  const { page, context } = await contextAs(browser, 'support', `/wallets/${wallet.id}/webhooks`);
  await expect(page.getByRole('status', { name: /Live updates/ })).toHaveText('Live');
  await expect(page.getByRole('table', { name: 'Webhook deliveries' })).toBeVisible();
  await expectAccessible(page);
  // A marker on the window survives only if the page is never reloaded.
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = 'still here';
  });

  const deposit = await simulateDeposit(page.request, wallet, customer!.id, '12.5');
  const rows = page
    .getByRole('table', { name: 'Webhook deliveries' })
    .locator('tbody tr')
    .filter({ hasText: deposit.id.slice(0, 8) });
  await expect(rows.filter({ hasText: 'deposit.success' })).toHaveCount(1, { timeout: 30_000 });
  await expect(rows.filter({ hasText: 'deposit.swept.success' })).toHaveCount(1, { timeout: 30_000 });
  await expect(rows.first()).toContainText('SUCCESS');
  expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe(
    'still here',
  );
  await expect(page.getByRole('status', { name: /Live updates/ })).toHaveText('Live');
  await expectAccessible(page);
  await context.close();
});

test('a simulated deposit appears and settles in an already open transactions table without reload', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Payouts');
  const float = wallet.addresses.find((a) => a.type === 'INTERNAL' && a.disableAutoSweep);
  expect(float, 'an operating float address in the seed').toBeTruthy();
  const { page, context } = await contextAs(browser, 'viewer', `/wallets/${wallet.id}/transactions`);
  await expect(page.getByRole('status', { name: /Live updates/ })).toHaveText('Live');
  const table = page.getByRole('table', { name: 'Transactions' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expectAccessible(page);
  await page.evaluate(() => {
    (window as unknown as { liveMarker: string }).liveMarker = 'still here';
  });

  // A unique amount names the new row (the reference column is hidden by default).
  const amount = `3.${Math.floor(100 + Math.random() * 899)}7`;
  await simulateDeposit(page.request, wallet, float!.id, amount);
  const row = table.getByRole('row', { name: new RegExp(`^Deposit of ${amount.replace('.', '\\.')} `) });
  await expect(row).toHaveCount(1, { timeout: 30_000 });
  await expect(row).toContainText('SUCCESS', { timeout: 30_000 });
  expect(await page.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe(
    'still here',
  );
  await expectAccessible(page);
  await context.close();
});
