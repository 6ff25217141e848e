// Sorting the transactions over the whole result (not the loaded page), kept in the URL, and a page past the
// end that shows the last page instead of an empty range.
import type { Locator, Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { sandboxAddress } from './helpers/sandbox';
import { settledDeposit, transactionsFixture, waitForHydration } from './helpers/transactions';

/** A child address of the Payouts wallet that no other journey names, so its row count holds still. */
const QUIET_ADDRESS = 'Customer 004';
const PAGE_SIZE = 10;

/** Two amounts far above anything the seed or the other journeys deposit, the first the larger. */
function largeAmounts(): [string, string] {
  const base = 800_000_000 + Math.floor(Math.random() * 90_000_000);
  return [`${base + 1_000_000}.75`, `${base}.25`];
}

/** The amount a row's accessible name shows ("Deposit of 1,234.5 USDC, SUCCESS, …"), as a number. */
async function amountOfRow(row: Locator): Promise<number> {
  const label = (await row.getAttribute('aria-label')) ?? '';
  const match = / of (-?[\d,]+(?:\.\d+)?)[ ,]/.exec(label);
  return match?.[1] ? Number(match[1].replaceAll(',', '')) : Number.NaN;
}

function dataRows(table: Locator): Locator {
  return table.getByRole('row', { name: / of -?\d/ });
}

/** The table has finished loading what the URL asks for. */
async function settledTable(table: Locator) {
  await expect(table).toBeVisible();
  await expect(table).not.toHaveAttribute('aria-busy', 'true');
}

/** The URL's sort and order as the console writes them (defaults left out). */
function sortOf(url: string) {
  const params = new URL(url).searchParams;
  return { sort: params.get('sort'), order: params.get('order') };
}

async function clickHeaderUntilSorted(
  page: Page,
  table: Locator,
  column: string,
  wanted: { sort: string; order: string | null },
) {
  // The table streams in under Suspense and may hydrate after the shell: click until the URL follows, but
  // never once more after it did (a second click would turn the order around).
  await expect(async () => {
    if (JSON.stringify(sortOf(page.url())) !== JSON.stringify(wanted))
      await table.getByRole('columnheader', { name: column }).getByRole('button').click();
    await expect.poll(() => sortOf(page.url()), { timeout: 2_000 }).toEqual(wanted);
  }).toPass({ timeout: 30_000 });
}

test.describe('transactions sorting and paging', () => {
  test('sorting by amount puts the largest transaction of all pages first and survives a reload', async ({
    browser,
  }) => {
    const { wallet, address, asset } = transactionsFixture();
    const { page, context } = await contextAs(browser, 'finance');
    const [largest, second] = largeAmounts();
    await settledDeposit(page.request, wallet, address.id, asset.id, second);
    await settledDeposit(page.request, wallet, address.id, asset.id, largest);

    // Oldest first, ten to a page: the new deposits are on the last page, far from page 1.
    await page.goto(`/wallets/${wallet.id}/transactions?order=ASC&limit=10`);
    const table = page.getByRole('table', { name: 'Transactions' });
    await settledTable(table);
    await waitForHydration(page);
    await expect(page.getByRole('navigation', { name: 'Pagination' })).toContainText(
      /Page 1 of ([2-9]|\d{2,})/,
    );
    await expect(table.getByRole('columnheader', { name: 'Date' })).toHaveAttribute('aria-sort', 'ascending');

    // Largest first is where an amount sort starts (the default order, so only `sort` is in the URL).
    await clickHeaderUntilSorted(page, table, 'Amount', { sort: 'amount', order: null });
    await settledTable(table);
    const amountHeader = table.getByRole('columnheader', { name: 'Amount' });
    await expect(amountHeader).toHaveAttribute('aria-sort', 'descending');
    // Only the column the list is sorted by says so.
    await expect(table.getByRole('columnheader', { name: 'Date' })).not.toHaveAttribute('aria-sort', /.+/);
    await expect(table.locator('thead th[aria-sort]')).toHaveCount(1);

    const first = dataRows(table).first();
    await expect.poll(() => amountOfRow(first), { timeout: 30_000 }).toBeGreaterThanOrEqual(Number(largest));
    // Numbers, not strings: the rows below go down in value.
    const firstTen = await Promise.all(
      Array.from({ length: Math.min(10, await dataRows(table).count()) }, (_, i) =>
        amountOfRow(dataRows(table).nth(i)),
      ),
    );
    expect(firstTen).toEqual([...firstTen].sort((a, b) => b - a));
    await expectAccessible(page);

    // The sort is in the URL: a reload keeps it.
    await page.reload();
    await expect(page).toHaveURL(/[?&]sort=amount(&|$)/);
    await settledTable(table);
    await expect(amountHeader).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(() => amountOfRow(dataRows(table).first())).toBeGreaterThanOrEqual(Number(largest));

    // A second click turns it around: smallest first, still over every page.
    await waitForHydration(page);
    await clickHeaderUntilSorted(page, table, 'Amount', { sort: 'amount', order: 'ASC' });
    await settledTable(table);
    await expect(amountHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(() => amountOfRow(dataRows(table).first())).toBeLessThan(Number(second));
    await context.close();
  });

  test('?page=999 shows the last page instead of an empty range', async ({ browser }) => {
    const { wallet, asset } = transactionsFixture();
    const address = sandboxAddress(wallet, QUIET_ADDRESS);
    const { page, context } = await contextAs(browser, 'viewer');
    // More than a page of rows of our own, settled, whatever the address held before.
    await Promise.all(
      Array.from({ length: PAGE_SIZE + 1 }, (_, i) =>
        settledDeposit(page.request, wallet, address.id, asset.id, `${i + 1}.5`),
      ),
    );

    await page.goto(`/wallets/${wallet.id}/transactions?addressId=${address.id}&page=999&limit=${PAGE_SIZE}`);
    const table = page.getByRole('table', { name: 'Transactions' });
    await settledTable(table);
    await expect(page.getByRole('status').filter({ hasText: 'Page 999 does not exist' })).toContainText(
      /showing the last page, ([2-9]|\d{2,})\./,
    );
    await expect(page).not.toHaveURL(/page=999/);
    await expect(page).toHaveURL(/[?&]page=\d+/);
    const pagination = page.getByRole('navigation', { name: 'Pagination' });
    // The last page: "Page N of N", with its real range of rows.
    await expect(pagination).toContainText(/Page (\d+) of \1(?!\d)/);
    await expect(pagination.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await expect(pagination).toContainText(/\d[\d,]*–[\d,]+ of [\d,]+ transactions/);
    const summary = (await pagination.getByText(/ of [\d,]+ transactions/).textContent()) ?? '';
    const [, from = '', to = '', total = ''] = /([\d,]+)–([\d,]+) of ([\d,]+)/.exec(summary) ?? [];
    const n = (s: string) => Number(s.replaceAll(',', ''));
    expect(n(from)).toBeLessThanOrEqual(n(to));
    expect(n(to)).toBeLessThanOrEqual(n(total));
    expect(n(total) - n(to)).toBe(0);
    expect(n(to) - n(from)).toBeLessThan(PAGE_SIZE);
    await expect(dataRows(table).first()).toBeVisible();
    await expect(page.getByText('No transactions yet')).toHaveCount(0);
    await expectAccessible(page);

    const pageNumber = /[?&]page=(\d+)/.exec(page.url())?.[1];
    await page.reload();
    await expect(pagination).toContainText(`Page ${pageNumber} of`);
    await expect(dataRows(table).first()).toBeVisible();
    await context.close();
  });
});
