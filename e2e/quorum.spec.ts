// Configuration changes need a second admin: a policy change waits for one and applies when admin2 approves;
// an admin cannot get it approved through a user they added themselves (the sock-puppet path).

import { contextAs, expect, expectAccessible, test, uniqueEmail } from './fixtures';
import { signInWithOwnCredentials } from './helpers/invitations';
import { addUserThroughQuorum, approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';

const RETRY = 'Retry of a failed transaction';
// The admin asked for the new admin's account: the new admin is not independent of them.
const NOT_INDEPENDENT =
  /Your decision cannot count as a second person’s: admin@example\.com \(the requester\) controls your account/;

// Both tests change the retry policy: one after the other.
test.describe.configure({ mode: 'serial' });

test('a policy change waits for a second admin and applies after admin2 approves', async ({ browser }) => {
  const { page: admin, context } = await contextAs(browser, 'admin', '/admin/policy');
  const expiry = admin.getByLabel(`${RETRY}: open for (minutes)`);
  // The form's fields get their values when it hydrates; a value typed before that would be replaced.
  await expect(expiry).not.toHaveValue('');
  const before = await expiry.inputValue();
  const after = before === '1439' ? '1438' : '1439';
  await expiry.fill(after);
  await admin.getByRole('button', { name: `Request ${RETRY.toLowerCase()} policy change` }).click();
  const requestPath = await requestedChangePath(admin);
  await expectAccessible(admin);

  // Nothing changed yet.
  await admin.reload();
  await expect(expiry).toHaveValue(before);

  // The request shows the policy before and after; the requester cannot approve it.
  await admin.goto(requestPath);
  await expect(admin.getByText('Request status: Pending approval')).toBeVisible();
  const diff = admin.getByRole('table', { name: `Policy of ${RETRY}: before and after` });
  await expect(diff.getByRole('row', { name: /Expiry/ })).toContainText(`${after} minutes`);
  await expect(diff.getByRole('row', { name: /Approvals needed/ })).toContainText('unchanged');
  await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expectAccessible(admin);

  // It is in the second admin's queue, and applies when they approve.
  const { page: second, context: secondContext } = await contextAs(browser, 'admin2', '/approvals');
  await expect(second.getByRole('link', { name: new RegExp(`Policy of ${RETRY}`) }).first()).toBeVisible();
  await secondContext.close();
  await approveAsSecondAdmin(browser, requestPath);
  await admin.goto('/admin/policy');
  await expect(expiry).toHaveValue(after);
  await context.close();
});

test('a user an admin added cannot approve that admin’s request; another admin can', async ({ browser }) => {
  const { page: admin, context } = await contextAs(browser, 'admin');
  const email = uniqueEmail('puppet');
  // The admin asked for the account (at an address of their choosing): the new admin sets up their password and
  // authenticator app at the link emailed there, and signs in.
  const password = 'a-puppet-passphrase-1';
  const { secret } = await addUserThroughQuorum(
    browser,
    admin,
    { email, name: 'Pat Puppet', role: 'admin' },
    password,
  );
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const puppetContext = await browser.newContext();
  const puppet = await puppetContext.newPage();
  await signInWithOwnCredentials(puppet, email, password, secret);

  // The admin asks for a change; the user they added tries to approve it.
  await admin.goto('/admin/policy');
  const expiry = admin.getByLabel(`${RETRY}: open for (minutes)`);
  // The form's fields get their values when it hydrates; a value typed before that would be replaced.
  await expect(expiry).not.toHaveValue('');
  const next = (await expiry.inputValue()) === '1440' ? '1437' : '1440';
  await expiry.fill(next);
  await admin.getByRole('button', { name: `Request ${RETRY.toLowerCase()} policy change` }).click();
  const requestPath = await requestedChangePath(admin);

  // The request page says why the new admin may not decide, and offers no Approve.
  await puppet.goto(requestPath);
  await expect(puppet.getByText('Request status: Pending approval')).toBeVisible();
  await expect(
    puppet.getByRole('alert').filter({ hasText: 'You cannot decide on this request' }),
  ).toContainText(NOT_INDEPENDENT);
  await expect(puppet.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expectAccessible(puppet);
  await puppetContext.close();

  // Someone else may.
  await approveAsSecondAdmin(browser, requestPath);
  await admin.goto('/admin/policy');
  await expect(expiry).toHaveValue(next);
  await context.close();
});
