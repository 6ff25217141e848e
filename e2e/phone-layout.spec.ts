import type { Locator, Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { requestedChangePath } from './helpers/quorum';
import { sandboxWallet } from './helpers/sandbox';

const RETRY = 'Retry of a failed transaction';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/** Opens the navigation drawer, clicking again until the page has hydrated and the drawer shows. */
async function openMenu(page: Page) {
  const menu = page.getByRole('button', { name: 'Open menu' });
  await expect(async () => {
    await menu.click({ timeout: 2_000 });
    await expect(page.getByRole('dialog')).toBeVisible({ timeout: 2_000 });
  }).toPass();
  return page.getByRole('dialog');
}

async function expectFitsThePhone(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `page width of ${page.url()}`).toBeLessThanOrEqual(390);
}

test('on a phone every page has a menu, fits the screen and hydrates cleanly', async ({ browser }) => {
  // Seven pages, each with two axe passes (drawer open and closed): longer than one journey.
  test.setTimeout(240_000);
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
    const drawer = await openMenu(page);
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

test('on a phone every other console page fits the screen, is accessible and hydrates cleanly', async ({
  browser,
}) => {
  // Twenty-odd pages, each with an axe pass: longer than one journey.
  test.setTimeout(360_000);
  const { page, context } = await contextAs(browser, 'admin');
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|#418|#423|#425/i.test(message.text()))
      errors.push(`${page.url()}: ${message.text()}`);
  });
  const treasury = sandboxWallet('Treasury');
  const wallet = `/wallets/${treasury.id}`;

  // One address detail page, through the addresses list.
  await page.goto(`${wallet}/addresses`);
  const addressLink = page.getByRole('table').locator(`a[href^="${wallet}/addresses/"]`).first();
  await expect(addressLink).toBeVisible();
  const addressPath = (await addressLink.getAttribute('href')) ?? '';
  const addressName = (await addressLink.textContent())?.trim() ?? '';
  expect(addressPath).toMatch(/\/addresses\/[^/]+$/);

  // One approval request: a policy change waits for a second admin on its request page.
  const expiry = page.getByLabel(`${RETRY}: open for (minutes)`);
  await page.goto('/admin/policy');
  // The form's fields get their values when it hydrates; a value typed before that would be replaced.
  await expect(expiry).not.toHaveValue('');
  await expiry.fill((await expiry.inputValue()) === '1436' ? '1435' : '1436');
  await page.getByRole('button', { name: `Request ${RETRY.toLowerCase()} policy change` }).click();
  const requestPath = await requestedChangePath(page);

  // Under a wallet's own heading, a section's content (and what streams in) shows before the page is measured.
  const section = (name: string) => page.getByRole('heading', { name, exact: true, level: 2 });
  const pages: Array<{ path: string; heading: string | RegExp; shows?: Locator[] }> = [
    { path: '/wallets', heading: 'Wallets' },
    { path: '/webhooks', heading: 'Webhooks' },
    { path: `${wallet}/swaps`, heading: /Treasury/, shows: [section('Swap')] },
    { path: `${wallet}/contracts`, heading: /Treasury/, shows: [section('Contract calls')] },
    { path: `${wallet}/signing`, heading: /Treasury/, shows: [section('Sign typed data')] },
    { path: `${wallet}/settlement`, heading: 'Auto-settlement' },
    { path: `${wallet}/whitelist`, heading: 'Whitelist an external address' },
    { path: `${wallet}/addresses/new`, heading: 'New deposit address' },
    { path: `${wallet}/address-book`, heading: /Treasury/ },
    { path: `${wallet}/payouts`, heading: /Treasury/ },
    { path: `${wallet}/statements`, heading: /Treasury/ },
    { path: `${wallet}/beneficiaries`, heading: 'Beneficiaries' },
    {
      path: addressPath,
      heading: /Treasury/,
      shows: [
        section(addressName),
        page.getByRole('table', { name: 'Balances' }),
        page.getByRole('table', { name: 'Address transactions' }),
      ],
    },
    { path: requestPath, heading: new RegExp(`^Policy of ${RETRY}`) },
    { path: '/admin/users', heading: 'Users' },
    { path: '/admin/policy', heading: 'Approval policy' },
    { path: '/admin/wallets', heading: 'Wallet connections' },
    { path: '/admin/tokens', heading: 'API tokens' },
    { path: '/account/security', heading: 'Security' },
    { path: '/account/sessions', heading: 'Sessions' },
    { path: '/account/alerts', heading: 'Alerts' },
  ];
  for (const { path, heading, shows = [] } of pages) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
    for (const shown of shows) await expect(shown).toBeVisible();
    // The menu opens once the page has hydrated: a hydration error would be logged by then.
    const drawer = await openMenu(page);
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
    await expectFitsThePhone(page);
    await expectAccessible(page);
  }
  expect(errors).toEqual([]);
  await context.close();
});
