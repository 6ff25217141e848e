import 'server-only';
import { createSandbox, type Sandbox } from '@/lib/sandbox';
import type { Runtime } from './runtime';

/** Starts the embedded custody service on the console's database (sandbox mode only). */
export async function startSandbox(runtime: Runtime): Promise<Sandbox> {
  const { config, database } = runtime;
  const env = config.env;
  const sandbox = await createSandbox({
    db: database.db,
    dbKind: database.kind,
    encryptionKey: config.encryptionKey,
    seed: env.SANDBOX_SEED,
    blockTimeMs: env.SANDBOX_BLOCK_TIME_MS,
    webhookUrl: env.SANDBOX_WEBHOOK_URL ?? `${config.origin}/api/webhooks/custody`,
    webhookRetryMs: env.SANDBOX_WEBHOOK_RETRY_MS.split(',').map(Number),
    signatureHeader: env.WEBHOOK_SIGNATURE_HEADER,
    baseUrl: `${config.origin}/sandbox`,
    dataDir: config.dataDir,
    specOnly: env.SANDBOX_SPEC_ONLY,
  });
  sandbox.start();
  return sandbox;
}
