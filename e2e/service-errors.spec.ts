// A custody service with the spec alone, and one that loses an answer: pages say what they lack in place,
// inside the console shell (sidebar, header and wallet tabs stay), and a request whose answer was lost says
// the outcome is unknown, offers no resubmission, and is settled by the follow-up.
import { expect, type Page, test } from '@playwright/test';
import { contextAs, expectAccessible } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { bookEntry } from './helpers/address-book';
import { type SandboxTransaction, sandboxCall, sandboxWallet } from './helpers/sandbox';

// Spec-only mode is switched per wallet; this journey uses one wallet and puts it back as it was.
const wallet = sandboxWallet('Collections');

test.describe.configure({ mode: 'serial' });

async function setSpecOnly(request: Parameters<typeof sandboxCall>[0], specOnly: boolean) {
  const { status } = await sandboxCall(request, wallet, 'POST', '/control/faults', { specOnly });
  expect(status).toBe(200);
}

async function expectShell(page: Page) {
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Wallet sections' })).toBeVisible();
}

test.afterAll(async ({ request }) => {
  await setSpecOnly(request, false);
});

test('a service without the beneficiary list says so in place, inside the shell', async ({
  browser,
  request,
}) => {
  const { page, context } = await contextAs(browser, 'viewer');
  await setSpecOnly(request, true);
  // Answers are kept for a few seconds; reload until the page reads the service as it is now.
  await expect(async () => {
    await page.goto(`/wallets/${wallet.id}/beneficiaries`);
    await expect(page.getByText('This custody service does not list beneficiaries')).toBeVisible({
      timeout: 1_000,
    });
  }).toPass();
  await expect(page.getByText('deleted ones are still shown from the audit log')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Deleted' })).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await expectShell(page);
  await expectAccessible(page);
  await context.close();
});

test('the list comes back once the service offers it again', async ({ browser, request }) => {
  const { page, context } = await contextAs(browser, 'viewer');
  await setSpecOnly(request, false);
  await expect(async () => {
    await page.goto(`/wallets/${wallet.id}/beneficiaries`);
    await expect(page.getByRole('table', { name: 'Beneficiaries' })).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(page.getByText('This custody service does not list beneficiaries')).toHaveCount(0);
  await expectShell(page);
  await context.close();
});

test('with the spec alone every page of the wallet renders inside the shell, none crashes', async ({
  browser,
  request,
}) => {
  const { page, context } = await contextAs(browser, 'admin');
  await setSpecOnly(request, true);
  const address = wallet.addresses.find((a) => a.type === 'INTERNAL')!;
  const pages: Array<[string, RegExp]> = [
    ['', /Collections/i],
    ['/addresses', /Addresses/i],
    [`/addresses/${address.id}`, /./],
    ['/transactions', /Transactions/i],
    ['/webhooks', /Webhook/i],
    ['/withdraw', /Withdraw/i],
    ['/swaps', /Swap/i],
    ['/contracts', /Contract/i],
    ['/signing', /Sign/i],
    ['/settlement', /Settlement/i],
    ['/whitelist', /Whitelist/i],
    ['/beneficiaries', /Beneficiaries/i],
  ];
  for (const [suffix, heading] of pages) {
    await page.goto(`/wallets/${wallet.id}${suffix}`);
    await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
    await expect(page.getByText('Could not load the wallet')).toHaveCount(0);
    await expectShell(page);
  }
  // The transactions page says what it cannot show without the wallet-wide list.
  await page.goto(`/wallets/${wallet.id}/transactions`);
  await expect(
    page.getByText(/transactions of the child addresses the console knows/i).first(),
  ).toBeVisible();
  for (const path of ['/wallets', '/approvals', '/webhooks', '/audit', '/admin/wallets']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByText('Something went wrong')).toHaveCount(0);
  }
  await context.close();
});

test('a lost answer: the request says the outcome is unknown, offers no resubmission, and is settled once', async ({
  browser,
  request,
}) => {
  await setSpecOnly(request, false);
  const reference = `e2e-lost-${Date.now()}`;
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}/withdraw`,
  );
  const address = finance.getByLabel('Recipient 1 address');
  // An address book entry past its cooling-off: the destination policy refuses any other recipient.
  const typed = bookEntry(wallet, 'Pied Piper Hosting').address;
  await expect(async () => {
    await address.fill(typed);
    await address.blur();
    expect(await address.inputValue()).not.toBe(typed);
  }).toPass();
  await finance.getByLabel('Recipient 1 amount').fill('0.25');
  await finance.getByLabel('Recipient 1 reference (optional)').fill(reference);
  await finance.getByRole('button', { name: 'Review request' }).click();
  await expect(finance.getByRole('heading', { name: 'Review' })).toBeVisible();
  await finance.getByRole('button', { name: 'Create request' }).click();
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  const requestUrl = finance.url();
  await financeContext.close();

  // The service will carry out the next withdrawal and lose its answer.
  // Setting the fault is idempotent: a call lost to a closed keep-alive connection is simply made again.
  await expect(async () => {
    const { status } = await sandboxCall(request, wallet, 'POST', '/control/faults', {
      dropNextAnswer: true,
    });
    expect(status).toBe(200);
  }).toPass({ timeout: 15_000 });
  const { page: approver, context: approverContext } = await contextAs(browser, 'finance2', requestUrl);
  await approveOnPage(approver);
  await expect(
    approver.getByText(
      /Outcome unknown: do not send again|Request status: Submitted|Request status: Success/,
    ),
  ).toBeVisible();
  await expect(approver.getByRole('button', { name: 'Resubmit' })).toHaveCount(0);
  // The follow-up finds the executed withdrawal by the requester's reference and links it.
  await expect(approver.getByText(/Request status: (Submitted|Success)/)).toBeVisible({ timeout: 60_000 });
  await expectAccessible(approver);
  const upstream = await sandboxCall<SandboxTransaction[]>(
    request,
    wallet,
    'GET',
    `/v1/wallets/${wallet.id}/transactions?reference=${reference}`,
  );
  expect(upstream.json.data.filter((t) => t.type === 'WITHDRAW')).toHaveLength(1);
  await approverContext.close();
});
