import { contextAs, expect, fillSignIn, formAlert, test, uniqueEmail } from './fixtures';

test('five failed sign-ins lock the account, even against the right password', async ({ browser, page }) => {
  const { page: admin, context } = await contextAs(browser, 'admin');
  await admin.goto('/admin/users');
  const email = uniqueEmail('lock');
  await admin.getByRole('button', { name: 'Add user' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Name').fill('Lou Locked');
  await dialog.getByRole('button', { name: 'Create user' }).click();
  const otp = (await dialog.getByTestId('one-time-password').textContent())?.trim() ?? '';
  expect(otp).not.toBe('');
  await context.close();

  for (let attempt = 1; attempt <= 4; attempt++) {
    await fillSignIn(page, email, `wrong-${attempt}`);
    await expect(formAlert(page)).toHaveText('The email or password is not right.');
  }
  await fillSignIn(page, email, 'wrong-5');
  await expect(formAlert(page)).toHaveText('Too many failed attempts. Sign-in is locked for 15 minutes.');
  await fillSignIn(page, email, otp);
  await expect(formAlert(page)).toHaveText('Too many failed attempts. Sign-in is locked for 15 minutes.');
  await expect(page).toHaveURL(/\/sign-in/);
});
