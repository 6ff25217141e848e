import { contextAs, expect, fillSignIn, formAlert, test, uniqueEmail } from './fixtures';
import { addUserThroughQuorum } from './helpers/quorum';

// Every journey signs in from 127.0.0.1, which may fail 20 times in 15 minutes (SIGN_IN_ADDRESS_FAILURES): the
// five failures here and the few elsewhere (counted in docs/architecture.md, under Parts) stay well below it.

test('five failed sign-ins lock the account, even against the right password', async ({ browser, page }) => {
  const { page: admin, context } = await contextAs(browser, 'admin');
  const email = uniqueEmail('lock');
  // A second admin approves the new user, who chooses their password at the link emailed to them.
  const password = 'lou chose this passphrase';
  expect(await addUserThroughQuorum(browser, admin, { email, name: 'Lou Locked' }, password)).toEqual({
    secret: null,
  });
  await context.close();

  for (let attempt = 1; attempt <= 4; attempt++) {
    await fillSignIn(page, email, `wrong-${attempt}`);
    await expect(formAlert(page)).toHaveText('The email or password is not right.');
  }
  await fillSignIn(page, email, 'wrong-5');
  await expect(formAlert(page)).toHaveText('Too many failed attempts. Sign-in is locked for 15 minutes.');
  await fillSignIn(page, email, password);
  await expect(formAlert(page)).toHaveText('Too many failed attempts. Sign-in is locked for 15 minutes.');
  await expect(page).toHaveURL(/\/sign-in/);
});
