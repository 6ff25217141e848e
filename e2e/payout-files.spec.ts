import type { Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { employee } from './helpers/address-book';
import { randomAddress, sandboxCall } from './helpers/sandbox';
import { treasuryWallet } from './helpers/withdraw-approval';

const wallet = treasuryWallet();

/** Chooses a file once the form has hydrated (the check button enables only then). */
async function chooseFile(page: Page, name: string, text: string) {
  const input = page.getByLabel('Payout file (CSV or XLSX)');
  await expect(async () => {
    await input.setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
    await expect(page.getByRole('button', { name: 'Check file' })).toBeEnabled({ timeout: 2_000 });
  }).toPass();
}

test('a 45-row payout file becomes one request of three batches; after a second person approves, the sandbox holds 45 withdrawals', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}`,
  );
  await finance
    .getByRole('navigation', { name: 'Wallet sections' })
    .getByRole('link', { name: 'Payouts' })
    .click();
  await expect(finance).toHaveURL(new RegExp(`/wallets/${wallet.id}/payouts$`));
  await expect(finance.getByRole('heading', { name: 'Payouts', exact: true })).toBeVisible();
  await expectAccessible(finance);

  // A file with problems: each row's problems are shown beside it, and nothing is created. Money goes only to
  // address book entries past their cooling-off: a never-seen address is one of the problems.
  const run = Date.now().toString(36);
  const stranger = randomAddress();
  await chooseFile(
    finance,
    'broken.csv',
    `address,amount,asset,reference\n${employee(wallet, 46).address},1,USDC,${run}-x1\n0xnot-an-address,1,USDC,${run}-x2\n${employee(wallet, 47).address},0.0000001,USDC,${run}-x3\n${stranger},1,USDC,${run}-x4\n`,
  );
  await finance.getByRole('button', { name: 'Check file' }).click();
  const problems = finance.getByRole('table', { name: 'Rows with problems' });
  await expect(problems.getByRole('row')).toHaveCount(4);
  await expect(problems.getByRole('row').filter({ hasText: '0xnot-an-address' })).toBeVisible();
  await expect(problems.getByRole('row').filter({ hasText: stranger })).toContainText(
    /is not in this wallet's address book: money goes only to address book entries past their cooling-off/,
  );
  await expect(finance.getByText('3 of 4 rows have problems')).toBeVisible();
  await expectAccessible(finance);

  // The real file: 45 payments of 0.01 USDC to the demo payroll's entries, each with its own reference.
  const references = Array.from({ length: 45 }, (_, i) => `${run}-pay-${i + 1}`);
  const csv = `address,amount,asset,reference,label\n${references
    .map((reference, i) => `${employee(wallet, i + 1).address},0.01,USDC,${reference},Employee ${i + 1}`)
    .join('\n')}\n`;
  await chooseFile(finance, 'payroll.csv', csv);
  await expect(problems).toHaveCount(0);
  await finance.getByRole('button', { name: 'Check file' }).click();
  const review = finance.getByRole('region', { name: 'Review' });
  await expect(review).toBeVisible();
  await expect(review.getByText('45 payments in 3 batches (20, 20, 5)')).toBeVisible();
  await expect(review.getByRole('list', { name: 'Totals per asset' })).toHaveText('0.45 USDC (45 payments)');
  await expect(review.getByText('Network fee estimate')).toBeVisible();
  await expect(review.getByRole('table', { name: 'Payments' }).getByRole('row')).toHaveCount(46);
  await expectAccessible(finance);
  await finance.getByRole('button', { name: 'Create payout request' }).click();
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const requestId = finance.url().split('/').pop()!;
  await expect(finance.getByText('Request status: Pending approval')).toBeVisible();
  // Never approved by the requester.
  await expect(finance.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectAccessible(finance);

  const { page: approver, context: approverContext } = await contextAs(
    browser,
    'finance2',
    `/approvals/${requestId}`,
  );
  await expect(approver.getByText('45 payments in 3 batches (20, 20, 5)')).toBeVisible();
  await expectAccessible(approver);
  await approveOnPage(approver);
  const batches = approver.getByRole('table', { name: 'Batches' });
  // Three batches of calls and their answers, then 45 settlements: allow a loaded machine its time. Once every
  // payment of a batch has settled, the batch says so (not "Submitted" for ever).
  await expect(approver.getByText('Request status: Success')).toBeVisible({ timeout: 90_000 });
  await expect(batches.getByText('Settled', { exact: true })).toHaveCount(3);
  await expect(batches.getByText('Submitted', { exact: true })).toHaveCount(0);
  await expectAccessible(approver);

  // At the sandbox: exactly one withdrawal per reference of the file, 45 in all.
  let found = 0;
  for (const reference of references) {
    const { status, json } = await sandboxCall<Array<{ type: string; reference: string }>>(
      request,
      wallet,
      'GET',
      `/v1/wallets/${wallet.id}/transactions?reference=${encodeURIComponent(reference)}`,
    );
    expect(status).toBe(200);
    expect(json.data, reference).toHaveLength(1);
    expect(json.data[0]).toMatchObject({ type: 'WITHDRAW', reference });
    found += json.data.length;
  }
  expect(found).toBe(45);
  await financeContext.close();
  await approverContext.close();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the payout form, its problems and its review fit a 390 px screen', async ({ browser }) => {
    const { page, context } = await contextAs(browser, 'finance', `/wallets/${wallet.id}/payouts`);
    await expect(page.getByRole('heading', { name: 'Payouts', exact: true })).toBeVisible();
    const fits = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await fits();
    await expectAccessible(page);
    await chooseFile(
      page,
      'phone.csv',
      `address,amount,asset,label\n${employee(wallet, 48).address},0.01,USDC,A rather long label for a narrow screen\n0x1234,0.01,USDC,\n`,
    );
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(page.getByRole('table', { name: 'Rows with problems' }).getByRole('row')).toHaveCount(2);
    await fits();
    await expectAccessible(page);
    await chooseFile(
      page,
      'phone.csv',
      `address,amount,asset\n${employee(wallet, 49).address},0.01,USDC\n${employee(wallet, 50).address},0.02,USDC\n`,
    );
    await page.getByRole('button', { name: 'Check file' }).click();
    await expect(page.getByRole('region', { name: 'Review' })).toBeVisible();
    await fits();
    await expectAccessible(page);
    await context.close();
  });
});
