import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { randomAddress, sandboxWallet } from './helpers/sandbox';

// The Base wallet: the wallets journey reconnects the Polygon one, and withdrawals run on the Ethereum one.
const wallet = () => sandboxWallet(/Payouts/);

test.describe('settlement, whitelist and beneficiaries (admin)', () => {
  // One wallet's settings and beneficiaries change here: run these in order, not against each other.
  test.describe.configure({ mode: 'serial' });

  test('an admin disables and re-enables wallet auto-settlement', async ({ browser }) => {
    const { page, context } = await contextAs(browser, 'admin');
    await page.goto(`/wallets/${wallet().id}/settlement`);
    await expect(page.getByRole('heading', { name: 'Auto-settlement' })).toBeVisible();
    await expectAccessible(page);
    const walletCard = page
      .getByText('Wallet level')
      .locator('xpath=ancestor::div[contains(@class,"rounded-lg")][1]');
    const initial = (await walletCard.getByText(/^(On|Off)$/).textContent())?.trim();
    const first = initial === 'On' ? 'Disable' : 'Enable';
    const second = first === 'Disable' ? 'Enable' : 'Disable';

    await page.getByRole('button', { name: `${first} auto-settlement` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`${first} auto-settlement for ${wallet().name}?`);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: first, exact: true }).click();
    await expect(page.getByRole('button', { name: `${second} auto-settlement` })).toBeVisible();
    await expect(walletCard.getByText(initial === 'On' ? 'Off' : 'On', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: `${second} auto-settlement` }).click();
    await page.getByRole('dialog').getByRole('button', { name: second, exact: true }).click();
    await expect(page.getByRole('button', { name: `${first} auto-settlement` })).toBeVisible();
    await expect(walletCard.getByText(initial ?? 'On', { exact: true })).toBeVisible();
    await context.close();
  });

  test('an admin creates and edits an address rule and sees the update time and author', async ({
    browser,
  }) => {
    const { page, context } = await contextAs(browser, 'admin');
    const address = wallet().addresses.find((a) => a.name === 'Customer 007')!;
    await page.goto(`/wallets/${wallet().id}/settlement`);
    await page.getByLabel('Child address').selectOption(address.id);
    await expect(page).toHaveURL(new RegExp(`addressId=${address.id}`));

    const name = `Forward USDT ${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Add rule' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('USDT').check();
    await dialog.getByLabel('Minimum amount').fill('500');
    await dialog.getByLabel('Maximum amount').fill('100');
    await dialog.getByLabel('Destination address').fill('0x1234');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expect(dialog.getByText('The minimum must not be above the maximum')).toBeVisible();
    await expect(
      dialog.getByText('An EVM address has 40 characters after 0x; this one has 4.'),
    ).toBeVisible();
    await expectAccessible(page);
    await dialog.getByLabel('No maximum').check();
    await dialog.getByLabel('Destination address').fill(randomAddress());
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expect(dialog).toBeHidden();

    const rule = page.getByRole('region', { name: `Rule ${name}` });
    await expect(rule).toContainText('500 USDT or more (no upper limit)');
    await expect(rule.getByTestId('rule-updated')).toContainText('by admin@example.com');
    const before = await rule.getByTestId('rule-updated').textContent();

    await rule.getByRole('button', { name: `Edit rule ${name}` }).click();
    const edit = page.getByRole('dialog');
    await edit.getByLabel('Slippage tolerance (%)').fill('0.75');
    await edit.getByLabel('CHEAPEST').check();
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await expect(edit).toBeHidden();
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

  test('an admin whitelists an address and sees its AML result', async ({ browser }) => {
    const { page, context } = await contextAs(browser, 'admin');
    await page.goto(`/wallets/${wallet().id}/whitelist`);
    await expectAccessible(page);
    await page.getByLabel('Address', { exact: true }).fill('0x1234');
    await page.getByRole('button', { name: 'Whitelist address' }).click();
    await expect(page.getByText('An EVM address has 40 characters after 0x; this one has 4.')).toBeVisible();
    // The service checks that a given private key belongs to the address.
    const privateKey = generatePrivateKey();
    const address = privateKeyToAccount(privateKey).address.toLowerCase();
    await page.getByLabel('Address', { exact: true }).fill(address);
    await page.getByLabel('Name').fill('OTC desk');
    await page.getByLabel('Metadata (JSON object, optional)').fill('{"desk":"otc"}');
    await page.getByLabel('Private key (optional)').fill(privateKey);
    await page.getByRole('button', { name: 'Whitelist address' }).click();
    const result = page.getByRole('alert').filter({ hasText: 'Address whitelisted' });
    await expect(result).toContainText('AML screening');
    await expect(result).toContainText('EXTERNAL');
    await expect(page.getByLabel('Private key (optional)')).toHaveValue('');
    await expectAccessible(page);
    await context.close();
  });

  test('an admin removes a whitelisted address after a confirmation naming it; it leaves the list', async ({
    browser,
  }) => {
    const { page, context } = await contextAs(browser, 'admin');
    const name = `Vendor ${Math.random().toString(36).slice(2, 8)}`;
    await page.goto(`/wallets/${wallet().id}/whitelist`);
    await page.getByLabel('Address', { exact: true }).fill(randomAddress());
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Whitelist address' }).click();
    const result = page.getByRole('alert').filter({ hasText: 'Address whitelisted' });
    await expect(result).toContainText(name);
    const listed = `/wallets/${wallet().id}/addresses?type=EXTERNAL&search=${encodeURIComponent(name)}`;
    await page.goto(listed);
    await page.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Remove from whitelist' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Remove ${name} from the whitelist?`);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Remove from whitelist' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Removed from whitelist', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove from whitelist' })).toHaveCount(0);

    await page.goto(listed);
    await expect(page.getByText('No addresses match.')).toBeVisible();
    await context.close();
  });

  test('an admin deletes a beneficiary after a confirmation naming it', async ({ browser }) => {
    const { page, context } = await contextAs(browser, 'admin');
    await page.goto(`/wallets/${wallet().id}/beneficiaries`);
    await expectAccessible(page);
    const rows = page.getByRole('table', { name: 'Beneficiaries' }).getByRole('row');
    await expect(rows.nth(1)).toBeVisible();
    const before = await rows.count();
    const firstRow = rows.nth(1);
    const name = (await firstRow.getByRole('cell').first().textContent())?.trim() ?? '';
    await firstRow.getByRole('button', { name: `Delete beneficiary ${name}` }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`Delete beneficiary ${name}?`);
    await dialog.getByRole('button', { name: `Delete ${name}` }).click();
    await expect(dialog).toBeHidden();
    await expect(rows).toHaveCount(before - 1);
    await expect(page.getByRole('list', { name: 'Deleted beneficiaries' })).toContainText(name);
    await expect(page.getByRole('list', { name: 'Deleted beneficiaries' })).toContainText(
      'by admin@example.com',
    );
    await context.close();
  });

  test('support and viewer see none of these controls, and direct calls are refused', async ({ browser }) => {
    const w = wallet();
    // Capture how the page calls the delete action, as anyone could from the browser's network tab.
    const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
    await admin.goto(`/wallets/${w.id}/beneficiaries`);
    const rows = admin.getByRole('table', { name: 'Beneficiaries' }).getByRole('row');
    // Count once the list has rendered (a header row and at least one beneficiary).
    await expect(rows.nth(1)).toBeVisible();
    const countBefore = await rows.count();
    const name = (await rows.nth(1).getByRole('cell').first().textContent())?.trim() ?? '';
    await rows
      .nth(1)
      .getByRole('button', { name: `Delete beneficiary ${name}` })
      .click();
    const captured = admin.waitForRequest(
      (r) => r.method() === 'POST' && Boolean(r.headers()['next-action']),
    );
    await admin
      .getByRole('dialog')
      .getByRole('button', { name: `Delete ${name}` })
      .click();
    const request = await captured;
    await expect(admin.getByRole('dialog')).toBeHidden();
    await expect(rows).toHaveCount(countBefore - 1);
    const survivorName = (await rows.nth(1).getByRole('cell').first().textContent())?.trim() ?? '';
    const survivorsBefore = await rows.count();

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

      // Replay the delete for every beneficiary still listed: each call is refused.
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
    await admin.reload();
    await expect(rows).toHaveCount(survivorsBefore);
    await expect(rows.nth(1)).toContainText(survivorName);
    await adminContext.close();
  });
});
