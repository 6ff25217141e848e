import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { bookEntry } from './helpers/address-book';
import { treasuryWallet } from './helpers/withdraw-approval';

const wallet = treasuryWallet();

test('finance asks for a weekly payout schedule, a second finance approves it, and it is listed with its next run', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}`,
  );
  await finance
    .getByRole('navigation', { name: 'Wallet sections' })
    .getByRole('link', { name: 'Payout schedules' })
    .click();
  await expect(finance).toHaveURL(new RegExp(`/wallets/${wallet.id}/payouts/schedules$`));
  await expect(finance.getByRole('heading', { name: 'Payout schedules', exact: true })).toBeVisible();
  await expectAccessible(finance);

  const name = `Rent ${Date.now().toString(36)}`;
  const form = finance.getByRole('form', { name: 'New payout schedule' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('How often').selectOption('weekly');
  await form.getByLabel('Day of the week').selectOption('Monday');
  await form.getByLabel('Time (UTC)').fill('09:00');
  // Two recipients pasted as CSV lines: address book entries past their cooling-off (the destination policy).
  const rent = bookEntry(wallet, 'Oscorp Office Rent').address;
  const audit = bookEntry(wallet, 'Monarch Audit').address;
  await form
    .getByLabel('Or paste CSV lines')
    .fill(`${rent},0.01,USDC,${name.replace(' ', '-')},Office rent\n${audit},0.02,USDC`);
  await form.getByRole('button', { name: 'Add pasted lines' }).click();
  await expect(form.getByRole('group', { name: /^Recipient \d$/ })).toHaveCount(2);
  await expect(form.getByText(/^Every Monday at 09:00 UTC\. Next:/)).toBeVisible();

  await form.getByRole('button', { name: 'Review schedule' }).click();
  const review = finance.getByRole('region', { name: 'Review' });
  await expect(review).toBeVisible();
  await expect(review.getByText('Every Monday at 09:00 UTC', { exact: true })).toBeVisible();
  await expect(review.getByRole('list', { name: 'Next runs' }).getByRole('listitem')).toHaveCount(3);
  await expect(review.getByRole('list', { name: 'Totals per asset' })).toHaveText('0.03 USDC (2 payments)');
  await expect(review.getByRole('table', { name: 'Payments' }).getByRole('row')).toHaveCount(3);
  await expectAccessible(finance);
  await finance.getByRole('button', { name: 'Ask for this schedule' }).click();
  const link = finance.getByRole('link', { name: 'Open the request' });
  await expect(link).toBeVisible();
  const requestPath = (await link.getAttribute('href')) ?? '';
  expect(requestPath).toMatch(/^\/approvals\/[0-9a-f-]{36}$/);

  // Until it is approved the schedules page lists it as waiting, linking to its request.
  await finance.goto(`/wallets/${wallet.id}/payouts/schedules`);
  const waiting = finance.getByRole('region', { name: 'Waiting for approval' });
  await expect(waiting.getByRole('link', { name: new RegExp(`^Payout schedule “${name}”`) })).toHaveAttribute(
    'href',
    requestPath,
  );

  // Never approved by the person who asked.
  await finance.goto(requestPath);
  await expect(finance.getByText('Request status: Pending approval')).toBeVisible();
  await expect(finance.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  const { page: approver, context: approverContext } = await contextAs(browser, 'finance2', requestPath);
  await expect(approver.getByText('Every Monday at 09:00 UTC', { exact: true })).toBeVisible();
  await expectAccessible(approver);
  await approveOnPage(approver);
  await expect(approver.getByText('Request status: Success')).toBeVisible();
  await approverContext.close();

  // Listed, active, with its next run on a Monday at 09:00 UTC; the page fits a phone.
  await finance.goto(`/wallets/${wallet.id}/payouts/schedules`);
  const row = finance
    .getByRole('table', { name: 'Payout schedules' })
    .getByRole('row')
    .filter({ hasText: name });
  await expect(row).toContainText('Every Monday at 09:00 UTC');
  await expect(row).toContainText('Active');
  await expect(row).toContainText(/\d{2} \w{3} \d{4}, 09:00:00 UTC/);
  await expect(row).toContainText('No run yet');
  // No longer waiting.
  await expect(finance.getByRole('link', { name: new RegExp(`^Payout schedule “${name}”`) })).toHaveCount(0);
  await expectAccessible(finance);
  await finance.setViewportSize({ width: 390, height: 844 });
  expect(await finance.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await financeContext.close();
});
