import { contextAs, expect, expectAccessible, fillSignIn, test, uniqueEmail } from './fixtures';
import { waitForLink } from './helpers/mail';
import { approveAsSecondAdmin, requestUser } from './helpers/quorum';

test('a person chooses their first password at their link; a refused one keeps what was typed and says what was wrong at the field; a later change is by choice', async ({
  browser,
}) => {
  const { page: admin, context } = await contextAs(browser, 'admin');
  const email = uniqueEmail('first-change');
  // A second admin approves the new user; the invitation then goes to their address.
  await approveAsSecondAdmin(browser, await requestUser(admin, { email, name: 'Fay First' }));
  await context.close();
  const { link } = await waitForLink(email);

  const newcomer = await browser.newContext();
  const page = await newcomer.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
  const fresh = page.getByLabel('New password', { exact: true });
  const repeat = page.getByLabel('Repeat new password');
  await fresh.fill('a-much-better-passphrase');
  await repeat.fill('a-different-passphrase');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('The two passwords differ')).toBeVisible();
  await expect(repeat).toHaveAttribute('aria-invalid', 'true');
  await expect(repeat).toHaveAccessibleDescription('The two passwords differ');
  // Nothing typed is lost: the second try only corrects the one field.
  await expect(fresh).toHaveValue('a-much-better-passphrase');
  await expectAccessible(page);
  await repeat.fill('a-much-better-passphrase');
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your account is ready' })).toBeVisible();
  await fillSignIn(page, email, 'a-much-better-passphrase');
  // Their own password: nothing to change first.
  await expect(page).toHaveURL(/\/wallets$/);

  // Later, by choice: from Security, with a way back, and the current password asked for.
  await page.goto('/account/security');
  await page.getByRole('link', { name: 'Change password' }).click();
  await expect(page.getByRole('heading', { name: 'Change your password' })).toBeVisible();
  await expect(page.getByText('A password given by an administrator works once')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Back to the console' })).toHaveAttribute(
    'href',
    '/account/security',
  );
  await expectAccessible(page);
  const current = page.getByLabel('Current password');
  await current.fill('a-much-better-passphrase');
  await page.getByLabel('New password', { exact: true }).fill('an-even-better-passphrase');
  await page.getByLabel('Repeat new password').fill('an-even-better-pass');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The two passwords differ')).toBeVisible();
  await expect(current).toHaveValue('a-much-better-passphrase');
  await page.getByLabel('Repeat new password').fill('an-even-better-passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/wallets$/);
  await newcomer.close();

  // The new password signs in.
  const again = await browser.newContext();
  const next = await again.newPage();
  await fillSignIn(next, email, 'an-even-better-passphrase');
  await expect(next).toHaveURL(/\/wallets$/);
  await again.close();
});
