// The address book: an entry one admin adds is unusable until a second admin approves it and its cooling-off
// has passed (shortened here through the policy, itself approved by the second admin); the withdrawal form
// then picks it by name, and a look-alike of it is flagged on the form and refused by the destination policy.
import type { Page } from '@playwright/test';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';
import { randomAddress } from './helpers/sandbox';
import { fillRecipientAddress, treasuryWallet } from './helpers/withdraw-approval';

const wallet = treasuryWallet();

/** Opens the picker of the first recipient, searches by name and picks with the keyboard. */
async function pickByName(page: Page, name: string) {
  await page.getByRole('button', { name: 'Pick recipient 1 from the address book' }).click();
  const search = page.getByRole('combobox', { name: 'Search the address book by name' });
  await search.fill(name);
  await search.press('Enter');
}

test('a new entry waits for a second admin and the cooling-off, then is picked by name; a look-alike is flagged', async ({
  browser,
}) => {
  // Four people sign in and two requests go through a second admin: longer than one journey's default.
  test.setTimeout(300_000);
  const name = `Acme ${Date.now().toString(36)}`;
  const typed = randomAddress();
  const book = `/wallets/${wallet.id}/address-book`;

  // One admin asks for the entry.
  const { page: admin, context: adminContext } = await contextAs(browser, 'admin', book);
  await expect(admin.getByRole('heading', { name: 'Address book' })).toBeVisible();
  await expectAccessible(admin);
  const dialog = admin.getByRole('dialog', { name: 'Add an address book entry' });
  await expect(async () => {
    await admin.getByRole('button', { name: 'Add entry' }).click({ timeout: 2_000 });
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Address', { exact: true }).fill(typed);
  await dialog.getByLabel('Tags', { exact: true }).fill('supplier, e2e');
  await dialog.getByRole('button', { name: 'Request entry' }).click();
  const entryRequest = await requestedChangePath(admin);
  await expectAccessible(admin);
  await admin.keyboard.press('Escape');

  // Not in the book until the second admin approves; the requester cannot approve it.
  await admin.goto(entryRequest);
  await expect(admin.getByRole('table', { name: 'Address book entries: before and after' })).toContainText(
    name,
  );
  await expect(admin.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expectAccessible(admin);
  await admin.goto(`${book}?q=${encodeURIComponent(name)}`);
  await expect(admin.getByText('No entry matches the filters')).toBeVisible();
  await approveAsSecondAdmin(browser, entryRequest);
  await admin.goto(`${book}?q=${encodeURIComponent(name)}`);
  const row = admin.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('Cooling off until');

  // While it cools off, the picker shows it but cannot choose it, and the server refuses a payment typed by hand.
  const { page: finance, context: financeContext } = await contextAs(
    browser,
    'finance',
    `/wallets/${wallet.id}/withdraw`,
  );
  await fillRecipientAddress(finance, typed);
  await expect(finance.getByText(`${name} · Address book · still cooling off`)).toBeVisible();
  await finance.getByLabel('Recipient 1 amount').fill('0.01');
  await finance.getByRole('button', { name: 'Review request' }).click();
  // Refused at the recipient's field.
  await expect(finance.getByLabel('Recipient 1 address')).toHaveAccessibleDescription(
    /was added to the address book recently: it can receive money from/,
  );
  await finance.getByRole('button', { name: 'Pick recipient 1 from the address book' }).click();
  await finance.getByRole('combobox', { name: 'Search the address book by name' }).fill(name);
  await expect(finance.getByRole('option', { name: new RegExp(name) })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await expectAccessible(finance);
  await finance.keyboard.press('Escape');

  // The admin shortens the cooling-off through the policy; it applies when the second admin approves.
  await admin.goto('/admin/policy');
  const coolingOff = admin.getByLabel('Cooling-off (minutes)');
  await expect(coolingOff).toHaveValue('1440');
  await coolingOff.fill('0.1');
  // The destination policy stays on (the checkbox as it was).
  await expect(
    admin.getByLabel('Money goes only to address-book entries past their cooling-off'),
  ).toBeChecked();
  await admin.getByRole('button', { name: 'Request address book policy change', exact: true }).click();
  const policyRequest = await requestedChangePath(admin);
  await expectAccessible(admin);
  await approveAsSecondAdmin(browser, policyRequest);
  await expect(async () => {
    await admin.goto(`${book}?q=${encodeURIComponent(name)}`);
    await expect(admin.getByRole('row').filter({ hasText: name })).toContainText('Can receive money', {
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000 });
  await adminContext.close();

  // Once it has cooled off, the form picks it by name and the review names the entry and its age.
  await expect(async () => {
    await finance.goto(`/wallets/${wallet.id}/withdraw`);
    await pickByName(finance, name);
    await expect(finance.getByLabel('Recipient 1 address')).toHaveValue(new RegExp(typed.slice(2), 'i'), {
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000 });
  await finance.getByLabel('Recipient 1 amount').fill('0.01');
  await finance.getByRole('button', { name: 'Review request' }).click();
  const review = finance.getByRole('region', { name: 'Review' });
  await expect(review).toBeVisible();
  await expect(review.getByText(name, { exact: true })).toBeVisible();
  await expect(review.getByText(/Address book · added .* before this review/)).toBeVisible();
  await expectAccessible(finance);
  await finance.getByRole('button', { name: 'Create request' }).click();
  await expect(finance).toHaveURL(/\/approvals\/[0-9a-f-]{36}$/);

  // A look-alike of the entry: flagged on the form beside the trusted address, and refused at its field (money
  // goes only to address book entries); nothing is requested.
  const real = typed.toLowerCase();
  const middle = real.slice(5, -3).replace(/./g, (c) => (c === 'a' ? 'b' : 'a'));
  const poisoned = `${real.slice(0, 5)}${middle}${real.slice(-3)}`;
  await finance.goto(`/wallets/${wallet.id}/withdraw`);
  await fillRecipientAddress(finance, poisoned);
  const flagged = finance.getByRole('alert').filter({ hasText: 'Look-alike of' });
  await expect(flagged).toContainText(name);
  await expect(flagged).toContainText(new RegExp(typed, 'i'));
  await finance.getByLabel('Recipient 1 amount').fill('0.01');
  await finance.getByRole('button', { name: 'Review request' }).click();
  await expect(finance.getByLabel('Recipient 1 address')).toHaveAccessibleDescription(
    /is not in this wallet's address book/,
  );
  await expect(finance.getByRole('heading', { name: 'Review' })).toHaveCount(0);
  await expectAccessible(finance);
  await financeContext.close();
});

test('the address book exports as CSV and fits a phone', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'viewer');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/wallets/${wallet.id}/address-book`);
  await expect(page.getByRole('table', { name: 'Address book entries' })).toBeVisible();
  // Viewers read the book; only admins add to it.
  await expect(page.getByRole('button', { name: 'Add entry' })).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  const csv = await page.request.get(`/api/wallets/${wallet.id}/address-book/export.csv`);
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text.split('\r\n')[0]).toBe('name,address,chain,tags,notes,source,added_utc,usable_from_utc');
  // The seed whitelists an address: the service's own entries are in the file too.
  expect(text).toContain(',whitelisted,');
  await context.close();
});

test('a pasted CSV is checked line by line before an import can be requested', async ({ browser }) => {
  const { page, context } = await contextAs(browser, 'admin', `/wallets/${wallet.id}/address-book`);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import address book entries' });
  await expect(dialog).toBeVisible();
  const paste = dialog.getByLabel('Or paste CSV');
  const request = dialog.getByRole('button', { name: 'Request import' });
  const good = randomAddress();
  // The reader (and the entry schema it checks each row with) loads with the first text read.
  await paste.fill(`name,address\nPayroll one,${good}\nPayroll two,0x1234`);
  await expect(dialog.getByRole('list', { name: 'CSV errors' })).toContainText('Line 3: address:');
  await expect(request).toBeDisabled();
  await paste.fill(`name,address\nPayroll one,${good}\nPayroll two,${randomAddress()}`);
  await expect(dialog.getByText('2 entries ready.')).toBeVisible();
  await expect(dialog.getByRole('list', { name: 'CSV errors' })).toHaveCount(0);
  await expect(request).toBeEnabled();
  await expectAccessible(page);
  await context.close();
});

test('picking an entry names that entry, though the service lists the same address under its own name', async ({
  browser,
}) => {
  // "Cold storage" is in the demo address book and whitelisted at the service, at the same address.
  const { page, context } = await contextAs(browser, 'finance', `/wallets/${wallet.id}/withdraw`);
  await page.getByRole('button', { name: 'Pick recipient 1 from the address book' }).click();
  await page.getByRole('combobox', { name: 'Search the address book by name' }).fill('Cold storage');
  await expect(page.getByRole('option', { name: /Cold storage/ })).toHaveCount(2);
  await page.getByRole('option', { name: /Cold storage.*· Address book/ }).click();
  const recipient = page.getByRole('group', { name: 'Recipient 1' });
  await expect(recipient.getByText('Cold storage · Address book', { exact: true })).toBeVisible();
  await expect(recipient.getByText(/Whitelisted \(service\)/)).toHaveCount(0);
  await context.close();
});
