import type { Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { sandboxWallet } from './helpers/sandbox';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function expectFitsThePhone(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `page width of ${page.url()}`).toBeLessThanOrEqual(390);
}

test('on a phone every page has a menu, fits the screen and hydrates cleanly', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'admin');
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|#418|#423|#425/i.test(message.text()))
      errors.push(message.text());
  });
  const treasury = sandboxWallet('Treasury');
  const pages = [
    { path: `/wallets/${treasury.id}`, heading: /Treasury/ },
    { path: `/wallets/${treasury.id}/transactions`, heading: /Treasury/ },
    { path: `/wallets/${treasury.id}/webhooks`, heading: /Treasury/ },
    { path: `/wallets/${treasury.id}/withdraw`, heading: /Treasury/ },
    { path: `/wallets/${treasury.id}/addresses`, heading: /Treasury/ },
    { path: '/audit', heading: 'Audit log' },
    { path: '/approvals', heading: 'Approvals' },
  ];
  for (const { path, heading } of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    // The sidebar is hidden at this width; the menu button opens the same navigation in a drawer.
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const menu = page.getByRole('button', { name: 'Open menu' });
    await expect(async () => {
      await menu.click({ timeout: 2_000 });
      await expect(page.getByRole('dialog')).toBeVisible({ timeout: 2_000 });
    }).toPass();
    const drawer = page.getByRole('dialog');
    await expect(
      drawer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit' }),
    ).toBeVisible();
    await expectAccessible(page);
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
    // Search stays on screen.
    await expect(page.getByRole('button', { name: 'Search…' })).toBeInViewport();
    await expectFitsThePhone(page);
    await expectAccessible(page);
  }

  // The drawer's links lead somewhere and close it.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Wallets' }).click();
  await expect(page).toHaveURL(/\/wallets$/);
  await expect(page.getByRole('dialog')).toBeHidden();
  await expectFitsThePhone(page);
  expect(errors).toEqual([]);
  await context.close();
});
