// One insider cannot move money or loosen a rule alone. Each journey below is one way an insider might try, and
// each must be refused: approving a withdrawal by a finance user whose invitation the insider read (on the page
// and by calling the approval with a second-factor proof of their own), approving an API token's withdrawal
// through a user the token's holder asked for, paying an address book entry whose cooling-off started again while
// the request waited, sending a contract transfer above the threshold (whole, or split into calls under it) on
// one approval, a sole admin of a console in real-service mode adding a deputy admin, disabling the other admin
// to be the only one, a settlement rule forwarding a customer's deposits to the insider, and whitelisting the
// insider's address to pay it.
import type { Browser, Page } from '@playwright/test';
import { getAddress } from 'viem';
import {
  contextAs,
  DEMO,
  enrolAuthenticatorAtSignIn,
  expect,
  expectAccessible,
  fillSignIn,
  test,
  uniqueEmail,
} from './fixtures';
import { approveOnPage, nextActionRequest, replayAction } from './helpers/actions';
import { bookEntry, employee } from './helpers/address-book';
import { api, tokenThroughQuorum } from './helpers/console-api';
import {
  approveAsSecondAdminCapturing,
  approveByCallingActions,
  builtDecisionActions,
  codesAfter,
  type DecisionActions,
} from './helpers/decisions';
import { nextDemoCode } from './helpers/demo-totp';
import { acceptInNewContext, type NewUser, signInWithOwnCredentials } from './helpers/invitations';
import { waitForLink } from './helpers/mail';
import { approveAsSecondAdmin, requestedChangePath, requestUser } from './helpers/quorum';
import { randomAddress, type SandboxTransaction, sandboxCall, sandboxWallet } from './helpers/sandbox';
import { startRealServiceConsole } from './helpers/second-console';
import { codesFor, confirmItIsYou, stepUpDialog } from './helpers/step-up';
import { fillRecipientAddress, requestThroughForm } from './helpers/withdraw-approval';

const wallet = sandboxWallet('Treasury');
const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
const PENDING = 'Request status: Pending approval';
const CANNOT_DECIDE = 'You cannot decide on this request';

/** The reference the console sends a request's first transaction under (lib/server/approvals/hash.ts). */
const referenceOf = (requestId: string) => `req-${requestId.replace(/-/g, '').slice(0, 12)}-0`;

/** What the custody service holds under a request's reference: empty while nothing was sent. */
async function sentUnder(page: Page, requestId: string) {
  const sent = await sandboxCall<SandboxTransaction[]>(
    page.request,
    wallet,
    'GET',
    `/v1/wallets/${wallet.id}/transactions?reference=${referenceOf(requestId)}`,
  );
  expect(sent.status).toBe(200);
  return sent.json.data;
}

/**
 * The admin asks for a user at an address of their choosing, the second admin approves (how their page called
 * the approval is kept), and the invitation is set up at the link that arrived in that mailbox, in a browser
 * of its own. Returns the new account's authenticator secret and the captured approval.
 */
async function inviteThroughQuorum(
  browser: Browser,
  admin: Page,
  user: NewUser,
  password: string,
): Promise<{ secret: string; actions: DecisionActions }> {
  const path = await requestUser(admin, user);
  const actions = await approveAsSecondAdminCapturing(browser, path);
  await admin.goto(path);
  await expect(admin.getByText('Request status: Success')).toBeVisible();
  await expect(admin.getByText(`Invitation sent to ${user.email}`)).toBeVisible();
  const { link } = await waitForLink(user.email);
  const secret = await acceptInNewContext(browser, link, password);
  expect(secret, 'a finance user sets up an authenticator app').toMatch(/^[A-Z2-7]{32}$/);
  return { secret: secret!, actions };
}

/** Signs the invited person in (password and app); returns the page and the codes of their app still unused. */
async function signInAsInvited(browser: Browser, email: string, password: string, secret: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInWithOwnCredentials(page, email, password, secret);
  // Sign-in used the code one step ahead of the clock (helpers/invitations.ts): later codes follow it.
  return { context, page, codes: codesAfter(secret, Math.floor(Date.now() / 30_000) + 1) };
}

test('an admin cannot approve a withdrawal by a finance user whose invitation they read, nor by calling the action', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  // The admin asks for a finance account at a mailbox they read, opens the link that arrives there and sets the
  // account up: they hold its password and its authenticator app.
  const email = uniqueEmail('reverse');
  const password = 'a-reverse-passphrase-1';
  const { secret, actions } = await inviteThroughQuorum(
    browser,
    admin,
    { email, name: 'Remy Reverse', role: 'finance' },
    password,
  );
  const { page: puppet, context: puppetContext } = await signInAsInvited(browser, email, password, secret);

  // As the finance user, the admin requests a withdrawal; then, as themself, opens it to approve it.
  const requestId = await requestThroughForm(puppet, wallet.id, { amount: '0.35' });
  await expect(puppet.getByText(PENDING)).toBeVisible();
  await puppetContext.close();
  await admin.goto(`/approvals/${requestId}`);
  await expect(admin.getByText(PENDING)).toBeVisible();
  await expect(admin.getByText(`Requested by ${email}`, { exact: true })).toBeVisible();
  // No Approve, and the page says why in place of it.
  await expect(admin.getByRole('alert').filter({ hasText: CANNOT_DECIDE })).toContainText(
    `Your decision cannot count as a second person’s: you control the account of ${email} (the requester)`,
  );
  await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expectAccessible(admin);

  // The approval action, called with the admin's session and a second-factor proof of their own, is refused
  // by the engine with the same sentence.
  const answer = await approveByCallingActions(admin, actions, requestId, () => nextDemoCode(DEMO.admin));
  expect(answer).toContain('Your decision cannot count as a second person’s');
  expect(answer).not.toContain('"ok":true');

  // Nothing counted and nothing was sent.
  await admin.reload();
  await expect(admin.getByText(PENDING)).toBeVisible();
  await expect(admin.getByText('Approvals 0 of 1')).toBeVisible();
  expect(await sentUnder(admin, requestId)).toEqual([]);
  await adminContext.close();
});

test('an admin asked for by an admin the attacker asked for cannot approve the attacker’s policy change', async ({
  browser,
}) => {
  test.setTimeout(420_000);
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  // X: an admin the attacker asked for at a mailbox they read; admin2 approves, the attacker sets X up.
  const run = Date.now().toString(36);
  const xEmail = uniqueEmail('chain-x');
  const xPassword = 'a-chain-x-passphrase-1';
  const { secret: xSecret } = await inviteThroughQuorum(
    browser,
    admin,
    { email: xEmail, name: `Xavier Chain ${run}`, role: 'admin' },
    xPassword,
  );
  const { page: x, context: xContext } = await signInAsInvited(browser, xEmail, xPassword, xSecret);

  // As X, the attacker asks for admin Y. The attacker controls X, so may not approve it; admin2 does.
  const yEmail = uniqueEmail('chain-y');
  const yPassword = 'a-chain-y-passphrase-1';
  const yPath = await requestUser(x, { email: yEmail, name: `Yolanda Chain ${run}`, role: 'admin' });
  await xContext.close();
  await admin.goto(yPath);
  await expect(admin.getByText(PENDING)).toBeVisible();
  await expect(admin.getByRole('alert').filter({ hasText: CANNOT_DECIDE })).toContainText(
    'Your decision cannot count as a second person’s',
  );
  await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  const actions = await approveAsSecondAdminCapturing(browser, yPath);
  const { link } = await waitForLink(yEmail);
  const ySecret = await acceptInNewContext(browser, link, yPassword);
  expect(ySecret).toMatch(/^[A-Z2-7]{32}$/);
  const { page: y, context: yContext, codes } = await signInAsInvited(browser, yEmail, yPassword, ySecret!);

  // The attacker asks for a looser policy; Y, two links away, is not offered the decision and cannot take it.
  await admin.goto('/admin/policy');
  const expiry = admin.getByLabel('Typed-data signature: open for (minutes)');
  await expect(expiry).not.toHaveValue('');
  const next = (await expiry.inputValue()) === '1440' ? '1433' : '1440';
  await expiry.fill(next);
  await admin.getByRole('button', { name: 'Request typed-data signature policy change' }).click();
  const policyPath = await requestedChangePath(admin);
  const requestId = policyPath.split('/').pop()!;
  await y.goto(policyPath);
  await expect(y.getByText(PENDING)).toBeVisible();
  await expect(y.getByRole('alert').filter({ hasText: CANNOT_DECIDE })).toContainText(
    'Your decision cannot count as a second person’s: admin@example.com (the requester) controls your account',
  );
  await expect(y.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expectAccessible(y);
  const answer = await approveByCallingActions(y, actions, requestId, codes);
  expect(answer).toContain('Your decision cannot count as a second person’s');
  expect(answer).not.toContain('"ok":true');
  await y.reload();
  await expect(y.getByText(PENDING)).toBeVisible();
  await expect(y.getByText('Approvals 0 of 1')).toBeVisible();
  await yContext.close();
  await admin.goto('/admin/policy');
  await expect(expiry).not.toHaveValue(next);
  await adminContext.close();
});

test('a user asked for by an API token’s holder cannot approve the token’s withdrawal', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  const run = Date.now().toString(36);
  // The admin asks for a token, the second admin approves, and the admin is shown its secret.
  const token = await tokenThroughQuorum(browser, admin, {
    name: `Chain ${run}`,
    scopes: ['Request withdrawals'],
    dailyCapUsd: '5',
  });
  // Then asks for a finance user (the second admin approves): the user's account is the admin's too.
  const email = uniqueEmail('chain');
  const password = 'a-chain-passphrase-1';
  const { secret, actions } = await inviteThroughQuorum(
    browser,
    admin,
    { email, name: 'Cass Chain', role: 'finance' },
    password,
  );
  await adminContext.close();

  // The token asks for a withdrawal to an address book entry.
  const made = await api(request, token, 'POST', `/api/v1/wallets/${wallet.id}/withdrawals`, {
    assetId: usdc.id,
    address: bookEntry(wallet, 'Bluth Company').address,
    amount: '0.45',
    reference: `chain-${run}`,
  });
  expect(made.status).toBe(201);
  expect(made.json.data).toMatchObject({ status: 'PENDING_APPROVAL', requiredApprovals: 2 });
  const requestId: string = made.json.data.id;

  // The user the admin asked for opens it: no Approve, and the page says why.
  const {
    page: chained,
    context: chainedContext,
    codes,
  } = await signInAsInvited(browser, email, password, secret);
  await chained.goto(`/approvals/${requestId}`);
  await expect(chained.getByText(PENDING)).toBeVisible();
  await expect(chained.getByText(`Chain ${run} (API token)`).first()).toBeVisible();
  await expect(chained.getByRole('alert').filter({ hasText: CANNOT_DECIDE })).toContainText(
    'You were shown this API token’s secret, or were added or given your role by someone who was, so its requests could be yours; another person must approve.',
  );
  await expect(chained.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expectAccessible(chained);

  // Calling the approval action with the user's session and their own second-factor proof: refused too.
  const answer = await approveByCallingActions(chained, actions, requestId, codes);
  expect(answer).toContain('You were shown this API token’s secret');
  expect(answer).not.toContain('"ok":true');
  await chained.reload();
  await expect(chained.getByText(PENDING)).toBeVisible();
  await expect(chained.getByText('Approvals 0 of 2')).toBeVisible();
  await chainedContext.close();

  // Someone independent of the admin may still approve it: the refusal is about who holds the token.
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/approvals/${requestId}`,
  );
  await expect(finance.getByRole('button', { name: 'Approve', exact: true })).toBeVisible();
  await expect(finance.getByText(CANNOT_DECIDE)).toHaveCount(0);
  await financeContext.close();
  const after = await api(request, token, 'GET', `/api/v1/requests/${requestId}`);
  expect(after.json.data.status).toBe('PENDING_APPROVAL');
});

/** The admin asks for a batch of USDC transfers from Operating float 2 as a contract write; returns its request id. */
async function requestUsdcTransfers(admin: Page, transfers: Array<{ recipient: string; amount: number }>) {
  const float = wallet.addresses.find((a) => /Operating float 2/.test(a.name ?? ''))!;
  await admin.goto(`/wallets/${wallet.id}/contracts`);
  await expect(async () => {
    await admin.getByLabel('Known token').selectOption({ label: 'USDC' }, { timeout: 2_000 });
    await expect(admin.getByLabel('Contract address')).toHaveValue(usdc.address, { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  const rows = admin.getByRole('table', { name: 'Calls in this batch' }).getByRole('row');
  for (const [i, { recipient, amount }] of transfers.entries()) {
    await admin.getByLabel('Method').selectOption('transfer(address,uint256)');
    await admin.getByLabel('recipient (address)').fill(recipient);
    await admin.getByLabel('amount (USDC)').fill(String(amount));
    await admin.getByRole('button', { name: 'Add call' }).click();
    await expect(rows.nth(i + 1)).toContainText(`transfer(${recipient}, ${amount} USDC)`);
  }
  await admin.getByLabel('From address').selectOption(float.id);
  await admin.getByRole('button', { name: 'Request write' }).click();
  await admin.getByRole('button', { name: 'Create write request' }).click();
  await admin.getByRole('link', { name: 'Open the request' }).click();
  await expect(admin).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);
  return admin.url().split('/').pop()!;
}

const dollars = (whole: number) => `$${whole.toLocaleString('en-US')}.00`;

test('a contract transfer of USDC above the threshold shows its USD value and one approval does not send it', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  // Money goes only to address book entries past their cooling-off: a demo payroll entry no other journey pays.
  const recipient = employee(wallet, 31).address;
  // Above the $10,000 threshold of the contract kinds' policy, and not a round figure another journey uses.
  const whole = 10_000 + Math.floor(Math.random() * 900) + 100;
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  const requestId = await requestUsdcTransfers(admin, [{ recipient, amount: whole }]);

  // The review decodes the transfer and values it in USD; above the threshold it needs two approvals.
  const usd = dollars(whole);
  const call = admin.getByRole('list', { name: 'Contract calls' }).getByRole('listitem', { name: 'Call 1' });
  await expect(call.getByRole('heading', { name: 'Call 1: Token transfer · USDC' })).toBeVisible();
  await expect(call.getByText(getAddress(recipient), { exact: true })).toBeVisible();
  await expect(call.getByText(usd, { exact: true }).first()).toBeVisible();
  await expect(admin.getByText(PENDING)).toBeVisible();
  await expect(admin.getByText('Approvals 0 of 2')).toBeVisible();
  await expectAccessible(admin);

  // One approval is recorded and sends nothing.
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/approvals/${requestId}`,
  );
  await expect(finance.getByText(usd, { exact: true }).first()).toBeVisible();
  // The first approval asks for no custody code: it is not the one that sends.
  await expect(finance.getByLabel('Two-factor code')).toHaveCount(0);
  await approveOnPage(finance);
  await expect(finance.getByText('Approvals 1 of 2')).toBeVisible();
  await expect(finance.getByText(PENDING)).toBeVisible();
  await expect(finance.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(finance.getByRole('table', { name: 'Submitted transactions' })).toHaveCount(0);
  await expectAccessible(finance);
  await financeContext.close();
  expect(await sentUnder(admin, requestId)).toEqual([]);

  // The second approver is the one whose approval would send it: their page asks for the custody service's code.
  const { page: second, context: secondContext } = await contextAs(
    browser,
    'finance2',
    `/approvals/${requestId}`,
  );
  await expect(second.getByText('Approvals 1 of 2')).toBeVisible();
  await expect(second.getByLabel('Two-factor code')).toBeVisible();
  await secondContext.close();
  await adminContext.close();
});

test('USDC transfers split into calls under the threshold are summed: the batch needs the higher quorum', async ({
  browser,
}) => {
  const first = 5_000 + Math.floor(Math.random() * 900);
  const second = 5_000 + Math.floor(Math.random() * 900);
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
  const requestId = await requestUsdcTransfers(admin, [
    { recipient: employee(wallet, 32).address, amount: first },
    { recipient: employee(wallet, 33).address, amount: second },
  ]);
  // Each call is valued on its own card; the request is worth their sum, above the threshold.
  const calls = admin.getByRole('list', { name: 'Contract calls' });
  await expect(
    calls.getByRole('listitem', { name: 'Call 1' }).getByText(dollars(first)).first(),
  ).toBeVisible();
  await expect(
    calls.getByRole('listitem', { name: 'Call 2' }).getByText(dollars(second)).first(),
  ).toBeVisible();
  await expect(admin.getByText(dollars(first + second), { exact: true }).first()).toBeVisible();
  await expect(admin.getByText(PENDING)).toBeVisible();
  await expect(admin.getByText('Approvals 0 of 2')).toBeVisible();
  // Checked as loaded: after the client-side navigation from the builder, the new title can come in late.
  await admin.reload();
  await expect(admin.getByText('Approvals 0 of 2')).toBeVisible();
  await expectAccessible(admin);
  expect(await sentUnder(admin, requestId)).toEqual([]);
  await adminContext.close();
});

test.describe('the address book changes while a request waits', () => {
  // Changes the address book's cooling-off for the whole console while it runs (and puts it back): it runs after
  // every other journey, alone.
  const entry = bookEntry(wallet, 'Aperture Labs');
  const book = `/wallets/${wallet.id}/address-book`;

  /** Requests a change on the current page (confirming the second factor if asked) and has admin2 approve it. */
  async function requestAndApprove(browser: Browser, admin: Page, click: () => Promise<void>) {
    await click();
    const notice = admin.getByRole('status').filter({ hasText: 'Waiting for a second admin' });
    await expect(stepUpDialog(admin).or(notice).first()).toBeVisible();
    if (await stepUpDialog(admin).isVisible()) await confirmItIsYou(admin);
    await approveAsSecondAdmin(browser, await requestedChangePath(admin));
  }

  /** The address book policy's cooling-off, in minutes, as the policy page shows it. */
  async function coolingOffField(admin: Page) {
    await admin.goto('/admin/policy');
    const field = admin
      .getByRole('form', { name: 'Address book policy' })
      .getByLabel('Cooling-off (minutes)');
    // The form's fields get their values when it hydrates.
    await expect(field).not.toHaveValue('');
    return field;
  }

  async function setCoolingOff(browser: Browser, admin: Page, minutes: string) {
    const field = await coolingOffField(admin);
    await field.fill(minutes);
    await requestAndApprove(browser, admin, () =>
      admin.getByRole('button', { name: 'Request address book policy change', exact: true }).click(),
    );
    await expect(await coolingOffField(admin)).toHaveValue(minutes);
  }

  /** Asks for the entry's address to be `address`; admin2 approves. */
  async function changeEntryAddress(browser: Browser, admin: Page, address: string) {
    await admin.goto(`${book}?q=${encodeURIComponent(entry.name)}`);
    const dialog = admin.getByRole('dialog', { name: `Change ${entry.name}` });
    await expect(async () => {
      if (!(await dialog.isVisible()))
        await admin.getByRole('button', { name: `Change ${entry.name}` }).click({ timeout: 2_000 });
      await expect(dialog).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    await dialog.getByLabel('Address', { exact: true }).fill(address);
    await requestAndApprove(browser, admin, () =>
      dialog.getByRole('button', { name: 'Request change' }).click(),
    );
  }

  test('an entry changed away and back while a withdrawal to it waits cools off again: the approval is refused @console-wide', async ({
    browser,
  }) => {
    test.setTimeout(420_000);
    const { page: admin, context: adminContext } = await contextAs(browser, 'admin');
    // A cooling-off long enough to outlast this journey (another journey shortens it to seconds).
    const before = await (await coolingOffField(admin)).inputValue();
    const shortened = Number(before) < 60;
    try {
      if (shortened) await setCoolingOff(browser, admin, '1440');

      // Finance asks to pay the entry, past its cooling-off.
      const { page: finance, context: financeContext } = await contextAs(browser, 'finance');
      const requestId = await requestThroughForm(finance, wallet.id, {
        amount: '0.15',
        address: entry.address,
      });
      await expect(finance.getByText(PENDING)).toBeVisible();
      await financeContext.close();

      // While it waits, the entry's address is changed to another (the paid address leaves the book) and back
      // (it is added again: its cooling-off starts again). Each change is approved by the second admin.
      const row = admin.getByRole('row').filter({ hasText: entry.name });
      const elsewhere = randomAddress();
      await changeEntryAddress(browser, admin, elsewhere);
      await admin.goto(`${book}?q=${encodeURIComponent(entry.name)}`);
      await expect(row).toContainText(new RegExp(elsewhere, 'i'));
      await changeEntryAddress(browser, admin, entry.address);
      await admin.goto(`${book}?q=${encodeURIComponent(entry.name)}`);
      await expect(row).toContainText(new RegExp(entry.address, 'i'));
      await expect(row).toContainText('Cooling off until');
      await expectAccessible(admin);

      // Finance2 approves: refused, as the book stands now; the approval is not recorded and nothing is sent.
      const { page: approver, context: approverContext } = await contextAs(
        browser,
        'finance2',
        `/approvals/${requestId}`,
      );
      await expect(approver.getByText(PENDING)).toBeVisible();
      await approveOnPage(approver);
      const refusal = approver.getByRole('alert').filter({ hasText: 'The approval was not recorded.' });
      await expect(refusal).toContainText(
        new RegExp(
          `${entry.name} \\(${entry.address}\\) was added to the address book recently: it can receive money from`,
          'i',
        ),
      );
      await expectAccessible(approver);
      await approver.reload();
      await expect(approver.getByText(PENDING)).toBeVisible();
      await expect(approver.getByText('Approvals 0 of 1')).toBeVisible();
      expect(await sentUnder(approver, requestId)).toEqual([]);
      await approverContext.close();
    } finally {
      if (shortened) await setCoolingOff(browser, admin, before);
      await adminContext.close();
    }
  });
});

// A console in real-service mode, started for this journey alone: nobody is seeded, and its first admin comes
// from the server's command line.
test('a sole admin added on the command line cannot add a deputy admin alone', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(420_000);
  const second = await startRealServiceConsole(String(baseURL));
  try {
    // The first admin comes from the server's command line, with a one-time password.
    const email = uniqueEmail('sole');
    const printed = second.users(['add', '--email', email, '--role', 'admin']);
    expect(printed).toContain(`Created ${email} (admin).`);
    const oneTime = printed.trim().split('\n').pop()?.trim() ?? '';
    expect(oneTime.length).toBeGreaterThanOrEqual(12);

    // They sign in, set up an authenticator app and replace the one-time password.
    const context = await browser.newContext({ baseURL: second.origin });
    const page = await context.newPage();
    await fillSignIn(page, email, oneTime);
    const secret = await enrolAuthenticatorAtSignIn(page);
    // The app's later codes (sign-in again, "Confirm it is you", the proof below) follow the one just used.
    const codes = codesAfter(secret, Math.floor(Date.now() / 30_000));
    codesFor(page, codes);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    const password = 'a-sole-admin-passphrase-1';
    await page.getByLabel('Current password').fill(oneTime);
    await page.getByLabel('New password', { exact: true }).fill(password);
    await page.getByLabel('Repeat new password').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
    // Then they sign in again with their own password and the app.
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await fillSignIn(page, email, password);
    await page.getByLabel('Authentication code').fill(await codes());
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();

    // Every page says the console is an admin short.
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'One independent admin of the 2 the approval policy needs' }),
    ).toContainText('configuration changes cannot be approved yet');

    // Asking for a deputy admin files a request for a second admin, whom the console does not have.
    const deputy = uniqueEmail('deputy');
    const requestPath = await requestUser(page, { email: deputy, name: 'Dee Deputy', role: 'admin' });
    const requestId = requestPath.split('/').pop()!;
    await page.goto(requestPath);
    await expect(page.getByText(PENDING)).toBeVisible();
    await expect(page.getByText('You requested this: another person must approve it.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
    await expectAccessible(page);

    // The approval action, called with their session and a second-factor proof of their own: their own request.
    const answer = await approveByCallingActions(page, builtDecisionActions(), requestId, codes);
    expect(answer).toContain('You cannot approve or reject your own request.');
    await page.reload();
    await expect(page.getByText(PENDING)).toBeVisible();
    await expect(page.getByText('Approvals 0 of 1')).toBeVisible();
    // Nobody was invited: the deputy is not a user.
    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await expect(page.getByText(email).first()).toBeVisible();
    await expect(page.getByText(deputy)).toHaveCount(0);
    await context.close();
  } finally {
    await second.stop();
  }
});

test('an admin cannot make themselves the only admin: disabling the other admin is refused, and a new admin is only ever a request', async ({
  browser,
}) => {
  const { page: admin, context } = await contextAs(browser, 'admin', '/admin/users');
  const other = admin.getByRole('row').filter({ hasText: DEMO.admin2 });
  const disable = other.getByRole('button', { name: 'Request to disable Second Admin' });
  await expect(disable).toBeVisible();
  // The console's answer itself (the page shows it in a toast another journey's could cover): the call the page
  // made, made again with the same session.
  const captured = nextActionRequest(admin);
  await disable.click();
  const call = await captured;
  const text = await replayAction(admin, call, '/admin/users', JSON.parse(call.postData() ?? '[]'));
  // With the demo's two independent admins, the second cannot leave; were there a third, it would be a request
  // the other admins decide. Never disabled at once.
  expect(text).toMatch(
    /This would leave 1 independent admin; the approval policy needs 2\.|"kind":"requested"/,
  );
  await admin.reload();
  await expect(other).toBeVisible();
  await expect(other.getByText('Disabled', { exact: true })).toHaveCount(0);
  await expect(other.getByRole('button', { name: 'Request to disable Second Admin' })).toBeVisible();

  // Asking for a new admin is a request another admin approves: the console has no "lone admin, first use".
  const deputy = uniqueEmail('deputy');
  const requestPath = await requestUser(admin, { email: deputy, name: 'Dee Deputy', role: 'admin' });
  await admin.goto(requestPath);
  await expect(admin.getByText(PENDING)).toBeVisible();
  await expect(admin.getByText('You requested this: another person must approve it.')).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await admin.getByRole('button', { name: 'Cancel request' }).click();
  await expect(admin.getByText('Request status: Cancelled')).toBeVisible();
  await context.close();
});

test('a settlement rule that forwards a customer’s deposits to the insider: a stranger is refused at its field, and nothing is forwarded before a second admin approves', async ({
  browser,
}) => {
  const address = wallet.addresses.find((a) => a.name === 'Customer 003')!;
  // A demo entry of this wallet no journey pays.
  const destination = bookEntry(wallet, 'Tyrell Leasing').address;
  const { page: admin, context } = await contextAs(
    browser,
    'admin',
    `/wallets/${wallet.id}/settlement?addressId=${address.id}`,
  );
  await expect(admin.getByLabel('Child address')).toHaveValue(address.id);
  await admin.getByRole('button', { name: 'Add rule' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Name').fill(`Sweep everything ${Date.now().toString(36)}`);
  await dialog.getByLabel('USDC').check();
  await dialog.getByLabel('Minimum amount').fill('0');
  await dialog.getByLabel('No maximum').check();
  // The insider's own address: refused at its field (the destination policy), nothing requested.
  await dialog.getByLabel('Destination address').fill(randomAddress());
  await dialog.getByRole('button', { name: 'Request change' }).click();
  await expect(
    dialog.getByText(/is not in this wallet's address book: money goes only to/).first(),
  ).toBeVisible();
  // An address the book allows: still only a request.
  await dialog.getByLabel('Destination address').fill(destination);
  await dialog.getByRole('button', { name: 'Request change' }).click();
  const requestPath = await requestedChangePath(admin);
  await dialog.getByRole('button', { name: 'Done' }).click();

  // A customer's 123 USDC deposit arrives and settles: nothing goes to the rule's destination.
  const usdcDeposit = await sandboxCall<SandboxTransaction>(
    admin.request,
    wallet,
    'POST',
    '/control/deposits',
    {
      addressId: address.id,
      assetId: usdc.id,
      amount: '123',
    },
  );
  expect(usdcDeposit.status).toBe(200);
  await expect
    .poll(async () => {
      const tx = await sandboxCall<SandboxTransaction>(
        admin.request,
        wallet,
        'GET',
        `/v1/wallets/${wallet.id}/transactions/${usdcDeposit.json.data.id}`,
      );
      return tx.json.data.status;
    })
    .toBe('SUCCESS');
  const paid = await sandboxCall<Array<SandboxTransaction & { recipientAddress?: string }>>(
    admin.request,
    wallet,
    'GET',
    `/v1/wallets/${wallet.id}/transactions?addressId=${address.id}`,
  );
  expect(paid.status).toBe(200);
  expect(
    paid.json.data.filter((t) => t.recipientAddress?.toLowerCase() === destination.toLowerCase()),
  ).toEqual([]);

  // The request waits for another admin; the insider cannot approve it, and withdraws it.
  await admin.goto(requestPath);
  await expect(admin.getByText(PENDING)).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await admin.getByRole('button', { name: 'Cancel request' }).click();
  await expect(admin.getByText('Request status: Cancelled')).toBeVisible();
  await context.close();
});

test('whitelisting the insider’s address takes a second admin, and even then money cannot go there', async ({
  browser,
}) => {
  const target = randomAddress();
  const { page: admin, context: adminContext } = await contextAs(
    browser,
    'admin',
    `/wallets/${wallet.id}/whitelist`,
  );
  await admin.getByLabel('Address', { exact: true }).fill(target);
  await admin.getByLabel('Name').fill(`Insider ${target.slice(2, 8)}`);
  await admin.getByRole('button', { name: 'Request change' }).click();
  const requestPath = await requestedChangePath(admin);
  await admin.goto(requestPath);
  await expect(admin.getByText(PENDING)).toBeVisible();
  await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await approveAsSecondAdmin(browser, requestPath);
  await admin.reload();
  await expect(admin.getByText('Request status: Success')).toBeVisible();
  await adminContext.close();

  // Whitelisted at the service, but not an address book entry past its cooling-off: refused at the field.
  const { page: finance, context } = await contextAs(browser, 'finance', `/wallets/${wallet.id}/withdraw`);
  await fillRecipientAddress(finance, target);
  await finance.getByLabel('Recipient 1 amount').fill('0.01');
  await finance.getByRole('button', { name: 'Review request' }).click();
  await expect(finance.getByLabel('Recipient 1 address')).toHaveAccessibleDescription(
    /is not in this wallet's address book: money goes only to address book entries past their cooling-off/,
  );
  await expect(finance.getByRole('heading', { name: 'Review' })).toHaveCount(0);
  await context.close();
});
