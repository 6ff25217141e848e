import 'server-only';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeKey, type Env, parseEnv } from './env';

export interface ConsoleConfig {
  env: Env;
  /** True when no CUSTODY_API_URL is set: the embedded sandbox is the custody service. */
  sandboxMode: boolean;
  dataDir: string;
  authSecret: string;
  encryptionKey: Buffer;
  /** Where the console is reached, for the sandbox's default webhook URL and CLI tools. */
  origin: string;
  /** Set when secrets were generated during this start (for the start-up log line). */
  generatedSecretsAt?: string;
}

const CONFIG = Symbol.for('custody-console.config');
type Holder = { [CONFIG]?: ConsoleConfig };

/** Local secrets for sandbox mode: made once, kept owner-only under the data directory. */
function loadLocalSecrets(dataDir: string): {
  authSecret: string;
  encryptionKey: Buffer;
  generated?: string;
} {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { authSecret: string; encryptionKey: string };
    return { authSecret: parsed.authSecret, encryptionKey: Buffer.from(parsed.encryptionKey, 'hex') };
  }
  const secrets = {
    authSecret: randomBytes(32).toString('base64url'),
    encryptionKey: randomBytes(32).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return {
    authSecret: secrets.authSecret,
    encryptionKey: Buffer.from(secrets.encryptionKey, 'hex'),
    generated: file,
  };
}

export function loadConfig(raw: Record<string, string | undefined> = process.env): ConsoleConfig {
  const env = parseEnv(raw);
  const dataDir = path.resolve(/*turbopackIgnore: true*/ env.CONSOLE_DATA_DIR);
  const sandboxMode = !env.CUSTODY_API_URL;
  let authSecret = env.AUTH_SECRET;
  let encryptionKey = env.CONSOLE_ENCRYPTION_KEY ? decodeKey(env.CONSOLE_ENCRYPTION_KEY) : null;
  let generatedSecretsAt: string | undefined;
  if (!authSecret || !encryptionKey) {
    const local = loadLocalSecrets(dataDir);
    authSecret ??= local.authSecret;
    encryptionKey ??= local.encryptionKey;
    generatedSecretsAt = local.generated;
  }
  return {
    env,
    sandboxMode,
    dataDir,
    authSecret,
    encryptionKey,
    origin: env.CONSOLE_ORIGIN ?? `http://localhost:${env.PORT}`,
    generatedSecretsAt,
  };
}

/** The process-wide configuration (one copy across Next's server bundles). */
export function getConfig(): ConsoleConfig {
  const holder = globalThis as Holder;
  holder[CONFIG] ??= loadConfig();
  return holder[CONFIG];
}
