import 'server-only';
import type { ConsoleConfig } from '@/lib/config';
import type { DatabaseHandle } from '@/lib/db/connection';
import { createSandbox, type Sandbox } from '@/lib/sandbox';

/**
 * Opens the embedded custody service on the console's database (sandbox mode only); the runtime starts its
 * block timer once the console is ready.
 */
export async function startSandbox(config: ConsoleConfig, database: DatabaseHandle): Promise<Sandbox> {
  const env = config.env;
  const sandbox = await createSandbox({
    db: database.db,
    dbKind: database.kind,
    encryptionKey: config.encryptionKey,
    seed: env.SANDBOX_SEED,
    blockTimeMs: env.SANDBOX_BLOCK_TIME_MS,
    quoteTtlMs: env.SANDBOX_QUOTE_TTL_MS,
    webhookUrl: env.SANDBOX_WEBHOOK_URL ?? `${config.origin}/api/webhooks/custody`,
    webhookRetryMs: env.SANDBOX_WEBHOOK_RETRY_MS.split(',').map(Number),
    signatureHeader: env.WEBHOOK_SIGNATURE_HEADER,
    baseUrl: `${config.origin}/sandbox`,
    dataDir: config.dataDir,
    specOnly: env.SANDBOX_SPEC_ONLY,
    seedTransactions: env.SANDBOX_SEED_TRANSACTIONS,
  });
  return sandbox;
}
