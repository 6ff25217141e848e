// Credentials pass through no one: a new person is invited by email (a second admin approves), sets their own
// password and authenticator app at the link, and signs in; the admins' pages say where the link went and never
// show it; a link works once, and a newer one replaces it. A reset link is a request too, and works the same way.
// (An expired link is refused with a sentence too: lib/server/invitations/invitations.test.ts, with a faked clock.)
import { generateSync } from 'otplib';
import {
  contextAs,
  enrolAuthenticatorAtSignIn,
  expect,
  expectAccessible,
  fillSignIn,
  formAlert,
  test,
  uniqueEmail,
} from './fixtures';
import { laterCode, setUpAtLink } from './helpers/invitations';
import { waitForLink } from './helpers/mail';

// Each journey signs in several people (two admins, the person, each with a bcrypt check) and follows an email.
test.describe.configure({ timeout: 240_000 });

import {
  addUserThroughQuorum,
  approveAsSecondAdmin,
  requestedChangePath,
  requestUser,
} from './helpers/quorum';

test('an invited approver sets their own password and authenticator app at the emailed link and signs in; no admin sees the link', async ({
  browser,
}) => {
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  const email = uniqueEmail('invited-finance');
  const requestPath = await requestUser(admin, { email, name: 'Ivy Invited', role: 'finance' });
  await approveAsSecondAdmin(browser, requestPath);

  // The email arrived at the person's own address, with the link.
  const first = await waitForLink(email);
  expect(first.mail.to).toEqual([email]);
  expect(first.mail.subject).toBe('Your Custody Console account');
  expect(first.mail.text).toContain('set up an authenticator app');

  // The requesting admin reads where it went, never the link: not on the request page, its data or the users page.
  await admin.goto(requestPath);
  await expect(admin.getByText(`Invitation sent to ${email}`)).toBeVisible();
  await expect(admin.getByText(/The link works once, until/)).toBeVisible();
  await expectAccessible(admin);
  expect(await admin.content()).not.toContain(first.token);
  const feed = await adminContext.request.get(`${requestPath}/feed`);
  expect(feed.ok()).toBe(true);
  expect(await feed.text()).not.toContain(first.token);
  await admin.goto('/admin/users');
  await expect(
    admin.getByRole('row', { name: new RegExp(email) }).getByText('Invited', { exact: true }),
  ).toBeVisible();
  expect(await admin.content()).not.toContain(first.token);

  // "Send the invitation again": a new link, and the first one stops working.
  await admin.goto(requestPath);
  await admin.getByRole('button', { name: 'Send the invitation again' }).click();
  await expect(
    admin.getByText(`A new link was sent to ${email}; the earlier one no longer works`),
  ).toBeVisible();
  const second = await waitForLink(email, 2);
  expect(second.token).not.toBe(first.token);
  await admin.reload();
  await expect(admin.getByText(`Invitation sent to ${email}`)).toBeVisible();
  expect(await admin.content()).not.toContain(second.token);

  // The person, in a browser of their own.
  const personContext = await browser.newContext();
  const person = await personContext.newPage();
  await person.goto(first.link);
  await expect(person.getByRole('heading', { name: 'This link cannot be used' })).toBeVisible();
  await expect(person.getByRole('alert').filter({ hasText: 'a newer one was sent' })).toHaveText(
    'This link no longer works: a newer one was sent, or the account was disabled since. Use the latest email, or ask an admin to send the invitation again.',
  );
  await expectAccessible(person);

  await person.goto(second.link);
  await expect(person.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
  await expect(person.getByRole('heading', { name: 'Authenticator app' })).toBeVisible();
  await person.getByLabel('New password', { exact: true }).fill('ivy-chose-this-passphrase');
  await person.getByLabel('Repeat new password').fill('ivy-chose-this-passphrase');
  // Without the app, nothing is set: an approver signs in with a second factor.
  await person.getByRole('button', { name: 'Set password and finish' }).click();
  await expect(person.getByText('Set up your authenticator app first')).toBeVisible();
  await person.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const secret = (await person.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(person);
  // A wrong code says so at its field and keeps the rest.
  const right = generateSync({ secret });
  await person.getByLabel('Authentication code').fill(right === '000000' ? '111111' : '000000');
  await person.getByRole('button', { name: 'Set password and finish' }).click();
  await expect(person.getByText('That code did not match: enter the one your app shows now')).toBeVisible();
  await expect(person.getByLabel('Authentication code')).toHaveAttribute('aria-invalid', 'true');
  await expect(person.getByLabel('New password', { exact: true })).toHaveValue('ivy-chose-this-passphrase');
  await person.getByLabel('Authentication code').fill(generateSync({ secret }));
  await person.getByRole('button', { name: 'Set password and finish' }).click();
  await expect(person.getByRole('status').filter({ hasText: 'Your account is ready' })).toContainText(
    'and a code from your authenticator app',
  );
  await expectAccessible(person);

  // The link worked once.
  await person.goto(second.link);
  await expect(person.getByRole('alert').filter({ hasText: 'already used' })).toHaveText(
    'This link was already used: it works once. Sign in with the password you chose, or ask an admin for a reset link.',
  );

  // They sign in with what they chose: their password and their app.
  await fillSignIn(person, email, 'ivy-chose-this-passphrase');
  await person.getByLabel('Authentication code').fill(laterCode(secret));
  await person.getByRole('button', { name: 'Verify' }).click();
  await expect(person.getByRole('button', { name: /User menu/ })).toBeVisible();
  await expect(
    person.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }),
  ).toBeVisible();
  await personContext.close();

  // The request page now says the link was used, and offers nothing to send.
  await admin.reload();
  await expect(
    admin.getByText(new RegExp(`${email} used the invitation on .* and chose their own password`)),
  ).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Send the invitation again' })).toHaveCount(0);
  const page = await admin.content();
  expect(page).not.toContain(first.token);
  expect(page).not.toContain(second.token);
  await adminContext.close();
});

test('a reset link a second admin approved stops the old password at once and lets the person choose a new one', async ({
  browser,
}) => {
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  const email = uniqueEmail('reset-support');
  await addUserThroughQuorum(
    browser,
    admin,
    { email, name: 'Rex Reset', role: 'support' },
    'rex first passphrase',
  );

  await admin.goto('/admin/users');
  await admin.getByRole('button', { name: 'Send a reset link to Rex Reset' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Send Rex Reset a reset link' });
  await expect(dialog.getByLabel('Password only')).toBeChecked();
  await expectAccessible(admin);
  await dialog.getByRole('button', { name: 'Request a reset link' }).click();
  const requestPath = await requestedChangePath(admin);
  // Nothing changes until a second admin approves.
  const personContext = await browser.newContext();
  const person = await personContext.newPage();
  await fillSignIn(person, email, 'rex first passphrase');
  await expect(person).toHaveURL(/\/wallets$/);
  await approveAsSecondAdmin(browser, requestPath);

  // At once: the old password no longer signs in (and the open session ended).
  await person.reload();
  await expect(person).toHaveURL(/\/sign-in/);
  await fillSignIn(person, email, 'rex first passphrase');
  await expect(formAlert(person)).toHaveText('The email or password is not right.');

  const reset = await waitForLink(email, 2);
  expect(reset.mail.subject).toBe('Reset your Custody Console sign-in');
  await admin.goto(requestPath);
  await expect(admin.getByText(`Reset link sent to ${email}`)).toBeVisible();
  expect(await admin.content()).not.toContain(reset.token);

  await setUpAtLink(person, reset.link, 'rex second passphrase');
  await expect(person.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await fillSignIn(person, email, 'rex second passphrase');
  await expect(person).toHaveURL(/\/wallets$/);
  await personContext.close();
  await adminContext.close();
});

test('a person invited without a second factor and later made an approver sets one up at their next sign-in', async ({
  browser,
}) => {
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  const email = uniqueEmail('promoted');
  await addUserThroughQuorum(
    browser,
    admin,
    { email, name: 'Pia Promoted', role: 'viewer' },
    'pia own passphrase',
  );
  await admin.goto('/admin/users');
  // The role list answers once the page has hydrated: a dialog that opens says it has.
  await expect(async () => {
    await admin.getByRole('button', { name: 'Add user' }).click({ timeout: 2_000 });
    await expect(admin.getByRole('dialog')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await admin.keyboard.press('Escape');
  await expect(admin.getByRole('dialog')).toHaveCount(0);
  await admin.getByLabel(`Role of ${email}`).selectOption('finance');
  await approveAsSecondAdmin(browser, await requestedChangePath(admin));
  await adminContext.close();

  const context = await browser.newContext();
  const page = await context.newPage();
  await fillSignIn(page, email, 'pia own passphrase');
  await enrolAuthenticatorAtSignIn(page);
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
  await context.close();
});

test('the sandbox mailbox page says a console with a mail server keeps no emails', async ({ page }) => {
  // The run's console sends through SMTP_URL, so the demo mailbox stays empty, and it needs no session.
  await page.goto('/mailbox');
  await expect(page.getByRole('heading', { name: 'Sandbox mailbox' })).toBeVisible();
  await expect(
    page.getByText('This console sends email through its mail server (SMTP_URL): nothing is kept here.'),
  ).toBeVisible();
  await expectAccessible(page);
});
