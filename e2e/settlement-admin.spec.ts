import type { Page } from '@playwright/test';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { bookEntry } from './helpers/address-book';
import { approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';
import { randomAddress, sandboxWallet } from './helpers/sandbox';

// Every setting that directs money is a request: admin@example.com asks, admin2@example.com approves, and the
// custody service changes only then.

// The Base wallet: the wallets journey reconnects the Polygon one, and withdrawals run on the Ethereum one.
const wallet = () => sandboxWallet(/Payouts/);

/** The review fits a phone: every value and warning wraps instead of widening the page. */
async function expectReviewFitsAPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Review' })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `page width of ${page.url()}`).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** The request page as its requester sees it: waiting, and no way to approve it themselves. */
async function expectWaitingForAnotherAdmin(page: Page, requestPath: string) {
  await page.goto(requestPath);
  await expect(page.getByText('Request status: Pending approval')).toBeVisible();
  await expect(page.getByText('You requested this: another person must approve it.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
}

test.describe('settlement, whitelist and beneficiaries (admin asks, a second admin approves)', () => {
  // One wallet's settings and beneficiaries change here: run these in order, not against each other.
  test.describe.configure({ mode: 'serial' });

  test('switching wallet auto-settlement waits for a second admin, then takes effect', async ({
    browser,
  }) => {
    const { page, context } = await contextAs(browser, 'admin', `/wallets/${wallet().id}/settlement`);
    await expect(page.getByRole('heading', { name: 'Auto-settlement' })).toBeVisible();
    await expectAccessible(page);
    const walletCard = page
      .getByText('Wallet level')
      .locator('xpath=ancestor::div[contains(@class,"rounded-lg")][1]');
    const initial = (await walletCard.getByText(/^(On|Off)$/).textContent())?.trim();
    const flipped = initial === 'On' ? 'Off' : 'On';
    const first = initial === 'On' ? 'Disable' : 'Enable';
    const second = first === 'Disable' ? 'Enable' : 'Disable';

    const switchThroughQuorum = async (verb: string, from: string, to: string) => {
      await page.getByRole('button', { name: `${verb} auto-settlement` }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(`${verb} auto-settlement for ${wallet().name}?`);
      await dialog.getByRole('button', { name: 'Request change' }).click();
      const requestPath = await requestedChangePath(page);
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Done' }).click();
      // Nothing changed yet.
      await page.reload();
      await expect(walletCard.getByText(from, { exact: true })).toBeVisible();

      await expectWaitingForAnotherAdmin(page, requestPath);
      await expect(page.getByRole('region', { name: 'Review' })).toContainText(`${from} → ${to}`);
      await approveAsSecondAdmin(browser, requestPath);
      await page.goto(`/wallets/${wallet().id}/settlement`);
      await expect(walletCard.getByText(to, { exact: true })).toBeVisible();
    };

    await switchThroughQuorum(first, initial ?? 'Off', flipped);
    await switchThroughQuorum(second, flipped, initial ?? 'Off');
    await context.close();
  });

  test('an address rule is created and edited through a second admin, with a before/after review', async ({
    browser,
  }) => {
    const { page, context } = await contextAs(browser, 'admin', `/wallets/${wallet().id}/settlement`);
    const address = wallet().addresses.find((a) => a.name === 'Customer 007')!;
    const settlement = `/wallets/${wallet().id}/settlement?addressId=${address.id}`;
    await page.getByLabel('Child address').selectOption(address.id);
    await expect(page).toHaveURL(new RegExp(`addressId=${address.id}`));

    const name = `Forward USDT ${Date.now().toString(36)}`;
    // Every matching deposit goes to the destination: like a withdrawal's recipient, an address book entry past
    // its cooling-off (the destination policy).
    const destination = bookEntry(wallet(), 'Sirius Cybernetics').address;
    await page.getByRole('button', { name: 'Add rule' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('USDT').check();
    await dialog.getByLabel('Minimum amount').fill('500');
    await dialog.getByLabel('Maximum amount').fill('100');
    await dialog.getByLabel('Destination address').fill('0x1234');
    await dialog.getByRole('button', { name: 'Request change' }).click();
    await expect(dialog.getByText('The minimum must not be above the maximum')).toBeVisible();
    await expect(
      dialog.getByText('An EVM address has 40 characters after 0x; this one has 4.'),
    ).toBeVisible();
    await expectAccessible(page);
    await dialog.getByLabel('No maximum').check();
    // A never-seen destination is refused at its field, and nothing is requested.
    await dialog.getByLabel('Destination address').fill(randomAddress());
    await dialog.getByRole('button', { name: 'Request change' }).click();
    await expect(
      dialog.getByText(/is not in this wallet's address book: money goes only to/).first(),
    ).toBeVisible();
    await expectAccessible(page);
    await dialog.getByLabel('Destination address').fill(destination);
    await dialog.getByRole('button', { name: 'Request change' }).click();
    const created = await requestedChangePath(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const rule = page.getByRole('region', { name: `Rule ${name}` });
    await page.reload();
    await expect(rule).toHaveCount(0);

    // The review names the destination in full, checksummed, with its address book entry.
    await expectWaitingForAnotherAdmin(page, created);
    const review = page.getByRole('region', { name: 'Review' });
    await expect(review).toContainText('The new rule');
    await expect(review).toContainText(getAddress(destination));
    await expect(review).toContainText('Sirius Cybernetics (address book)');
    await expect(review).not.toContainText('Not in the address book');
    await expectAccessible(page);
    await approveAsSecondAdmin(browser, created);

    await page.goto(settlement);
    await expect(rule).toContainText('500 USDT or more (no upper limit)');
    await expect(rule.getByTestId('rule-updated')).toContainText('by admin@example.com');
    const before = await rule.getByTestId('rule-updated').textContent();

    await rule.getByRole('button', { name: `Edit rule ${name}` }).click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel('Slippage tolerance (%)').fill('0.75');
    await edit.getByLabel('Minimum amount').fill('0');
    await edit.getByLabel('CHEAPEST').check();
    await edit.getByRole('button', { name: 'Request change' }).click();
    const edited = await requestedChangePath(page);
    await edit.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await expect(rule).not.toContainText('0.75%');

    // The rule in force beside the proposed one, field by field; it fits a phone.
    await expectWaitingForAnotherAdmin(page, edited);
    const fields = page.getByRole('region', { name: 'Review' }).getByRole('list', { name: 'Warnings' });
    await expect(fields).toContainText('Minimum 0: every matching deposit');
    const slippage = page
      .locator('dl[aria-label="Rule fields"] > div')
      .filter({ hasText: 'Slippage tolerance' });
    await expect(slippage).toContainText('Changed');
    await expect(slippage).toContainText('In force: no limit');
    await expect(slippage).toContainText('Proposed: 0.75%');
    const ruleName = page.locator('dl[aria-label="Rule fields"] > div').filter({ hasText: /^Name/ });
    await expect(ruleName).toContainText(`${name} (unchanged)`);
    await expectAccessible(page);
    await expectReviewFitsAPhone(page);
    await approveAsSecondAdmin(browser, edited);

    await page.goto(settlement);
    await expect(rule).toContainText('0.75%');
    await expect(rule).toContainText('CHEAPEST');
    // The edit's time and author: the same as the creation's, or later when a second has passed between them.
    const updatedAt = (text: string | null) =>
      Date.parse(`${(/^Updated (.+) UTC by /.exec(text ?? '')?.[1] ?? '').replace(',', '')} UTC`);
    await expect(rule.getByTestId('rule-updated')).toContainText('by admin@example.com');
    const after = await rule.getByTestId('rule-updated').textContent();
    expect(updatedAt(after)).toBeGreaterThanOrEqual(updatedAt(before));
    await context.close();
  });

  test('whitelisting an address waits for a second admin; the private key goes with it, never shown', async ({
    browser,
  }) => {
    const { page, context } = await contextAs(browser, 'admin', `/wallets/${wallet().id}/whitelist`);
    await expectAccessible(page);
    await page.getByLabel('Address', { exact: true }).fill('0x1234');
    await page.getByRole('button', { name: 'Request change' }).click();
    await expect(page.getByText('An EVM address has 40 characters after 0x; this one has 4.')).toBeVisible();
    // The service checks that a given private key belongs to the address.
    const privateKey = generatePrivateKey();
    const address = privateKeyToAccount(privateKey).address;
    await page.getByLabel('Address', { exact: true }).fill(address.toLowerCase());
    await page.getByLabel('Name').fill('OTC desk');
    await page.getByLabel('Metadata (JSON object, optional)').fill('{"desk":"otc"}');
    await page.getByLabel('Private key (optional)').fill(privateKey);
    await page.getByRole('button', { name: 'Request change' }).click();
    const requestPath = await requestedChangePath(page);
    await expect(page.getByLabel('Private key (optional)')).toHaveValue('');
    await expectAccessible(page);

    await expectWaitingForAnotherAdmin(page, requestPath);
    const review = page.getByRole('region', { name: 'Review' });
    await expect(review).toContainText(address);
    await expect(review).toContainText('OTC desk');
    await expect(review).toContainText(wallet().name);
    await expect(review).toContainText('Given: kept sealed with the request');
    await expect(review).not.toContainText(privateKey.slice(2));
    // Whitelisting alone does not let money go there (the destination policy).
    await expect(review.getByRole('list', { name: 'Warnings' })).toContainText(
      'Whitelisting alone does not let money go to this address',
    );
    await expectReviewFitsAPhone(page);
    await approveAsSecondAdmin(browser, requestPath);

    await page.reload();
    await expect(page.getByText('Request status: Success')).toBeVisible();
    await expect(page.getByText('Change made')).toBeVisible();
    await expect(page.getByText(/is whitelisted as EXTERNAL\. AML screening/)).toBeVisible();
    await context.close();
  });

  test('removing a whitelisted address waits for a second admin; then it leaves the list', async ({
    browser,
  }) => {
    const { page, context } = await contextAs(browser, 'admin', `/wallets/${wallet().id}/whitelist`);
    const name = `Vendor ${Math.random().toString(36).slice(2, 8)}`;
    await page.getByLabel('Address', { exact: true }).fill(randomAddress());
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Request change' }).click();
    await approveAsSecondAdmin(browser, await requestedChangePath(page));

    const listed = `/wallets/${wallet().id}/addresses?type=EXTERNAL&search=${encodeURIComponent(name)}`;
    await page.goto(listed);
    await page.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    const addressPage = page.url();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Remove from whitelist' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Remove ${name} from the whitelist?`);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Request removal' }).click();
    const requestPath = await requestedChangePath(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await expect(page.getByRole('button', { name: 'Remove from whitelist' })).toBeVisible();

    await expectWaitingForAnotherAdmin(page, requestPath);
    await expect(page.getByRole('region', { name: 'Review' })).toContainText(name);
    await approveAsSecondAdmin(browser, requestPath);

    await page.goto(addressPage);
    await expect(page.getByText('Removed from whitelist', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove from whitelist' })).toHaveCount(0);
    await page.goto(listed);
    await expect(page.getByText('No addresses match.')).toBeVisible();
    await context.close();
  });

  test('deleting a beneficiary waits for a second admin; then it is listed as deleted', async ({
    browser,
  }) => {
    const { page, context } = await contextAs(browser, 'admin', `/wallets/${wallet().id}/beneficiaries`);
    const name = 'Hooli Cloud';
    await expectAccessible(page);
    const row = page.getByRole('table', { name: 'Beneficiaries' }).getByRole('row').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await row.getByRole('button', { name: `Delete beneficiary ${name}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Delete beneficiary ${name}?`);
    await dialog.getByRole('button', { name: 'Request removal' }).click();
    const requestPath = await requestedChangePath(page);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    await expect(row).toHaveCount(1);

    await expectWaitingForAnotherAdmin(page, requestPath);
    await expect(page.getByRole('region', { name: 'Review' })).toContainText(name);
    await expectReviewFitsAPhone(page);
    await approveAsSecondAdmin(browser, requestPath);

    await page.goto(`/wallets/${wallet().id}/beneficiaries`);
    await expect(row).toHaveCount(0);
    const deleted = page.getByRole('list', { name: 'Deleted beneficiaries' });
    await expect(deleted).toContainText(name);
    await expect(deleted).toContainText('by admin@example.com');
    await context.close();
  });

  test('support and viewer see none of these controls, and direct calls are refused', async ({ browser }) => {
    const w = wallet();
    const name = 'Stark Components';
    // Capture how the page calls the delete action, as anyone could from the browser's network tab.
    const { page: admin, context: adminContext } = await contextAs(
      browser,
      'admin',
      `/wallets/${w.id}/beneficiaries`,
    );
    const row = admin
      .getByRole('table', { name: 'Beneficiaries' })
      .getByRole('row')
      .filter({ hasText: name });
    await row.getByRole('button', { name: `Delete beneficiary ${name}` }).click();
    const captured = admin.waitForRequest(
      (r) => r.method() === 'POST' && Boolean(r.headers()['next-action']),
    );
    await admin.getByRole('dialog').getByRole('button', { name: 'Request removal' }).click();
    const request = await captured;
    const requestPath = await requestedChangePath(admin);

    for (const role of ['support', 'viewer'] as const) {
      const { page, context } = await contextAs(browser, role);
      await page.goto(`/wallets/${w.id}/settlement`);
      await expect(page.getByRole('heading', { name: 'Auto-settlement' })).toBeVisible();
      await expect(page.getByRole('button', { name: /auto-settlement$/ })).toHaveCount(0);
      await page.goto(`/wallets/${w.id}/beneficiaries`);
      await expect(page.getByRole('heading', { name: 'Beneficiaries' })).toBeVisible();
      await expect(page.getByRole('button', { name: /Delete beneficiary/ })).toHaveCount(0);
      await expectAccessible(page);
      await page.goto(`/wallets/${w.id}/whitelist`);
      await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();

      // Replay the deletion request for every beneficiary: each call is refused.
      for (const beneficiary of w.beneficiaries) {
        const answer = await context.request.post(`/wallets/${w.id}/beneficiaries`, {
          headers: {
            'next-action': request.headers()['next-action']!,
            'content-type': 'text/plain;charset=UTF-8',
            accept: 'text/x-component',
          },
          data: JSON.stringify([{ walletId: w.id, beneficiaryId: beneficiary.id }]),
        });
        expect(await answer.text()).toContain('You do not have permission to do this.');
      }
      await context.close();
    }

    // The admin withdraws their own request: nothing was deleted.
    await admin.goto(requestPath);
    await admin.getByRole('button', { name: 'Cancel request' }).click();
    await expect(admin.getByText('Request status: Cancelled')).toBeVisible();
    await admin.goto(`/wallets/${w.id}/beneficiaries`);
    await expect(row).toHaveCount(1);
    await adminContext.close();
  });
});
