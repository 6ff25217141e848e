// Every console page for every role, loaded as a browser's first request loads it: 200 for a page the role may
// open, 403 naming the role needed for one it may not, 404 for an id that names nothing, whatever the page
// streams. And the proxy's answers (security headers, the size and origin of an action) hold whatever the
// request's headers say it is: a router prefetch included.
import type { APIRequestContext } from '@playwright/test';
import type { Role } from '@/lib/db/schema';
import { neededRoleSentence, PAGE_RULES } from '@/lib/server/page-rules';
import { can } from '@/lib/server/permissions';
import { contextAs, type DemoRole, expect, test } from './fixtures';
import { sandboxWallet } from './helpers/sandbox';

const ROLES: DemoRole[] = ['admin', 'finance', 'support', 'viewer'];
const UNKNOWN_REQUEST = '00000000-0000-4000-8000-00000000f404';

/** A page's path with the seeded Treasury wallet and one of its addresses in place of the ids. */
function concrete(path: string): string {
  const wallet = sandboxWallet('Treasury');
  const address = wallet.addresses[0];
  if (!address) throw new Error('the Treasury wallet has no address');
  return path
    .replace('[walletId]', encodeURIComponent(wallet.id))
    .replace('[addressId]', encodeURIComponent(address.id))
    .replace('[requestId]', UNKNOWN_REQUEST);
}

async function load(request: APIRequestContext, path: string, headers: Record<string, string> = {}) {
  const response = await request.get(path, { maxRedirects: 0, headers });
  return { status: response.status(), body: await response.text(), headers: response.headers() };
}

for (const role of ROLES) {
  test(`every console page answers ${role} with its honest status`, async ({ browser }) => {
    const { context, page } = await contextAs(browser, role);
    const checked: string[] = [];
    for (const rule of PAGE_RULES.filter((r) => !r.path.includes('[requestId]'))) {
      const path = concrete(rule.path);
      const { status, body } = await load(page.request, path);
      if (can(role as Role, rule.action)) {
        expect(status, `${role} ${path}`).toBe(200);
      } else {
        expect(status, `${role} ${path}`).toBe(403);
        expect(body, `${role} ${path}`).toContain(neededRoleSentence(rule.action, role as Role));
      }
      checked.push(path);
    }
    expect(checked.length).toBe(PAGE_RULES.length - 1);
    await context.close();
  });
}

test('an id that names nothing answers 404 with the not-found page, on every kind of id', async ({
  browser,
}) => {
  const { context, page } = await contextAs(browser, 'admin');
  const wallet = encodeURIComponent(sandboxWallet('Treasury').id);
  const unknown = [
    '/wallets/nope',
    '/wallets/nope/withdraw',
    '/wallets/nope/addresses/nope',
    '/wallets/%00',
    `/wallets/${wallet}/addresses/nope`,
    `/wallets/${wallet}/addresses/${encodeURIComponent('00000000-0000-4000-8000-000000000000')}`,
    `/approvals/${UNKNOWN_REQUEST}`,
    '/approvals/nope',
    `/wallets/${wallet}/no-such-tab`,
    '/no-such-page',
  ];
  for (const path of unknown) {
    const { status, body } = await load(page.request, path);
    expect(status, path).toBe(404);
    expect(body, path).toContain('<title>Page not found');
    expect(body, path).toContain('There is nothing at this address.');
  }
  await context.close();
});

test('a router prefetch gets the proxy like any request: headers, action origin and size', async ({
  browser,
}) => {
  const { context, page } = await contextAs(browser, 'finance');
  const prefetch = { 'next-router-prefetch': '1', rsc: '1' };
  const wallet = encodeURIComponent(sandboxWallet('Treasury').id);
  for (const path of [`/wallets/${wallet}`, '/wallets/nope', '/no-such-page']) {
    const { headers } = await load(page.request, path, prefetch);
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(headers['x-content-type-options'], path).toBe('nosniff');
  }
  const action = (headers: Record<string, string>, data: string) =>
    page.request.post(`/wallets/${wallet}/withdraw`, {
      headers: {
        ...prefetch,
        'next-action': 'a'.repeat(42),
        'content-type': 'text/plain;charset=UTF-8',
        ...headers,
      },
      data,
      maxRedirects: 0,
    });
  const foreign = await action({ origin: 'https://attacker.example' }, '[]');
  expect(foreign.status()).toBe(403);
  expect(await foreign.text()).toContain('This request came from another site');
  const large = await action({}, JSON.stringify(['x'.repeat(2 * 1024 * 1024)]));
  expect(large.status()).toBe(413);
  const deep = await action({}, `${'['.repeat(5000)}${']'.repeat(5000)}`);
  expect(deep.status()).toBe(400);
  await context.close();
});
