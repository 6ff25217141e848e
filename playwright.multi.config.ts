// Two console instances on one PostgreSQL database, as behind a load balancer: same database, session
// secret and encryption key; their own port and data directory. Needs TEST_DATABASE_URL (a server the run may
// create a database on) and the `next build` output the main suite uses.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { journeyLaunchOptions } from './e2e/browser';
import { createRunDatabase, runDatabaseUrl } from './e2e/helpers/run-database';

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: the two-instance journeys run on PostgreSQL');

// Made once in the main process; workers load this file again and inherit the values through the env.
if (!process.env.E2E_MULTI_DATABASE) {
  process.env.E2E_MULTI_DATABASE = createRunDatabase(adminUrl, 'console_multi');
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'console-multi-a-'));
  process.env.E2E_DATA_DIR_B = mkdtempSync(path.join(tmpdir(), 'console-multi-b-'));
  process.env.E2E_AUTH_SECRET = randomBytes(32).toString('base64');
  process.env.E2E_ENCRYPTION_KEY = randomBytes(32).toString('hex');
}
const databaseUrl = runDatabaseUrl(adminUrl, process.env.E2E_MULTI_DATABASE);

const portA = Number(process.env.E2E_PORT_A ?? 3101);
const portB = Number(process.env.E2E_PORT_B ?? 3102);
export const INSTANCE_A = `http://127.0.0.1:${portA}`;
export const INSTANCE_B = `http://127.0.0.1:${portB}`;
process.env.E2E_INSTANCE_A = INSTANCE_A;
process.env.E2E_INSTANCE_B = INSTANCE_B;
process.env.E2E_MULTI_DATABASE_URL = databaseUrl;

function instance(port: number, origin: string, dataDir: string | undefined) {
  return {
    // Idle kept-alive connections stay open longer than any test (Node closes them after 5 s by default): a
    // request sent on one just as the server closed it would fail with ECONNRESET.
    command: `node_modules/.bin/next start -p ${port} --keepAliveTimeout 180000`,
    url: `${origin}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: process.env.E2E_AUTH_SECRET!,
      CONSOLE_ENCRYPTION_KEY: process.env.E2E_ENCRYPTION_KEY!,
      CONSOLE_DATA_DIR: dataDir!,
      CONSOLE_ORIGIN: origin,
      // Every sandbox delivers its webhooks to instance A, as a load balancer might route them: whatever
      // instance B shows live has crossed from A through the database.
      SANDBOX_WEBHOOK_URL: `${INSTANCE_A}/api/webhooks/custody`,
      PORT: String(port),
      NEXT_TELEMETRY_DISABLED: '1',
      // The loopback: nothing to gain from compressing, only work.
      CONSOLE_COMPRESS: 'off',
      LOG_LEVEL: 'warn',
      SANDBOX_BLOCK_TIME_MS: '300',
    },
  };
}

export default defineConfig({
  testDir: './e2e-multi',
  // Apart from the main suite's results, which that run clears when it starts.
  outputDir: 'test-results/multi',
  globalTeardown: './e2e-multi/teardown.ts',
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: 2,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  use: {
    baseURL: INSTANCE_A,
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false, snapshots: true },
    ...devices['Desktop Chrome'],
    launchOptions: journeyLaunchOptions,
  },
  webServer: [
    instance(portA, INSTANCE_A, process.env.E2E_DATA_DIR),
    instance(portB, INSTANCE_B, process.env.E2E_DATA_DIR_B),
  ],
});
