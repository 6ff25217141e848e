// Server actions called directly, as anyone could from the browser's network tab: a journey captures
// how a permitted person's page calls an action, then replays it with another person's session.
import { type APIRequestContext, expect, type Page, type Request } from '@playwright/test';
import { decideWithCheck } from './step-up';

/** Resolves with the next server-action POST the page makes (its `next-action` id and router state). */
export function nextActionRequest(page: Page): Promise<Request> {
  return page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
}

export interface CapturedAction {
  id: string;
  routerState: string;
}

export function captureAction(request: Request): CapturedAction {
  return {
    id: request.headers()['next-action']!,
    routerState: request.headers()['next-router-state-tree'] ?? '',
  };
}

/** Replays a captured action with the session of `as` (a page or a context's request); returns the raw answer. */
export async function replayAction(
  as: Page | APIRequestContext,
  captured: Request | CapturedAction,
  pathname: string,
  args: unknown[],
): Promise<string> {
  const action = 'headers' in captured ? captureAction(captured) : captured;
  const request = 'context' in as ? as.context().request : as;
  const answer = await request.post(pathname, {
    headers: {
      'next-action': action.id,
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      'next-router-state-tree': action.routerState,
    },
    data: JSON.stringify(args),
  });
  return answer.text();
}

/**
 * Approves on a request page: Approve opens a confirmation that says what happens next, confirmed once, and
 * the approval asks for its own "Confirm it is you". Retries the first click until the page has hydrated.
 * Returns once the server has answered the approval.
 */
export async function approveOnPage(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Approve this request?' });
  await expect(async () => {
    if (!(await dialog.isVisible()))
      await page.getByRole('button', { name: 'Approve', exact: true }).click({ timeout: 2_000 });
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await decideWithCheck(page, async () => {
    await dialog
      .getByRole('button', { name: /^(Approve and send|Approve and apply|Confirm approval)$/ })
      .click();
    await expect(dialog).toHaveCount(0);
  });
}
