import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, test as base, expect, type Page } from '@playwright/test';
import { generateSync } from 'otplib';
import { nextDemoCode } from './helpers/demo-totp';
import { codesFor } from './helpers/step-up';

export const DEMO_PASSWORD = 'custody-demo';
export const DEMO = {
  admin: 'admin@example.com',
  admin2: 'admin2@example.com',
  finance: 'finance@example.com',
  finance2: 'finance2@example.com',
  support: 'support@example.com',
  viewer: 'viewer@example.com',
} as const;
export type DemoRole = keyof typeof DEMO;

/** Waits until nothing on the page is fading: no finite animation running, no toast leaving or held back. */
async function pageAtRest(page: Page) {
  // A page's title streams in with its metadata and is swapped on a client-side navigation: wait until it is set.
  await page.waitForFunction(() => document.title.trim() !== '', undefined, { timeout: 15_000 });
  // A toast or dialog still fading in has, for that moment, too little contrast: check the page at rest.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (a) =>
          a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '[data-sonner-toast][data-removed="true"], [data-sonner-toast][data-visible="false"]',
      ),
  );
}

// axe-core's engine, loaded into each page once and run there. (@axe-core/playwright's builder opened a second page
// for every check and loaded the engine into both: four times the CPU of the check itself, over some 300 checks.)
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function seriousViolations(page: Page): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    // Through the debugging protocol, so the page's content security policy does not apply to the engine.
    if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
    try {
      // Only violations are collected: passes and the rest are neither read nor sent back from the page.
      return await page.evaluate(async () => {
        const { axe } = window as unknown as { axe: typeof import('axe-core') };
        const results = await axe.run(document, { resultTypes: ['violations'] });
        return results.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      });
    } catch (error) {
      // A navigation between loading the engine and running it leaves a page without it: load it again, once.
      if (attempt === 2) throw error;
    }
  }
}

/** No serious or critical accessibility violations on the page as it stands. */
export async function expectAccessible(page: Page) {
  await pageAtRest(page);
  let bad = await seriousViolations(page);
  // A live toast (another journey's request, say) may arrive between the wait and the check and be measured
  // mid-fade: once at rest again, check again. A violation that stays fails.
  if (bad.length > 0) {
    await pageAtRest(page);
    bad = await seriousViolations(page);
  }
  expect(bad, `accessibility violations on ${page.url()}`).toEqual([]);
}

/** The message a form shows in its banner (Next's own route announcer is also an alert). */
export function formAlert(page: Page) {
  return page.locator('form [role="alert"]');
}

/** Fills the sign-in form; `landing`: the console path sign-in goes on to (the overview when absent). */
export async function fillSignIn(page: Page, email: string, password: string, landing?: string) {
  await page.goto(landing ? `/sign-in?callbackUrl=${encodeURIComponent(consolePath(landing))}` : '/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Demo users who approve: their sign-in asks for a code from a demo authenticator app after the password. */
const SECOND_FACTOR_USERS = new Set<string>([DEMO.admin, DEMO.admin2, DEMO.finance, DEMO.finance2]);

/** Sign-in's second step with a code computed from the demo user's secret (each code is handed out once). */
async function completeSecondFactor(page: Page, email: string) {
  const code = page.getByLabel('Authentication code');
  const signedIn = page.getByRole('button', { name: /User menu/ });
  const refused = page.getByText('That did not work. Check the code, or try your passkey again.');
  // Journeys sign the same demo users in side by side; should a code still be refused (taken an instant
  // earlier elsewhere), the next one is asked for: at most three, so a real refusal still fails the test.
  // The password check and the second step's page can take a while on a busy machine: 30 s for each.
  // An earlier code still being checked when its refusal showed can sign the person in meanwhile: each attempt
  // first looks for the console, and asks for a code only while the step still waits for one.
  const verify = page.getByRole('button', { name: 'Verify' });
  for (let attempt = 1; ; attempt++) {
    await expect(code.or(signedIn).first()).toBeVisible({ timeout: 30_000 });
    if (await signedIn.isVisible()) return;
    await code.fill(await nextDemoCode(email));
    await expect(verify.and(page.locator(':enabled')).or(signedIn).first()).toBeVisible({ timeout: 30_000 });
    if (await signedIn.isVisible()) return;
    await verify.click();
    await expect(signedIn.or(refused).first()).toBeVisible({ timeout: 30_000 });
    if (!(await refused.isVisible()) || attempt === 3) return;
  }
}

/**
 * A new approver's first sign-in: after the password, sign-in asks them to set up a second factor. Sets up an
 * authenticator app from the secret the page shows and confirms it with a code; returns the secret.
 */
export async function enrolAuthenticatorAtSignIn(page: Page): Promise<string> {
  await expect(page.getByRole('heading', { name: 'Set up a second factor' })).toBeVisible();
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const shown = page.getByTestId('totp-secret');
  await expect(shown).toBeVisible();
  const secret = (await shown.textContent())?.trim() ?? '';
  await page.getByLabel('Authentication code').fill(generateSync({ secret }));
  await page.getByRole('button', { name: 'Verify' }).click();
  return secret;
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, landing?: string) {
  await fillSignIn(page, email, password, landing);
  if (SECOND_FACTOR_USERS.has(email)) {
    await completeSecondFactor(page, email);
    codesFor(page, () => nextDemoCode(email));
  }
  if (landing) {
    // Sign-in goes on to the page asked for, as a person following a link would (a page the role may not open
    // included, which shows no console menu): ready once it has hydrated.
    const path = new URL(landing, 'http://console.test').pathname;
    await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
    await hydrated(page);
    return;
  }
  await expect(page.getByRole('button', { name: /User menu/ })).toBeVisible();
}

/** A console path with its query, from a path or a whole URL of the console. */
function consolePath(target: string): string {
  const url = new URL(target, 'http://console.test');
  return `${url.pathname}${url.search}`;
}

/**
 * A fresh browser context signed in as one of the demo users, on `landing` (a console path) when given: sign-in
 * goes straight there, instead of to the overview and then on.
 */
export async function contextAs(
  browser: Browser,
  role: DemoRole,
  landing?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, DEMO[role], DEMO_PASSWORD, landing);
  return { context, page };
}

export function uniqueEmail(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/**
 * Waits until React has hydrated every control the page shows: until then a click on a button does nothing and a
 * typed value can be lost, while the page already looks ready. (React keeps each hydrated element's props on
 * it; a page with no controls, or no React at all, is ready at once.)
 */
async function hydrated(page: Page) {
  await page.waitForFunction(
    () =>
      // Not hidden inputs: a server action's form carries some React leaves as they were sent.
      [...document.querySelectorAll('button, input:not([type="hidden"]), select, textarea, a[href]')].every(
        (control) => Object.keys(control).some((key) => key.startsWith('__reactProps$')),
      ),
    undefined,
    { polling: 100, timeout: 30_000 },
  );
}

/** Every page a journey opens waits, after each `goto` and `reload`, until it has hydrated. */
function waitingForHydration(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await hydrated(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await hydrated(page);
    return response;
  };
  return page;
}

function contextsWaitingForHydration(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => {
    const context = await newContext(...args);
    const newPage = context.newPage.bind(context);
    context.newPage = async () => waitingForHydration(await newPage());
    return context;
  };
  return browser;
}

export const test = base.extend<object, { browser: Browser }>({
  browser: [async ({ browser }, use) => use(contextsWaitingForHydration(browser)), { scope: 'worker' }],
});
export { expect };
