import { contextAs, expect, expectAccessible, fillSignIn, test, uniqueEmail } from './fixtures';
import { setUpAtLink } from './helpers/invitations';
import { waitForLink } from './helpers/mail';
import { addUserThroughQuorum, approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';

test.describe('users admin', () => {
  test('an admin adds a user (a second admin approves), who chooses their own password at the emailed link; no admin sees it', async ({
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

    // The request page says where the invitation went, and nothing more.
    await admin.goto(requestPath);
    await expect(admin.getByText(`Invitation sent to ${email}`)).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Send the invitation again' })).toBeVisible();
    await expectAccessible(admin);
    const { link, token } = await waitForLink(email);
    expect(await admin.content()).not.toContain(token);
    await admin.goto('/admin/users');
    await expect(
      admin.getByRole('row', { name: new RegExp(email) }).getByText('Invited', { exact: true }),
    ).toBeVisible();
    expect(await admin.content()).not.toContain(token);

    // The person, in a browser of their own: a refused password says why at the field.
    const newcomer = await browser.newContext();
    const page = await newcomer.newPage();
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await expectAccessible(page);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('Repeat new password').fill('short');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByText('Use at least 12 characters')).toBeVisible();
    await expect(page.getByLabel('New password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await setUpAtLink(page, link, 'a-much-better-passphrase');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await fillSignIn(page, email, 'a-much-better-passphrase');
    await expect(page).toHaveURL(/\/wallets$/);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([
      'Wallets',
      'Webhooks',
    ]);
    await newcomer.close();

    await admin.reload();
    await expect(admin.getByRole('row', { name: new RegExp(email) }).getByText('Active')).toBeVisible();
    await context.close();
  });

  test('a viewer gets a forbidden page, and a direct call of the add-user action is refused', async ({
    browser,
  }) => {
    // Capture how the page calls the action, as anyone could from the browser's network tab.
    const { page: admin, context: adminContext } = await contextAs(browser, 'admin', '/admin/users');
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

    const { page: viewer, context: viewerContext } = await contextAs(browser, 'viewer', '/admin/users');
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
    expect(text).not.toContain('/invite/');

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
    const password = 'tess chose this passphrase';
    await addUserThroughQuorum(browser, admin, { email, name: 'Tess Temp' }, password);
    await admin.goto('/admin/users');

    const userContext = await browser.newContext();
    const user = await userContext.newPage();
    await fillSignIn(user, email, password);
    await expect(user).toHaveURL(/\/wallets$/);

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
    await expect(admin.getByRole('row', { name: new RegExp(email) }).getByText('Active')).toBeVisible();
    await fillSignIn(user, email, password);
    await expect(user).toHaveURL(/\/wallets$/);
    await adminContext.close();
    await userContext.close();
  });
});
