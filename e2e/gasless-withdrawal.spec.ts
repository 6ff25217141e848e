// A child address with gasless withdrawals on holds a token and none of the chain's coin: it withdraws the token
// while the master wallet pays the network fee, as the review says before anyone approves and the transaction
// says once it settled.
import type { Locator, Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { bookEntry } from './helpers/address-book';
import { sandboxCall } from './helpers/sandbox';
import { fillRecipientAddress, treasuryWallet } from './helpers/withdraw-approval';

/** The value a list of facts gives for `label` (a `dt` followed by its `dd`): the whole term, or its start. */
function fact(scope: Page | Locator, label: string | RegExp) {
  return scope
    .getByRole('term')
    .filter({ hasText: typeof label === 'string' ? new RegExp(`^${label}$`) : label })
    .locator('xpath=following-sibling::dd[1]');
}

test('a gasless child address withdraws USDC it holds without any ETH; the master wallet pays the fee, as the review and the transaction say', async ({
  browser,
  request,
}) => {
  // Two people, an address made and funded, a withdrawal approved and settled: longer than most journeys.
  test.setTimeout(240_000);
  const wallet = treasuryWallet();
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  const stamp = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const name = `Gasless customer ${stamp}`;

  // 1. Finance, who may create deposit addresses, makes one that keeps its deposits and withdraws gasless.
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}/addresses/new`,
  );
  const form = finance.getByRole('form', { name: 'New deposit address' });
  await form.getByLabel('Name').fill(name);
  await form.getByRole('checkbox', { name: /^Disable auto-sweep/ }).check();
  await form.getByRole('checkbox', { name: /^Enable gasless withdraw/ }).check();
  await form.getByRole('button', { name: 'Create deposit address' }).click();
  const created = finance.getByRole('alert').filter({ hasText: 'Deposit address created' });
  await expect(created).toContainText(name);
  await expectAccessible(finance);
  const childAddress = (await created.locator('.font-mono').first().textContent())?.trim() ?? '';
  expect(childAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);

  // 2. On its page: gasless withdrawals on, and a deposit of a unique amount of USDC that settles there.
  await created.getByRole('link', { name: 'Open the address' }).click();
  await expect(finance.getByRole('heading', { name, level: 2 })).toBeVisible();
  const addressId = /\/addresses\/([0-9a-f-]{36})$/.exec(new URL(finance.url()).pathname)?.[1] ?? '';
  expect(addressId, finance.url()).not.toBe('');
  await expect(finance.getByRole('status', { name: /Live updates/ })).toHaveText('Live');
  await expect(fact(finance, /^Gasless withdrawals/)).toHaveText('On');
  await expect(fact(finance, /^Auto-sweep/)).toHaveText('Off');

  const deposited = `${5 + Math.floor(Math.random() * 40)}.${Math.floor(100 + Math.random() * 899)}7`;
  const deposit = finance.getByRole('form', { name: 'Simulate a deposit' });
  await deposit.getByLabel('Asset').selectOption({ label: usdc.symbol });
  await deposit.getByLabel('Amount').fill(deposited);
  await deposit.getByRole('button', { name: 'Simulate deposit' }).click();
  await expect(finance.getByRole('region', { name: 'Deposit progress' }).getByRole('status')).toHaveText(
    `Deposit of ${deposited} USDC: settled`,
    { timeout: 60_000 },
  );
  await expectAccessible(finance);

  // 3. Finance asks to pay part of it from that address to an address book entry.
  const withdrawn = '1.25';
  const recipient = bookEntry(wallet, 'Tyrell Leasing');
  await finance.goto(`/wallets/${wallet.id}/withdraw`);
  await expect(finance.getByRole('heading', { name: 'Withdraw' })).toBeVisible();
  const source = finance.getByLabel('From', { exact: true });
  await source.selectOption({ label: name });
  await expect(source).toHaveValue(addressId);
  const asset = finance.getByLabel('Recipient 1 asset');
  await asset.selectOption(usdc.id);
  // The form reads the address's own balance: the deposit, all of it.
  await expect(asset).toHaveAccessibleDescription(
    new RegExp(`^Balance ${deposited.replace('.', '\\.')} USDC`),
  );
  await fillRecipientAddress(finance, recipient.address);
  await finance.getByLabel('Recipient 1 amount').fill(withdrawn);
  await finance.getByRole('button', { name: 'Review request' }).click();

  const review = finance.getByRole('region', { name: 'Review' });
  await expect(review).toBeVisible();
  await expect(fact(review, 'From')).toContainText(name);
  await expect(fact(review, 'From')).toContainText(childAddress);
  await expect(fact(review, 'Network fee estimate')).toHaveText(/^\d+(\.\d+)? ETH \(\$\d+\.\d{2}\)$/);
  await expect(fact(review, 'Network fee paid by')).toHaveText(
    'Master wallet (gasless withdrawals are on for this address)',
  );
  // The address holds no ETH and is not asked for any.
  await expect(fact(review, 'ETH balance now → after')).toHaveText('0 → 0 ETH');
  await expect(review.getByText(/Not enough ETH/)).toHaveCount(0);
  await expect(review.getByText(recipient.name, { exact: true })).toBeVisible();
  await expectAccessible(finance);
  await finance.getByRole('button', { name: 'Create request' }).click();
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const requestId = finance.url().split('/').pop()!;
  await expect(finance.getByText('Request status: Pending approval')).toBeVisible();
  await expect(fact(finance, 'Network fee paid by')).toHaveText(
    'Master wallet (gasless withdrawals are on for this address)',
  );
  await expectAccessible(finance);

  // 4. Another person approves; the withdrawal settles.
  const { page: approver, context: approverContext } = await contextAs(
    browser,
    'finance2',
    `/approvals/${requestId}`,
  );
  await expect(fact(approver, 'Network fee paid by')).toHaveText(
    'Master wallet (gasless withdrawals are on for this address)',
  );
  await expectAccessible(approver);
  await approveOnPage(approver);
  await expect(approver.getByText('Request status: Success')).toBeVisible({ timeout: 60_000 });
  await expect(
    approver.getByRole('table', { name: 'Submitted transactions' }).getByText('SUCCESS'),
  ).toHaveCount(1);
  await expectAccessible(approver);
  await approverContext.close();

  // The requester's open page follows; its transaction's details name the master wallet as the fee's payer.
  await expect(finance.getByText('Request status: Success')).toBeVisible({ timeout: 60_000 });
  // The transaction's link (shortened id), not its hash's link to the explorer.
  await finance
    .getByRole('table', { name: 'Submitted transactions' })
    .getByRole('link', { name: /^[0-9a-f]{6}…[0-9a-f]{6}$/ })
    .click();
  const drawer = finance.getByRole('dialog', { name: `Withdraw of ${withdrawn} USDC` });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText('SUCCESS', { exact: true })).toBeVisible();
  await expect(fact(drawer, 'From')).toContainText(childAddress);
  const paidBy = fact(drawer, 'Gas fee paid by');
  await expect(paidBy).toContainText('Master wallet (gasless withdrawal)');
  await expect(paidBy).toContainText(new RegExp(wallet.address, 'i'));
  await expect(fact(drawer, 'Gas fee')).toHaveText(/^\d+(\.\d+)? ETH$/i);
  await expectAccessible(finance);

  // The service agrees: sent from the child address, its fee paid by the master wallet.
  const transactionId = new URL(finance.url()).searchParams.get('open') ?? '';
  const read = await sandboxCall<{
    status: string;
    senderAddress: string;
    feeMetadata: { feePaidBy: string; feePayerAddress: string } | null;
  }>(request, wallet, 'GET', `/v1/wallets/${wallet.id}/transactions/${transactionId}`);
  expect(read.json.data).toMatchObject({
    status: 'SUCCESS',
    senderAddress: childAddress,
    feeMetadata: { feePaidBy: 'MASTER_WALLET', feePayerAddress: wallet.address },
  });
  await financeContext.close();
});
