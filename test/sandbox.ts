// A sandbox on a throw-away database for tests: in-memory PGlite, or a fresh PostgreSQL database when
// TEST_DATABASE_URL is set. Webhooks go nowhere unless a test passes its own `fetch` and `webhookUrl`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TransportOptions } from '@/lib/custody';
import type { DatabaseHandle } from '@/lib/db/connection';
import {
  createSandbox,
  SANDBOX_MIGRATIONS,
  type Sandbox,
  type SandboxCredentials,
  type SandboxOptions,
} from '@/lib/sandbox';
import { openTestHandle } from './db';

export const TEST_SANDBOX_BASE_URL = 'http://sandbox.internal/sandbox';

export interface TestSandbox {
  sandbox: Sandbox;
  credentials: SandboxCredentials;
  database: DatabaseHandle;
  /** Another sandbox instance on the same database, as a second console process would start one. */
  another(overrides?: Partial<SandboxOptions>): Promise<Sandbox>;
  /** Stops every instance, drops the database and removes the data directory. */
  close(): Promise<void>;
}

export function testSandboxOptions(
  database: DatabaseHandle,
  dataDir: string,
  overrides: Partial<SandboxOptions> = {},
): SandboxOptions {
  return {
    db: database.db,
    dbKind: database.kind,
    encryptionKey: Buffer.alloc(32, 7),
    seed: 'test-sandbox',
    blockTimeMs: 1000,
    webhookUrl: 'http://127.0.0.1:9/hooks',
    webhookRetryMs: [],
    signatureHeader: 'x-blockradar-signature',
    baseUrl: TEST_SANDBOX_BASE_URL,
    dataDir,
    fetch: async () => new Response('ok'),
    ...overrides,
  };
}

/** How the engine reaches a sandbox wallet in a test: the sandbox's HTTP face, in process; null for another id. */
export function sandboxConnection(
  sandbox: Sandbox,
  credentials: SandboxCredentials,
  walletId: string,
): TransportOptions | null {
  const wallet = credentials.wallets.find((w) => w.id === walletId);
  if (!wallet) return null;
  return {
    baseUrl: TEST_SANDBOX_BASE_URL,
    apiKey: wallet.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: (url: string, init: RequestInit) => sandbox.fetch(url, init),
  };
}

export async function createTestSandbox(overrides: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'test-sandbox-'));
  // Migrated from a template; the sandbox seeds it (its keys are random, so each test's are its own).
  const opened = await openTestHandle([SANDBOX_MIGRATIONS]);
  const instances: Sandbox[] = [];
  try {
    const sandbox = await createSandbox(testSandboxOptions(opened.handle, dataDir, overrides));
    instances.push(sandbox);
    return {
      sandbox,
      credentials: await sandbox.credentials(),
      database: opened.handle,
      async another(more = {}) {
        const next = await createSandbox(
          testSandboxOptions(opened.handle, dataDir, { ...overrides, ...more }),
        );
        instances.push(next);
        return next;
      },
      async close() {
        await Promise.allSettled(instances.map((s) => s.stop()));
        await opened.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await opened.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
