// The two console instances of playwright.multi.config.ts and their shared database.
import { type Browser, expect } from '@playwright/test';
import { Client } from 'pg';
import { DEMO, type DemoRole, signIn } from '../e2e/fixtures';

export const INSTANCE_A = process.env.E2E_INSTANCE_A ?? '';
export const INSTANCE_B = process.env.E2E_INSTANCE_B ?? '';

/** A browser context signed in on one instance; requests are relative to that instance. */
export async function signedInOn(browser: Browser, role: DemoRole, instance: string) {
  expect(instance, 'playwright.multi.config.ts names the instances').toMatch(/^http/);
  const context = await browser.newContext({ baseURL: instance });
  const page = await context.newPage();
  await signIn(page, DEMO[role]);
  return { context, page };
}

/** Reads the shared database directly, for what the product does not show in one place. */
export async function queryDatabase<T extends Record<string, unknown>>(
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: process.env.E2E_MULTI_DATABASE_URL });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
