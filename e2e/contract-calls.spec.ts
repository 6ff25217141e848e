import type { Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { randomAddress, sandboxCredentials, sandboxWallet } from './helpers/sandbox';

const PAUSED_ABI = JSON.stringify([
  {
    type: 'function',
    name: 'paused',
    inputs: [],
    outputs: [{ name: '', type: 'bool' }],
    stateMutability: 'view',
  },
]);

function currentCode(): string {
  return generateSync({ secret: sandboxCredentials().totpSecret, epoch: Math.floor(Date.now() / 1000) });
}

/** A six-digit code that is not valid now (nor in the service's tolerance window). */
function wrongCode(): string {
  const valid = new Set(
    [-30, 0, 30].map((d) =>
      generateSync({ secret: sandboxCredentials().totpSecret, epoch: Math.floor(Date.now() / 1000) + d }),
    ),
  );
  for (let n = 0; ; n++) {
    const code = String((123456 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

async function addCall(page: Page, method: string, args: Record<string, string> = {}) {
  await page.getByLabel('Method').selectOption(method);
  for (const [label, value] of Object.entries(args)) await page.getByLabel(label).fill(value);
  await page.getByRole('button', { name: 'Add call' }).click();
}

const batchRows = (page: Page) => page.getByRole('table', { name: 'Calls in this batch' }).getByRole('row');

test.describe('contract calls', () => {
  const w = sandboxWallet(/Treasury/);
  const usdc = w.assets.find((a) => a.symbol === 'USDC')!;
  const float = w.addresses.find((a) => /Operating float 2/.test(a.name ?? ''))!;

  test('an admin reads two values and a failing call in one batch', async ({ browser }) => {
    const { page, context } = await contextAs(browser, 'admin');
    await page.goto(`/wallets/${w.id}/contracts`);
    await expect(page.getByRole('heading', { name: 'Contract calls' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Known token').selectOption({ label: 'USDC' });
    await expect(page.getByLabel('Contract address')).toHaveValue(usdc.address);

    // A bad value is refused at its field before anything is sent.
    await page.getByLabel('Method').selectOption('balanceOf(address)');
    await page.getByLabel('account (address)').fill('0x1234');
    await page.getByRole('button', { name: 'Add call' }).click();
    await expect(page.getByText(/40 characters after 0x/)).toBeVisible();

    await addCall(page, 'decimals()');
    await addCall(page, 'symbol()');
    await page.getByLabel('ABI', { exact: true }).selectOption('json');
    await page.getByLabel('ABI JSON').fill(PAUSED_ABI);
    await addCall(page, 'paused()');
    await expect(batchRows(page)).toHaveCount(4);
    // Reorder: symbol first, then back.
    await page.getByRole('button', { name: 'Move call 2 up' }).click();
    await expect(batchRows(page).nth(1)).toContainText('symbol()');
    await page.getByRole('button', { name: 'Move call 1 down' }).click();
    await expect(batchRows(page).nth(1)).toContainText('decimals()');

    await page.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(page.getByText(/2 results, 1 error/)).toBeVisible();
    await expect(batchRows(page).nth(1)).toContainText('6 (uint8)');
    await expect(batchRows(page).nth(2)).toContainText('USDC (string)');
    await expect(batchRows(page).nth(3)).toContainText(/Failed: .*does not implement/);
    await expectAccessible(page);
    await context.close();
  });

  test('an approve write is approved with the two-factor code, settles, and the allowance reads back', async ({
    browser,
  }) => {
    const spender = randomAddress();
    const amount = String(100_000 + Math.floor(Math.random() * 900_000));
    const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
    await admin.goto(`/wallets/${w.id}/contracts`);
    await admin.getByLabel('Known token').selectOption({ label: 'USDC' });
    await addCall(admin, 'approve(address,uint256)', {
      'spender (address)': spender,
      'amount (uint256)': amount,
    });
    await admin.getByRole('button', { name: 'Estimate fees' }).click();
    await expect(admin.getByText(/Total network fee: \d/)).toBeVisible();
    await admin.getByLabel('From address').selectOption(float.id);
    const captured = admin.waitForRequest(
      (r) => r.method() === 'POST' && Boolean(r.headers()['next-action']),
    );
    await admin.getByRole('button', { name: 'Request write' }).click();
    const actionRequest = await captured;
    await admin.getByRole('link', { name: 'Open the request' }).click();
    await expect(admin.getByRole('heading', { name: /Write 1 contract call: approve/ })).toBeVisible();
    await expect(admin.getByRole('table', { name: 'Contract calls' })).toContainText(amount);
    await expectAccessible(admin);
    const requestUrl = admin.url();

    const { page: finance, context: financeContext } = await contextAs(browser, 'finance');
    await finance.goto(requestUrl);
    await expect(finance.getByLabel('Two-factor code')).toBeVisible();
    await expectAccessible(finance);
    // A wrong code: the upstream refuses, the request stays recoverable.
    await finance.getByLabel('Two-factor code').fill(wrongCode());
    await finance.getByRole('button', { name: 'Approve' }).click();
    await expect(finance.getByText('Submission failed')).toBeVisible();
    await expect(finance.getByText(/Invalid two-factor code/).first()).toBeVisible();
    await expect(finance.getByRole('button', { name: 'Resubmit' })).toBeVisible();
    await expectAccessible(finance);
    await finance.getByLabel('Two-factor code').fill(currentCode());
    await finance.getByRole('button', { name: 'Resubmit' }).click();
    const confirm = finance.getByRole('dialog', { name: 'Resubmit this request' });
    await expect(confirm).toContainText('looks reference');
    await confirm.getByRole('button', { name: 'Resubmit with the same reference' }).click();
    await expect(finance.getByText(/Request status:\s*Success/)).toBeVisible({ timeout: 30_000 });
    await expectAccessible(finance);
    await financeContext.close();

    await admin.goto(`/wallets/${w.id}/contracts`);
    await admin.getByLabel('Known token').selectOption({ label: 'USDC' });
    await addCall(admin, 'allowance(address,address)', {
      'owner (address)': float.address,
      'spender (address)': spender,
    });
    await admin.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(batchRows(admin).nth(1)).toContainText(`${amount} (uint256)`);
    await adminContext.close();

    // Support and viewer: no tab, the page is forbidden, and the captured request action is refused.
    for (const role of ['support', 'viewer'] as const) {
      const { page, context } = await contextAs(browser, role);
      await page.goto(`/wallets/${w.id}`);
      await expect(page.getByRole('navigation', { name: 'Wallet sections' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Contracts' })).toHaveCount(0);
      await expectAccessible(page);
      await page.goto(`/wallets/${w.id}/contracts`);
      await expect(page.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Request write' })).toHaveCount(0);
      await expectAccessible(page);
      const answer = await context.request.post(`/wallets/${w.id}/contracts`, {
        headers: {
          'next-action': actionRequest.headers()['next-action']!,
          'content-type': 'text/plain;charset=UTF-8',
          accept: 'text/x-component',
        },
        data: actionRequest.postData() ?? '[]',
      });
      expect(await answer.text()).toContain('You do not have permission to do this.');
      await context.close();
    }
  });
});
