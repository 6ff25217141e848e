// Address poisoning: a recipient whose first and last characters match a whitelisted address but whose middle
// differs is flagged on the review, beside the trusted address.
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { fillRecipientAddress, treasuryWallet } from './helpers/withdraw-approval';

const wallet = treasuryWallet();

test('the review flags a look-alike of a whitelisted address and names the trusted one', async ({
  browser,
}) => {
  const trusted = wallet.addresses.find((a) => a.type === 'EXTERNAL');
  expect(trusted, 'the seed whitelists an address').toBeDefined();
  const real = trusted!.address.toLowerCase();
  // Same first three and last three characters after 0x; every character between is different.
  const middle = real.slice(5, -3).replace(/./g, (c) => (c === 'a' ? 'b' : 'a'));
  const poisoned = `${real.slice(0, 5)}${middle}${real.slice(-3)}`;

  const { page, context } = await contextAs(browser, 'finance');
  await page.goto(`/wallets/${wallet.id}/withdraw`);
  await fillRecipientAddress(page, poisoned);
  await page.getByLabel('Recipient 1 amount').fill('0.01');
  await page.getByRole('button', { name: 'Review request' }).click();
  await expect(page.getByRole('heading', { name: 'Review' })).toBeVisible();
  const warning = page.getByText(/^Looks like 0x/);
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(new RegExp(trusted!.address, 'i'));
  await expect(warning).toContainText('address poisoning');
  await expectAccessible(page);
  await context.close();
});
