import { generateSync } from 'otplib';
import {
  contextAs,
  DEMO,
  DEMO_PASSWORD,
  expect,
  expectAccessible,
  fillSignIn,
  signIn,
  test,
} from './fixtures';
import { nextDemoCode } from './helpers/demo-totp';
import { requestThroughForm, treasuryWallet } from './helpers/withdraw-approval';

test('a person enrols an authenticator app: the secret is shown once and a first code confirms it', async ({
  browser,
}) => {
  const { page, context } = await contextAs(browser, 'viewer');
  await page.goto('/account/security');
  await expect(page.getByRole('heading', { name: 'Security' })).toBeVisible();
  const label = `Phone ${Date.now().toString(36)}`;
  await page.getByLabel('Name').fill(label);
  await page.getByRole('button', { name: 'Add authenticator app' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page);

  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('The code is not right', { exact: false }).first()).toBeVisible();
  await page.getByLabel('Code from the app').fill(generateSync({ secret }));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added the authenticator app.' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(label) });
  await expect(row).toContainText('Authenticator app');
  await expect(row).not.toContainText('Not confirmed');

  // Removing it is allowed (a viewer approves nothing) and ends the list entry.
  await row.getByRole('button', { name: `Remove ${label}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Removed ${label}.` })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(label) })).toHaveCount(0);
  await context.close();
});

test('an approver enrols a passkey and signs in with it (Chromium virtual authenticator)', async ({
  browser,
}) => {
  // WebAuthn needs a domain: the same console under its loopback name (the server accepts that twin).
  const base = test.info().project.use.baseURL!.replace('127.0.0.1', 'localhost');
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  await signIn(page, DEMO.finance2);
  await page.goto('/account/security');
  const label = `Laptop ${Date.now().toString(36)}`;
  await page.getByLabel('Name').fill(label);
  await page.getByRole('button', { name: 'Add passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Added the passkey ${label}.` })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(label) })).toContainText('Passkey');

  // Signed out, the next sign-in offers the passkey after the password.
  await page.getByRole('button', { name: /User menu/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await fillSignIn(page, DEMO.finance2, DEMO_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Second factor' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Use passkey' }).click();
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
  // The authenticator holds one passkey for this console, used once at enrolment and once at sign-in.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials.map((c) => [c.rpId, c.signCount])).toEqual([['localhost', 2]]);
  await context.close();
});

test('a wrong code at sign-in is refused and the password is not asked again', async ({ page }) => {
  await fillSignIn(page, DEMO.finance, DEMO_PASSWORD);
  const code = page.getByLabel('Authentication code');
  await code.fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That did not work.' })).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveCount(0);
  await page.getByLabel('Authentication code').fill(await nextDemoCode(DEMO.finance));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
});

test('an approval asks for the second factor however fresh the session, and refuses a wrong code', async ({
  browser,
}) => {
  const wallet = treasuryWallet();
  const { page: finance, context: financeContext } = await contextAs(browser, 'finance');
  const requestId = await requestThroughForm(finance, wallet.id, { amount: '0.05' });

  // Signed in with a code a moment ago: the decision still asks for its own check.
  const { page: approver, context: approverContext } = await contextAs(browser, 'finance2');
  await approver.goto(`/approvals/${requestId}`);
  const confirm = approver.getByRole('dialog', { name: 'Approve this request?' });
  await expect(async () => {
    if (!(await confirm.isVisible()))
      await approver.getByRole('button', { name: 'Approve', exact: true }).click({ timeout: 2_000 });
    await expect(confirm).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await confirm.getByRole('button', { name: /^(Approve and send|Confirm approval)$/ }).click();
  const stepUp = approver.getByRole('dialog', { name: 'Confirm it is you' });
  await expect(stepUp).toBeVisible();
  await expect(stepUp).toContainText('this check serves this decision only');
  await expectAccessible(approver);
  await stepUp.getByLabel('Authentication code').fill('000000');
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await expect(stepUp.getByText('The code is not right or was already used')).toBeVisible();
  await expect(approver.getByText('Request status: Pending approval')).toBeVisible();

  await stepUp.getByLabel('Authentication code').fill(await nextDemoCode(DEMO.finance2));
  await stepUp.getByRole('button', { name: 'Confirm' }).click();
  await expect(stepUp).toHaveCount(0);
  await expect(approver.getByText('Approved.')).toBeVisible();
  await expect(approver.getByText('Request status: Pending approval')).toHaveCount(0);
  await Promise.all([financeContext.close(), approverContext.close()]);
});
