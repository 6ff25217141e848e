import { contextAs, expect, expectAccessible, test } from './fixtures';

test('the command palette opens pages and actions by name, as far as the role may', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'finance');
  const input = page.getByRole('combobox', { name: /Search pages, actions/ });
  // Ctrl+K works once the shell has hydrated; until then the key press does nothing.
  await expect(async () => {
    await page.keyboard.press('Control+k');
    await expect(input).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await input.fill('approvals');
  const approvals = page.getByRole('option', { name: 'Approvals', exact: true });
  await expect(approvals).toBeVisible();
  await expect(page.getByText(/Nothing found/)).toHaveCount(0);
  await expectAccessible(page);
  await approvals.click();
  await expect(page).toHaveURL(/\/approvals$/);
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();

  // An action by name: withdraw from a wallet.
  await page.getByRole('button', { name: 'Search…' }).click();
  await input.fill('withdraw from treasury');
  await page.getByRole('option', { name: /Withdraw from Treasury/ }).click();
  await expect(page).toHaveURL(/\/wallets\/[^/]+\/withdraw$/);

  // Finance may not manage users: the palette does not offer it.
  await page.getByRole('button', { name: 'Search…' }).click();
  await input.fill('users');
  await expect(page.getByRole('option', { name: 'Users', exact: true })).toHaveCount(0);
  await context.close();

  const admin = await contextAs(browser, 'admin');
  await admin.page.getByRole('button', { name: 'Search…' }).click();
  await admin.page.getByRole('combobox', { name: /Search pages, actions/ }).fill('users');
  await expect(admin.page.getByRole('option', { name: 'Users', exact: true })).toBeVisible();
  await admin.context.close();
});
