import { expect, type Page, type Request } from '@playwright/test';

/** Resolves with the next server-action POST the page makes. */
export function nextActionRequest(page: Page): Promise<Request> {
  return page.waitForRequest((r) => r.method() === 'POST' && Boolean(r.headers()['next-action']));
}

/** Replays a captured server action with another person's session, as anyone could from the network tab. */
export async function replayAction(page: Page, captured: Request, pathname: string, args: unknown[]) {
  const answer = await page.context().request.post(pathname, {
    headers: {
      'next-action': captured.headers()['next-action']!,
      'content-type': 'text/plain;charset=UTF-8',
      accept: 'text/x-component',
      'next-router-state-tree': captured.headers()['next-router-state-tree'] ?? '',
    },
    data: JSON.stringify(args),
  });
  return answer.text();
}

/** The wallet's tabs as a role sees them. */
export async function expectNoTabs(page: Page, walletId: string, labels: string[]) {
  await page.goto(`/wallets/${walletId}`);
  const nav = page.getByRole('navigation', { name: 'Wallet sections' });
  await expect(nav.getByRole('link', { name: 'Overview' })).toBeVisible();
  for (const label of labels) await expect(nav.getByRole('link', { name: label })).toHaveCount(0);
}
