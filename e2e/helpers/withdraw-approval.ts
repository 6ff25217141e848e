import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page, type Request } from '@playwright/test';

interface Wallet {
  id: string;
  name: string;
  assets: Array<{ id: string; symbol: string; decimals: number }>;
}

/** The Treasury wallet (testnet) from what the e2e server's sandbox wrote at seed time. */
export function treasuryWallet(): Wallet {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it)');
  const creds = JSON.parse(readFileSync(path.join(dir, 'sandbox-credentials.json'), 'utf8')) as {
    wallets: Wallet[];
  };
  const wallet = creds.wallets.find((w) => w.name.startsWith('Treasury'));
  if (!wallet) throw new Error('no Treasury wallet in the sandbox credentials');
  return wallet;
}

/** A fresh lowercase EVM address: each run pays addresses nobody paid before. */
export function freshAddress(): string {
  let hex = '';
  for (let i = 0; i < 40; i++) hex += Math.floor(Math.random() * 16).toString(16);
  return `0x${hex}`;
}

/** Creates a one-recipient request through the form and returns its id (the page ends on the request). */
export async function requestThroughForm(
  page: Page,
  walletId: string,
  options: { amount: string; kind?: 'withdraw' | 'withdrawSign'; address?: string; assetId?: string },
): Promise<string> {
  await page.goto(`/wallets/${walletId}/withdraw`);
  if (options.kind === 'withdrawSign') await page.getByLabel('Type').selectOption('withdrawSign');
  const address = page.getByLabel('Recipient 1 address');
  const typed = options.address ?? freshAddress();
  // The form checksums a lowercase address when the field loses focus: once that happens, it is hydrated.
  await expect(async () => {
    await address.fill(typed);
    await address.blur();
    expect(await address.inputValue()).not.toBe(typed);
  }).toPass();
  await page.getByLabel('Recipient 1 amount').fill(options.amount);
  if (options.assetId) await page.getByLabel('Recipient 1 asset').selectOption(options.assetId);
  await page.getByRole('button', { name: 'Review request' }).click();
  await expect(page.getByRole('heading', { name: 'Review' })).toBeVisible();
  await page.getByRole('button', { name: 'Create request' }).click();
  await expect(page).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  return page.url().split('/').pop()!;
}

export interface CapturedAction {
  id: string;
  routerState: string;
}

export function captureAction(request: Request): CapturedAction {
  return {
    id: request.headers()['next-action']!,
    routerState: request.headers()['next-router-state-tree'] ?? '',
  };
}

/** Calls a captured server action directly, as anyone could from the browser's network tab. */
export async function callAction(
  page: Page,
  action: CapturedAction,
  pathname: string,
  args: unknown[],
): Promise<string> {
  const answer = await page.context().request.post(pathname, {
    headers: {
      'next-action': action.id,
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      'next-router-state-tree': action.routerState,
    },
    data: JSON.stringify(args),
  });
  return answer.text();
}

/** Clicks until the expected effect shows: a click that lands before hydration does nothing. */
export async function clickUntil(button: Locator, effect: () => Promise<void>): Promise<void> {
  await expect(async () => {
    if (await button.isVisible()) await button.click({ timeout: 2_000 });
    await effect();
  }).toPass({ timeout: 30_000 });
}
