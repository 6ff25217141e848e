// Every change an admin starts from the console asks for the second factor again once the session's last check
// is stale: "Confirm it is you" opens where the change was started, takes the code from the keyboard, and the
// change then runs once and completes. "Ask for my second factor again" (Account › Security) clears the
// session's last check, exactly the state of a check older than five minutes, so no test waits for the clock.
// The freeze, a spending limit in force and a removed wallet change what the whole console does: those tests
// are tagged @console-wide and run after every other journey, one at a time (playwright.config.ts).
import type { Browser, Locator, Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { privateKeyToAccount } from 'viem/accounts';
import { contextAs, DEMO_PASSWORD, expect, expectAccessible, test, uniqueEmail } from './fixtures';
import { bookEntry, employee } from './helpers/address-book';
import { approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';
import { randomAddress, sandboxAddress, sandboxCredentials, sandboxWallet } from './helpers/sandbox';
import { confirmItIsYou, type RanAgain, stepUpDialog } from './helpers/step-up';

const PAYOUTS = 'Payouts (Base Sepolia)';
const COLLECTIONS = 'Collections (Polygon)';
const STALE_SAID = 'Your next change asks for your second factor (every decision always does).';

/** A short tag that names what one test run made. */
const runId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** "Ask for my second factor again": the next change in this session needs the second factor. */
async function makeStale(page: Page) {
  await page.goto('/account/security');
  const said = page.getByRole('status').filter({ hasText: STALE_SAID });
  // A click before the page has hydrated does nothing: click until the page says it.
  await expect(async () => {
    await page.getByRole('button', { name: 'Ask for my second factor again' }).click({ timeout: 2_000 });
    await expect(said).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Starts a change whose button acts at once: clicks until "Confirm it is you" opens (a click before the page
 * has hydrated does nothing), then confirms it.
 */
async function startAndConfirm(page: Page, trigger: Locator): Promise<RanAgain> {
  await expect(async () => {
    if (!(await stepUpDialog(page).isVisible())) await trigger.click({ timeout: 2_000 });
    await expect(stepUpDialog(page)).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  return confirmItIsYou(page);
}

/** For clean-up paths that may or may not find the session stale: confirms only when asked, then `done` shows. */
async function confirmIfAsked(page: Page, done: Locator) {
  await expect(stepUpDialog(page).or(done).first()).toBeVisible();
  if (await stepUpDialog(page).isVisible()) await confirmItIsYou(page);
  await expect(done).toBeVisible();
}

/** Clicks a trigger until the dialog it opens shows (a click before hydration does nothing). */
async function openDialog(trigger: Locator, dialog: Locator) {
  await expect(async () => {
    if (!(await dialog.isVisible())) await trigger.click({ timeout: 2_000 });
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}

/** The request page a "Waiting for a second admin" notice inside `scope` links to (a new one, if `not` is given). */
async function requestedIn(scope: Locator | Page, not?: string): Promise<string> {
  const link = scope
    .getByRole('status')
    .filter({ hasText: 'Waiting for a second admin' })
    .getByRole('link', { name: 'Open the request' });
  await expect(link).toBeVisible();
  if (not) await expect(link).not.toHaveAttribute('href', not);
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/approvals\/[0-9a-f-]{36}$/);
  return href;
}

async function expectPending(page: Page, path: string, shows: string | RegExp) {
  await page.goto(path);
  await expect(page.getByText('Request status: Pending approval')).toBeVisible();
  await expect(page.getByRole('main')).toContainText(shows);
}

test('the policy page: a policy edit, a spending limit and a cooling-off change confirm the second factor, then are requested', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { page, context } = await contextAs(browser, 'admin');

  // A policy edit. Closing the dialog from the keyboard files nothing and says why; confirming files it.
  await makeStale(page);
  await page.goto('/admin/policy');
  const policy = page.getByRole('form', { name: 'Payout schedule policy' });
  const expiry = policy.getByLabel('Payout schedule: open for (minutes)');
  // The form's fields get their values when it hydrates; a value typed before that would be replaced.
  await expect(expiry).not.toHaveValue('');
  // Not whole hours: the request shows whole hours and days as such.
  const minutes = String(601 + Math.floor(Math.random() * 58));
  await expiry.fill(minutes);
  const requestPolicy = policy.getByRole('button', { name: 'Request payout schedule policy change' });
  await requestPolicy.click();
  await expect(stepUpDialog(page)).toBeVisible();
  await expect(stepUpDialog(page).getByLabel('Authentication code')).toBeFocused();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(stepUpDialog(page)).toHaveCount(0);
  await expect(policy.getByRole('alert')).toHaveText('Confirm it is you to continue.');
  await expect(policy.getByRole('status').filter({ hasText: 'Waiting for a second admin' })).toHaveCount(0);
  await requestPolicy.click();
  const policyRan = await confirmItIsYou(page);
  await expect(policy.getByText('Payout schedule policy change requested.')).toBeVisible();
  await expect(policy.getByRole('alert')).toHaveCount(0);
  expect(policyRan()).toBe(1);
  const policyRequest = await requestedIn(policy);
  await expectPending(page, policyRequest, 'Policy of Payout schedule');
  await expect(
    page
      .getByRole('table', { name: 'Policy of Payout schedule: before and after' })
      .getByRole('row', { name: /Expiry/ }),
  ).toContainText(`${minutes} minutes`);

  // A spending limit, named by an asset symbol no other journey uses.
  const symbol = `SU${runId().slice(-6).toUpperCase()}`;
  await makeStale(page);
  await page.goto('/admin/policy');
  const limit = page.getByRole('form', { name: 'New spending limit' });
  const wallet = sandboxWallet('Payouts');
  // The form's fields get their values when it hydrates.
  await expect(limit.getByLabel('Limit: more approvals')).not.toHaveValue('');
  await limit.getByLabel('Limit: wallet').selectOption(wallet.id);
  await limit.getByLabel('Limit: amount (USD)').fill('250000');
  await limit.getByLabel('Limit: only this asset (optional)').fill(symbol);
  await limit.getByRole('button', { name: 'Request spending limit' }).click();
  const limitRan = await confirmItIsYou(page);
  const section = page.getByRole('region', { name: 'Spending limits' });
  const limitRequest = await requestedIn(section);
  await expect(section.getByRole('status')).toContainText(`${symbol} only`);
  await expect(limit.getByRole('alert')).toHaveCount(0);
  expect(limitRan()).toBe(1);
  await expectPending(page, limitRequest, `${symbol} only`);

  // The address book's cooling-off: the dialog sits inside this form, and confirming it must not submit the
  // form a second time (one request, no second dialog).
  await makeStale(page);
  await page.goto('/admin/policy');
  const coolingOff = page.getByRole('form', { name: 'Address book policy' });
  const field = coolingOff.getByLabel('Cooling-off (minutes)');
  await expect(field).not.toHaveValue('');
  const next = String(2000 + Math.floor(Math.random() * 800));
  await field.fill(next);
  await coolingOff.getByRole('button', { name: 'Request address book policy change', exact: true }).click();
  const coolingRan = await confirmItIsYou(page);
  const coolingRequest = await requestedIn(coolingOff);
  await expect(stepUpDialog(page)).toHaveCount(0);
  await expect(coolingOff.getByRole('alert')).toHaveCount(0);
  expect(coolingRan()).toBe(1);
  await expectPending(page, coolingRequest, /cooling-off|address book policy/i);
  await context.close();
});

test('users: adding one, a role change, disabling and re-enabling confirm the second factor', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { page, context } = await contextAs(browser, 'admin');
  const name = `Stella ${runId()}`;
  const email = uniqueEmail('step-up');

  await makeStale(page);
  await page.goto('/admin/users');
  const add = page.getByRole('dialog', { name: 'Add user' });
  await openDialog(page.getByRole('button', { name: 'Add user' }), add);
  await add.getByLabel('Email').fill(email);
  await add.getByLabel('Name').fill(name);
  await add.getByLabel('Role').selectOption('viewer');
  await add.getByRole('button', { name: 'Request user' }).click();
  const addRan = await confirmItIsYou(page);
  const requested = page.getByRole('dialog', { name: 'User requested' });
  const creation = await requestedIn(requested);
  await expect(requested.getByRole('status')).toContainText(email);
  expect(addRan()).toBe(1);
  await requested.getByRole('button', { name: 'Done' }).click();
  await approveAsSecondAdmin(browser, creation);

  // The new user is invited by email: the requester's page shows no credential.
  await page.goto(creation);
  await expect(page.getByText('Request status: Success')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Show the one-time password' })).toHaveCount(0);

  // A role change is a request.
  await makeStale(page);
  await page.goto('/admin/users');
  const row = page.getByRole('row', { name: new RegExp(email) });
  await expect(row).toBeVisible();
  // Chosen until the dialog opens: a choice made before the page hydrated reaches no handler.
  await expect(async () => {
    if (!(await stepUpDialog(page).isVisible()))
      await row.getByLabel(`Role of ${email}`).selectOption('support', { timeout: 2_000 });
    await expect(stepUpDialog(page)).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  const roleRan = await confirmItIsYou(page);
  const roleChange = await requestedIn(page);
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue('viewer');
  expect(roleRan()).toBe(1);

  // Disabling takes effect at once.
  await makeStale(page);
  await page.goto('/admin/users');
  const disableRan = await startAndConfirm(page, row.getByRole('button', { name: `Disable ${name}` }));
  await expect(row.getByText('Disabled')).toBeVisible();
  expect(disableRan()).toBe(1);

  // Re-enabling is a request.
  await makeStale(page);
  await page.goto('/admin/users');
  const enableRan = await startAndConfirm(
    page,
    row.getByRole('button', { name: `Request to re-enable ${name}` }),
  );
  const enabling = await requestedIn(page, roleChange);
  await expect(row.getByText('Disabled')).toBeVisible();
  expect(enableRan()).toBe(1);
  await expectPending(page, roleChange, email);
  await expectPending(page, enabling, email);
  await context.close();
});

test('API tokens: asking for one, showing it, a new secret and revoking it confirm the second factor', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { page, context } = await contextAs(browser, 'admin');
  const name = `Step-up ${runId()}`;

  await makeStale(page);
  await page.goto('/admin/tokens');
  const dialog = page.getByRole('dialog', { name: 'New API token' });
  await openDialog(page.getByRole('button', { name: 'New token' }), dialog);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('checkbox', { name: /^Treasury/ }).check();
  await dialog.getByLabel('Daily cap (USD)').fill('100');
  await dialog.getByRole('button', { name: 'Request token' }).click();
  const tokenRan = await confirmItIsYou(page);
  const creation = await requestedIn(page.getByRole('dialog'));
  expect(tokenRan()).toBe(1);
  await page.keyboard.press('Escape');
  await approveAsSecondAdmin(browser, creation);

  await makeStale(page);
  await page.goto(creation);
  await expect(page.getByText('Request status: Success')).toBeVisible();
  const showRan = await startAndConfirm(page, page.getByRole('button', { name: 'Show the token' }));
  await expect(page.getByTestId('api-token')).toHaveText(/^cct_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  expect(showRan()).toBe(1);

  // A new secret: the confirmation stays open under "Confirm it is you", then the request is filed.
  await makeStale(page);
  await page.goto('/admin/tokens');
  const rotate = page.getByRole('dialog', { name: `New secret for ${name}` });
  await openDialog(page.getByRole('button', { name: `New secret for ${name}` }), rotate);
  await rotate.getByRole('button', { name: 'Request a new secret' }).click();
  await expect(stepUpDialog(page)).toBeVisible();
  await expectAccessible(page);
  const secretRan = await confirmItIsYou(page);
  await expect(rotate).toHaveCount(0);
  const rotation = await requestedIn(page);
  expect(secretRan()).toBe(1);
  await expectPending(page, rotation, name);

  await makeStale(page);
  await page.goto('/admin/tokens');
  const revoke = page.getByRole('dialog', { name: `Revoke ${name}?` });
  await openDialog(page.getByRole('button', { name: `Revoke ${name}` }), revoke);
  await revoke.getByRole('button', { name: `Revoke ${name}` }).click();
  const revokeRan = await confirmItIsYou(page);
  await expect(revoke).toHaveCount(0);
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Revoked');
  expect(revokeRan()).toBe(1);
  await context.close();
});

test('a wallet key rotation and revealing a private key confirm the second factor; a wrong password after it is told as at first', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const wallet = sandboxWallet('Payouts');
  const { page, context } = await contextAs(browser, 'admin');

  await makeStale(page);
  await page.goto('/admin/wallets');
  const rotate = page.getByRole('dialog', { name: `Rotate the key of ${PAYOUTS}` });
  await openDialog(page.getByRole('button', { name: `Rotate key of ${PAYOUTS}` }), rotate);
  await rotate.getByLabel('New API key').fill(wallet.apiKey);
  await rotate.getByRole('button', { name: 'Request key rotation' }).click();
  const rotateRan = await confirmItIsYou(page);
  const requested = page.getByRole('dialog', { name: 'Key rotation requested' });
  const rotation = await requestedIn(requested);
  expect(rotateRan()).toBe(1);
  expect(await page.content()).not.toContain(wallet.apiKey);
  await expectPending(page, rotation, `•••• ${wallet.apiKey.slice(-4)}`);

  // Revealing a key: asking confirms the second factor; a second admin approves; showing it confirms it again,
  // and the password is checked after the second factor, a wrong one shown at its field.
  const address = sandboxAddress(wallet, 'Customer 001');
  const addressPage = `/wallets/${wallet.id}/addresses/${address.id}`;
  await makeStale(page);
  await page.goto(addressPage);
  const ask = page.getByRole('dialog', { name: 'Ask to see the private key?' });
  await openDialog(page.getByRole('button', { name: 'Reveal private key' }), ask);
  await ask.getByRole('button', { name: 'Ask to see it' }).click();
  const askRan = await confirmItIsYou(page);
  const revealRequest = await requestedChangePath(page);
  expect(askRan()).toBe(1);
  await approveAsSecondAdmin(browser, revealRequest);

  const reveal = page.getByRole('dialog', { name: 'Reveal private key' });
  await makeStale(page);
  await page.goto(revealRequest);
  await openDialog(page.getByRole('button', { name: 'Show the private key' }), reveal);
  await reveal.getByLabel('Your password').fill('not-my-password');
  await reveal.getByRole('button', { name: 'Reveal' }).click();
  const wrongRan = await confirmItIsYou(page);
  await expect(reveal.getByText('That password is not right.')).toBeVisible();
  await expect(reveal.getByLabel('Your password')).toHaveAttribute('aria-invalid', 'true');
  await expect(reveal.getByText('Confirm it is you to continue.')).toHaveCount(0);
  expect(wrongRan()).toBe(1);

  await makeStale(page);
  await page.goto(revealRequest);
  await openDialog(page.getByRole('button', { name: 'Show the private key' }), reveal);
  await reveal.getByLabel('Your password').fill(DEMO_PASSWORD);
  await reveal.getByRole('button', { name: 'Reveal' }).click();
  const revealRan = await confirmItIsYou(page);
  const shown = page.getByRole('dialog', { name: 'Private key of Customer 001' }).getByTestId('private-key');
  await expect(shown).toHaveText(/^0x[0-9a-fA-F]{64}$/);
  expect(revealRan()).toBe(1);
  const key = ((await shown.textContent()) ?? '').trim() as `0x${string}`;
  expect(privateKeyToAccount(key).address.toLowerCase()).toBe(address.address.toLowerCase());
  await context.close();
});

test('the address book: an entry and an import confirm the second factor, then are requested', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const wallet = sandboxWallet('Payouts');
  const book = `/wallets/${wallet.id}/address-book`;
  const run = runId();
  const { page, context } = await contextAs(browser, 'admin');

  await makeStale(page);
  await page.goto(book);
  const entry = page.getByRole('dialog', { name: 'Add an address book entry' });
  await openDialog(page.getByRole('button', { name: 'Add entry' }), entry);
  await entry.getByLabel('Name', { exact: true }).fill(`Step-up entry ${run}`);
  await entry.getByLabel('Address', { exact: true }).fill(randomAddress());
  await entry.getByRole('button', { name: 'Request entry' }).click();
  const entryRan = await confirmItIsYou(page);
  const added = await requestedIn(entry);
  expect(entryRan()).toBe(1);
  await expectPending(page, added, `Step-up entry ${run}`);

  await makeStale(page);
  await page.goto(book);
  const imported = page.getByRole('dialog', { name: 'Import address book entries' });
  await openDialog(page.getByRole('button', { name: 'Import CSV' }), imported);
  await imported.getByLabel('Or paste CSV').fill(`name,address\nStep-up import ${run},${randomAddress()}\n`);
  await expect(imported.getByText('1 entry ready')).toBeVisible();
  await imported.getByRole('button', { name: 'Request import' }).click();
  const importRan = await confirmItIsYou(page);
  const importing = await requestedIn(imported);
  expect(importRan()).toBe(1);
  await expectPending(page, importing, `Step-up import ${run}`);
  await context.close();
});

test('settlement, whitelist and beneficiaries: each change confirms the second factor, then is requested', async ({
  browser,
}) => {
  // Two changes go through a second admin before the change made on them is asked for.
  test.setTimeout(300_000);
  const run = runId();
  const treasury = sandboxWallet('Treasury');
  const payouts = sandboxWallet('Payouts');
  const { page, context } = await contextAs(browser, 'admin');

  // Wallet-level auto-settlement, on or off, whichever it is now: a request, nothing changes yet.
  await makeStale(page);
  await page.goto(`/wallets/${treasury.id}/settlement`);
  const toggle = page.getByRole('dialog', { name: /auto-settlement for/ });
  await openDialog(page.getByRole('button', { name: /^(Enable|Disable) auto-settlement$/ }), toggle);
  await toggle.getByRole('button', { name: 'Request change' }).click();
  const toggleRan = await confirmItIsYou(page);
  const switching = await requestedIn(toggle);
  expect(toggleRan()).toBe(1);
  await expectPending(page, switching, treasury.name);

  // An address rule this test makes (a minimum no deposit here reaches), then a change to it.
  const address = payouts.addresses.find((a) => a.name === 'Customer 006')!;
  const settlement = `/wallets/${payouts.id}/settlement?addressId=${address.id}`;
  const name = `Step-up rule ${run}`;
  await makeStale(page);
  await page.goto(settlement);
  const create = page.getByRole('dialog', { name: 'New auto-settlement rule' });
  await openDialog(page.getByRole('button', { name: 'Add rule' }), create);
  await create.getByLabel('Name').fill(name);
  await create.getByLabel('USDT').check();
  await create.getByLabel('Minimum amount').fill('900000');
  await create.getByLabel('No maximum').check();
  // Money goes only to address book entries past their cooling-off: a demo payee.
  await create.getByLabel('Destination address').fill(employee(payouts, 47).address);
  await create.getByRole('button', { name: 'Request change' }).click();
  const createRan = await confirmItIsYou(page);
  const created = await requestedIn(create);
  expect(createRan()).toBe(1);
  await page.keyboard.press('Escape');
  await approveAsSecondAdmin(browser, created);

  await makeStale(page);
  await page.goto(settlement);
  const rule = page.getByRole('region', { name: `Rule ${name}` });
  const edit = page.getByRole('dialog', { name: `Edit rule ${name}` });
  await openDialog(rule.getByRole('button', { name: `Edit rule ${name}` }), edit);
  await edit.getByLabel('Slippage tolerance (%)').fill('0.75');
  await edit.getByRole('button', { name: 'Request change' }).click();
  const editRan = await confirmItIsYou(page);
  const edited = await requestedIn(edit);
  expect(editRan()).toBe(1);
  await expectPending(page, edited, name);

  // A whitelisted address this test adds, then its removal.
  const vendor = `Step-up vendor ${run}`;
  await makeStale(page);
  await page.goto(`/wallets/${payouts.id}/whitelist`);
  // The form answers a bad address at its field only once it has hydrated: type one until it does.
  const typed = page.getByLabel('Address', { exact: true });
  await expect(async () => {
    await typed.fill('0x1234', { timeout: 2_000 });
    await page.getByRole('button', { name: 'Request change' }).click({ timeout: 2_000 });
    await expect(page.getByText('An EVM address has 40 characters after 0x; this one has 4.')).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
  await typed.fill(randomAddress());
  await page.getByLabel('Name').fill(vendor);
  await page.getByRole('button', { name: 'Request change' }).click();
  const listRan = await confirmItIsYou(page);
  const listing = await requestedIn(page);
  expect(listRan()).toBe(1);
  await approveAsSecondAdmin(browser, listing);
  await page.goto(`/wallets/${payouts.id}/addresses?type=EXTERNAL&search=${encodeURIComponent(vendor)}`);
  await page.getByRole('link', { name: vendor }).click();
  await expect(page.getByRole('heading', { name: vendor, level: 2 })).toBeVisible();
  const addressPage = page.url();
  await makeStale(page);
  await page.goto(addressPage);
  const unlist = page.getByRole('dialog', { name: `Remove ${vendor} from the whitelist?` });
  await openDialog(page.getByRole('button', { name: 'Remove from whitelist' }), unlist);
  await unlist.getByRole('button', { name: 'Request removal' }).click();
  const unlistRan = await confirmItIsYou(page);
  const unlisting = await requestedIn(unlist);
  expect(unlistRan()).toBe(1);
  await expectPending(page, unlisting, vendor);

  // A seeded beneficiary's deletion is asked for, then the request is withdrawn: nothing is deleted.
  const beneficiary = 'Wayne Freight';
  await makeStale(page);
  await page.goto(`/wallets/${payouts.id}/beneficiaries`);
  const row = page
    .getByRole('table', { name: 'Beneficiaries' })
    .getByRole('row')
    .filter({ hasText: beneficiary });
  const remove = page.getByRole('dialog', { name: `Delete beneficiary ${beneficiary}?` });
  await openDialog(row.getByRole('button', { name: `Delete beneficiary ${beneficiary}` }), remove);
  await remove.getByRole('button', { name: 'Request removal' }).click();
  const removeRan = await confirmItIsYou(page);
  const removal = await requestedIn(remove);
  expect(removeRan()).toBe(1);
  await expectPending(page, removal, beneficiary);
  await page.getByRole('button', { name: 'Cancel request' }).click();
  await expect(page.getByText('Request status: Cancelled')).toBeVisible();
  await context.close();
});

/** The demo's second admin asks for an address book entry on Payouts; returns its request page. */
async function entryRequestedByAdmin2(page: Page, name: string): Promise<string> {
  await page.goto(`/wallets/${sandboxWallet('Payouts').id}/address-book`);
  const entry = page.getByRole('dialog', { name: 'Add an address book entry' });
  await openDialog(page.getByRole('button', { name: 'Add entry' }), entry);
  await entry.getByLabel('Name', { exact: true }).fill(name);
  await entry.getByLabel('Address', { exact: true }).fill(randomAddress());
  await entry.getByRole('button', { name: 'Request entry' }).click();
  const path = await requestedIn(entry);
  await page.keyboard.press('Escape');
  return path;
}

test('approving and rejecting another admin’s request each confirm the second factor, however fresh the session', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const run = runId();
  const { page: second, context: secondContext } = await contextAs(browser, 'admin2');
  const approved = await entryRequestedByAdmin2(second, `Step-up approve ${run}`);
  const rejected = await entryRequestedByAdmin2(second, `Step-up reject ${run}`);
  await secondContext.close();

  // Signed in with a code just now: a decision still asks for its own check, bound to it and used once.
  const { page, context } = await contextAs(browser, 'admin', approved);
  const confirmApproval = page.getByRole('dialog', { name: 'Approve this request?' });
  await openDialog(page.getByRole('button', { name: 'Approve', exact: true }), confirmApproval);
  await confirmApproval.getByRole('button', { name: /^(Approve and apply|Confirm approval)$/ }).click();
  const approveRan = await confirmItIsYou(page);
  await expect(page.getByText('Approved.', { exact: true })).toBeVisible();
  await expect(page.getByText('Request status: Success')).toBeVisible();
  expect(approveRan()).toBe(1);

  // The check just made serves that approval only: the next decision asks again.
  await page.goto(rejected);
  const reject = page.getByRole('dialog', { name: 'Reject this request' });
  await openDialog(page.getByRole('button', { name: 'Reject', exact: true }), reject);
  await reject.getByLabel('Reason').fill('Not a supplier of ours.');
  await reject.getByRole('button', { name: 'Reject request' }).click();
  const rejectRan = await confirmItIsYou(page);
  await expect(reject).toHaveCount(0);
  await expect(page.getByText('Request rejected.', { exact: true })).toBeVisible();
  await expect(page.getByText('Request status: Rejected')).toBeVisible();
  expect(rejectRan()).toBe(1);
  await context.close();
});

/** The custody service's own two-factor code (contract writes), now or off by more than its tolerance. */
function custodyCode(offsetSeconds = 0): string {
  return generateSync({
    secret: sandboxCredentials().totpSecret,
    epoch: Math.floor(Date.now() / 1000) + offsetSeconds,
  });
}

function wrongCustodyCode(): string {
  const valid = new Set([-30, 0, 30].map((d) => custodyCode(d)));
  for (let n = 0; ; n++) {
    const code = String((234567 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** The second admin asks for a USDC allowance (a contract write) on Treasury; returns its request page. */
async function contractWriteByAdmin2(browser: Browser): Promise<string> {
  const wallet = sandboxWallet('Treasury');
  const float = wallet.addresses.find((a) => /Operating float 2/.test(a.name ?? ''))!;
  const { page, context } = await contextAs(browser, 'admin2', `/wallets/${wallet.id}/contracts`);
  await expect(async () => {
    await page.getByLabel('Known token').selectOption({ label: 'USDC' }, { timeout: 2_000 });
    await expect(page.getByLabel('Contract address')).not.toHaveValue('', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByLabel('Method').selectOption('approve(address,uint256)');
  // The spender is an address book entry past its cooling-off (the destination policy holds it like a recipient).
  await page.getByLabel('spender (address)').fill(bookEntry(wallet, 'Bluth Company').address);
  await page.getByLabel('amount (USDC)').fill(String(100 + Math.floor(Math.random() * 900)));
  await page.getByRole('button', { name: 'Add call' }).click();
  await page.getByRole('button', { name: 'Estimate fees' }).click();
  await expect(page.getByText(/Total network fee: \d/)).toBeVisible();
  await page.getByLabel('From address').selectOption(float.id);
  await page.getByRole('button', { name: 'Request write' }).click();
  await page.getByRole('button', { name: 'Create write request' }).click();
  const link = page.getByRole('link', { name: 'Open the request' });
  await expect(link).toBeVisible();
  const href = (await link.getAttribute('href')) ?? '';
  expect(href).toMatch(/^\/approvals\/[0-9a-f-]{36}$/);
  await context.close();
  return href;
}

/**
 * Types the custody service's code once the page has hydrated (a value typed before would be reset): the
 * decision's confirmation opens and is closed with Escape first, which only a hydrated page does.
 */
async function codeAfterHydration(page: Page, dialogName: string, button: string, code: string) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await openDialog(page.getByRole('button', { name: button, exact: true }), dialog);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await page.getByLabel('Two-factor code').fill(code);
}

test('a refused submission: approving and resubmitting confirm the second factor, and it then goes through', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const request = await contractWriteByAdmin2(browser);
  const { page, context } = await contextAs(browser, 'admin', request);

  // Approved with a code the custody service refuses: the approval is recorded after "Confirm it is you".
  await codeAfterHydration(page, 'Approve this request?', 'Approve', wrongCustodyCode());
  const confirmApproval = page.getByRole('dialog', { name: 'Approve this request?' });
  await openDialog(page.getByRole('button', { name: 'Approve', exact: true }), confirmApproval);
  await confirmApproval.getByRole('button', { name: /^(Approve and send|Confirm approval)$/ }).click();
  const approveRan = await confirmItIsYou(page);
  await expect(page.getByText('Two-factor code not accepted')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Resubmit' })).toBeVisible();
  expect(approveRan()).toBe(1);

  await page.goto(request);
  await codeAfterHydration(page, 'Resubmit this request', 'Resubmit', custodyCode());
  const resubmit = page.getByRole('dialog', { name: 'Resubmit this request' });
  await openDialog(page.getByRole('button', { name: 'Resubmit' }), resubmit);
  await resubmit.getByRole('button', { name: 'Resubmit with the same reference' }).click();
  const resubmitRan = await confirmItIsYou(page);
  await expect(page.getByText(/Request status:\s*Success/)).toBeVisible({ timeout: 30_000 });
  expect(resubmitRan()).toBe(1);
  await context.close();
});

test('adding an authenticator app and removing it confirm the second factor', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'admin');
  const label = `Step-up app ${runId()}`;

  await makeStale(page);
  await page.getByLabel('Name').fill(label);
  await page.getByRole('button', { name: 'Add authenticator app' }).click();
  const addRan = await confirmItIsYou(page);
  const shown = page.getByTestId('totp-secret');
  await expect(shown).toBeVisible();
  expect(addRan()).toBe(1);
  const secret = (await shown.textContent())?.trim() ?? '';
  await page.getByLabel('Code from the app').fill(generateSync({ secret }));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added the authenticator app.' })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(label) });
  await expect(row).not.toContainText('Not confirmed');

  await makeStale(page);
  await row.getByRole('button', { name: `Remove ${label}` }).click();
  await page
    .getByRole('dialog', { name: `Remove ${label}?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  const removeRan = await confirmItIsYou(page);
  await expect(page.getByRole('status').filter({ hasText: `Removed ${label}.` })).toBeVisible();
  expect(removeRan()).toBe(1);
  await expect(page.getByRole('row', { name: new RegExp(label) })).toHaveCount(0);
  await context.close();
});

/** Requests the freeze's lifting on the policy page (confirming the second factor when asked); returns the request. */
async function requestLift(page: Page, stale: boolean): Promise<string> {
  await page.goto('/admin/policy');
  const confirm = page.getByRole('dialog', { name: 'Request to lift the freeze?' });
  await openDialog(page.getByRole('button', { name: 'Request to lift the freeze' }), confirm);
  await confirm.getByRole('button', { name: 'Request lift' }).click();
  const freeze = page.getByRole('region', { name: 'Emergency freeze' });
  if (!stale) {
    await confirmIfAsked(page, freeze.getByRole('status').filter({ hasText: 'Waiting for a second admin' }));
    return requestedIn(freeze);
  }
  const ran = await confirmItIsYou(page);
  const path = await requestedIn(freeze);
  expect(ran()).toBe(1);
  return path;
}

const FROZEN_BANNER = 'Submissions are frozen: nothing is sent';

test('the emergency freeze and the request to lift it confirm the second factor, then take effect @console-wide', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const { page, context } = await contextAs(browser, 'admin');
  let lifted = false;
  try {
    await makeStale(page);
    await page.goto('/admin/policy');
    const freeze = page.getByRole('region', { name: 'Emergency freeze' });
    const confirm = page.getByRole('dialog', { name: 'Freeze all submissions?' });
    await openDialog(page.getByRole('button', { name: 'Freeze submissions' }), confirm);
    await confirm.getByRole('button', { name: 'Freeze', exact: true }).click();
    // "Confirm it is you" opens over the confirmation, with the focus in its code field.
    await expect(stepUpDialog(page)).toBeVisible();
    await expectAccessible(page);
    const freezeRan = await confirmItIsYou(page);
    await expect(confirm).toHaveCount(0);
    await expect(freeze.getByRole('status').last()).toHaveText('Submissions are frozen.');
    await expect(page.getByText(FROZEN_BANNER)).toBeVisible();
    expect(freezeRan()).toBe(1);

    await makeStale(page);
    const lift = await requestLift(page, true);
    await expectPending(page, lift, /freeze/i);
    await approveAsSecondAdmin(browser, lift);
    lifted = true;
    await page.goto('/admin/policy');
    await expect(page.getByText(FROZEN_BANNER)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Freeze submissions' })).toBeVisible();
  } finally {
    // Never leave the console frozen for whatever runs next.
    if (!lifted) {
      await page.goto('/admin/policy');
      if (await page.getByRole('button', { name: 'Request to lift the freeze' }).isVisible())
        await approveAsSecondAdmin(browser, await requestLift(page, false));
    }
    await context.close();
  }
});

test('removing a spending limit in force confirms the second factor, then is requested and removed @console-wide', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const wallet = sandboxWallet('Payouts');
  // A limit on an asset no wallet holds: it counts nothing, so nothing it could do reaches another journey.
  const symbol = `SU${runId().slice(-6).toUpperCase()}`;
  const rule = `$250,000.00 per 24 hours per wallet (${wallet.name}), ${symbol} only`;
  const { page, context } = await contextAs(browser, 'admin', '/admin/policy');
  const limit = page.getByRole('form', { name: 'New spending limit' });
  await expect(limit.getByLabel('Limit: more approvals')).not.toHaveValue('');
  await limit.getByLabel('Limit: wallet').selectOption(wallet.id);
  await limit.getByLabel('Limit: amount (USD)').fill('250000');
  await limit.getByLabel('Limit: only this asset (optional)').fill(symbol);
  await limit.getByRole('button', { name: 'Request spending limit' }).click();
  const section = page.getByRole('region', { name: 'Spending limits' });
  // Just signed in: the check is fresh, so this request is not asked for the factor again.
  await confirmIfAsked(page, section.getByRole('status').filter({ hasText: 'Waiting for a second admin' }));
  await approveAsSecondAdmin(browser, await requestedIn(section));

  await makeStale(page);
  await page.goto('/admin/policy');
  const inForce = page.getByRole('list', { name: 'Spending limits in force' });
  await expect(inForce.getByText(rule)).toBeVisible();
  const removeRan = await startAndConfirm(
    page,
    page.getByRole('button', { name: `Request removal of ${rule}` }),
  );
  const removal = await requestedIn(section);
  expect(removeRan()).toBe(1);
  await expectPending(page, removal, rule);
  await approveAsSecondAdmin(browser, removal);
  await page.goto('/admin/policy');
  await expect(page.getByRole('heading', { name: 'Spending limits' })).toBeVisible();
  await expect(page.getByText(rule)).toHaveCount(0);
  await context.close();
});

/** Asks to connect the Collections wallet again with its own key; returns the request page. */
async function requestConnection(page: Page, stale: boolean): Promise<string> {
  const wallet = sandboxWallet('Collections');
  await page.goto('/admin/wallets');
  const dialog = page.getByRole('dialog', { name: 'Connect a wallet' });
  await openDialog(page.getByRole('button', { name: 'Connect wallet' }), dialog);
  await dialog.getByLabel('Wallet id').fill(wallet.id);
  await dialog.getByLabel('API key').fill(wallet.apiKey);
  await dialog.getByRole('button', { name: 'Request connection' }).click();
  const requested = page.getByRole('dialog', { name: 'Connection requested' });
  if (!stale) {
    await confirmIfAsked(page, requested);
    return requestedIn(requested);
  }
  const ran = await confirmItIsYou(page);
  const path = await requestedIn(requested);
  expect(ran()).toBe(1);
  return path;
}

test('removing a wallet connection and connecting it again confirm the second factor, then take effect @console-wide', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const wallet = sandboxWallet('Collections');
  const { page, context } = await contextAs(browser, 'admin');
  const row = page.getByRole('row', { name: new RegExp(wallet.id) });
  let removed = false;
  let connected = false;
  try {
    await makeStale(page);
    await page.goto('/admin/wallets');
    await expect(row).toBeVisible();
    const remove = page.getByRole('dialog', { name: `Remove ${COLLECTIONS}?` });
    await openDialog(row.getByRole('button', { name: `Remove ${COLLECTIONS}` }), remove);
    await remove.getByRole('button', { name: `Request removal of ${COLLECTIONS}` }).click();
    const removeRan = await confirmItIsYou(page);
    const removal = await requestedIn(remove);
    expect(removeRan()).toBe(1);
    await approveAsSecondAdmin(browser, removal);
    removed = true;
    await page.goto('/admin/wallets');
    await expect(page.getByRole('heading', { name: 'Wallet connections', level: 1 })).toBeVisible();
    await expect(row).toHaveCount(0);

    await makeStale(page);
    const connection = await requestConnection(page, true);
    expect(await page.content()).not.toContain(wallet.apiKey);
    await approveAsSecondAdmin(browser, connection);
    connected = true;
    await page.goto('/admin/wallets');
    await expect(row.getByText(`••••${wallet.apiKey.slice(-4)}`)).toBeVisible();
  } finally {
    // The wallet is connected again for whatever runs next, whatever happened above.
    if (removed && !connected) await approveAsSecondAdmin(browser, await requestConnection(page, false));
    await context.close();
  }
});
