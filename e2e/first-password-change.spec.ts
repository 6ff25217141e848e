import { contextAs, expect, expectAccessible, fillSignIn, test, uniqueEmail } from './fixtures';
import { addUserThroughQuorum } from './helpers/quorum';

test('a refused password change keeps what was typed and says what was wrong at the field; a later change is by choice', async ({
  browser,
}) => {
  const { page: admin, context } = await contextAs(browser, 'admin');
  const email = uniqueEmail('first-change');
  // A second admin approves the new user; the one-time password is then shown on the request page.
  const otp = await addUserThroughQuorum(browser, admin, { email, name: 'Fay First' });
  expect(otp).toMatch(/^[A-Za-z0-9]{20}$/);
  await context.close();

  const newcomer = await browser.newContext();
  const page = await newcomer.newPage();
  await fillSignIn(page, email, otp);
  await expect(page).toHaveURL(/\/change-password$/);
  const current = page.getByLabel('Current password');
  const fresh = page.getByLabel('New password', { exact: true });
  const repeat = page.getByLabel('Repeat new password');
  await current.fill(otp);
  await fresh.fill('a-much-better-passphrase');
  await repeat.fill('a-different-passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The two passwords differ')).toBeVisible();
  await expect(repeat).toHaveAttribute('aria-invalid', 'true');
  await expect(repeat).toHaveAccessibleDescription('The two passwords differ');
  // Nothing typed is lost: the second try only corrects the one field.
  await expect(current).toHaveValue(otp);
  await expect(fresh).toHaveValue('a-much-better-passphrase');
  await expectAccessible(page);
  await repeat.fill('a-much-better-passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
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
  await page.getByLabel('Current password').fill('a-much-better-passphrase');
  await page.getByLabel('New password', { exact: true }).fill('an-even-better-passphrase');
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
