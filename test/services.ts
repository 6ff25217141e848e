// The console's services for tests that run actions and pages as the server does, over a test database and
// sandbox.
import type { DatabaseHandle } from '@/lib/db/connection';
import type { Sandbox } from '@/lib/sandbox';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { connectSandboxWallets, createCustodyConnections } from '@/lib/server/wallets';

export const TEST_ENCRYPTION_KEY = Buffer.alloc(32, 5);

/**
 * The console's services over a test database and sandbox, provided to the library (as the runtime does at
 * start-up), with the sandbox's wallets connected: actions and pages then run as in the server.
 */
export async function provideTestServices(
  database: DatabaseHandle,
  sandbox: Sandbox,
  options: { dataDir?: string } = {},
): Promise<ConsoleServices> {
  const base = {
    config: {
      encryptionKey: TEST_ENCRYPTION_KEY,
      sandboxMode: true,
      // Where the sandbox mailbox keeps the invitations the console sends (no SMTP_URL in tests).
      dataDir: options.dataDir,
      origin: 'https://console.example.com',
      env: { CUSTODY_READ_BUDGET_MS: 8000, CUSTODY_WRITE_TIMEOUT_MS: 15000 },
    },
    database,
    sandbox,
  } as unknown as ConsoleServices;
  const services = { ...base, custody: createCustodyConnections(base) };
  provideServices(services);
  await connectSandboxWallets(services);
  return services;
}
