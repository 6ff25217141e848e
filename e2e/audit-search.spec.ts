import { contextAs, expect, expectAccessible, test } from './fixtures';
import { requestThroughForm, treasuryWallet } from './helpers/withdraw-approval';

test('an admin searches the audit log by words, reads the input and exports what matches', async ({
  browser,
}) => {
  // A withdrawal request puts an approvals entry by finance on record.
  const finance = await contextAs(browser, 'finance');
  const requestId = await requestThroughForm(finance.page, treasuryWallet().id, { amount: '1.25' });
  await finance.context.close();

  const { page, context } = await contextAs(browser, 'admin', '/audit');
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const search = page.getByLabel('Search', { exact: true });
  const rows = page.getByRole('table', { name: 'Audit entries' }).locator('tbody tr');
  // The form is ready once hydrated: until then a submit would be a plain reload.
  await expect(async () => {
    await search.fill('approval');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/[?&]q=approval/, { timeout: 2_000 });
  }).toPass();
  const entry = rows.filter({ hasText: requestId });
  await expect(entry.first()).toBeVisible();
  await expect(entry.first()).toContainText('Requested a withdrawal');
  await expect(entry.first()).toContainText('finance@example.com');
  // The input reads as labelled values, not raw JSON.
  await expect(entry.first().locator('dt').first()).toBeVisible();
  await expect(entry.first()).not.toContainText('{"');
  await expect(rows.filter({ hasText: 'Signed in' })).toHaveCount(0);
  await expectAccessible(page);

  // Part of an email finds its entries, whatever the case.
  await search.fill('FINANCE@EXAMPLE');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/[?&]q=FINANCE/);
  await expect(rows.first()).toContainText('finance@example.com');
  await expect(rows.filter({ hasNotText: 'finance@example.com' })).toHaveCount(0);

  // The export holds the filtered log and is itself refused to people without the audit permission.
  await search.fill(requestId);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(rows).toHaveCount(1);
  const href = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
  expect(href).toContain(`q=${requestId}`);
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toContain('text/csv');
  const lines = (await csv.text()).trim().split('\r\n');
  expect(lines[0]).toBe('id,time_utc,actor,role,action,action_code,target,outcome,input,request_id');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('Requested a withdrawal');
  expect(lines[1]).toContain(requestId);
  await context.close();

  const support = await contextAs(browser, 'support');
  const refused = await support.page.request.get('/audit/export.csv');
  expect(refused.status()).toBe(403);
  await support.context.close();
  const anonymous = await browser.newContext();
  const signedOut = await anonymous.request.get('/audit/export.csv', { maxRedirects: 0 });
  expect([307, 401]).toContain(signedOut.status());
  await anonymous.close();
});
