// Reads and validates the environment once; every failure is a sentence a person can act on.
import { z } from 'zod';
import { parseNetworkList } from './networks';

const optionalUrl = (name: string) =>
  z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.url({ message: `${name} must be a full URL such as https://api.example.com` }).optional())
    .optional();

const positiveInt = (name: string, fallback: number) =>
  z.coerce
    .number({ message: `${name} must be a whole number` })
    .int({ message: `${name} must be a whole number` })
    .positive({ message: `${name} must be greater than zero` })
    .default(fallback);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  CUSTODY_API_URL: optionalUrl('CUSTODY_API_URL').refine((v) => v === undefined || !/\/v1\/*$/i.test(v), {
    message:
      'CUSTODY_API_URL must not end in /v1: the console adds /v1 to every path itself (drop the /v1, e.g. https://api.blockradar.co)',
  }),
  /** After a lost answer, how long before "the service shows no transaction" may mean "not executed". */
  UNKNOWN_OUTCOME_WINDOW_MS: positiveInt('UNKNOWN_OUTCOME_WINDOW_MS', 600_000),
  /** Total time of one page's upstream reads, retries included. */
  CUSTODY_READ_BUDGET_MS: positiveInt('CUSTODY_READ_BUDGET_MS', 8_000),
  /** Timeout of one money-moving or signing call (never retried). */
  CUSTODY_WRITE_TIMEOUT_MS: positiveInt('CUSTODY_WRITE_TIMEOUT_MS', 15_000),
  /** Sandbox only: start with the extension endpoints switched off, as a service with the spec alone. */
  SANDBOX_SPEC_ONLY: z
    .enum(['0', '1', 'true', 'false'], { message: 'SANDBOX_SPEC_ONLY must be 1 or 0' })
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  AUTH_SECRET: z
    .string()
    .min(32, { message: 'AUTH_SECRET must be at least 32 characters long (try: openssl rand -base64 32)' })
    .optional(),
  CONSOLE_ENCRYPTION_KEY: z
    .string()
    .refine((v) => decodeKey(v) !== null, {
      message:
        'CONSOLE_ENCRYPTION_KEY must be 32 bytes, written as 64 hex characters or base64 (try: openssl rand -hex 32)',
    })
    .optional(),
  CONSOLE_DATA_DIR: z.string().min(1).default('.data'),
  DATABASE_URL: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, {
          message: 'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/console',
        })
        .optional(),
    )
    .optional(),
  CONSOLE_ORIGIN: optionalUrl('CONSOLE_ORIGIN'),
  PORT: positiveInt('PORT', 3000),
  LOG_LEVEL: z
    .enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
      message: 'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent',
    })
    .default('info'),
  WEBHOOK_SIGNATURE_HEADER: z
    .string()
    .regex(/^[a-z0-9-]+$/i, { message: 'WEBHOOK_SIGNATURE_HEADER must be an HTTP header name' })
    .default('x-blockradar-signature'),
  /** Only these networks may sign in and use the console (comma-separated IPv4/IPv6 CIDRs); unset: any. */
  CONSOLE_ALLOWED_CIDRS: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const list = parseNetworkList(value);
      if (!list.ok)
        ctx.addIssue({
          code: 'custom',
          message: `CONSOLE_ALLOWED_CIDRS must be a comma-separated list of networks such as 10.0.0.0/8,2001:db8::/32 (not a network: ${list.invalid.join(', ')})`,
        });
      else if (list.ranges.length === 0)
        ctx.addIssue({
          code: 'custom',
          message: 'CONSOLE_ALLOWED_CIDRS lists no network: leave it unset to accept every address',
        });
    })
    .optional(),
  /** 1: a reverse proxy in front sets X-Forwarded-For; the client's address is the entry it added. */
  TRUST_PROXY: z
    .enum(['0', '1', 'true', 'false'], { message: 'TRUST_PROXY must be 1 or 0' })
    .default('0')
    .transform((v) => v === '1' || v === 'true'),
  /**
   * Failed sign-ins (wrong password, unknown email or wrong second factor) one client address may make in 15
   * minutes; past it, every sign-in from there is answered as a locked account until the window passes.
   */
  SIGN_IN_ADDRESS_FAILURES: positiveInt('SIGN_IN_ADDRESS_FAILURES', 20),
  /** Where alert emails are sent from: smtp://user:password@host:587 or smtps://host:465; unset: no email channel. */
  SMTP_URL: z
    .string()
    .trim()
    .regex(/^smtps?:\/\/[^\s]+$/i, {
      message:
        'SMTP_URL must be an SMTP URL such as smtp://user:password@mail.example.com:587 or smtps://…:465',
    })
    .optional(),
  /** The sender of alert emails. */
  ALERT_FROM: z
    .string()
    .trim()
    .regex(/^([^<>\r\n]*<)?[^\s@<>]+@[^\s@<>]+>?$/, {
      message: 'ALERT_FROM must be an email address such as Custody Console <alerts@example.com>',
    })
    .default('Custody Console <alerts@localhost>'),
  /**
   * Networks a chat webhook may reach although they are private (comma-separated CIDRs, e.g. 10.20.0.0/16);
   * every other private, loopback or link-local address is refused.
   */
  ALERT_WEBHOOK_CIDRS: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const list = parseNetworkList(value);
      if (!list.ok)
        ctx.addIssue({
          code: 'custom',
          message: `ALERT_WEBHOOK_CIDRS must be a comma-separated list of networks such as 10.20.0.0/16 (not a network: ${list.invalid.join(', ')})`,
        });
    })
    .optional(),
  /** A transaction still PENDING after this many minutes is alerted. */
  ALERT_PENDING_MINUTES: positiveInt('ALERT_PENDING_MINUTES', 30),
  /** A wallet's native (gas) balance below this, in whole units (e.g. 0.05 ETH), is alerted. */
  ALERT_GAS_MIN_BALANCE: z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/, { message: 'ALERT_GAS_MIN_BALANCE must be a decimal amount such as 0.05' })
    .default('0.01'),
  /** Failed webhook tries in a row before the endpoint-failing alert (once per streak). */
  ALERT_WEBHOOK_STREAK: positiveInt('ALERT_WEBHOOK_STREAK', 5),
  /** How often the pending, gas and webhook-health checks run. */
  ALERT_CHECK_INTERVAL_MS: positiveInt('ALERT_CHECK_INTERVAL_MS', 60_000),
  /** Tries per alert and channel before it is given up; retries back off from 5 s, doubling, at most 10 min apart. */
  ALERT_MAX_ATTEMPTS: positiveInt('ALERT_MAX_ATTEMPTS', 8),
  SANDBOX_SEED: z.string().min(1).default('custody-console-sandbox'),
  /** Sandbox only: this many more historical transactions for the first wallet when it seeds an empty database. */
  SANDBOX_SEED_TRANSACTIONS: z.coerce
    .number({ message: 'SANDBOX_SEED_TRANSACTIONS must be a whole number' })
    .int({ message: 'SANDBOX_SEED_TRANSACTIONS must be a whole number' })
    .min(0, { message: 'SANDBOX_SEED_TRANSACTIONS must be 0 or more' })
    .max(1_000_000, { message: 'SANDBOX_SEED_TRANSACTIONS must be at most 1000000' })
    .default(0),
  SANDBOX_BLOCK_TIME_MS: positiveInt('SANDBOX_BLOCK_TIME_MS', 1000),
  SANDBOX_QUOTE_TTL_MS: positiveInt('SANDBOX_QUOTE_TTL_MS', 60_000),
  SANDBOX_WEBHOOK_URL: optionalUrl('SANDBOX_WEBHOOK_URL'),
  SANDBOX_WEBHOOK_RETRY_MS: z
    .string()
    .regex(/^\d+(,\d+)*$/, {
      message:
        'SANDBOX_WEBHOOK_RETRY_MS must be a comma-separated list of milliseconds such as 500,2000,5000',
    })
    .default('500,2000,5000'),
});

export type Env = z.infer<typeof envSchema>;

export interface EnvProblem {
  variable: string;
  message: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: EnvProblem[]) {
    super(
      `The console cannot start because of its configuration:\n${problems.map((p) => `  - ${p.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

/** 32-byte key from 64 hex characters or base64; null when it is neither. */
export function decodeKey(value: string): Buffer | null {
  const v = value.trim();
  if (/^[0-9a-f]{64}$/i.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(v)) {
    const buf = Buffer.from(v, 'base64');
    if (buf.length === 32) return buf;
  }
  return null;
}

/** Validates the raw environment. Throws ConfigError listing every problem at once. */
export function parseEnv(raw: Record<string, string | undefined>): Env {
  // An empty variable (as copied from .env.example) means "not set".
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const result = envSchema.safeParse(given);
  const problems: EnvProblem[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      const variable = String(issue.path[0] ?? 'environment');
      problems.push({
        variable,
        message: issue.message.includes(variable) ? issue.message : `${variable}: ${issue.message}`,
      });
    }
    throw new ConfigError(problems);
  }
  const env = result.data;
  if (env.CUSTODY_API_URL) {
    // Outside sandbox mode nothing may be generated: secrets must come from the operator.
    if (!env.AUTH_SECRET)
      problems.push({
        variable: 'AUTH_SECRET',
        message:
          'AUTH_SECRET is required when CUSTODY_API_URL is set (it signs sessions; try: openssl rand -base64 32)',
      });
    if (!env.CONSOLE_ENCRYPTION_KEY)
      problems.push({
        variable: 'CONSOLE_ENCRYPTION_KEY',
        message:
          'CONSOLE_ENCRYPTION_KEY is required when CUSTODY_API_URL is set (it encrypts stored API keys; try: openssl rand -hex 32)',
      });
  }
  if (problems.length) throw new ConfigError(problems);
  return env;
}
