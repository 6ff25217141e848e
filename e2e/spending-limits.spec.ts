// A spending limit of $1,000 a day on a wallet: an admin asks for it and a second admin approves; the
// withdrawal form shows what is left before an amount is typed; a $600 request fits, a second one needs the
// extra approval the rule names, and once the rule refuses instead a third is refused with the rule and the
// amount over. The limit counts USDT only, so that the other journeys paying USDC from this wallet meanwhile
// neither count against it nor fall under it.
import type { Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { bookEntry } from './helpers/address-book';
import { approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';
import { fillRecipientAddress, treasuryWallet } from './helpers/withdraw-approval';

const wallet = treasuryWallet();
const usdt = wallet.assets.find((a) => a.symbol === 'USDT')!;
const RULE = `$1,000.00 per 24 hours per wallet (${wallet.name}), USDT only`;

test.describe.configure({ mode: 'serial' });

/** Asks for a limit on the policy page (typing again if the click came before hydration). */
async function requestLimit(page: Page, onBreach: 'approvals' | 'refuse'): Promise<string> {
  const form = page.getByRole('form', { name: 'New spending limit' });
  await expect(async () => {
    await page.goto('/admin/policy');
    await form.getByLabel('Limit: wallet').selectOption(wallet.id);
    await form.getByLabel('Limit: adds up').selectOption('wallet');
    await form.getByLabel('Limit: rolling window').selectOption('24');
    await form.getByLabel('Limit: counted in').selectOption('usd');
    await form.getByLabel('Limit: amount (USD)').fill('1000');
    await form.getByLabel('Limit: only this asset (optional)').fill('USDT');
    await form.getByLabel('Limit: above it').selectOption(onBreach);
    if (onBreach === 'approvals') await form.getByLabel('Limit: more approvals').fill('1');
    await form.getByRole('button', { name: 'Request spending limit' }).click({ timeout: 2_000 });
    await expect(page.getByRole('status').filter({ hasText: 'Waiting for a second admin' })).toBeVisible({
      timeout: 5_000,
    });
  }).toPass({ timeout: 60_000 });
  return requestedChangePath(page);
}

/** Asks for the removal of the limit this journey added. */
async function requestRemoval(page: Page): Promise<string> {
  await expect(async () => {
    await page.goto('/admin/policy');
    await page.getByRole('button', { name: `Request removal of ${RULE}` }).click({ timeout: 2_000 });
    await expect(page.getByRole('status').filter({ hasText: 'Waiting for a second admin' })).toBeVisible({
      timeout: 5_000,
    });
  }).toPass({ timeout: 60_000 });
  return requestedChangePath(page);
}

async function openWithdrawForm(page: Page, amount: string) {
  await page.goto(`/wallets/${wallet.id}/withdraw`);
  await expect(page.getByRole('heading', { name: 'Withdraw' })).toBeVisible();
  // An address book entry past its cooling-off: the destination policy refuses any other recipient.
  await fillRecipientAddress(page, bookEntry(wallet, 'Nakatomi Trading').address);
  await page.getByLabel('Recipient 1 asset').selectOption(usdt.id);
  await page.getByLabel('Recipient 1 amount').fill(amount);
}

/** The remaining line of the limit on the withdrawal form. */
function remaining(page: Page) {
  return page.getByRole('listitem', { name: RULE });
}

function approvalsNeeded(page: Page) {
  return page.getByText('Approvals needed', { exact: true }).locator('xpath=following-sibling::dd');
}

test('a $1,000 daily limit: $600 fits, a second $600 needs one more approval, then a refusing limit refuses', async ({
  browser,
}) => {
  // Four changes approved by a second admin and three requests through the form: longer than most journeys.
  test.setTimeout(300_000);
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  const { page: finance, context: financeContext } = await contextAs(browser, 'finance');

  // The admin asks for the limit; it applies once the second admin approves.
  const added = await requestLimit(admin, 'approvals');
  await expectAccessible(admin);
  await admin.goto(added);
  await expect(admin.getByText(RULE, { exact: true })).toBeVisible();
  await expectAccessible(admin);
  await approveAsSecondAdmin(browser, added);
  await admin.goto('/admin/policy');
  await expect(admin.getByRole('list', { name: 'Spending limits in force' }).getByText(RULE)).toBeVisible();

  // Before an amount is typed the form shows the whole limit left: nothing counted yet.
  await finance.goto(`/wallets/${wallet.id}/withdraw`);
  await expect(remaining(finance)).toContainText(
    'Remaining $1,000.00 of $1,000.00 ($0.00 counted in the last 24 hours)',
  );
  await expect(remaining(finance)).toContainText('Above it: needs 1 more approval');
  await expectAccessible(finance);

  // $600 fits: the form says so as it is typed, and the review shows what the limit leaves (1,000 − 0 − 600).
  await openWithdrawForm(finance, '600');
  await expect(remaining(finance)).toContainText('This request: $600.00, within it.');
  await finance.getByRole('button', { name: 'Review request' }).click();
  const limits = finance.getByRole('table', { name: 'Spending limits' });
  await expect(limits).toBeVisible();
  const row = limits.getByRole('row', { name: new RegExp(RULE.replace(/[$().]/g, '\\$&')) });
  await expect(row.getByRole('cell')).toHaveText([RULE, '$0.00', '$600.00', '$400.00', 'Within the limit']);
  await expect(approvalsNeeded(finance)).toHaveText('1');
  await expectAccessible(finance);
  await finance.getByRole('button', { name: 'Create request' }).click();
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const first = finance.url();

  // What is left now: the $600 waiting for approval counts.
  await finance.goto(`/wallets/${wallet.id}/withdraw`);
  await expect(remaining(finance)).toContainText(
    'Remaining $400.00 of $1,000.00 ($600.00 counted in the last 24 hours)',
  );

  // A second $600 breaks it by $200 (1,000 − 600 − 600): flagged as typed, one more approver than the policy's.
  await openWithdrawForm(finance, '600');
  await expect(remaining(finance)).toContainText(
    'This request: $600.00, more than the $400.00 it leaves: it needs 1 more approval.',
  );
  await finance.getByRole('button', { name: 'Review request' }).click();
  await expect(row.getByRole('cell')).toHaveText([
    RULE,
    '$600.00',
    '$600.00',
    '-$200.00',
    'Over the limit: needs 1 more approval',
  ]);
  await expect(approvalsNeeded(finance)).toHaveText('2');
  await finance.getByRole('button', { name: 'Create request' }).click();
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const second = finance.url();
  await expect(finance.getByRole('table', { name: 'Spending limits' })).toBeVisible();
  await expectAccessible(finance);

  // The admin swaps the rule for one that refuses (each change approved by the second admin).
  await approveAsSecondAdmin(browser, await requestRemoval(admin));
  await approveAsSecondAdmin(browser, await requestLimit(admin, 'refuse'));
  await admin.goto('/admin/policy');
  await expect(
    admin.getByRole('list', { name: 'Spending limits in force' }).getByText('Above it: refused'),
  ).toBeVisible();

  // A third $600 is refused before review, naming the rule and the amount over (1,200 + 600 − 1,000).
  await finance.goto(`/wallets/${wallet.id}/withdraw`);
  await expect(remaining(finance)).toContainText(
    'Remaining $0.00 of $1,000.00 ($1,200.00 counted in the last 24 hours)',
  );
  await openWithdrawForm(finance, '600');
  await expect(remaining(finance)).toContainText(
    'This request: $600.00, more than the $0.00 it leaves: it would be refused.',
  );
  await finance.getByRole('button', { name: 'Review request' }).click();
  await expect(finance.getByRole('alert').filter({ hasText: 'Refused by the spending limit' })).toHaveText(
    `Refused by the spending limit ${RULE}: $1,200.00 already counted in the window, this request adds $600.00, $800.00 over the limit of $1,000.00.`,
  );
  await expect(finance.getByRole('heading', { name: 'Review' })).toHaveCount(0);
  await expectAccessible(finance);

  // Cancelled requests free their amount; the limit goes.
  for (const path of [first, second]) {
    await finance.goto(path);
    await finance.getByRole('button', { name: 'Cancel request' }).click();
    // The request's own status, not the toast: a toast can be pushed out of sight by other journeys' toasts.
    await expect(finance.getByText('Request status: Cancelled')).toBeVisible();
  }
  await finance.goto(`/wallets/${wallet.id}/withdraw`);
  await expect(remaining(finance)).toContainText('Remaining $1,000.00 of $1,000.00');
  await approveAsSecondAdmin(browser, await requestRemoval(admin));
  await finance.goto(`/wallets/${wallet.id}/withdraw`);
  await expect(remaining(finance)).toHaveCount(0);

  await adminContext.close();
  await financeContext.close();
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the limits on the policy page and the form fit the screen', async ({ browser }) => {
    test.setTimeout(240_000);
    const { page: admin, context } = await contextAs(browser, 'admin');
    const path = await requestLimit(admin, 'approvals');
    await approveAsSecondAdmin(browser, path);
    for (const url of ['/admin/policy', `/wallets/${wallet.id}/withdraw`]) {
      await admin.goto(url);
      await expect(admin.getByText(RULE).first()).toBeVisible();
      const width = await admin.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `page width of ${url}`).toBeLessThanOrEqual(390);
      await expectAccessible(admin);
    }
    await approveAsSecondAdmin(browser, await requestRemoval(admin));
    await context.close();
  });
});
