import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { journeyLaunchOptions } from './e2e/browser';
import { createRunDatabase, runDatabaseUrl } from './e2e/helpers/run-database';
import { startSmtpSink } from './e2e/helpers/smtp-sink';

// One throw-away data directory per run, made once in the main process (workers inherit the env).
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), 'console-e2e-'));
// With a PostgreSQL server (TEST_DATABASE_URL, as in CI) the console keeps its data in a database of the run's own
// there, as a deployment does; with E2E_DATABASE=embedded, or without a server, in PGlite under E2E_DATA_DIR (the
// embedded default). Made once in the main process too; the global teardown drops it.
const adminUrl = process.env.E2E_DATABASE === 'embedded' ? undefined : process.env.TEST_DATABASE_URL;
if (adminUrl) process.env.E2E_DATABASE_NAME ??= createRunDatabase(adminUrl, 'console_e2e');
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;
// The mail server invitations go through: started once, in the main process (workers have TEST_WORKER_INDEX and
// inherit SMTP_URL); each message lands under E2E_DATA_DIR/mail.
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 1000);
if (!process.env.TEST_WORKER_INDEX && !process.env.E2E_SMTP_URL)
  process.env.E2E_SMTP_URL = startSmtpSink(process.env.E2E_DATA_DIR, smtpPort);

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  globalTeardown: './e2e/teardown.ts',
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Two journeys at once (E2E_WORKERS overrides): with the unit tests beside them the machine's two cores are
  // busy; a third left the unit tests finishing last and journeys waiting past their timeouts.
  workers: Number(process.env.E2E_WORKERS) || 2,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL,
    // Locally a failed test keeps a trace of its actions and DOM snapshots. Not screenshots: the screencast behind
    // them costs about a fifth of the suite's CPU, on a machine the suite keeps busy. CI keeps no files, only what
    // the run prints: no trace there (recording one costs about a tenth more).
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    ...devices['Desktop Chrome'],
    launchOptions: journeyLaunchOptions,
  },
  // A journey that changes what the whole console does (the freeze holds every submission) runs after all the
  // others, so no other journey's request waits on it, and one at a time, so none sees another's change.
  projects: [
    { name: 'journeys', grepInvert: /@console-wide/ },
    { name: 'console-wide', grep: /@console-wide/, dependencies: ['journeys'], workers: 1 },
  ],
  webServer: {
    // Idle kept-alive connections stay open longer than any test (Node closes them after 5 s by default): a
    // request sent on one just as the server closed it would fail with ECONNRESET.
    command: `node_modules/.bin/next start -p ${port} --keepAliveTimeout 180000`,
    // The health route opens the database and seeds the sandbox, so the first test finds a warm server.
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      CONSOLE_DATA_DIR: process.env.E2E_DATA_DIR,
      ...(adminUrl ? { DATABASE_URL: runDatabaseUrl(adminUrl, process.env.E2E_DATABASE_NAME!) } : {}),
      CONSOLE_ORIGIN: baseURL,
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: '1',
      // The loopback: nothing to gain from compressing, only work.
      CONSOLE_COMPRESS: 'off',
      LOG_LEVEL: 'warn',
      SMTP_URL: process.env.E2E_SMTP_URL ?? `smtp://127.0.0.1:${smtpPort}`,
      SANDBOX_BLOCK_TIME_MS: '300',
      // Swap quotes expire soon, so a journey can approve after expiry (swap-approval.spec.ts).
      SANDBOX_QUOTE_TTL_MS: process.env.E2E_QUOTE_TTL_MS ?? '8000',
      // Every journey signs in from 127.0.0.1, like an office behind one address: the address limit stays on,
      // set well above the suite's deliberate failures and its retried demo codes (the limit itself is tested in
      // lib/server/sign-in-throttle.test.ts).
      SIGN_IN_ADDRESS_FAILURES: '60',
    },
  },
});
