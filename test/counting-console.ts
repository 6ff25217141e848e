// A console on the real sandbox that counts every request it sends the sandbox: the bad-input corpora assert that a
// refused input reaches nothing upstream. Provides the console's services for the test file's modules.
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import type { TestDatabase } from './db';
import { testSandboxOptions } from './sandbox';

export interface CountingConsole {
  sandbox: Sandbox;
  /** The sandbox's first wallet, connected to the console. */
  wallet: SandboxCredentials['wallets'][number];
  /** Every request the console sent the sandbox, in order, as the sandbox received it. */
  requests: Array<{ method: string; url: string }>;
}

export async function openCountingConsole(t: TestDatabase, dataDir: string): Promise<CountingConsole> {
  // Imported here, after the test file's mocks are in place.
  const { connectSandboxWallets, createCustodyConnections } = await import('@/lib/server/wallets');
  const requests: CountingConsole['requests'] = [];
  const sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir));
  const counting: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push({ method: request.method, url: request.url });
    return sandbox.fetch(input, init);
  };
  const observed = new Proxy(sandbox, {
    get: (target, key) => (key === 'fetch' ? counting : Reflect.get(target, key)),
  });
  const base = {
    config: {
      encryptionKey: Buffer.alloc(32, 5),
      sandboxMode: true,
      env: {
        CUSTODY_READ_BUDGET_MS: 8000,
        CUSTODY_WRITE_TIMEOUT_MS: 15000,
        UNKNOWN_OUTCOME_WINDOW_MS: 600_000,
      },
    },
    database: t.handle,
    sandbox: observed,
  } as unknown as ConsoleServices;
  const services = { ...base, custody: createCustodyConnections(base) };
  provideServices(services);
  await connectSandboxWallets(services);
  const [wallet] = (await sandbox.credentials()).wallets as [SandboxCredentials['wallets'][number]];
  return { sandbox, wallet, requests };
}
