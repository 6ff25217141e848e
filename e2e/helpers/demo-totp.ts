// The demo users' authenticator-app codes, for signing in and stepping up in end-to-end tests. The console
// derives each demo secret from SANDBOX_SEED and the email (lib/server/factors/demo.ts; a unit test checks
// both agree). A code is accepted once, and specs run side by side: each code is handed out once across all
// workers (a small lock file beside the test data), picking among the user's several demo factors.
import { createHmac } from 'node:crypto';
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';
import { generateSync } from 'otplib';
import { base32 } from '@/lib/crypto/totp-secret';

const DEFAULT_SEED = 'custody-console-sandbox';
const FACTORS_PER_USER = 6;
export function demoSecretFor(email: string, index: number, seed = process.env.SANDBOX_SEED || DEFAULT_SEED) {
  const mac = createHmac('sha256', seed).update(`demo-totp:${index}:${email.trim().toLowerCase()}`).digest();
  return base32(mac.subarray(0, 20));
}

/** The code of `secret` for the 30 s step `step`. */
function codeForStep(secret: string, step: number): string {
  return generateSync({ secret, epoch: step * 30 });
}

const stateDir = () => process.env.E2E_DATA_DIR ?? path.join(tmpdir(), 'console-e2e-codes');

async function withLock<T>(fn: () => T): Promise<T> {
  const lock = path.join(stateDir(), 'demo-totp.lock');
  mkdirSync(stateDir(), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  try {
    return fn();
  } finally {
    rmdirSync(lock);
  }
}

/**
 * A code the console will accept for this demo user now: one step either side of the current one, later than
 * any step already handed out for the same factor. Waits for the clock when every factor is used up.
 */
export async function nextDemoCode(email: string): Promise<string> {
  const file = path.join(stateDir(), 'demo-totp.json');
  const take = () =>
    withLock(() => {
      let used: Record<string, number> = {};
      try {
        used = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
      } catch {}
      const current = Math.floor(Date.now() / 30_000);
      for (let index = 0; index < FACTORS_PER_USER; index++) {
        const slot = `${email}#${index}`;
        // The step before the current one is left alone: it may pass while the form is being filled.
        const step = Math.max(current, (used[slot] ?? 0) + 1);
        if (step > current + 1) continue;
        used[slot] = step;
        writeFileSync(file, JSON.stringify(used));
        return codeForStep(demoSecretFor(email, index), step);
      }
      return null;
    });
  // When every factor's next code is handed out, the condition is the clock reaching the next step.
  let code: string | null = null;
  await expect
    .poll(
      async () => {
        code = await take();
        return code;
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .not.toBeNull();
  return code!;
}
