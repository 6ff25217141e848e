import {
  DEMO,
  type DemoRole,
  expect,
  expectAccessible,
  fillSignIn,
  formAlert,
  signIn,
  test,
} from './fixtures';

const NAV: Record<DemoRole, string[]> = {
  admin: ['Wallets', 'Approvals', 'Webhooks', 'Audit', 'Admin'],
  admin2: ['Wallets', 'Approvals', 'Webhooks', 'Audit', 'Admin'],
  finance: ['Wallets', 'Approvals', 'Webhooks'],
  finance2: ['Wallets', 'Approvals', 'Webhooks'],
  support: ['Wallets', 'Webhooks'],
  viewer: ['Wallets', 'Webhooks', 'Audit'],
};

test.describe('signing in', () => {
  for (const role of Object.keys(NAV) as DemoRole[]) {
    test(`${role} signs in and sees the navigation of the role`, async ({ page }) => {
      await signIn(page, DEMO[role]);
      await expect(page).toHaveURL(/\/wallets$/);
      const nav = page.getByRole('navigation', { name: 'Main' });
      // A link may carry a count badge ("1 request needs your approval") after its name.
      await expect(nav.getByRole('link')).toHaveText(NAV[role].map((name) => new RegExp(`^${name}`)));
      await expect(page.getByText('Sandbox: no real funds')).toBeVisible();
      await expectAccessible(page);
    });
  }

  test('the sign-in page lists the demo users and passes axe', async ({ page }) => {
    await page.goto('/sign-in');
    for (const email of Object.values(DEMO))
      await expect(page.getByText(email, { exact: true })).toBeVisible();
    await expectAccessible(page);
  });

  test('a wrong password and an unknown email get the same generic message', async ({ page }) => {
    await fillSignIn(page, DEMO.support, 'not-the-password');
    await expect(formAlert(page)).toHaveText('The email or password is not right.');
    await fillSignIn(page, 'nobody-here@example.com', 'whatever');
    await expect(formAlert(page)).toHaveText('The email or password is not right.');
    await expect(page).toHaveURL(/\/sign-in/);
    await expectAccessible(page);
  });

  test('an empty form is answered at the fields, not sent', async ({ page }) => {
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    await expect(page.getByText('Enter your password')).toBeVisible();
  });

  test('signing out ends the session', async ({ page }) => {
    await signIn(page, DEMO.viewer);
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto('/audit');
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Faudit/);
  });

  test('a signed-out visit goes to sign-in and comes back after', async ({ page }) => {
    await page.goto('/audit');
    await expect(page).toHaveURL(/\/sign-in/);
    await page.getByLabel('Email').fill(DEMO.viewer);
    await page.getByLabel('Password').fill('custody-demo');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  });

  test('every response carries the security headers', async ({ page }) => {
    const response = await page.goto('/sign-in');
    const headers = response!.headers();
    expect(headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
