import type { APIRequestContext } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage, nextActionRequest, replayAction } from './helpers/actions';
import { bookEntry } from './helpers/address-book';
import {
  type SandboxTransaction,
  type SandboxWallet,
  sandboxCall,
  sandboxWallet,
  transactionStatus,
} from './helpers/sandbox';

const deliveries = (page: import('@playwright/test').Page) =>
  page.getByRole('table', { name: 'Webhook deliveries' }).locator('tbody tr');

test('support filters the log to failed deliveries, resends one and sees a new successful attempt', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Treasury');
  const { page, context } = await contextAs(browser, 'support', `/wallets/${wallet.id}/webhooks`);
  await expect(page.getByRole('heading', { name: 'Webhook deliveries' })).toBeVisible();
  await expect(deliveries(page).first()).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Delivery status').selectOption('failed');
  await expect(page).toHaveURL(/status=failed/);
  await expect(deliveries(page).first()).toContainText('Failed');
  await expect(deliveries(page).filter({ hasText: 'Delivered' })).toHaveCount(0);

  // The filter lives in the URL: a reload keeps it.
  await page.reload();
  await expect(page.getByLabel('Delivery status')).toHaveValue('failed');
  const row = deliveries(page).first();
  const transactionId = await row.locator('[title]').first().getAttribute('title');
  expect(transactionId).toMatch(/^[0-9a-f-]{36}$/);
  const short = transactionId!.slice(0, 8);

  await row.click();
  const detail = page.getByRole('dialog', { name: /Delivery of/ });
  await expect(detail).toBeVisible();
  await expect(detail.getByText('HTTP 502: Bad Gateway')).toBeVisible();
  await expect(detail.getByRole('group').first()).toBeVisible();
  await expectAccessible(page);

  await detail.getByRole('button', { name: 'Resend webhook' }).click();
  const confirm = page.getByRole('dialog', { name: 'Resend this webhook?' });
  await expect(confirm).toContainText('/api/webhooks/custody');
  await confirm.getByRole('button', { name: 'Resend', exact: true }).click();
  await expect(page.getByText('Webhook resent')).toBeVisible();
  await expect(confirm).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  await page.getByLabel('Delivery status').selectOption('success');
  await expect(page).toHaveURL(/status=success/);
  // The service logs the new delivery once it has been made: read the log again until it shows.
  await expect(async () => {
    await page.reload();
    await expect(
      deliveries(page).filter({ hasText: short }).filter({ hasText: 'Delivered' }).first(),
    ).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expectAccessible(page);

  // The endpoint's health counts the resend's delivered try in the last hour, and each share adds up.
  const health = page.getByRole('region', { name: 'Endpoint health' });
  for (const window of ['health-last-hour', 'health-last-day']) {
    const { percent, delivered, total } = shareOf((await health.getByTestId(window).textContent()) ?? '');
    expect(delivered).toBeGreaterThanOrEqual(1);
    expect(percent).toBe(Math.floor((delivered / total) * 1000) / 10);
  }
  await context.close();
});

/** "97.5% delivered (39 of 40 tries)" read back into its parts. */
function shareOf(text: string) {
  const match = /^(\d+(?:\.\d)?)% delivered \((\d+) of (\d+) tr(?:y|ies)\)$/.exec(text.trim());
  expect(match, `a share with its counts: ${text}`).not.toBeNull();
  return { percent: Number(match![1]), delivered: Number(match![2]), total: Number(match![3]) };
}

test('support previews a resend of every failed delivery since a time, and a time ahead is refused at the field', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Payouts');
  const { page, context } = await contextAs(browser, 'support', `/wallets/${wallet.id}/webhooks`);
  await expect(deliveries(page).first()).toBeVisible();
  const open = page.getByRole('button', { name: 'Resend failed since…' });
  const dialog = page.getByRole('dialog', { name: 'Resend every failed delivery since a time' });
  await expect(async () => {
    await open.click({ timeout: 2_000 });
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass();
  const since = dialog.getByLabel('Failed since');
  // From long ago: the seed's failed deliveries are counted by the server, and the button names the count.
  await since.fill('2000-01-01T00:00');
  const status = dialog.getByRole('status');
  await expect(status).toContainText(
    /^\d+ deliver(y|ies) failed since then and (was|were) not delivered later/,
  );
  const counted = Number(/^(\d+)/.exec((await status.textContent()) ?? '')![1]);
  expect(counted).toBeGreaterThan(0);
  await expect(dialog.getByRole('button', { name: /^Resend \d+ deliver/ })).toBeEnabled();
  await expectAccessible(page);
  // A time ahead is refused at the field and nothing can be sent.
  await since.fill('2999-01-01T00:00');
  await expect(dialog.getByText('Choose a time in the past')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Resend', exact: true })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await context.close();
});

test('a viewer sees no resend control and a direct call of the resend action is refused', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Payouts');
  const { page: support, context: supportContext } = await contextAs(
    browser,
    'support',
    `/wallets/${wallet.id}/webhooks?status=failed`,
  );
  const first = deliveries(support).first();
  await expect(first).toContainText('Failed');
  const transactionId = await first.locator('[title]').first().getAttribute('title');
  await first.click();
  await support
    .getByRole('dialog', { name: /Delivery of/ })
    .getByRole('button', { name: 'Resend webhook' })
    .click();
  const captured = nextActionRequest(support);
  await support
    .getByRole('dialog', { name: 'Resend this webhook?' })
    .getByRole('button', { name: 'Resend', exact: true })
    .click();
  const request = await captured;
  await expect(support.getByText('Webhook resent')).toBeVisible();

  const { page: viewer, context: viewerContext } = await contextAs(
    browser,
    'viewer',
    `/wallets/${wallet.id}/webhooks?status=failed`,
  );
  await expect(deliveries(viewer).first()).toContainText('Failed');
  await expect(viewer.getByRole('button', { name: /Resend/ })).toHaveCount(0);
  await expect(viewer.getByRole('checkbox')).toHaveCount(0);
  await deliveries(viewer).first().click();
  const detail = viewer.getByRole('dialog', { name: /Delivery of/ });
  await expect(detail).toBeVisible();
  await expect(detail.getByRole('button', { name: /Resend|Retry/ })).toHaveCount(0);
  await expectAccessible(viewer);

  const text = await replayAction(viewerContext.request, request, `/wallets/${wallet.id}/webhooks`, [
    { walletId: wallet.id, transactionId },
  ]);
  expect(text).toContain('You do not have permission to do this.');
  expect(text).not.toContain('Transaction fetched successfully');
  await viewerContext.close();
  await supportContext.close();
});

/** When the service last wrote the transaction (each write moves it on). */
async function transactionUpdatedAt(request: APIRequestContext, wallet: SandboxWallet, id: string) {
  const res = await sandboxCall<{ updatedAt: string }>(
    request,
    wallet,
    'GET',
    `/v1/wallets/${wallet.id}/transactions/${id}`,
  );
  return res.json.data.updatedAt;
}

test('finance requests a retry of a FAILED transaction; it is sent only after an admin approves', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Treasury');
  const { page, context } = await contextAs(browser, 'finance');
  // A withdrawal far above the balance is accepted, then fails on chain ("Insufficient balance"). Its recipient
  // is an address book entry past its cooling-off: retrying pays it again (the destination policy).
  const recipient = bookEntry(wallet, 'Dunder Mifflin Paper');
  const created = await sandboxCall<SandboxTransaction>(
    page.request,
    wallet,
    'POST',
    `/v1/wallets/${wallet.id}/withdraw`,
    {
      assets: [
        {
          id: wallet.assets[0]!.id,
          address: recipient.address,
          amount: '987654321',
          reference: `e2e-retry-${Date.now()}`,
        },
      ],
    },
  );
  expect(created.status).toBe(200);
  const tx = created.json.data;
  await expect.poll(() => transactionStatus(page.request, wallet, tx.id), { timeout: 30_000 }).toBe('FAILED');

  await page.goto(`/wallets/${wallet.id}/webhooks?event=withdraw.failed`);
  await expect(page.getByLabel('Event')).toHaveValue('withdraw.failed');
  const row = deliveries(page).filter({ hasText: tx.id.slice(0, 8) });
  await expect(row.first()).toBeVisible();
  await row.first().click();
  const detail = page.getByRole('dialog', { name: /Delivery of withdraw.failed/ });
  await expect(detail).toBeVisible();
  // Finance may retry but not resend webhooks.
  await expect(detail.getByRole('button', { name: 'Resend webhook' })).toHaveCount(0);
  await detail.getByRole('button', { name: 'Retry transaction' }).click();
  const confirm = page.getByRole('dialog', { name: 'Retry this transaction?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Request retry' }).click();
  // The request opens; nothing went upstream yet: the transaction is still the failed one.
  await expect(page).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  expect(await transactionStatus(page.request, wallet, tx.id)).toBe('FAILED');
  const failedAt = await transactionUpdatedAt(page.request, wallet, tx.id);
  const requestUrl = page.url();
  await expect(page.getByRole('heading', { name: /^Retry withdrawal/ })).toBeVisible();
  await expect(page.getByText('You requested this: another person must approve it.')).toBeVisible();

  // Another person approves: the service retries it once.
  const admin = await contextAs(browser, 'admin', requestUrl);
  await approveOnPage(admin.page);
  await expect(admin.page.getByText(/Submitted|Failed|Success/).first()).toBeVisible();
  // The retried withdrawal fails again on chain; the request follows it to the end.
  await expect(admin.page.locator('[data-status="FAILED"]').first()).toBeVisible({ timeout: 30_000 });
  // The service ran it again: the same transaction was rewritten after the approval, and failed once more.
  expect(await transactionUpdatedAt(page.request, wallet, tx.id)).not.toBe(failedAt);
  expect(await transactionStatus(page.request, wallet, tx.id)).toBe('FAILED');
  await admin.context.close();
  await context.close();
});
