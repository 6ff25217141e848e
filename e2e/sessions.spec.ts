// Sessions that really end: a signed-out cookie is refused everywhere, the sessions list ends another browser's
// session (its open page says so), and the callback after sign-in never leaves the console.
import type { APIRequestContext, Page, Request } from '@playwright/test';
import { contextAs, DEMO, expect, expectAccessible, signIn, test } from './fixtures';
import { type CapturedAction, captureAction } from './helpers/actions';

const SESSION_ENDED = 'Your session has ended. Sign in again.';
// A browser no other journey uses, so its row in the sessions list is this journey's own.
const OTHER_BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Calls a server action as `request` would from a page, without following redirects. */
async function callAction(
  request: APIRequestContext,
  action: CapturedAction,
  pathname: string,
  args: unknown[],
) {
  return request.post(pathname, {
    headers: {
      'next-action': action.id,
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      'next-router-state-tree': action.routerState,
    },
    data: JSON.stringify(args),
    maxRedirects: 0,
  });
}

/**
 * The `end session` action as this page would call it, captured on its way out and stopped there: nothing is
 * ended, and the journey can call the action itself with any input.
 */
async function captureEndSessionAction(page: Page): Promise<CapturedAction> {
  let captured: Request | undefined;
  await page.route('**/account/sessions', async (route) => {
    const request = route.request();
    if (request.method() === 'POST' && request.headers()['next-action']) {
      captured = request;
      await route.abort();
    } else {
      await route.continue();
    }
  });
  const row = page.getByRole('row').filter({ hasText: 'This session' });
  await expect(async () => {
    await row.getByRole('button', { name: 'End this session' }).click({ timeout: 2_000 });
    await expect(page.getByRole('dialog', { name: 'End this session' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page
    .getByRole('dialog', { name: 'End this session' })
    .getByRole('button', { name: 'End session' })
    .click();
  await expect.poll(() => captured !== undefined).toBe(true);
  await page.unroute('**/account/sessions');
  await page.keyboard.press('Escape');
  return captureAction(captured!);
}

test.describe('sessions', () => {
  test('after sign-out the old cookie is refused by a page, a route and an action', async ({ browser }) => {
    const { context, page } = await contextAs(browser, 'support');
    await page.goto('/account/sessions');
    await expect(page.getByRole('heading', { name: 'Sessions' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'This session' })).toHaveCount(1);
    await expectAccessible(page);

    const action = await captureEndSessionAction(page);
    // With the live session the action runs (and finds no such session of this person).
    const live = await callAction(context.request, action, '/account/sessions', [
      { sessionId: crypto.randomUUID() },
    ]);
    expect(await live.text()).toContain('This session is not in your list.');

    const cookies = await context.cookies();
    await page.getByRole('button', { name: /User menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);

    // Someone who kept a copy of the cookie replays it.
    const replay = await browser.newContext();
    await replay.addCookies(cookies);
    try {
      const stalePage = await replay.newPage();
      await stalePage.goto('/account/sessions');
      await expect(stalePage).toHaveURL(/\/sign-in/);

      const route = await replay.request.get('/api/search?q=anything');
      expect(route.status()).toBe(401);
      expect((await route.json()).message).toBe(SESSION_ENDED);

      const answer = await callAction(replay.request, action, '/account/sessions', [
        { sessionId: crypto.randomUUID() },
      ]);
      const body = await answer.text();
      // Refused before the action runs: sent to sign-in, or the action's own "session has ended".
      expect(body).not.toContain('This session is not in your list.');
      if (answer.status() >= 300 && answer.status() < 400) {
        expect(answer.headers().location).toMatch(/\/sign-in/);
      } else {
        expect(body).toContain(SESSION_ENDED);
      }
    } finally {
      await replay.close();
      await context.close();
    }
  });

  test('a backslash callback after sign-in stays on the console', async ({ page, baseURL }) => {
    const callback = '/%5Clocalhost:4611/x';
    await page.goto(`/sign-in?callbackUrl=${callback}`);
    // The form carries only a path on the console.
    await expect(page.locator('input[name="callbackUrl"]')).toHaveValue('/');

    // A real sign-in that starts from that address (the fixture opens /sign-in: keep the callback on it).
    await page.route(
      (url) => url.pathname === '/sign-in' && url.search === '',
      (route) => route.continue({ url: `${baseURL}/sign-in?callbackUrl=${callback}` }),
    );
    await signIn(page, DEMO.viewer);
    await page.unroute((url) => url.pathname === '/sign-in' && url.search === '');
    const landed = new URL(page.url());
    expect(landed.origin).toBe(new URL(baseURL!).origin);
    expect(landed.pathname).not.toContain('localhost:4611');
    expect(landed.pathname).not.toMatch(/%5c|\\/i);
  });

  test('a session ended from the sessions list stops its open page', async ({ browser }) => {
    const { context: mine, page } = await contextAs(browser, 'viewer');
    // The same person in another browser.
    const other = await browser.newContext({ userAgent: OTHER_BROWSER });
    try {
      const otherPage = await other.newPage();
      await signIn(otherPage, DEMO.viewer);
      await expect(otherPage.getByRole('status', { name: 'Live updates: connected' })).toBeVisible({
        timeout: 30_000,
      });

      await page.goto('/account/sessions');
      const row = page.getByRole('row').filter({ hasText: 'Firefox on Linux' });
      await expect(row).toHaveCount(1);
      await row.getByRole('button', { name: 'End session on Firefox on Linux' }).click();
      const dialog = page.getByRole('dialog', { name: 'End session on Firefox on Linux' });
      await dialog.getByRole('button', { name: 'End session' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByRole('row').filter({ hasText: 'Firefox on Linux' })).toHaveCount(0);
      // This browser's own session goes on.
      await expect(page.getByRole('row').filter({ hasText: 'This session' })).toHaveCount(1);

      // The other browser's open page is told within 30 s (the stream checks its session every 15 s), and says so.
      await expect(otherPage.getByRole('status', { name: 'Live updates: signed out' })).toBeVisible({
        timeout: 30_000,
      });
      await otherPage.getByRole('link', { name: 'Sign in again' }).click();
      await expect(otherPage).toHaveURL(/\/sign-in/);
      await otherPage.goto('/wallets');
      await expect(otherPage).toHaveURL(/\/sign-in/);
    } finally {
      await other.close();
      await mine.close();
    }
  });
});
