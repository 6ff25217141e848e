import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { settledDeposit, transactionsFixture, uniqueAmount, waitForHydration } from './helpers/transactions';

function formatted(amount: string) {
  // The table groups thousands and trims trailing zeros; our amounts are below 1000.
  return amount.replace(/0+$/, '').replace(/\.$/, '');
}

async function chooseUntilUrl(page: Page, label: string, value: string, url: RegExp) {
  await expect(async () => {
    await page.getByLabel(label, { exact: true }).selectOption(value);
    await expect(page).toHaveURL(url, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

test.describe('transactions', () => {
  test('status and type filters live in the URL: they survive a reload and open the same view elsewhere', async ({
    browser,
  }) => {
    const { wallet, address, asset } = transactionsFixture();
    const { page, context } = await contextAs(browser, 'viewer');
    const amount = uniqueAmount();
    await settledDeposit(page.request, wallet, address.id, asset.id, amount);

    await page.goto(`/wallets/${wallet.id}/transactions?addressId=${address.id}`);
    const table = page.getByRole('table', { name: 'Transactions' });
    await expect(table).toBeVisible();
    await waitForHydration(page);
    // The table streams in under Suspense and may hydrate after the shell: choose until the URL follows.
    await chooseUntilUrl(page, 'Status', 'SUCCESS', /status=SUCCESS/);
    await chooseUntilUrl(page, 'Type', 'DEPOSIT', /type=DEPOSIT/);
    const row = table.getByRole('row', {
      name: new RegExp(`^Deposit of ${formatted(amount)} ${asset.symbol}, SUCCESS`),
    });
    await expect(row).toBeVisible();
    await expect(table.getByRole('row', { name: /, (PENDING|FAILED),/ })).toHaveCount(0);
    await expect(table.getByRole('row', { name: /^(Withdraw|Salvage)/ })).toHaveCount(0);
    await expectAccessible(page);

    await page.reload();
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('SUCCESS');
    await expect(page.getByLabel('Type', { exact: true })).toHaveValue('DEPOSIT');
    await expect(row).toBeVisible();

    const shared = page.url();
    const other = await contextAs(browser, 'support', shared);
    await expect(other.page.getByLabel('Status', { exact: true })).toHaveValue('SUCCESS');
    await expect(other.page.getByLabel('Type', { exact: true })).toHaveValue('DEPOSIT');
    await expect(
      other.page
        .getByRole('table', { name: 'Transactions' })
        .getByRole('row', { name: new RegExp(`^Deposit of ${formatted(amount)} `) }),
    ).toBeVisible();
    await expectAccessible(other.page);
    await other.context.close();
    await context.close();
  });

  test('a row opens a drawer with every field grouped and explorer links; Escape closes it', async ({
    browser,
  }) => {
    const { wallet, address, asset } = transactionsFixture();
    const { page, context } = await contextAs(browser, 'support');
    const amount = uniqueAmount();
    const tx = await settledDeposit(page.request, wallet, address.id, asset.id, amount);

    await page.goto(`/wallets/${wallet.id}/transactions?addressId=${address.id}&type=DEPOSIT`);
    await waitForHydration(page);
    const row = page
      .getByRole('table', { name: 'Transactions' })
      .getByRole('row', { name: new RegExp(`^Deposit of ${formatted(amount)} ${asset.symbol}`) });
    // Keyboard first: a focused row opens on Enter.
    await row.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', {
      name: new RegExp(`Deposit of ${formatted(amount)} ${asset.symbol}`),
    });
    await expect(drawer).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`open=${tx.id}`));
    for (const group of ['Summary', 'Amounts', 'Parties', 'Chain', 'Sweep', 'AML', 'Metadata']) {
      await expect(drawer.getByRole('heading', { name: group, exact: true })).toBeVisible();
    }
    await expect(drawer.getByText(tx.reference, { exact: true })).toBeVisible();
    const explorer = drawer.getByRole('link', { name: 'Open transaction hash in the block explorer' });
    await expect(explorer).toHaveAttribute('href', /^https:\/\/sepolia\.basescan\.org\/tx\/0x[0-9a-f]{64}$/);
    await expect(
      drawer.getByRole('link', { name: 'Open recipient address in the block explorer' }),
    ).toHaveAttribute('href', /basescan\.org\/address\/0x/i);
    await expect(drawer.getByRole('button', { name: 'Copy transaction id' })).toBeVisible();
    await expect(drawer.getByRole('heading', { name: 'Webhook deliveries' })).toBeVisible();
    await drawer.getByText('Raw JSON').click();
    await expect(drawer.locator('pre').last()).toContainText(`"id": "${tx.id}"`);
    await expectAccessible(page);

    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(page).not.toHaveURL(/open=/);
    await expect(row).toBeFocused();

    // The drawer state is in the URL too: a shared link opens it.
    await page.goto(`/wallets/${wallet.id}/transactions?id=${tx.id}&open=${tx.id}`);
    await expect(
      page.getByRole('dialog', { name: new RegExp(`Deposit of ${formatted(amount)}`) }),
    ).toBeVisible();
    await context.close();
  });

  test('columns can be hidden and shown', async ({ browser }) => {
    const { wallet } = transactionsFixture();
    const { page, context } = await contextAs(browser, 'viewer', `/wallets/${wallet.id}/transactions`);
    await waitForHydration(page);
    const table = page.getByRole('table', { name: 'Transactions' });
    await expect(table.getByRole('columnheader', { name: 'Asset' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Reference' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Asset' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Reference' }).click();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(table.getByRole('columnheader', { name: 'Asset' })).toHaveCount(0);
    await expect(table.getByRole('columnheader', { name: 'Reference' })).toBeVisible();

    // Remembered across a reload.
    await page.reload();
    await expect(
      page.getByRole('table', { name: 'Transactions' }).getByRole('columnheader', { name: 'Reference' }),
    ).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Transactions' }).getByRole('columnheader', { name: 'Asset' }),
    ).toHaveCount(0);
    await context.close();
  });

  test('Export CSV downloads exactly the filtered rows', async ({ browser }) => {
    const { wallet, address, asset } = transactionsFixture();
    const { page, context } = await contextAs(browser, 'viewer');
    await settledDeposit(page.request, wallet, address.id, asset.id, uniqueAmount());
    const filter = `addressId=${address.id}&status=SUCCESS&type=DEPOSIT&limit=10`;
    await page.goto(`/wallets/${wallet.id}/transactions?${filter}`);
    await expect(
      page
        .getByRole('table', { name: 'Transactions' })
        .getByRole('row', { name: /^Deposit of / })
        .first(),
    ).toBeVisible();

    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^transactions-.*\.csv$/);
    const csv = await readFile((await download.path()) ?? '', 'utf8');
    const lines = csv.trimEnd().split('\r\n');
    const header = lines[0]?.split(',') ?? [];
    expect(header.slice(0, 5)).toEqual(['id', 'createdAt', 'updatedAt', 'type', 'status']);
    const rows = lines.slice(1).map((l) => l.split(','));

    // Every page of the same filter, from the console's JSON route (the page size of the view does not apply).
    const api = await page.request.get(
      `/api/wallets/${wallet.id}/transactions?addressId=${address.id}&status=SUCCESS&type=DEPOSIT&limit=1000`,
    );
    expect(api.ok()).toBe(true);
    const body = (await api.json()) as { data: Array<{ id: string }>; meta: { totalItems: number } };
    expect(rows.length).toBe(body.meta.totalItems);
    expect(rows.map((r) => r[0]).sort()).toEqual(body.data.map((t) => t.id).sort());
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r[3]).toBe('DEPOSIT');
      expect(r[4]).toBe('SUCCESS');
      expect(r[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    await context.close();
  });

  test('the command palette finds a transaction by hash and jumps to it', async ({ browser }) => {
    const { wallet, address, asset } = transactionsFixture();
    const { page, context } = await contextAs(browser, 'support');
    const amount = uniqueAmount();
    const tx = await settledDeposit(page.request, wallet, address.id, asset.id, amount);
    await page.goto(`/wallets/${wallet.id}/transactions?addressId=${address.id}&type=DEPOSIT`);
    const hashLink = page
      .getByRole('table', { name: 'Transactions' })
      .getByRole('row', { name: new RegExp(`^Deposit of ${formatted(amount)} `) })
      .getByRole('link', { name: /^Open hash/ });
    const hash = await hashLink.getAttribute('title');
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/);

    await page.goto('/wallets');
    await waitForHydration(page);
    await expect(page.getByRole('button', { name: /Search…/ })).toBeVisible();
    await page.keyboard.press('Control+K');
    const palette = page.getByRole('dialog', { name: 'Search the console' });
    await expect(palette).toBeVisible();
    await palette.getByRole('combobox', { name: /Search pages, actions/ }).fill(hash ?? '');
    const option = palette.getByRole('option', {
      name: new RegExp(`DEPOSIT · ${formatted(amount)} ${asset.symbol}`),
    });
    await expect(option).toBeVisible();
    await expectAccessible(page);
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(
      new RegExp(`/wallets/${wallet.id}/transactions\\?id=${tx.id}&open=${tx.id}`),
    );
    const drawer = page.getByRole('dialog', { name: new RegExp(`Deposit of ${formatted(amount)}`) });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByText(hash ?? '', { exact: true })).toBeVisible();
    await expectAccessible(page);
    await context.close();
  });
});
