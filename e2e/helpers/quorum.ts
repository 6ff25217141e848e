// Configuration changes wait for a second admin: the admin screens file a request ("Waiting for a second
// admin"), the demo's second admin approves it on its request page, and the change is made at once.
import type { Browser, Page } from '@playwright/test';
import { contextAs, expect } from '../fixtures';
import { approveOnPage } from './actions';

/** The request page of the change just requested, from the "Waiting for a second admin" notice. */
export async function requestedChangePath(page: Page): Promise<string> {
  const notice = page.getByRole('status').filter({ hasText: 'Waiting for a second admin' });
  await expect(notice).toBeVisible();
  const href = await notice.getByRole('link', { name: 'Open the request' }).getAttribute('href');
  expect(href).toMatch(/^\/approvals\/[0-9a-f-]{36}$/);
  return href ?? '';
}

/** The demo's second admin approves a configuration request; the console makes the change at once. */
export async function approveAsSecondAdmin(browser: Browser, requestPath: string): Promise<void> {
  const { page, context } = await contextAs(browser, 'admin2');
  try {
    await page.goto(requestPath);
    await approveOnPage(page);
    await expect(page.getByText('Request status: Success')).toBeVisible();
  } finally {
    await context.close();
  }
}

/**
 * An admin asks for a user, the second admin approves, and the admin reads the one-time password on the
 * request page (shown once). Leaves the admin's page on the request page.
 */
export async function addUserThroughQuorum(
  browser: Browser,
  admin: Page,
  user: { email: string; name: string; role?: 'admin' | 'finance' | 'support' | 'viewer' },
): Promise<string> {
  await admin.goto('/admin/users');
  await admin.getByRole('button', { name: 'Add user' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Name').fill(user.name);
  if (user.role) await dialog.getByLabel('Role').selectOption(user.role);
  await dialog.getByRole('button', { name: 'Request user' }).click();
  const path = await requestedChangePath(admin);
  await approveAsSecondAdmin(browser, path);
  await admin.goto(path);
  await expect(admin.getByText('Request status: Success')).toBeVisible();
  await admin.getByRole('button', { name: 'Show the one-time password' }).click();
  const otp = (await admin.getByTestId('one-time-password').textContent())?.trim() ?? '';
  expect(otp).toMatch(/^[A-Za-z0-9]{20}$/);
  return otp;
}
