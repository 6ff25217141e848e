import { contextAs, expect, expectAccessible, test } from './fixtures';

const TREASURY = 'Treasury (Ethereum Sepolia)';

/** Dollars as whole cents: "$445,000.00" -> 44500000. */
function cents(text: string): number {
  const match = /^\$([\d,]+)\.(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`not a dollar figure: ${text}`);
  return Number(match[1]!.replaceAll(',', '')) * 100 + Number(match[2]);
}

test("the overview's total is the sum of its asset rows; the card says where its total comes from", async ({
  browser,
}) => {
  const { page, context } = await contextAs(browser, 'viewer', '/wallets');
  const card = page.getByRole('article', { name: TREASURY });
  await expect(card.getByText('Sum of the assets below')).toBeVisible();
  const cardTotal =
    (await card.getByText('Total balance').locator('xpath=following-sibling::dd[1]').textContent()) ?? '';

  await card.getByRole('link', { name: `Open ${TREASURY}` }).click();
  await expect(page.getByRole('heading', { name: TREASURY, level: 1 })).toBeVisible();
  const assets = page.getByRole('table', { name: 'Assets' });
  await expect(assets.locator('tbody tr').first()).toBeVisible();
  // Read the headline and the rows in one go: a live update between two reads could change both.
  const figures = await page.evaluate(() => {
    const label = [...document.querySelectorAll('p')].find((p) => p.textContent === 'Total balance');
    const headline = label?.nextElementSibling?.textContent ?? '';
    const table = document.querySelector('table[aria-labelledby="assets-heading"]');
    const rows = [...(table?.querySelectorAll('tbody tr') ?? [])].map(
      (tr) => tr.querySelectorAll('td')[2]?.textContent ?? '',
    );
    const footer = table?.querySelector('tfoot td:nth-child(3)')?.textContent ?? '';
    return { headline, rows, footer };
  });
  expect(figures.rows.length).toBeGreaterThan(0);
  const sum = figures.rows.reduce((total, row) => total + cents(row), 0);
  expect(cents(figures.headline)).toBe(sum);
  expect(cents(figures.footer)).toBe(sum);
  expect(sum).toBeGreaterThan(0);
  await expect(page.getByText('Sum of the assets below')).toBeVisible();
  // Other journeys move Treasury's money meanwhile, so the card is checked for a figure, not this one.
  expect(cents(cardTotal)).toBeGreaterThan(0);
  await expectAccessible(page);
  await context.close();
});
