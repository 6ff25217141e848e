// Configuration changes wait for a second admin: the admin screens file a request ("Waiting for a second
// admin"), the demo's second admin approves it on its request page, and the change is made at once.
import type { Browser, Page } from '@playwright/test';
import { contextAs, expect } from '../fixtures';
import { approveOnPage } from './actions';
import { acceptInNewContext, type NewUser } from './invitations';
import { waitForLink } from './mail';

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
  const { page, context } = await contextAs(browser, 'admin2', requestPath);
  try {
    await approveOnPage(page);
    await expect(page.getByText('Request status: Success')).toBeVisible();
  } finally {
    await context.close();
  }
}

/** The admin asks for a user from the users page; returns the request's path. */
export async function requestUser(admin: Page, user: NewUser): Promise<string> {
  await admin.goto('/admin/users');
  await admin.getByRole('button', { name: 'Add user' }).click();
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel('Email').fill(user.email);
  await dialog.getByLabel('Name').fill(user.name);
  if (user.role) await dialog.getByLabel('Role').selectOption(user.role);
  await dialog.getByRole('button', { name: 'Request user' }).click();
  return requestedChangePath(admin);
}

/**
 * An admin asks for a user, the second admin approves, and the person sets `password` (and, when their role
 * approves, an authenticator app) at the link emailed to them, in a browser of their own. Leaves the admin's page
 * on the request page, which says where the invitation went. Returns the app's secret (null when none was due).
 */
export async function addUserThroughQuorum(
  browser: Browser,
  admin: Page,
  user: NewUser,
  password: string,
): Promise<{ secret: string | null }> {
  const path = await requestUser(admin, user);
  await approveAsSecondAdmin(browser, path);
  await admin.goto(path);
  await expect(admin.getByText('Request status: Success')).toBeVisible();
  await expect(admin.getByText(`Invitation sent to ${user.email}`)).toBeVisible();
  const { link } = await waitForLink(user.email);
  return { secret: await acceptInNewContext(browser, link, password) };
}
