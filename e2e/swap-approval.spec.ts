import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { sandboxWallet } from './helpers/sandbox';
import { expectNoTabs, nextActionRequest, replayAction } from './helpers/swaps-signing';

const wallet = sandboxWallet(/^Payouts/);
const float = wallet.addresses.find((a) => a.name === 'Operating float 3')!;
const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
const usdt = wallet.assets.find((a) => a.symbol === 'USDT')!;

test('finance requests a swap, finance2 approves, the swap settles with its rate and amount', async ({
  browser,
}) => {
  // Two roles through request, approval and settlement, then two more through the refusals: a long journey.
  test.setTimeout(240_000);
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}`,
  );
  await finance
    .getByRole('navigation', { name: 'Wallet sections' })
    .getByRole('link', { name: 'Swaps' })
    .click();
  await expect(finance).toHaveURL(new RegExp(`/wallets/${wallet.id}/swaps$`));
  await expect(finance.getByRole('heading', { name: 'Swap' })).toBeVisible();
  await expectAccessible(finance);

  // The balance hint appears only once the form is hydrated and has read the address's balances.
  await expect(async () => {
    await finance.getByLabel('From child address').selectOption(float.id);
    await finance.getByLabel('From asset').selectOption(usdc.id);
    await expect(finance.getByText(/^Balance: .* USDC( \(≈ \$[\d,.]+\))?$/)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });

  // Bad input is refused at the field as it is typed, and the review waits until it is fixed.
  const amountField = finance.getByLabel('Amount', { exact: true });
  const reviewSwap = finance.getByRole('button', { name: 'Review swap' });
  await amountField.fill('1.1234567');
  await expect(amountField).toHaveAccessibleDescription(
    'USDC has 6 decimals: use at most 6 digits after the dot.',
  );
  await expect(reviewSwap).toBeDisabled();
  await amountField.fill('100000000');
  await expect(amountField).toHaveAccessibleDescription(/above the address's balance/);
  await expect(reviewSwap).toHaveAccessibleDescription(/above the address's balance/);
  await expect(reviewSwap).toBeDisabled();
  await expect(finance.getByText('Choose the asset to receive.')).toHaveCount(0);

  // No trailing zero: the amount reads back exactly as typed.
  const amount = `1.${String(Math.floor(Math.random() * 9000 + 1000)).replace(/0/g, '7')}`;
  await finance.getByLabel('Amount', { exact: true }).fill(amount);
  await finance.getByLabel('To asset').selectOption(usdt.id);
  await finance.getByLabel(/NO_SLIPPAGE/).check();
  await finance.getByLabel('Metadata (optional JSON object)').fill('{"desk": "e2e"}');
  await finance.getByRole('button', { name: 'Review swap' }).click();
  const review = finance.getByRole('region', { name: 'Review' });
  await expect(review).toBeVisible();
  await expect(review.getByText('1 USDC ≈ 1 USDT (expected)')).toBeVisible();
  // The service's own quote beside the expected figures: NO_SLIPPAGE gives all of it, with no slippage.
  await expect(
    review.getByText(`1 USDC = 1 USDT: ${amount} USDT, at least ${amount} USDT (slippage 0 %)`),
  ).toBeVisible();
  await expect(review.getByText('Quote valid until')).toBeVisible();
  await expect(review.getByText(/^Network fee \(quoted\)$/)).toBeVisible();
  await expect(review.getByText(/Only routes that deliver the exact quoted amount/)).toBeVisible();
  await expectAccessible(finance);
  const created = nextActionRequest(finance);
  await finance.getByRole('button', { name: 'Create swap request' }).click();
  const createAction = await created;
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const requestId = finance.url().split('/').pop()!;
  await expect(finance.getByText('Request status: Pending approval')).toBeVisible();
  await expect(finance.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectAccessible(finance);

  const { page: approver, context: approverContext } = await contextAs(browser, 'finance2', '/approvals');
  await expectAccessible(approver);
  await approver.goto(`/approvals/${requestId}`);
  await expect(
    approver.getByRole('region', { name: 'Review' }).getByText(`${amount} USDC → USDT`, { exact: false }),
  ).toBeVisible();
  await expectAccessible(approver);
  await approveOnPage(approver);
  const result = approver.getByRole('region', { name: 'Swap result' });
  await expect(result).toBeVisible();
  // NO_SLIPPAGE at 1 USDC = 1 USDT: the whole amount arrives.
  await expect(result.getByText('Rate', { exact: true })).toBeVisible();
  await expect(result.getByText(`${amount} USDT`, { exact: true })).toBeVisible();
  await expect(approver.getByText('Request status: Success')).toBeVisible();
  await expect(result.getByText('Settled')).toBeVisible();
  await expectAccessible(approver);

  // The requester's page follows to the same result.
  await expect(finance.getByText('Request status: Success')).toBeVisible();
  await expect(
    finance.getByRole('region', { name: 'Swap result' }).getByText(`${amount} USDT`, { exact: true }),
  ).toBeVisible();

  // Viewer and support: no tab, the page is forbidden, and the captured request action is refused.
  for (const role of ['viewer', 'support'] as const) {
    const { page, context } = await contextAs(browser, role);
    await expectNoTabs(page, wallet.id, ['Swaps']);
    await page.goto(`/wallets/${wallet.id}/swaps`);
    await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
    await expectAccessible(page);
    const text = await replayAction(page, createAction, `/wallets/${wallet.id}/swaps`, [
      {
        walletId: wallet.id,
        addressId: float.id,
        fromAssetId: usdc.id,
        toAssetId: usdt.id,
        amount: '1',
        order: 'RECOMMENDED',
        metadata: '',
      },
    ]);
    expect(text).toContain('You do not have permission to do this.');
    await context.close();
  }
  await financeContext.close();
  await approverContext.close();
});

test('an approval after the quote expired asks the service again and shows what changed before the swap settles', async ({
  browser,
}) => {
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}/swaps`,
  );
  await expect(async () => {
    await finance.getByLabel('From child address').selectOption(float.id);
    await finance.getByLabel('From asset').selectOption(usdc.id);
    await expect(finance.getByText(/^Balance: .* USDC( \(≈ \$[\d,.]+\))?$/)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  const amount = `2.${String(Math.floor(Math.random() * 9000 + 1000)).replace(/0/g, '3')}`;
  await finance.getByLabel('Amount', { exact: true }).fill(amount);
  await finance.getByLabel('To asset').selectOption(usdt.id);
  await finance.getByLabel(/NO_SLIPPAGE/).check();
  await finance.getByRole('button', { name: 'Review swap' }).click();
  const review = finance.getByRole('region', { name: 'Review' });
  await expect(review.getByText('Quote valid until')).toBeVisible();
  await finance.getByRole('button', { name: 'Create swap request' }).click();
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const quotedAt = Date.now();
  const requestId = finance.url().split('/').pop()!;

  const { page: approver, context: approverContext } = await contextAs(
    browser,
    'finance2',
    `/approvals/${requestId}`,
  );
  await expect(approver.getByRole('region', { name: 'Review' }).getByText('Quote valid until')).toBeVisible();
  // The e2e server's quotes hold for SANDBOX_QUOTE_TTL_MS (playwright.config.ts): approve once it has passed.
  const ttl = Number(process.env.E2E_QUOTE_TTL_MS ?? 8_000);
  await expect.poll(() => Date.now(), { timeout: ttl + 15_000 }).toBeGreaterThan(quotedAt + ttl);
  // Before approving, the approver sees what the service gives now beside the approved quote.
  const check = approver.getByRole('region', { name: 'Quote before approving' });
  await check.getByRole('button', { name: 'Check the current quote' }).click();
  await expect(check.getByRole('status')).toHaveText(
    `The service now gives ${amount} USDT (no change against the quote below). That keeps the approved minimum of ${amount} USDT.`,
  );
  await expectAccessible(approver);
  await approveOnPage(approver);
  const result = approver.getByRole('region', { name: 'Swap result' });
  await expect(result).toContainText(
    `The approved quote had expired, so the service was asked again before sending: it gave ${amount} USDT instead of ${amount} (no change), at least the approved minimum of ${amount}.`,
  );
  await expect(approver.getByText('Request status: Success')).toBeVisible();
  await expectAccessible(approver);
  await financeContext.close();
  await approverContext.close();
});
