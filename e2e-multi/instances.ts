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

/** The session a context just signed in with: the newest open session of that demo user. */
export async function newestSessionOf(role: DemoRole): Promise<{ userId: string; sessionId: string }> {
  const [row] = await queryDatabase<{ user_id: string; id: string }>(
    `SELECT s.user_id, s.id FROM user_sessions s JOIN users u ON u.id = s.user_id
      WHERE u.email = $1 AND s.ended_at IS NULL ORDER BY s.created_at DESC LIMIT 1`,
    [DEMO[role]],
  );
  if (!row) throw new Error(`no open session of ${DEMO[role]}`);
  return { userId: row.user_id, sessionId: row.id };
}

/**
 * What a right code in "Confirm it is you" records: a grant for the one decision bound to `payloadHash`, in that
 * session. Here for decisions replayed by the dozen, where typing a code each time would take minutes.
 */
export async function grantDecision(session: { userId: string; sessionId: string }, payloadHash: string) {
  await queryDatabase(
    `INSERT INTO auth_challenges (subject, purpose, challenge, payload_hash, expires_at)
      VALUES ($1, 'decision', $2, $3, now() + interval '5 minutes')`,
    [session.userId, session.sessionId, payloadHash],
  );
}
