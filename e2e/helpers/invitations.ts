// New people come in by invitation: an admin asks (Admin › Users › Add user), a second admin approves, and the
// person sets their own password (and authenticator app) at the link emailed to them. Nobody else sees the link.
import { type Browser, expect, type Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { authenticatorFor } from './step-up';

export type NewUser = { email: string; name: string; role?: 'admin' | 'finance' | 'support' | 'viewer' };

/**
 * The person opens their link and sets their password; when their role approves they set up an authenticator
 * app from the secret their page shows. Returns that secret (null when none was due).
 */
export async function setUpAtLink(page: Page, link: string, password: string): Promise<string | null> {
  await page.goto(link);
  await expect(
    page.getByRole('heading', { name: /^(Set up your account|Choose a new password)$/ }),
  ).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByLabel('Repeat new password').fill(password);
  let secret: string | null = null;
  const app = page.getByRole('button', { name: 'Set up an authenticator app' });
  if (await page.getByRole('heading', { name: 'Authenticator app' }).isVisible()) {
    // Retried until the page has hydrated and the server answered with the secret.
    await expect(async () => {
      if (await app.isVisible()) await app.click({ timeout: 2_000 });
      await expect(page.getByTestId('totp-secret')).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 30_000 });
    secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    await page.getByLabel('Authentication code').fill(generateSync({ secret }));
  }
  await page.getByRole('button', { name: /^Set password/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Your account is ready' })).toBeVisible();
  return secret;
}

/** A code of `secret` a step later than the one that confirmed the app (one step ahead is accepted). */
export function laterCode(secret: string): string {
  return generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
}

/** Signs in with the password and, when the person has an authenticator app, its next code. */
export async function signInWithOwnCredentials(
  page: Page,
  email: string,
  password: string,
  secret: string | null,
) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (secret) {
    await page.getByLabel('Authentication code').fill(laterCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    // Its later checks ("Confirm it is you") take codes after the one just used.
    authenticatorFor(page, secret, Math.floor(Date.now() / 30_000) + 1);
  }
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
}

/** Opens the link in a browser of the person's own and sets up their account there. */
export async function acceptInNewContext(
  browser: Browser,
  link: string,
  password: string,
): Promise<string | null> {
  const context = await browser.newContext();
  try {
    return await setUpAtLink(await context.newPage(), link, password);
  } finally {
    await context.close();
  }
}
