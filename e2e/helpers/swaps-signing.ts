import { expect, type Page } from '@playwright/test';

export { nextActionRequest, replayAction } from './actions';

/** The wallet's tabs as a role sees them. */
export async function expectNoTabs(page: Page, walletId: string, labels: string[]) {
  await page.goto(`/wallets/${walletId}`);
  const nav = page.getByRole('navigation', { name: 'Wallet sections' });
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeVisible();
  for (const label of labels) await expect(nav.getByRole('link', { name: label })).toHaveCount(0);
}
