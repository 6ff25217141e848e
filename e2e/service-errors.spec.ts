// A custody service without the beneficiary list: the page says so in place, inside the console shell
// (sidebar, header and wallet tabs stay), and shows the list again once the service offers it.
import { expect, type Page, test } from '@playwright/test';
import { contextAs, expectAccessible } from './fixtures';
import { sandboxCall, sandboxWallet } from './helpers/sandbox';

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
