import type { Request } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { captureAction, replayAction } from './helpers/actions';
import { bookEntry, employee } from './helpers/address-book';
import { fillRecipientAddress, treasuryWallet } from './helpers/withdraw-approval';

const wallet = treasuryWallet();
const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;

/** A withdraw or preview call of the form (its argument carries the rows), not a balances read. */
function isWithdrawalCall(request: Request): boolean {
  return (
    request.method() === 'POST' &&
    Boolean(request.headers()['next-action']) &&
    (request.postData() ?? '').includes('"rows"')
  );
}

test('an amount above the source balance is stopped at the field and refused when the action is replayed', async ({
  browser,
}) => {
  const { page, context } = await contextAs(browser, 'finance', `/wallets/${wallet.id}/withdraw`);
  await expect(page.getByRole('heading', { name: 'Withdraw' })).toBeVisible();
  // An address book entry past its cooling-off: the destination policy refuses any other recipient.
  const typed = bookEntry(wallet, 'Cyberdyne Hardware').address;
  await fillRecipientAddress(page, typed);
  await page.getByLabel('Recipient 1 asset').selectOption(usdc.id);

  // The master wallet's USDC balance as the form shows it beside the asset.
  const asset = page.getByLabel('Recipient 1 asset');
  await expect(asset).toHaveAccessibleDescription(/^Balance [\d,]+(\.\d+)? USDC/);
  const description = await asset.evaluate(
    (el) => document.getElementById(el.getAttribute('aria-describedby') ?? '')?.textContent ?? '',
  );
  const balance = Number(/^Balance ([\d,]+(?:\.\d+)?) USDC/.exec(description)![1]!.replace(/,/g, ''));
  // Far above the balance, whatever other journeys pay in or out of this wallet meanwhile.
  const above = String(Math.floor(balance) * 2 + 1_000_000);

  const amount = page.getByLabel('Recipient 1 amount');
  const review = page.getByRole('button', { name: 'Review request' });
  await amount.fill(above);
  await expect(amount).toHaveAccessibleDescription(/^Above the source's balance of [\d,]+(\.\d+)? USDC\.$/);
  await expect(review).toBeDisabled();
  await expect(review).toHaveAccessibleDescription(/Recipient 1: Above the source's balance of/);
  await expectAccessible(page);

  // More decimals than USDC has is stopped the same way.
  await amount.fill('1.1234567');
  await expect(amount).toHaveAccessibleDescription(
    'USDC has 6 decimals: use at most 6 digits after the dot.',
  );
  await expect(review).toBeDisabled();
  await expect(review).toHaveAccessibleDescription(/Recipient 1: USDC has 6 decimals/);

  // Within the balance the review opens: capture how the page calls the preview and the create actions.
  await amount.fill('0.5');
  await expect(review).toBeEnabled();
  const previewed = page.waitForRequest(isWithdrawalCall);
  await review.click();
  const previewRequest = await previewed;
  await expect(page.getByRole('heading', { name: 'Review' })).toBeVisible();
  let createRequest: Request | undefined;
  // The create call is captured and not let through: this journey makes no request.
  await page.route(`**/wallets/${wallet.id}/withdraw`, async (route) => {
    if (isWithdrawalCall(route.request())) {
      createRequest = route.request();
      await route.abort();
    } else await route.continue();
  });
  await page.getByRole('button', { name: 'Create request' }).click();
  await expect.poll(() => createRequest !== undefined).toBe(true);

  // The same values the page sent, with the amount above the balance, straight to each action.
  const [values] = JSON.parse(previewRequest.postData()!) as [
    { walletId: string; source: string; rows: Array<{ amount: string; assetId: string }> },
  ];
  expect(values.walletId).toBe(wallet.id);
  expect(values.source).toBe('master');
  expect(values.rows[0]!.assetId).toBe(usdc.id);
  const replayed = { ...values, rows: [{ ...values.rows[0]!, amount: above }] };
  for (const request of [previewRequest, createRequest!]) {
    const answer = await replayAction(page, captureAction(request), `/wallets/${wallet.id}/withdraw`, [
      replayed,
    ]);
    expect(answer).toContain('rows.0.amount');
    expect(answer).toContain("Above the source's balance of");
    expect(answer).toContain('"ok":false');
  }
  await context.close();
});

test('a request holds at most 20 recipients and the form says so', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'finance', `/wallets/${wallet.id}/withdraw`);
  await expect(page.getByRole('heading', { name: 'Withdraw' })).toBeVisible();
  const lines = Array.from({ length: 20 }, (_, i) => `${employee(wallet, i + 1).address},0.01,USDC`);
  const csv = ['address,amount,asset', ...lines].join('\n');
  // The page has hydrated (contextAs waits for it): one import, whose check loads on first use and may take a
  // while on a busy machine. Importing again would add nothing, so it is never retried.
  await page.getByLabel('Paste CSV').fill(csv);
  await page.getByRole('button', { name: 'Import pasted CSV' }).click();
  await expect(page.getByText('Imported 20 rows.')).toBeVisible();
  await expect(page.getByLabel('Recipient 20 address')).toBeVisible();
  const add = page.getByRole('button', { name: 'Add recipient' });
  await expect(add).toBeDisabled();
  await expect(add).toHaveAccessibleDescription('At most 20 recipients per request.');

  // One more line is left out of the import, with the reason.
  await page.getByLabel('Paste CSV').fill(`${employee(wallet, 21).address},0.01,USDC`);
  await page.getByRole('button', { name: 'Import pasted CSV' }).click();
  await expect(
    page.getByText('Imported 0 rows. 1 left out: at most 20 recipients per request.'),
  ).toBeVisible();
  await expect(page.getByLabel('Recipient 21 address')).toHaveCount(0);
  await expectAccessible(page);
  await context.close();
});
