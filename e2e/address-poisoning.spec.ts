// Address poisoning: a recipient whose first and last characters match a whitelisted address but whose middle
// differs is flagged on the form as it is typed, beside the trusted address; money goes only to address book
// entries past their cooling-off, so the server refuses it at the recipient's field and nothing is requested.
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { fillRecipientAddress, treasuryWallet } from './helpers/withdraw-approval';

const wallet = treasuryWallet();

test('a look-alike of a whitelisted address is flagged as it is typed and refused at its field', async ({
  browser,
}) => {
  const trusted = wallet.addresses.find((a) => a.type === 'EXTERNAL');
  expect(trusted, 'the seed whitelists an address').toBeDefined();
  const real = trusted!.address.toLowerCase();
  // Same first three and last three characters after 0x; every character between is different.
  const middle = real.slice(5, -3).replace(/./g, (c) => (c === 'a' ? 'b' : 'a'));
  const poisoned = `${real.slice(0, 5)}${middle}${real.slice(-3)}`;

  const { page, context } = await contextAs(browser, 'finance', `/wallets/${wallet.id}/withdraw`);
  await fillRecipientAddress(page, poisoned);
  const flagged = page.getByRole('alert').filter({ hasText: 'Look-alike of' });
  await expect(flagged).toContainText(new RegExp(trusted!.address, 'i'));
  // The form names the trusted address as the book lists it (whitelisted at the service).
  await expect(flagged).toContainText(`address book “${trusted!.name}”`);
  await page.getByLabel('Recipient 1 amount').fill('0.01');
  await page.getByRole('button', { name: 'Review request' }).click();
  // Refused at the recipient's address: not in the wallet's address book (the destination policy).
  await expect(page.getByLabel('Recipient 1 address')).toHaveAccessibleDescription(
    /is not in this wallet's address book: money goes only to address book entries past their cooling-off/,
  );
  await expect(page.getByRole('heading', { name: 'Review' })).toHaveCount(0);
  await expectAccessible(page);
  await context.close();
});
