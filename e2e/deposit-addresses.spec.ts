import { contextAs, expect, expectAccessible, test } from './fixtures';
import { sandboxCall, sandboxWallet, simulateDeposit } from './helpers/sandbox';

test('support creates a deposit address for a customer; it is derived from the wallet, and a deposit to it is swept', async ({
  browser,
  request,
}) => {
  const wallet = sandboxWallet('Collections');
  const name = `Customer e2e-${Math.random().toString(36).slice(2, 8)}`;
  const { page, context } = await contextAs(browser, 'support', `/wallets/${wallet.id}/addresses`);
  await page.getByRole('link', { name: 'New deposit address' }).click();
  await expect(page.getByRole('heading', { name: 'New deposit address', level: 1 })).toBeVisible();
  await expectAccessible(page);

  // Bad input is answered at the field; nothing is created.
  const form = page.getByRole('form', { name: 'New deposit address' });
  const nameField = form.getByLabel('Name');
  await expect(async () => {
    await form.getByRole('button', { name: 'Create deposit address' }).click();
    await expect(form.getByText('Name the address, e.g. the customer it is for')).toBeVisible({
      timeout: 2_000,
    });
  }).toPass();
  await nameField.fill(name);
  await form.getByLabel('Metadata (JSON object, optional)').fill('{"customerId": ');
  await form.getByRole('button', { name: 'Create deposit address' }).click();
  await expect(form.getByText('Metadata must be valid JSON')).toBeVisible();
  await form.getByLabel('Metadata (JSON object, optional)').fill('{"customerId": "cus_e2e"}');
  await form.getByRole('button', { name: 'Create deposit address' }).click();

  const created = page.getByRole('alert').filter({ hasText: 'Deposit address created' });
  await expect(created).toBeVisible();
  const path = (await created.getByText(/^Derivation path/).textContent()) ?? '';
  const derivation = /m\/44'\/60'\/\d+'\/0\/(\d+)/.exec(path);
  expect(derivation, path).not.toBeNull();
  await expectAccessible(page);

  // The service holds it as an internal child of the wallet, under the path shown.
  const listed = await sandboxCall<
    Array<{ id: string; name: string; address: string; derivationPath: string }>
  >(request, wallet, 'GET', `/v1/wallets/${wallet.id}/addresses?search=${encodeURIComponent(name)}`);
  expect(listed.json.data).toHaveLength(1);
  const address = listed.json.data[0]!;
  expect(address.derivationPath).toBe(derivation![0]);
  await expect(created).toContainText(address.address);

  await created.getByRole('link', { name: 'Open the address' }).click();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  await expect(page.getByText(address.derivationPath, { exact: true })).toBeVisible();
  const transactions = page.getByRole('table', { name: 'Address transactions' });
  await expect(transactions).toBeVisible();
  await expectAccessible(page);

  // A deposit from outside settles and is swept to the master wallet, on the open page.
  const amount = `3.${Math.floor(100 + Math.random() * 899)}1`;
  const deposit = await simulateDeposit(request, wallet, address.id, amount);
  const symbol = wallet.assets[0]!.symbol;
  const row = transactions.getByRole('row', {
    name: new RegExp(`^Deposit of ${amount.replace('.', '\\.')} ${symbol}, `),
  });
  await expect(row).toContainText('Swept', { timeout: 60_000 });
  const settled = await sandboxCall<{ assetSwept: boolean; assetSweptSenderAddress: string }>(
    request,
    wallet,
    'GET',
    `/v1/wallets/${wallet.id}/transactions/${deposit.id}`,
  );
  expect(settled.json.data).toMatchObject({ assetSwept: true, assetSweptSenderAddress: address.address });
  await context.close();
});

test('a viewer sees no way to create deposit addresses and the page is forbidden', async ({ browser }) => {
  const wallet = sandboxWallet('Collections');
  const { page, context } = await contextAs(browser, 'viewer', `/wallets/${wallet.id}/addresses`);
  await expect(page.getByRole('heading', { name: 'Addresses', level: 2 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New deposit address' })).toHaveCount(0);
  await page.goto(`/wallets/${wallet.id}/addresses/new`);
  await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
  await expectAccessible(page);
  await context.close();
});
