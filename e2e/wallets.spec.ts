import { privateKeyToAccount } from 'viem/accounts';
import { contextAs, DEMO_PASSWORD, expect, expectAccessible, formAlert, test } from './fixtures';
import { nextActionRequest } from './helpers/actions';
import { approveAsSecondAdmin, requestedChangePath } from './helpers/quorum';
import { sandboxAddress, sandboxWallet } from './helpers/sandbox';

// One test below removes and re-adds a sandbox wallet; running this file's tests one after another keeps
// the "three wallet cards" check from seeing that moment.
test.describe.configure({ mode: 'serial' });

const TREASURY = 'Treasury (Ethereum Sepolia)';
const PAYOUTS = 'Payouts (Base Sepolia)';
const COLLECTIONS = 'Collections (Polygon)';

test.describe('wallets', () => {
  test('a viewer sees the wallet cards, an overview with assets and chart, and an address detail', async ({
    browser,
  }) => {
    const { page, context } = await contextAs(browser, 'viewer', '/wallets');
    await expect(page.getByRole('heading', { name: 'Wallets', level: 1 })).toBeVisible();
    const cards = page.getByRole('article');
    await expect(cards).toHaveCount(3);
    // Exactly one mainnet wallet, marked as such.
    await expect(cards.filter({ hasText: 'Mainnet' })).toHaveCount(1);
    await expect(
      page.getByRole('article', { name: COLLECTIONS }).getByText('Mainnet', { exact: true }),
    ).toBeVisible();
    const treasuryCard = page.getByRole('article', { name: TREASURY });
    await expect(treasuryCard.getByText('Total balance')).toBeVisible();
    await expect(treasuryCard.getByText(/^\$[\d,]+\.\d{2}$/).first()).toBeVisible();
    await expect(treasuryCard.getByRole('button', { name: 'Copy wallet address' })).toBeVisible();
    await expectAccessible(page);

    await treasuryCard.getByRole('link', { name: `Open ${TREASURY}` }).click();
    await expect(page.getByRole('heading', { name: TREASURY, level: 1 })).toBeVisible();
    const assets = page.getByRole('table', { name: 'Assets' });
    await expect(assets.getByRole('cell', { name: /USDC/ }).first()).toBeVisible();
    const chart = page.getByRole('figure', { name: 'Balance by asset (USD)' });
    await expect(chart.getByRole('listitem')).toHaveCount(3);
    await expect(page.getByText('Auto-settlement', { exact: true })).toBeVisible();
    await expect(page.getByText('Prefunding', { exact: true })).toBeVisible();
    // The API key is masked; no seed phrase or business details reach the page.
    await expect(page.getByText(/^••••.{4}$/)).toBeVisible();
    await expectAccessible(page);

    await page
      .getByRole('navigation', { name: 'Wallet sections' })
      .getByRole('link', { name: 'Addresses' })
      .click();
    await expect(page.getByRole('heading', { name: 'Addresses', level: 2 })).toBeVisible();
    await page.getByLabel('Search by name or address').fill('Operating float');
    await page
      .getByRole('form', { name: 'Filter addresses' })
      .getByRole('button', { name: 'Search' })
      .click();
    await expect(page).toHaveURL(/search=Operating\+float/);
    const table = page.getByRole('table', { name: 'Addresses' });
    await expect(table.getByRole('link', { name: /^Operating float \d$/ })).toHaveCount(3);
    await expectAccessible(page);

    // The filter lives in the URL: a reload keeps it; an external filter finds none of the floats.
    await page.getByLabel('Type').selectOption('EXTERNAL');
    await expect(page).toHaveURL(/type=EXTERNAL/);
    await expect(page.getByText('No addresses match.')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Type')).toHaveValue('EXTERNAL');
    await expect(page.getByLabel('Search by name or address')).toHaveValue('Operating float');
    await expect(page.getByText('No addresses match.')).toBeVisible();
    await page.getByLabel('Type').selectOption('INTERNAL');
    await expect(table.getByRole('link', { name: /^Operating float \d$/ })).toHaveCount(3);

    await table.getByRole('link', { name: 'Operating float 1' }).click();
    await expect(page.getByRole('heading', { name: 'Operating float 1', level: 2 })).toBeVisible();
    await expect(page.getByText(/^AML: (success|passed)$/)).toBeVisible();
    await expect(page.getByText(/^m\/44'\/\d+'\/\d+'\/\d+\/\d+$/)).toBeVisible();
    await expect(page.getByText('Auto-sweep', { exact: true })).toBeVisible();
    await expect(page.getByText('Deposits stay on this address.')).toBeVisible();
    const transactionsLink = page.getByRole('link', { name: 'Transactions', exact: true }).last();
    await expect(transactionsLink).toHaveAttribute('href', /\/transactions\?addressId=/);
    // A viewer gets neither of the controls.
    await expect(page.getByRole('button', { name: 'Reveal private key' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Simulate deposit' })).toHaveCount(0);
    await expectAccessible(page);
    await context.close();
  });

  test('support sees no reveal or deposit controls on an address', async ({ browser }) => {
    const wallet = sandboxWallet('Payouts');
    const address = sandboxAddress(wallet, 'Operating float 2');
    const { page, context } = await contextAs(
      browser,
      'support',
      `/wallets/${wallet.id}/addresses/${address.id}`,
    );
    await expect(page.getByRole('heading', { name: 'Operating float 2', level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reveal private key' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Simulate deposit' })).toHaveCount(0);
    await expectAccessible(page);
    await context.close();
  });

  test('finance simulates a deposit and sees the outcome', async ({ browser }) => {
    const wallet = sandboxWallet('Payouts');
    const address = sandboxAddress(wallet, 'Operating float 3');
    const { page, context } = await contextAs(
      browser,
      'finance',
      `/wallets/${wallet.id}/addresses/${address.id}`,
    );
    await expect(page.getByRole('heading', { name: 'Operating float 3', level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Reveal private key' })).toHaveCount(0);
    const form = page.getByRole('form', { name: 'Simulate a deposit' });
    await form.getByLabel('Asset').selectOption({ label: 'USDC' });
    // Bad input stays in the browser with a message at the field.
    await form.getByLabel('Amount').fill('1e5');
    await form.getByRole('button', { name: 'Simulate deposit' }).click();
    await expect(form.getByText('Enter a positive decimal amount, e.g. 25 or 0.5')).toBeVisible();
    await expectAccessible(page);
    await form.getByLabel('Amount').fill('12.5');
    await form.getByRole('button', { name: 'Simulate deposit' }).click();
    const toast = page.getByRole('listitem').filter({ hasText: 'Deposit of 12.5 USDC simulated (PENDING)' });
    await expect(toast).toBeVisible();
    // Closed from the keyboard: another test's live event (a withdrawal failing) may stack a toast in front
    // of this one, covering its close button for a pointer.
    await toast.getByRole('button', { name: /close/i }).focus();
    await page.keyboard.press('Enter');
    await expect(toast).toHaveCount(0);
    // Axe runs once every toast is gone: mid-animation their colours are not yet final.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 30_000 });
    await expectAccessible(page);
    await context.close();
  });

  test('an admin asks to see a private key, a second admin approves, and the asker sees it once after re-entering the password; a viewer calling the action directly is refused', async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const wallet = sandboxWallet('Treasury');
    const address = sandboxAddress(wallet, 'Customer 001');
    const url = `/wallets/${wallet.id}/addresses/${address.id}`;
    const { page: admin, context: adminContext } = await contextAs(browser, 'admin', url);
    await expect(admin.getByRole('heading', { name: 'Customer 001', level: 2 })).toBeVisible();
    // Whoever holds the key moves the address's funds without the console: one admin asks, another approves.
    await admin.getByRole('button', { name: 'Reveal private key' }).click();
    const ask = admin.getByRole('dialog');
    await expect(ask.getByRole('heading', { name: 'Ask to see the private key?' })).toBeVisible();
    await expectAccessible(admin);
    await ask.getByRole('button', { name: 'Ask to see it' }).click();
    const requestPath = await requestedChangePath(admin);
    await admin.goto(requestPath);
    await expect(admin.getByText('Request status: Pending approval')).toBeVisible();
    await expect(admin.getByRole('region', { name: 'Review' })).toContainText(address.address);
    // The asker cannot approve their own request, and there is nothing to show yet.
    await expect(admin.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(admin.getByRole('button', { name: 'Show the private key' })).toHaveCount(0);
    await approveAsSecondAdmin(browser, requestPath);

    await admin.reload();
    await expect(admin.getByText('Request status: Success')).toBeVisible();
    await admin.getByRole('button', { name: 'Show the private key' }).click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Reveal private key' })).toBeVisible();
    await expectAccessible(admin);

    await dialog.getByLabel('Your password').fill('not-my-password');
    const captured = nextActionRequest(admin);
    await dialog.getByRole('button', { name: 'Reveal' }).click();
    const request = await captured;
    await expect(dialog.getByText('That password is not right.')).toBeVisible();

    await dialog.getByLabel('Your password').fill(DEMO_PASSWORD);
    await dialog.getByRole('button', { name: 'Reveal' }).click();
    // Customer 001 is seeded with showPrivateKey: the key is shown once, and it is the address's own key.
    const shown = dialog.getByTestId('private-key');
    await expect(shown).toHaveText(/^0x[0-9a-fA-F]{64}$/);
    const key = ((await shown.textContent()) ?? '').trim() as `0x${string}`;
    expect(privateKeyToAccount(key).address.toLowerCase()).toBe(address.address.toLowerCase());
    // The page reads the request anew (on returning to the tab once its copy is 15 s old, or on any live event),
    // and learns the key was shown: the key stays on screen until the dialog is closed.
    let readAnew = false;
    admin.on('response', async (r) => {
      if (r.url().endsWith(`${requestPath}/feed`) && r.ok())
        readAnew ||= JSON.stringify(await r.json()).includes('"privateKey":"shown"');
    });
    await expect
      .poll(
        async () => {
          await admin.evaluate(() => window.dispatchEvent(new Event('visibilitychange')));
          return readAnew;
        },
        { timeout: 30_000, intervals: [1_000] },
      )
      .toBe(true);
    // Once the page has drawn what it read.
    await admin.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    await expect(shown).toHaveText(key);
    await expectAccessible(admin);
    await dialog.getByRole('button', { name: 'Done' }).click();
    // Once: the page now says it was shown, and offers nothing more.
    await expect(admin.getByText(/was shown once to the admin who asked/)).toBeVisible();
    await expect(admin.getByRole('button', { name: 'Show the private key' })).toHaveCount(0);

    const { page: viewer, context: viewerContext } = await contextAs(browser, 'viewer', url);
    await expect(viewer.getByRole('heading', { name: 'Customer 001', level: 2 })).toBeVisible();
    await expect(viewer.getByRole('button', { name: 'Reveal private key' })).toHaveCount(0);
    const answer = await viewerContext.request.post(requestPath, {
      headers: {
        'next-action': request.headers()['next-action'] ?? '',
        'content-type': 'text/plain;charset=UTF-8',
        accept: 'text/x-component',
        'next-router-state-tree': request.headers()['next-router-state-tree'] ?? '',
      },
      data: JSON.stringify([
        {
          walletId: wallet.id,
          addressId: address.id,
          password: DEMO_PASSWORD,
          requestId: requestPath.split('/').pop(),
        },
      ]),
    });
    const text = await answer.text();
    expect(text).toContain('You do not have permission to do this.');
    expect(text).not.toContain('privateKey');

    // Every attempt is in the audit log: the wrong password, the reveal, the viewer's refused call.
    await admin.goto('/audit');
    await admin.getByLabel('Action').fill('privateKey.reveal');
    await admin.getByRole('button', { name: 'Filter' }).click();
    const entries = admin
      .getByRole('table', { name: 'Audit entries' })
      .getByRole('row')
      .filter({ hasText: `address:${address.id}` });
    await expect(entries.filter({ hasText: 'viewer@example.com' }).filter({ hasText: 'denied' })).toHaveCount(
      1,
    );
    await expect(async () =>
      expect(await entries.filter({ hasText: 'admin@example.com' }).count()).toBeGreaterThanOrEqual(2),
    ).toPass();
    await adminContext.close();
    await viewerContext.close();
  });

  test('an admin is told clearly when a key is wrong, and nothing is stored', async ({ browser }) => {
    const { page, context } = await contextAs(browser, 'admin', '/admin/users');
    await page
      .getByRole('navigation', { name: 'Admin sections' })
      .getByRole('link', { name: 'Wallet connections' })
      .click();
    await expect(page.getByRole('heading', { name: 'Wallet connections', level: 1 })).toBeVisible();
    await expectAccessible(page);
    const unknownId = crypto.randomUUID();
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Wallet id').fill(unknownId);
    await dialog.getByLabel('API key').fill('sbx_not_a_real_key_1234');
    await dialog.getByRole('button', { name: 'Request connection' }).click();
    await expect(formAlert(page)).toContainText('The custody service refused this key for this wallet (401)');
    await expect(formAlert(page)).toContainText('Invalid API key');
    await expect(dialog.getByLabel('API key')).toHaveValue('');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText(unknownId)).toHaveCount(0);
    await context.close();
  });

  test('an admin removes a wallet connection and adds it back with its key; only the last four characters show', async ({
    browser,
  }) => {
    const wallet = sandboxWallet('Collections');
    const { page, context } = await contextAs(browser, 'admin', '/admin/wallets');
    const row = page.getByRole('row', { name: new RegExp(wallet.id) });
    await expect(row).toBeVisible();

    await row.getByRole('button', { name: `Remove ${COLLECTIONS}` }).click();
    const confirm = page.getByRole('dialog', { name: `Remove ${COLLECTIONS}?` });
    await expect(confirm).toBeVisible();
    await expectAccessible(page);
    // Each change waits for a second admin, then is made at once.
    await confirm.getByRole('button', { name: `Request removal of ${COLLECTIONS}` }).click();
    const removal = await requestedChangePath(page);
    await confirm.getByRole('button', { name: 'Done' }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page.getByRole('row', { name: new RegExp(wallet.id) })).toHaveCount(1);
    await approveAsSecondAdmin(browser, removal);
    await page.goto('/admin/wallets');
    await expect(page.getByRole('row', { name: new RegExp(wallet.id) })).toHaveCount(0);

    await page.getByRole('button', { name: 'Connect wallet' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Wallet id').fill(wallet.id);
    await dialog.getByLabel('API key').fill(wallet.apiKey);
    await dialog.getByRole('button', { name: 'Request connection' }).click();
    const connection = await requestedChangePath(page);
    expect(await page.content()).not.toContain(wallet.apiKey);
    await page.goto(connection);
    // The review shows the key's last four characters only.
    await expect(page.getByText(`•••• ${wallet.apiKey.slice(-4)}`)).toBeVisible();
    expect(await page.content()).not.toContain(wallet.apiKey);
    await approveAsSecondAdmin(browser, connection);
    await page.goto('/admin/wallets');
    const back = page.getByRole('row', { name: new RegExp(wallet.id) });
    await expect(back.getByText(`••••${wallet.apiKey.slice(-4)}`)).toBeVisible();
    await expect(page.getByText(wallet.apiKey)).toHaveCount(0);
    expect(await page.content()).not.toContain(wallet.apiKey);

    // Rotating to a key the service accepts (here the same one) keeps the connection working.
    await back.getByRole('button', { name: `Rotate key of ${COLLECTIONS}` }).click();
    const rotate = page.getByRole('dialog');
    await rotate.getByLabel('New API key').fill(wallet.apiKey);
    await rotate.getByRole('button', { name: 'Request key rotation' }).click();
    const rotation = await requestedChangePath(page);
    await approveAsSecondAdmin(browser, rotation);
    await page.goto(rotation);
    await expect(page.getByText('Request status: Success')).toBeVisible();
    await expect(
      page.getByText(`•••• ${wallet.apiKey.slice(-4)} → •••• ${wallet.apiKey.slice(-4)}`),
    ).toBeVisible();

    await page.goto('/wallets');
    await expect(page.getByRole('article')).toHaveCount(3);
    await expect(page.getByRole('article', { name: COLLECTIONS }).getByText('Total balance')).toBeVisible();
    await expect(page.getByRole('article', { name: PAYOUTS })).toBeVisible();
    await expectAccessible(page);
    await context.close();
  });
});
