import { contextAs, expect, expectAccessible, test } from './fixtures';

test('a viewer filters the audit log and verifies the chain', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'viewer');
  await page.getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Actor email').fill('viewer@example.com');
  await page.getByLabel('Action').fill('auth.sign_in');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/actor=viewer(%40|@)example.com/);
  const rows = page.getByRole('table', { name: 'Audit entries' }).getByRole('row');
  await expect(rows.nth(1)).toContainText('auth.sign_in');
  await expect(rows.nth(1)).toContainText('viewer@example.com');
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await expect(page.getByText(/Chain intact: \d+ entries verified\./)).toBeVisible();
  await expectAccessible(page);
  await context.close();
});

test('support has no audit page', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'support', '/audit');
  await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
  await context.close();
});
