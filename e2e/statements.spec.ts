import { readFile } from 'node:fs/promises';
import { shortAddress } from '@/lib/format';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { sandboxWallet } from './helpers/sandbox';
import { settledDeposit, uniqueAmount, waitForHydration } from './helpers/transactions';

test.describe('month-end statements', () => {
  test('a person reads a balanced statement for a period, downloads its CSV and prints it', async ({
    browser,
  }) => {
    const wallet = sandboxWallet('Collections');
    const address = wallet.addresses.find((a) => a.type === 'INTERNAL');
    const asset = wallet.assets.find((a) => a.symbol === 'USDC');
    if (!address || !asset) throw new Error('Collections has no child address or USDC');
    const { page, context } = await contextAs(browser, 'viewer');
    const amount = uniqueAmount();
    const deposit = await settledDeposit(page.request, wallet, address.id, asset.id, amount);
    const today = new Date().toISOString().slice(0, 10);

    await page.goto(`/wallets/${wallet.id}/statements?from=${today}&to=${today}&asset=USDC`);
    await expect(page.getByRole('heading', { name: 'Statement', exact: true })).toBeVisible();
    // The deposit's signed webhook may land a moment after it settles: read again until it has.
    await expect(async () => {
      await page.reload();
      const lines = page.getByRole('table', { name: 'Transactions of the period' });
      // A transaction id stays on one line, shortened, the whole id in its title and its copy button.
      const id = lines.getByTitle(deposit.id, { exact: true });
      await expect(id).toBeVisible({ timeout: 3_000 });
      await expect(id).toHaveText(shortAddress(deposit.id, 6));
      await expect(
        lines.getByRole('row').filter({ has: page.getByTitle(deposit.id, { exact: true }) }),
      ).toContainText('Signed webhook');
      await expect(page.getByTestId('statement-difference')).toHaveText('0 USDC', { timeout: 1_000 });
    }).toPass({ timeout: 45_000 });
    await expect(page.getByText('Opening balance', { exact: true })).toBeVisible();
    await expect(page.getByText('Closing balance', { exact: true })).toBeVisible();
    await expect(page.getByText(/^Balanced:/)).toBeVisible();
    await expect(page.getByLabel('First day (UTC)')).toHaveValue(today);
    await expect(page.getByLabel('Asset', { exact: true })).toHaveValue('USDC');
    await waitForHydration(page);
    await expectAccessible(page);

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(
      `statement-${wallet.id.slice(0, 8)}-USDC-${today}-${today}.csv`,
    );
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    expect(csv).toContain(`period,${today},${today}`);
    expect(csv).toMatch(/\r\ndifference,0\r\n/);
    expect(csv).toContain(deposit.id);

    // The downloaded file is the one audited; one changed by a byte is not.
    const verify = page.getByLabel('Statement file (CSV)');
    await verify.setInputFiles({ name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(page.getByText(/^Unchanged: this file is the USDC statement for/)).toBeVisible();
    await verify.setInputFiles({
      name: 'statement.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv.replace('difference,0', 'difference,1')),
    });
    await expect(page.getByText(/^Not found: no statement of this wallet/)).toBeVisible();

    // A phone: the page fits 390 px, wide tables scroll in their own box.
    await page.setViewportSize({ width: 390, height: 844 });
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);

    // The period is URL state: choosing another one keeps the asset and loads it.
    await page.getByLabel('First day (UTC)').fill('2020-01-01');
    await page.getByLabel('Last day (UTC)').fill('2020-01-31');
    await page.getByRole('button', { name: 'Show statement' }).click();
    await expect(page).toHaveURL(/from=2020-01-01/);
    await expect(page.getByRole('heading', { name: 'USDC · 2020-01-01 to 2020-01-31 (UTC)' })).toBeVisible();
    await expect(page.getByText('No transaction moved this asset in the period.')).toBeVisible();
    await context.close();
  });
});
