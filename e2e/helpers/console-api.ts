// The console API as a back-office system sees it: a token asked for in the browser and approved by a second
// admin, and calls made with it.
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, expectAccessible } from '../fixtures';
import { approveAsSecondAdmin, requestedChangePath } from './quorum';

interface TokenForm {
  name: string;
  scopes: string[];
  dailyCapUsd: string;
  networks?: string;
}

/** Admin asks for a token on the tokens page, admin2 approves, admin is shown it once on the request page. */
export async function tokenThroughQuorum(browser: Browser, admin: Page, form: TokenForm): Promise<string> {
  await admin.goto('/admin/tokens');
  await expect(admin.getByRole('heading', { name: 'API tokens', level: 1 })).toBeVisible();
  const dialog = admin.getByRole('dialog', { name: 'New API token' });
  await expect(async () => {
    if (!(await dialog.isVisible()))
      await admin.getByRole('button', { name: 'New token' }).click({ timeout: 2_000 });
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await dialog.getByLabel('Name').fill(form.name);
  for (const scope of form.scopes)
    await dialog.getByRole('checkbox', { name: new RegExp(`^${scope}`) }).check();
  await dialog.getByRole('checkbox', { name: /^Treasury/ }).check();
  await dialog.getByLabel('Daily cap (USD)').fill(form.dailyCapUsd);
  if (form.networks) await dialog.getByLabel('Networks it may call from').fill(form.networks);
  await expectAccessible(admin);
  await dialog.getByRole('button', { name: 'Request token' }).click();
  const path = await requestedChangePath(admin);
  await approveAsSecondAdmin(browser, path);
  await admin.goto(path);
  await expect(admin.getByText('Request status: Success')).toBeVisible();
  await admin.getByRole('button', { name: 'Show the token' }).click();
  const token = (await admin.getByTestId('api-token').textContent())?.trim() ?? '';
  expect(token).toMatch(/^cct_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  await expectAccessible(admin);
  // Shown once: after a reload it is gone.
  await admin.reload();
  await expect(
    admin.getByText('The token was shown to you once and is not kept.', { exact: false }),
  ).toBeVisible();
  return token;
}

export async function api(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  key?: string,
) {
  const res = await request.fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    data: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status(), headers: res.headers(), json: await res.json() };
}
