import type { Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { getAddress } from 'viem';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { bookEntry } from './helpers/address-book';
import { type SandboxTransaction, sandboxCall, sandboxCredentials, sandboxWallet } from './helpers/sandbox';
import { decideWithCheck } from './helpers/step-up';

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
    const { page, context } = await contextAs(browser, 'admin', `/wallets/${w.id}/contracts`);
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
    // A decoded allowance's spender is held to the address book like a recipient (the destination policy).
    const spender = bookEntry(w, 'Aperture Labs').address;
    // Typed in USDC; the allowance is set in base units (6 decimals).
    const whole = 100 + Math.floor(Math.random() * 900);
    const amount = `${whole}.5`;
    const baseUnits = `${whole}500000`;
    const { page: admin, context: adminContext } = await contextAs(
      browser,
      'admin',
      `/wallets/${w.id}/contracts`,
    );
    await admin.getByLabel('Known token').selectOption({ label: 'USDC' });
    await addCall(admin, 'approve(address,uint256)', {
      'spender (address)': spender,
      'amount (USDC)': amount,
    });
    await expect(batchRows(admin).nth(1)).toContainText(`approve(${spender}, ${amount} USDC)`);
    await admin.getByRole('button', { name: 'Estimate fees' }).click();
    await expect(admin.getByText(/Total network fee: \d/)).toBeVisible();
    await admin.getByLabel('From address').selectOption(float.id);
    const captured = admin.waitForRequest(
      (r) => r.method() === 'POST' && Boolean(r.headers()['next-action']),
    );
    await admin.getByRole('button', { name: 'Request write' }).click();
    const actionRequest = await captured;
    await admin.getByRole('button', { name: 'Create write request' }).click();
    await admin.getByRole('link', { name: 'Open the request' }).click();
    await expect(admin.getByRole('heading', { name: /Write 1 contract call: approve/ })).toBeVisible();
    const reviewCalls = admin.getByRole('list', { name: 'Contract calls' });
    await expect(reviewCalls).toContainText(`${amount} USDC`);
    await expect(reviewCalls).toContainText(`${Number(baseUnits).toLocaleString('en-US')} base units`);
    // Decoded as an allowance to the spender, valued like a withdrawal of the same amount.
    const approval = reviewCalls.getByRole('listitem', { name: 'Call 1' });
    await expect(
      approval.getByRole('heading', { name: 'Call 1: Token approval (allowance) · USDC' }),
    ).toBeVisible();
    await expect(approval.getByText(getAddress(spender), { exact: true })).toBeVisible();
    await expect(approval.getByText(`$${whole}.50`).first()).toBeVisible();
    await expectAccessible(admin);
    const requestUrl = admin.url();

    const { page: finance, context: financeContext } = await contextAs(browser, 'finance', requestUrl);
    await expect(finance.getByLabel('Two-factor code')).toBeVisible();
    await expectAccessible(finance);
    // A wrong code: the upstream refuses, the request stays recoverable.
    await finance.getByLabel('Two-factor code').fill(wrongCode());
    await approveOnPage(finance);
    // The approval is kept; the page asks for the code again.
    await expect(finance.getByText('Two-factor code not accepted')).toBeVisible();
    await expect(finance.getByText('The approvals are kept')).toBeVisible();
    await expect(finance.getByText(/Invalid two-factor code/).first()).toBeVisible();
    await expect(finance.getByRole('button', { name: 'Resubmit' })).toBeVisible();
    await expectAccessible(finance);
    await finance.getByLabel('Two-factor code').fill(currentCode());
    await finance.getByRole('button', { name: 'Resubmit' }).click();
    const confirm = finance.getByRole('dialog', { name: 'Resubmit this request' });
    await expect(confirm).toContainText('looks up reference');
    await decideWithCheck(finance, () =>
      confirm.getByRole('button', { name: 'Resubmit with the same reference' }).click(),
    );
    await expect(finance.getByText(/Request status:\s*Success/)).toBeVisible({ timeout: 30_000 });
    await expectAccessible(finance);
    await financeContext.close();
    // The refused code sent nothing that executed; the right one, exactly once (the reference derives from the id).
    const requestId = new URL(requestUrl).pathname.split('/').pop() ?? '';
    const reference = `req-${requestId.replace(/-/g, '').slice(0, 12)}-0`;
    const sent = await sandboxCall<SandboxTransaction[]>(
      admin.request,
      w,
      'GET',
      `/v1/wallets/${w.id}/transactions?reference=${reference}`,
    );
    expect(sent.json.data.map((t) => t.reference)).toEqual([reference]);

    await admin.goto(`/wallets/${w.id}/contracts`);
    await admin.getByLabel('Known token').selectOption({ label: 'USDC' });
    await addCall(admin, 'allowance(address,address)', {
      'owner (address)': float.address,
      'spender (address)': spender,
    });
    await admin.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(batchRows(admin).nth(1)).toContainText(`${amount} USDC`);
    await expect(batchRows(admin).nth(1)).toContainText(`${baseUnits} base units (uint256)`);
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

  test('a USDC transfer is typed as 1.5, sent as 1500000 base units, and arrives as 1.5 USDC', async ({
    browser,
  }) => {
    // An address book entry past its cooling-off that no other journey pays (the destination policy).
    const recipient = bookEntry(w, 'Prestige Worldwide').address;
    const { page: admin, context: adminContext } = await contextAs(
      browser,
      'admin',
      `/wallets/${w.id}/contracts`,
    );
    await admin.getByLabel('Known token').selectOption({ label: 'USDC' });
    await admin.getByLabel('Method').selectOption('transfer(address,uint256)');
    await admin.getByLabel('recipient (address)').fill(recipient);
    const amountField = admin.getByLabel('amount (USDC)');

    // More decimal places than USDC has: refused at the field, nothing is added.
    await amountField.fill('1.0000001');
    await expect(amountField).toHaveAccessibleDescription(
      'USDC has 6 decimals: use at most 6 digits after the dot.',
    );
    await expect(amountField).toHaveAttribute('aria-invalid', 'true');
    await admin.getByRole('button', { name: 'Add call' }).click();
    await expect(admin.getByText('No calls yet: build one above and add it.')).toBeVisible();
    await expectAccessible(admin);

    // Token units in, base units shown beside the field.
    await amountField.fill('1.5');
    await expect(amountField).toHaveAccessibleDescription('Sends 1500000 base units (uint256).');
    await admin.getByRole('button', { name: 'Add call' }).click();
    await expect(batchRows(admin)).toHaveCount(2);
    await expect(batchRows(admin).nth(1)).toContainText(`transfer(${recipient}, 1.5 USDC)`);

    await admin.getByLabel('From address').selectOption(float.id);
    const captured = admin.waitForRequest(
      (r) => r.method() === 'POST' && Boolean(r.headers()['next-action']),
    );
    await admin.getByRole('button', { name: 'Request write' }).click();
    // What the browser sends is base units, never the typed token units.
    const body = (await captured).postData() ?? '';
    expect(body).toContain('"1500000"');
    expect(body).not.toContain('"1.5"');

    await admin.getByRole('button', { name: 'Create write request' }).click();
    await admin.getByRole('link', { name: 'Open the request' }).click();
    await expect(admin.getByRole('heading', { name: /Write 1 contract call: transfer/ })).toBeVisible();
    const calls = admin.getByRole('list', { name: 'Contract calls' });
    await expect(calls).toContainText('amount (uint256): 1.5 USDC (1,500,000 base units)');
    await expectAccessible(admin);
    const requestUrl = admin.url();

    const { page: finance, context: financeContext } = await contextAs(browser, 'finance');
    // The approver reads the decoded transfer on a phone: amount, USD value and recipient without sideways scrolling.
    await finance.setViewportSize({ width: 390, height: 844 });
    await finance.goto(requestUrl);
    const review = finance.getByRole('list', { name: 'Contract calls' });
    await expect(review).toContainText('1.5 USDC (1,500,000 base units)');
    const call = review.getByRole('listitem', { name: 'Call 1' });
    await expect(call.getByRole('heading', { name: 'Call 1: Token transfer · USDC' })).toBeVisible();
    await expect(call.getByRole('term').filter({ hasText: /^Recipient$/ })).toBeVisible();
    const shown = [
      call.getByText(getAddress(recipient), { exact: true }),
      // The decoded amount (the arguments as sent, further down, say it again).
      call.getByText('1.5 USDC', { exact: true }).first(),
      call.getByText('$1.50', { exact: true }).last(),
    ];
    for (const part of shown) {
      await expect(part).toBeVisible();
      const box = await part.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(390);
    }
    await expect(finance.getByText('Value (USD)')).toBeVisible();
    expect(await finance.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(finance);
    await finance.getByLabel('Two-factor code').fill(currentCode());
    await approveOnPage(finance);
    await expect(finance.getByText(/Request status:\s*Success/)).toBeVisible({ timeout: 30_000 });
    await financeContext.close();

    // The recipient (paid by no other journey) holds exactly 1500000 base units.
    await admin.goto(`/wallets/${w.id}/contracts`);
    await admin.getByLabel('Known token').selectOption({ label: 'USDC' });
    await addCall(admin, 'balanceOf(address)', { 'account (address)': recipient });
    await admin.getByRole('button', { name: 'Read', exact: true }).click();
    await expect(batchRows(admin).nth(1)).toContainText('1.5 USDC');
    await expect(batchRows(admin).nth(1)).toContainText('1500000 base units (uint256)');
    await expectAccessible(admin);
    await adminContext.close();
  });
});
