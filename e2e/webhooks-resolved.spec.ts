// A failed webhook delivery that support resends, and the service then delivers, is resolved: it leaves the
// Failed filter, shows under Resolved with both sends and every attempt, and the resend says what happened.
import type { APIRequestContext, Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { type SandboxWallet, sandboxWallet } from './helpers/sandbox';
import { waitForHydration } from './helpers/transactions';

interface LogEntry {
  id: string;
  event: string;
  status: string;
  attempts: number;
  createdAt: string;
  payload: { id: string };
}

/** The wallet's whole webhook log as the service reports it (#22), newest first. */
async function webhookLog(request: APIRequestContext, wallet: SandboxWallet): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  for (let page = 1; page <= 50; page++) {
    const res = await request.get(`/sandbox/v1/wallets/${wallet.id}/webhooks?page=${page}&limit=100`, {
      headers: { 'x-api-key': wallet.apiKey },
      maxRetries: 2,
    });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as { data: LogEntry[]; meta: { totalPages: number } };
    entries.push(...body.data);
    if (page >= body.meta.totalPages || body.data.length === 0) break;
  }
  return entries;
}

/** One transaction's log entries (#23), oldest first. */
async function transactionLog(
  request: APIRequestContext,
  wallet: SandboxWallet,
  transactionId: string,
): Promise<LogEntry[]> {
  const res = await request.get(`/sandbox/v1/wallets/${wallet.id}/transactions/${transactionId}/webhooks`, {
    headers: { 'x-api-key': wallet.apiKey },
    // A read: sent again should a kept-alive connection be reset under it.
    maxRetries: 2,
  });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: LogEntry[] }).data;
}

/**
 * A delivery that failed and was never resent. The sandbox fails deliveries only when the receiver refuses,
 * and the console's receiver accepts every signed webhook of a connected wallet, so (like webhooks.spec.ts)
 * this uses the failed deliveries the sandbox seeds (HTTP 502). It picks one at random away from the newest,
 * which other journeys take, so no other spec touches it.
 */
async function untouchedFailedDelivery(request: APIRequestContext, wallet: SandboxWallet) {
  const groups = new Map<string, LogEntry[]>();
  for (const entry of await webhookLog(request, wallet)) {
    const key = `${entry.payload.id}:${entry.event}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  const failed = [...groups.values()].filter(
    (entries) => entries.length === 1 && entries[0]!.status === 'failed',
  );
  const candidates = failed.slice(3);
  expect(candidates.length, 'the seed has failed deliveries to choose from').toBeGreaterThan(0);
  return candidates[Math.floor(Math.random() * candidates.length)]![0]!;
}

const deliveriesTable = (page: Page) => page.getByRole('table', { name: 'Webhook deliveries' });
const deliveryRow = (page: Page, transactionId: string) =>
  deliveriesTable(page).getByRole('row', { name: new RegExp(`transaction ${transactionId.slice(0, 8)}`) });

test('a failed delivery resent and delivered leaves the Failed filter and reads as resolved', async ({
  browser,
}) => {
  const wallet = sandboxWallet('Treasury');
  const { page, context } = await contextAs(browser, 'support');
  const target = await untouchedFailedDelivery(page.request, wallet);
  const transactionId = target.payload.id;

  await page.goto(`/wallets/${wallet.id}/webhooks?status=failed&limit=100`);
  await expect(page.getByLabel('Delivery status')).toHaveValue('failed');
  await waitForHydration(page);
  const row = deliveryRow(page, transactionId);
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Failed');
  await expect(row).toContainText(`${target.attempts} attempts`);

  // Before the resend: one send, every attempt listed, and when it was first sent and last tried.
  await row.click();
  const detail = page.getByRole('dialog', { name: `Delivery of ${target.event}` });
  await expect(detail).toBeVisible();
  const history = detail.getByRole('region', { name: 'Attempt history' });
  await expect(history.getByText(/^First send, logged/)).toBeVisible();
  await expect(history.getByText(/^Attempt \d+$/)).toHaveCount(target.attempts);
  await expect(history.getByText('HTTP 502: Bad Gateway')).toBeVisible();
  await expect(detail.getByRole('term').filter({ hasText: 'First sent' })).toBeVisible();
  await expect(detail.getByRole('term').filter({ hasText: 'Last attempt' })).toBeVisible();
  await expectAccessible(page);

  await detail.getByRole('button', { name: 'Resend webhook' }).click();
  const confirm = page.getByRole('dialog', { name: 'Resend this webhook?' });
  await confirm.getByRole('button', { name: 'Resend', exact: true }).click();
  // The result says what happened, not the service's "Transaction fetched successfully".
  await expect(
    page.getByText(`Webhook sent again for transaction ${transactionId}; the service logged a new delivery.`),
  ).toBeVisible();
  await expect(page.getByText('Transaction fetched successfully')).toHaveCount(0);
  await expect(confirm).toBeHidden();
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  // The service logs the resend as a new entry and delivers it to the console's receiver.
  await expect
    .poll(
      async () =>
        (await transactionLog(page.request, wallet, transactionId))
          .filter((e) => e.event === target.event)
          .map((e) => e.status),
      { timeout: 30_000 },
    )
    .toEqual(['failed', 'success']);

  // Failed lists only what still needs someone: this delivery is gone from it (the original entry is
  // still failed in the service's log). A fresh load reads the log as it is now.
  await expect(async () => {
    await page.reload();
    await expect(deliveriesTable(page)).toBeVisible({ timeout: 5_000 });
    await expect(deliveryRow(page, transactionId)).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByLabel('Delivery status')).toHaveValue('failed');

  // Under Resolved (and Delivered) it reads as delivered after a failure, with both sends.
  // The live badge can hydrate before the table streamed below it: choose again until the table takes it.
  await waitForHydration(page);
  await expect(async () => {
    await page.getByLabel('Delivery status').selectOption('resolved');
    await expect(page).toHaveURL(/status=resolved/, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const resolved = deliveryRow(page, transactionId);
  await expect(resolved).toHaveCount(1);
  await expect(resolved).toContainText('Delivered');
  await expect(resolved).toContainText('Resolved');
  await expect(resolved).toContainText(/attempts in 2 sends/);
  await expectAccessible(page);

  await resolved.click();
  const after = page.getByRole('dialog', { name: `Delivery of ${target.event}` });
  await expect(after).toBeVisible();
  const afterHistory = after.getByRole('region', { name: 'Attempt history' });
  await expect(afterHistory.getByText(/^First send, logged/)).toBeVisible();
  await expect(afterHistory.getByText(/^Resend 1, logged/)).toBeVisible();
  await expect(afterHistory.getByText('HTTP 502: Bad Gateway')).toBeVisible();
  // The original send's attempts plus at least one of the resend (more if the receiver refused one).
  await expect.poll(() => afterHistory.getByText(/^Attempt \d+$/).count()).toBeGreaterThan(target.attempts);
  // First sent is the original send; Last attempt is the resend's delivery, so they differ.
  const termValue = (term: string) =>
    after.getByRole('term').filter({ hasText: term }).locator('xpath=following-sibling::dd[1]').textContent();
  const firstSent = await termValue('First sent');
  const lastAttempt = await termValue('Last attempt');
  expect(firstSent).toMatch(/\d{4}/);
  expect(firstSent).not.toBe(lastAttempt);
  await page.keyboard.press('Escape');
  await expect(after).toBeHidden();

  await page.getByLabel('Delivery status').selectOption('success');
  await expect(page).toHaveURL(/status=success/);
  await expect(deliveryRow(page, transactionId)).toHaveCount(1);
  await context.close();
});
