import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { bookEntry } from './helpers/address-book';
import { approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';
import { decideWithCheck } from './helpers/step-up';
import {
  type CapturedAction,
  callAction,
  captureAction,
  clickUntil,
  requestThroughForm,
  treasuryWallet,
} from './helpers/withdraw-approval';

// This file's tests run one after another so they never see each other's short expiry. The freeze holds
// every submission in the console: its test is tagged @console-wide and runs after every other journey.
test.describe.configure({ mode: 'serial' });

const wallet = treasuryWallet();
let approveAction: CapturedAction | undefined;

test('finance requests three withdrawals from a CSV; finance2 approves; it settles in the open page', async ({
  browser,
}) => {
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}/withdraw`,
  );
  await expect(finance.getByRole('heading', { name: 'Withdraw' })).toBeVisible();
  await expectAccessible(finance);

  // Address book entries past their cooling-off that no other journey pays: each payment here is the first.
  const entries = ['Acme Supplies', 'Soylent Foods', 'Wonka Catering'].map((name) => bookEntry(wallet, name));
  const recipients = entries.map((e) => e.address);
  const csv = `address,amount,asset,reference,note\n${recipients[0]},1.5,USDC,inv-1,first\n${recipients[1]},2,USDC,,\n${recipients[2]},0.25,usdc,inv-3,"rent, March"`;
  // The page has hydrated (contextAs waits for it): one import, whose check loads on first use and may take a
  // while on a busy machine. Importing again would add nothing, so it is never retried.
  await finance.getByLabel('Paste CSV').fill(csv);
  await finance.getByRole('button', { name: 'Import pasted CSV' }).click();
  await expect(finance.getByText('Imported 3 rows.')).toBeVisible();
  // Lowercase addresses are accepted and shown checksummed.
  const shown = await finance.getByLabel('Recipient 1 address').inputValue();
  expect(shown.toLowerCase()).toBe(recipients[0]);
  expect(shown).not.toBe(recipients[0]);

  await finance.getByRole('button', { name: 'Review request' }).click();
  const review = finance.getByRole('region', { name: 'Review' });
  await expect(review).toBeVisible();
  await expect(review.getByText('Network fee estimate')).toBeVisible();
  await expect(review.getByRole('table', { name: 'Recipients' }).getByRole('row')).toHaveCount(4);
  await expect(review.getByText('First payment to this address').first()).toBeVisible();
  // Each recipient is named by its address book entry; none is outside the book.
  for (const entry of entries) await expect(review.getByText(entry.name, { exact: true })).toBeVisible();
  await expect(review.getByText('Not in the address book')).toHaveCount(0);
  await expectAccessible(finance);
  await finance.getByRole('button', { name: 'Create request' }).click();
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const requestId = finance.url().split('/').pop()!;
  await expect(finance.getByText('Request status: Pending approval')).toBeVisible();
  await expect(finance.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectAccessible(finance);

  const { page: approver, context: approverContext } = await contextAs(browser, 'finance2', '/approvals');
  await expectAccessible(approver);
  await approver.getByRole('link', { name: '3 recipients: 3.75 USDC' }).click();
  await expect(approver).toHaveURL(new RegExp(`/approvals/${requestId}$`));
  await expectAccessible(approver);
  const captured = approver.waitForRequest(
    (r) => r.method() === 'POST' && Boolean(r.headers()['next-action']),
  );
  await approveOnPage(approver);
  approveAction = captureAction(await captured);

  const transactions = approver.getByRole('table', { name: 'Submitted transactions' });
  await expect(transactions.getByText('PENDING').first()).toBeVisible();
  await expect(transactions.getByText('SUCCESS')).toHaveCount(3);
  await expect(approver.getByText('Request status: Success')).toBeVisible();
  await expectAccessible(approver);

  // The requester's page, open all along, follows without a reload.
  await expect(finance.getByText('Request status: Success')).toBeVisible();
  await expect(
    finance.getByRole('table', { name: 'Submitted transactions' }).getByText('SUCCESS'),
  ).toHaveCount(3);
  const timeline = finance.getByRole('list', { name: 'Timeline' });
  for (const step of ['Requested', 'Approved', 'Submitted', 'Succeeded']) {
    await expect(timeline.getByText(step, { exact: true })).toBeVisible();
  }
  await expect(timeline.getByText('Transaction hash').first()).toBeVisible();
  await expect(timeline.getByText('Confirmations').first()).toBeVisible();
  await expect(finance.getByText('Approvals 1 of 1')).toBeVisible();
  // The list counts the same approvals as the detail, also once the request has settled.
  await finance.goto('/approvals?scope=mine');
  // Found by the request's link: other journeys add finance's requests to the same list meanwhile.
  const listed = finance
    .getByRole('row')
    .filter({ has: finance.locator(`a[href="/approvals/${requestId}"]`) });
  await expect(listed.getByRole('link')).toHaveText('3 recipients: 3.75 USDC');
  await expect(listed.first()).toContainText('1 / 1');
  await expect(listed.first()).toContainText('Success');
  await financeContext.close();
  await approverContext.close();
});

test('the requester cannot approve their own request, even by calling the action; finance2 rejects it', async ({
  browser,
}) => {
  expect(approveAction, 'captured by the previous test').toBeDefined();
  const { page: finance, context: financeContext } = await contextAs(browser, 'finance');
  const requestId = await requestThroughForm(finance, wallet.id, { amount: '0.5' });
  await expect(finance.getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // Refused as the requester's own, before any second-factor check is asked for.
  const text = await callAction(finance, approveAction!, `/approvals/${requestId}`, [{ requestId }]);
  expect(text).toContain('You cannot approve or reject your own request.');
  await finance.reload();
  await expect(finance.getByText('Request status: Pending approval')).toBeVisible();
  await expect(finance.getByText('Approvals 0 of 1')).toBeVisible();

  const { page: approver, context: approverContext } = await contextAs(
    browser,
    'finance2',
    `/approvals/${requestId}`,
  );
  const dialog = approver.getByRole('dialog');
  await clickUntil(approver.getByRole('button', { name: 'Reject' }), () =>
    expect(dialog).toBeVisible({ timeout: 2_000 }),
  );
  await dialog.getByRole('button', { name: 'Reject request' }).click();
  await expect(dialog.getByText('Give a reason of at least 3 characters.')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Wrong amount for this supplier');
  await expectAccessible(approver);
  await decideWithCheck(approver, () => dialog.getByRole('button', { name: 'Reject request' }).click());
  await expect(approver.getByText('Reason: Wrong amount for this supplier')).toBeVisible();
  await expect(approver.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectAccessible(approver);
  // The requester's open page shows the rejection without a reload.
  await expect(finance.getByText('Reason: Wrong amount for this supplier')).toBeVisible();
  await financeContext.close();
  await approverContext.close();
});

test('an expired request cannot be approved', async ({ browser }) => {
  expect(approveAction, 'captured by the first test').toBeDefined();
  // A six-second expiry for sign-only withdrawals, for one request, then the default again. Only this file
  // creates sign-only requests, and its tests run one at a time.
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  // A policy change waits for a second admin (admin2 approves it).
  const setExpiry = async (minutes: string) => {
    await admin.goto('/admin/policy');
    // The form's fields get their values when it hydrates; a value typed before that would be replaced.
    await expect(admin.getByLabel('Sign-only withdrawal: open for (minutes)')).not.toHaveValue('');
    await expect(async () => {
      await admin.getByLabel('Sign-only withdrawal: open for (minutes)').fill(minutes);
      await admin
        .getByRole('button', { name: 'Request sign-only withdrawal policy change' })
        .click({ timeout: 2_000 });
      await expect(admin.getByText('Sign-only withdrawal policy change requested.')).toBeVisible({
        timeout: 3_000,
      });
    }).toPass();
    await approveAsSecondAdmin(browser, await requestedChangePath(admin));
  };
  await setExpiry('0.1');
  await expectAccessible(admin);
  const { page: finance, context: financeContext } = await contextAs(browser, 'finance');
  let requestId: string;
  try {
    requestId = await requestThroughForm(finance, wallet.id, { amount: '0.1', kind: 'withdrawSign' });
  } finally {
    await setExpiry('1440');
  }
  await expect(finance.getByText('Request status: Expired')).toBeVisible({ timeout: 20_000 });

  const { page: approver, context: approverContext } = await contextAs(
    browser,
    'finance2',
    `/approvals/${requestId}`,
  );
  await expect(approver.getByText('Request status: Expired')).toBeVisible();
  await expect(approver.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  const text = await callAction(approver, approveAction!, `/approvals/${requestId}`, [{ requestId }]);
  expect(text).toMatch(/expired|no longer waiting for approval/);
  await expectAccessible(approver);
  await adminContext.close();
  await financeContext.close();
  await approverContext.close();
});

test('a freeze holds an approved request; lifting it submits the request @console-wide', async ({
  browser,
}) => {
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  const { page: finance, context: financeContext } = await contextAs(browser, 'finance');
  const { page: approver, context: approverContext } = await contextAs(browser, 'finance2');
  const toggleFreeze = async (button: string, confirm: string) => {
    await admin.goto('/admin/policy');
    await clickUntil(admin.getByRole('button', { name: button }), () =>
      expect(admin.getByRole('dialog')).toBeVisible({ timeout: 2_000 }),
    );
    await admin.getByRole('dialog').getByRole('button', { name: confirm }).click();
    // Freezing is immediate; lifting the freeze waits for a second admin (admin2 approves it).
    if (confirm === 'Request lift') {
      await approveAsSecondAdmin(browser, await requestedChangePath(admin));
      await admin.reload();
    }
  };
  try {
    await toggleFreeze('Freeze submissions', 'Freeze');
    await expect(admin.getByText('Submissions are frozen: nothing is sent')).toBeVisible();
    await expectAccessible(admin);

    const requestId = await requestThroughForm(finance, wallet.id, { amount: '0.75' });
    await expect(finance.getByText('Submissions are frozen: nothing is sent')).toBeVisible();
    await approver.goto(`/approvals/${requestId}`);
    await approveOnPage(approver);
    await expect(
      approver.getByText('Approved: it will be submitted when an admin lifts the freeze.'),
    ).toBeVisible();
    await expect(approver.getByRole('table', { name: 'Submitted transactions' })).toHaveCount(0);
    await expectAccessible(approver);

    await toggleFreeze('Request to lift the freeze', 'Request lift');
    await expect(admin.getByText('Submissions are frozen: nothing is sent')).toHaveCount(0);
    await expect(approver.getByRole('table', { name: 'Submitted transactions' })).toBeVisible();
    await expect(approver.getByText('Request status: Success')).toBeVisible();
  } finally {
    await admin.goto('/admin/policy');
    if (await admin.getByRole('button', { name: 'Request to lift the freeze' }).isVisible()) {
      await toggleFreeze('Request to lift the freeze', 'Request lift');
    }
    await adminContext.close();
    await financeContext.close();
    await approverContext.close();
  }
});

test('a sign-only withdrawal shows each signed transaction decoded', async ({ browser }) => {
  const { page: finance, context: financeContext } = await contextAs(browser, 'finance');
  const recipient = bookEntry(wallet, 'Vandelay Imports').address;
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  const requestId = await requestThroughForm(finance, wallet.id, {
    amount: '1.25',
    kind: 'withdrawSign',
    address: recipient,
    assetId: usdc.id,
  });
  await expect(finance.getByText('Sign only', { exact: true })).toBeVisible();

  const { page: approver, context: approverContext } = await contextAs(
    browser,
    'finance2',
    `/approvals/${requestId}`,
  );
  await approveOnPage(approver);
  const signed = approver.getByRole('article', { name: 'Signed transaction 1' });
  await expect(signed).toBeVisible();
  await expect(signed.getByText(new RegExp(`^${recipient}$`, 'i'))).toBeVisible();
  await expect(signed.getByText('Token transfer')).toBeVisible();
  await expect(signed.getByText(/^1\.25 USDC \(token 0x/)).toBeVisible();
  await expect(signed.getByText('Chain id')).toBeVisible();
  await expect(signed.getByText('Nonce')).toBeVisible();
  await expect(signed.getByRole('button', { name: 'Copy signed transaction 1' })).toBeVisible();
  await expect(approver.getByText('Request status: Success')).toBeVisible();
  await expectAccessible(approver);
  await financeContext.close();
  await approverContext.close();
});
