// A back-office system on the console's API: an admin asks for a token in the browser, a second admin approves,
// the token is shown once; the system's withdrawal (sent twice with one Idempotency-Key) becomes one request
// that two people approve in the browser and is submitted once; calls outside the token's networks, scope or
// daily cap, and after its revocation, get a JSON error that says why; the OpenAPI document validates.

import { validate } from '@readme/openapi-parser';
import { contextAs, expect, expectAccessible, test } from './fixtures';
import { approveOnPage } from './helpers/actions';
import { bookEntry } from './helpers/address-book';
import { api, tokenThroughQuorum } from './helpers/console-api';
import { randomAddress, sandboxCall, sandboxWallet } from './helpers/sandbox';

test('a system’s withdrawal is requested once through the API and approved by two people in the browser', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const wallet = sandboxWallet('Treasury');
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  const { page: admin, context } = await contextAs(browser, 'admin');
  const run = Date.now().toString(36);
  const token = await tokenThroughQuorum(browser, admin, {
    name: `Payroll ${run}`,
    scopes: ['Request withdrawals'],
    dailyCapUsd: '1',
  });

  // The system reads its wallets.
  const wallets = await api(request, token, 'GET', '/api/v1/wallets');
  expect(wallets.status).toBe(200);
  expect(wallets.json.data.map((w: { id: string }) => w.id)).toEqual([wallet.id]);

  // Money goes only to address book entries past their cooling-off: a typed never-seen address is refused at
  // its field, and no request is made.
  const path = `/api/v1/wallets/${wallet.id}/withdrawals`;
  const stranger = await api(request, token, 'POST', path, {
    assetId: usdc.id,
    address: randomAddress(),
    amount: '0.6',
  });
  expect(stranger).toMatchObject({ status: 422, json: { code: 'invalid_body' } });
  expect(stranger.json.fieldErrors.address).toMatch(/is not in this wallet's address book/);

  // One withdrawal to an entry, sent twice with one key (a retry after a lost answer): one request.
  const reference = `api-${run}`;
  const payee = bookEntry(wallet, 'Massive Dynamic').address;
  const body = { assetId: usdc.id, address: payee, amount: '0.6', reference };
  const first = await api(request, token, 'POST', path, body, `pay-${run}`);
  expect(first.status).toBe(201);
  expect(first.json.data).toMatchObject({ status: 'PENDING_APPROVAL', requiredApprovals: 2 });
  const again = await api(request, token, 'POST', path, body, `pay-${run}`);
  expect(again.status).toBe(200);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json.data.id).toBe(first.json.data.id);
  const mine = await api(request, token, 'GET', '/api/v1/requests');
  expect(mine.json.data.filter((r: { id: string }) => r.id === first.json.data.id)).toHaveLength(1);
  expect(mine.json.meta.total).toBe(1);

  // Over the daily cap of 1 USD: refused, with what was used.
  const over = await api(request, token, 'POST', path, { ...body, reference: `${reference}-2` });
  expect(over.status).toBe(422);
  expect(over.json).toMatchObject({ code: 'daily_cap_exceeded' });
  // Without the swap scope.
  const swap = await api(request, token, 'POST', `/api/v1/wallets/${wallet.id}/swaps`, {
    addressId: wallet.addresses[0]!.id,
    fromAssetId: usdc.id,
    toAssetId: usdc.id,
    amount: '1',
    order: 'FASTEST',
  });
  expect(swap).toMatchObject({ status: 403, json: { code: 'scope_missing' } });

  // Two people approve in the browser; the admin who was shown the token may not.
  const requestPath = `/approvals/${first.json.data.id}`;
  await admin.goto(requestPath);
  await expect(admin.getByText('Request status: Pending approval')).toBeVisible();
  await expect(admin.getByText(`Payroll ${run} (API token)`).first()).toBeVisible();
  for (const role of ['finance', 'finance2'] as const) {
    const { page, context: c } = await contextAs(browser, role);
    await page.goto(requestPath);
    await approveOnPage(page);
    await c.close();
  }
  await expect
    .poll(
      async () =>
        (await api(request, token, 'GET', `/api/v1/requests/${first.json.data.id}`)).json.data.status,
      {
        timeout: 60_000,
      },
    )
    .toMatch(/^(SUBMITTED|SUCCESS)$/);
  // At the sandbox: exactly one withdrawal carries the reference.
  const sent = await sandboxCall<Array<{ reference: string }>>(
    request,
    wallet,
    'GET',
    `/v1/wallets/${wallet.id}/transactions?reference=${encodeURIComponent(reference)}`,
  );
  expect(sent.json.data).toHaveLength(1);
  await context.close();
});

test('a token outside its networks, and a revoked one, are refused with a JSON error', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const { page: admin, context } = await contextAs(browser, 'admin');
  const name = `Back office ${Date.now().toString(36)}`;
  const token = await tokenThroughQuorum(browser, admin, {
    name,
    scopes: [],
    dailyCapUsd: '100',
    networks: '10.99.0.0/16',
  });
  const fenced = await api(request, token, 'GET', '/api/v1/wallets');
  expect(fenced.status).toBe(403);
  expect(fenced.json).toMatchObject({ code: 'network_refused' });
  expect(fenced.json.message).toContain('10.99.0.0/16');

  // Revoked in the browser: refused at once.
  await admin.goto('/admin/tokens');
  await admin.getByRole('button', { name: `Revoke ${name}` }).click();
  const confirm = admin.getByRole('dialog', { name: `Revoke ${name}?` });
  await confirm.getByRole('button', { name: `Revoke ${name}` }).click();
  await expect(confirm).toHaveCount(0);
  await expect(admin.getByRole('row', { name: new RegExp(name) })).toContainText('Revoked');
  await expectAccessible(admin);
  const revoked = await api(request, token, 'GET', '/api/v1/wallets');
  expect(revoked).toMatchObject({ status: 401, json: { code: 'token_revoked' } });
  const unknown = await api(request, 'cct_000000000000_nope', 'GET', '/api/v1/wallets');
  expect(unknown).toMatchObject({ status: 401, json: { code: 'unauthenticated' } });
  await context.close();
});

test('the OpenAPI document validates and lists every route', async ({ request }) => {
  const res = await request.get('/api/v1/openapi.json');
  expect(res.status()).toBe(200);
  const document = await res.json();
  await expect(validate(document)).resolves.toMatchObject({ valid: true });
  expect(Object.keys(document.paths).sort()).toEqual(
    [
      '/api/v1/requests',
      '/api/v1/requests/{requestId}',
      '/api/v1/wallets',
      '/api/v1/wallets/{walletId}',
      '/api/v1/wallets/{walletId}/swaps',
      '/api/v1/wallets/{walletId}/transactions',
      '/api/v1/wallets/{walletId}/withdrawals',
    ].sort(),
  );
});
