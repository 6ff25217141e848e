import { contextAs, expect, test } from './fixtures';

// A link prefetches its page once a person points at it or focuses it, not merely for being on screen: a page
// with a sidebar and a wallet's tabs would otherwise have the server render every page they lead to.
test('links prefetch their page when pointed at or focused, not for being on screen', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'viewer', '/wallets');
  const prefetched = new Set<string>();
  page.on('request', (request) => {
    if (request.headers()['next-router-prefetch']) prefetched.add(new URL(request.url()).pathname);
  });
  // A fresh load, watched from its start: the wallet list and the sidebar are on screen.
  await page.reload();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Webhooks' })).toBeVisible();

  await nav.getByRole('link', { name: 'Webhooks' }).hover();
  await expect.poll(() => [...prefetched]).toContain('/webhooks');
  await nav.getByRole('link', { name: 'Audit' }).focus();
  await expect.poll(() => [...prefetched]).toContain('/audit');
  // Only the two links a person reached for: none of the other links on the page.
  expect([...prefetched].sort()).toEqual(['/audit', '/webhooks']);

  // Following a link still navigates inside the page.
  await nav.getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await context.close();
});
