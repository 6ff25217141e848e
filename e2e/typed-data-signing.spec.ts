import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { bookEntry } from './helpers/address-book';
import { randomAddress, sandboxWallet } from './helpers/sandbox';
import { expectNoTabs, nextActionRequest, replayAction } from './helpers/swaps-signing';

const wallet = sandboxWallet(/^Treasury/);
const signer = wallet.addresses.find((a) => a.name === 'Operating float 2')!;

test('an admin requests a permit signature, finance approves, the signature is verified', async ({
  browser,
}) => {
  // Two roles through request, approval and signature, then two more through the refusals: a long journey.
  test.setTimeout(240_000);
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin', `/wallets/${wallet.id}`);
  await admin
    .getByRole('navigation', { name: 'Wallet sections' })
    .getByRole('link', { name: 'Signing' })
    .click();
  await expect(admin).toHaveURL(new RegExp(`/wallets/${wallet.id}/signing$`));
  await expectAccessible(admin);

  // The owner line appears only once the form is hydrated.
  await expect(async () => {
    await admin.getByLabel('Signing address').selectOption(signer.id);
    await expect(admin.getByText('(the signing address)')).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });

  // The JSON editor refuses a message that disagrees with its types, before anything is sent.
  await admin.getByLabel('Kind').selectOption('json');
  await admin
    .getByLabel('Domain (JSON)')
    .fill(JSON.stringify({ name: 'X', version: '1', chainId: 11155111, verifyingContract: randomAddress() }));
  await admin.getByLabel('Types (JSON)').fill(JSON.stringify({ Vote: [{ name: 'choice', type: 'uint8' }] }));
  await admin.getByLabel('Message (JSON)').fill(JSON.stringify({ choice: 300 }));
  await admin.getByRole('button', { name: 'Review signature' }).click();
  await expect(admin.getByText('choice is out of range for uint8.')).toBeVisible();
  await expect(admin.getByRole('region', { name: 'Review' })).toHaveCount(0);

  await admin.getByLabel('Kind').selectOption('permit');
  // A permit lets its spender take the value: under the destination policy a stranger is refused, and the
  // spender must be an address book entry past its cooling-off (a demo entry no other journey uses).
  await admin.getByLabel('Spender').fill(randomAddress());
  await admin.getByLabel('Value (token units)').fill('25');
  await admin.getByRole('button', { name: 'Review signature' }).click();
  await expect(
    admin.getByText(/The spender of the permit: 0x[0-9a-fA-F]{40} is not in this wallet's address book/),
  ).toBeVisible();
  const spender = bookEntry(wallet, 'Tyrell Leasing').address;
  await admin.getByLabel('Spender').fill(spender);
  await admin.getByLabel('Value (token units)').fill('25');
  await admin.getByRole('button', { name: 'Review signature' }).click();
  const review = admin.getByRole('region', { name: 'Review' });
  await expect(review).toBeVisible();
  await expect(review.getByText('EIP-2612 Permit')).toBeVisible();
  await expect(review.getByText(/^25(\.0+)? USD[CT]$/)).toBeVisible();
  // Priced like a withdrawal of the same tokens: the USD value counts for the threshold and the limits.
  await expect(review.getByText(/^\$2\d\.\d{2}$/)).toBeVisible();
  await expect(review.getByText('Deadline', { exact: true })).toBeVisible();
  await expectAccessible(admin);

  // An unlimited allowance is flagged in the review.
  await admin.getByRole('button', { name: 'Back to edit' }).click();
  await admin.getByLabel('Value (token units)').fill('max');
  await admin.getByRole('button', { name: 'Review signature' }).click();
  await expect(review.getByText(/Unlimited value/)).toBeVisible();
  await expect(
    review.getByText(/^The value is unlimited, so the console cannot price it; it needs \d approvals\.$/),
  ).toBeVisible();
  await admin.getByRole('button', { name: 'Back to edit' }).click();
  await admin.getByLabel('Value (token units)').fill('25');
  await admin.getByRole('button', { name: 'Review signature' }).click();
  await expect(review.getByText(/Unlimited value/)).toHaveCount(0);

  const created = nextActionRequest(admin);
  await admin.getByRole('button', { name: 'Create signature request' }).click();
  const createAction = await created;
  await expect(admin).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const requestId = admin.url().split('/').pop()!;
  await expect(admin.getByText('Request status: Pending approval')).toBeVisible();
  await expectAccessible(admin);

  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/approvals/${requestId}`,
  );
  await expect(finance.getByRole('region', { name: 'Review' }).getByText('EIP-2612 Permit')).toBeVisible();
  await expectAccessible(finance);
  await approveOnPage(finance);
  const signature = finance.getByRole('region', { name: 'Signature' });
  await expect(signature.getByText('Verified')).toBeVisible();
  const recovers = signature.getByText(/^Recovers to/);
  await expect(recovers).toBeVisible();
  expect((await recovers.textContent())?.toLowerCase()).toContain(signer.address.toLowerCase());
  for (const part of ['r', 's', 'v', 'signature'])
    await expect(signature.getByText(part, { exact: true })).toBeVisible();
  await expect(finance.getByText('Request status: Success')).toBeVisible();
  await expectAccessible(finance);

  // Viewer and support: no tab, the page is forbidden, and the captured request action is refused.
  for (const role of ['viewer', 'support'] as const) {
    const { page, context } = await contextAs(browser, role);
    await expectNoTabs(page, wallet.id, ['Signing', 'Swaps']);
    await page.goto(`/wallets/${wallet.id}/signing`);
    await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
    await expectAccessible(page);
    const text = await replayAction(page, createAction, `/wallets/${wallet.id}/signing`, [
      {
        walletId: wallet.id,
        addressId: signer.id,
        domain: { name: 'X', version: '1', chainId: 11155111, verifyingContract: spender },
        types: { Vote: [{ name: 'choice', type: 'uint8' }] },
        message: { choice: '1' },
      },
    ]);
    expect(text).toContain('You do not have permission to do this.');
    await context.close();
  }
  await adminContext.close();
  await financeContext.close();
});
