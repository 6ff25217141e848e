import { contextAs, expect, expectAccessible, fillSignIn, formAlert, test, uniqueEmail } from './fixtures';
import { addUserThroughQuorum, approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';

test.describe('users admin', () => {
  test('an admin adds a user (a second admin approves), who signs in with the one-time password and must change it', async ({
    browser,
  }) => {
    const { page: admin, context } = await contextAs(browser, 'admin');
    await admin.getByRole('link', { name: 'Admin' }).click();
    await expect(admin.getByRole('heading', { name: 'Users' })).toBeVisible();
    await expectAccessible(admin);

    const email = uniqueEmail('new-support');
    await admin.getByRole('button', { name: 'Add user' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Name').fill('Nia New');
    await dialog.getByLabel('Role').selectOption('support');
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Request user' }).click();
    const requestPath = await requestedChangePath(admin);
    // The request refreshes the page behind the dialog; its title comes back with it.
    await expect(admin).toHaveTitle(/Users/);
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Done' }).click();
    // Nobody is created until a second admin approves.
    await expect(admin.getByRole('cell', { name: email })).toHaveCount(0);
    await approveAsSecondAdmin(browser, requestPath);
    await admin.goto(requestPath);
    await admin.getByRole('button', { name: 'Show the one-time password' }).click();
    const otp = (await admin.getByTestId('one-time-password').textContent())?.trim() ?? '';
    expect(otp).toMatch(/^[A-Za-z0-9]{20}$/);
    await expectAccessible(admin);
    // Shown once: the page no longer offers it.
    await admin.reload();
    await expect(
      admin.getByText('The one-time password was shown to you once and is not kept.', { exact: false }),
    ).toBeVisible();
    await admin.goto('/admin/users');
    await expect(admin.getByRole('cell', { name: email })).toBeVisible();
    await expect(
      admin.getByRole('row', { name: new RegExp(email) }).getByText('Password change due'),
    ).toBeVisible();
    await context.close();

    const newcomer = await browser.newContext();
    const page = await newcomer.newPage();
    await fillSignIn(page, email, otp);
    await expect(page).toHaveURL(/\/change-password$/);
    await expectAccessible(page);
    // Nothing else opens until the password is changed.
    await page.goto('/wallets');
    await expect(page).toHaveURL(/\/change-password$/);
    await page.getByLabel('Current password').fill(otp);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat new password').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Use at least 12 characters')).toBeVisible();
    await page.getByLabel('Current password').fill(otp);
    await page.getByLabel('New password', { exact: true }).fill('a-much-better-passphrase');
    await page.getByLabel('Repeat new password').fill('a-much-better-passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page).toHaveURL(/\/wallets$/);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
      'Wallets',
      'Webhooks',
    ]);
    await newcomer.close();

    // The one-time password no longer works; the new one does.
    const again = await browser.newContext();
    const check = await again.newPage();
    await fillSignIn(check, email, otp);
    await expect(formAlert(check)).toHaveText('The email or password is not right.');
    await fillSignIn(check, email, 'a-much-better-passphrase');
    await expect(check).toHaveURL(/\/wallets$/);
    await again.close();
  });

  test('a viewer gets a forbidden page, and a direct call of the add-user action is refused', async ({
    browser,
  }) => {
    // Capture how the page calls the action, as anyone could from the browser's network tab.
    const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
    await admin.goto('/admin/users');
    await admin.getByRole('button', { name: 'Add user' }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByLabel('Email').fill(uniqueEmail('captured'));
    await dialog.getByLabel('Name').fill('Captured');
    const requestPromise = admin.waitForRequest(
      (r) => r.method() === 'POST' && Boolean(r.headers()['next-action']),
    );
    await dialog.getByRole('button', { name: 'Request user' }).click();
    const captured = await requestPromise;
    const actionId = captured.headers()['next-action']!;
    await expect(dialog.getByRole('status').filter({ hasText: 'Waiting for a second admin' })).toBeVisible();

    const { page: viewer, context: viewerContext } = await contextAs(browser, 'viewer');
    await viewer.goto('/admin/users');
    await expect(viewer.getByRole('heading', { name: 'Forbidden' })).toBeVisible();
    await expectAccessible(viewer);

    const forged = uniqueEmail('forged');
    const body = JSON.stringify([{ email: forged, name: 'Forged', role: 'admin' }]);
    const answer = await viewerContext.request.post('/admin/users', {
      headers: {
        'next-action': actionId,
        'content-type': 'text/plain;charset=UTF-8',
        accept: 'text/x-component',
        'next-router-state-tree': captured.headers()['next-router-state-tree'] ?? '',
      },
      data: body,
    });
    const text = await answer.text();
    expect(text).toContain('You do not have permission to do this.');
    expect(text).not.toContain('oneTimePassword');

    await admin.goto('/admin/users');
    await expect(admin.getByRole('heading', { name: 'Users' })).toBeVisible();
    await expect(admin.getByText(forged)).toHaveCount(0);
    await adminContext.close();
    await viewerContext.close();
  });

  test('an admin disables a user, whose open session ends at once, and re-enables them with a second admin', async ({
    browser,
  }) => {
    const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
    const email = uniqueEmail('temp');
    const otp = await addUserThroughQuorum(browser, admin, { email, name: 'Tess Temp' });
    await admin.goto('/admin/users');

    const userContext = await browser.newContext();
    const user = await userContext.newPage();
    await fillSignIn(user, email, otp);
    await expect(user).toHaveURL(/\/change-password$/);

    await admin.getByRole('button', { name: 'Disable Tess Temp' }).click();
    await expect(admin.getByRole('row', { name: new RegExp(email) }).getByText('Disabled')).toBeVisible();
    await user.reload();
    await expect(user).toHaveURL(/\/sign-in/);

    // Disabling is immediate; re-enabling waits for a second admin.
    await admin.getByRole('button', { name: 'Request to re-enable Tess Temp' }).click();
    const enabling = await requestedChangePath(admin);
    await expect(admin.getByRole('row', { name: new RegExp(email) }).getByText('Disabled')).toBeVisible();
    await approveAsSecondAdmin(browser, enabling);
    await admin.reload();
    await expect(
      admin.getByRole('row', { name: new RegExp(email) }).getByText('Password change due'),
    ).toBeVisible();
    await fillSignIn(user, email, otp);
    await expect(user).toHaveURL(/\/change-password$/);
    await adminContext.close();
    await userContext.close();
  });
});
