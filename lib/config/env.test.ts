import { describe, expect, it } from 'vitest';
import { ConfigError, decodeKey, parseEnv } from './env';

function problemsOf(raw: Record<string, string | undefined>): string[] {
  try {
    parseEnv(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.map((p) => p.message);
  }
  throw new Error('expected a configuration error');
}

describe('parseEnv', () => {
  it('runs in sandbox mode with nothing set, with defaults', () => {
    const env = parseEnv({});
    expect(env.CUSTODY_API_URL).toBeUndefined();
    expect(env.CONSOLE_DATA_DIR).toBe('.data');
    expect(env.SANDBOX_BLOCK_TIME_MS).toBe(1000);
    expect(env.WEBHOOK_SIGNATURE_HEADER).toBe('x-blockradar-signature');
    expect(env.PORT).toBe(3000);
    expect(env.UNKNOWN_OUTCOME_WINDOW_MS).toBe(600_000);
    expect(env.CUSTODY_READ_BUDGET_MS).toBe(8_000);
    expect(env.SANDBOX_SPEC_ONLY).toBe(false);
    expect(env.SANDBOX_SEED_TRANSACTIONS).toBe(0);
  });

  it('treats empty variables as unset, as copied from .env.example', () => {
    const env = parseEnv({ CUSTODY_API_URL: '', AUTH_SECRET: '', CONSOLE_ENCRYPTION_KEY: ' ', PORT: '' });
    expect(env.CUSTODY_API_URL).toBeUndefined();
    expect(env.AUTH_SECRET).toBeUndefined();
    expect(env.PORT).toBe(3000);
  });

  it('requires both secrets when the real service is configured, naming each', () => {
    const problems = problemsOf({ CUSTODY_API_URL: 'https://api.example.com' });
    expect(problems).toEqual([
      expect.stringMatching(/^AUTH_SECRET is required when CUSTODY_API_URL is set/),
      expect.stringMatching(/^CONSOLE_ENCRYPTION_KEY is required when CUSTODY_API_URL is set/),
    ]);
  });

  it('names a missing encryption key alone when the session secret is present', () => {
    const problems = problemsOf({ CUSTODY_API_URL: 'https://api.example.com', AUTH_SECRET: 'x'.repeat(40) });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('CONSOLE_ENCRYPTION_KEY is required');
  });

  it('accepts a complete real-service configuration', () => {
    const env = parseEnv({
      CUSTODY_API_URL: 'https://api.example.com',
      AUTH_SECRET: 'x'.repeat(40),
      CONSOLE_ENCRYPTION_KEY: 'ab'.repeat(32),
    });
    expect(env.CUSTODY_API_URL).toBe('https://api.example.com');
  });

  it.each([
    [{ CUSTODY_API_URL: 'not a url' }, 'CUSTODY_API_URL must be a full URL'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET must be at least 32 characters'],
    [{ CONSOLE_ENCRYPTION_KEY: 'abc' }, 'CONSOLE_ENCRYPTION_KEY must be 32 bytes'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must be a PostgreSQL URL'],
    [{ PORT: 'eighty' }, 'PORT must be a whole number'],
    [{ SANDBOX_BLOCK_TIME_MS: '-5' }, 'SANDBOX_BLOCK_TIME_MS must be greater than zero'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ SANDBOX_WEBHOOK_RETRY_MS: '1s,2s' }, 'SANDBOX_WEBHOOK_RETRY_MS must be a comma-separated list'],
    [{ WEBHOOK_SIGNATURE_HEADER: 'bad header' }, 'WEBHOOK_SIGNATURE_HEADER must be an HTTP header name'],
    [{ CUSTODY_API_URL: 'https://api.example.com/v1' }, 'CUSTODY_API_URL must not end in /v1'],
    [{ CUSTODY_API_URL: 'http://127.0.0.1:3000/sandbox/v1/' }, 'drop the /v1'],
    [{ UNKNOWN_OUTCOME_WINDOW_MS: '0' }, 'UNKNOWN_OUTCOME_WINDOW_MS must be greater than zero'],
    [{ SANDBOX_SPEC_ONLY: 'yes' }, 'SANDBOX_SPEC_ONLY must be 1 or 0'],
    [{ SANDBOX_SEED_TRANSACTIONS: '-1' }, 'SANDBOX_SEED_TRANSACTIONS must be 0 or more'],
    [{ SANDBOX_SEED_TRANSACTIONS: 'many' }, 'SANDBOX_SEED_TRANSACTIONS must be a whole number'],
    [{ SMTP_URL: 'mail.example.com' }, 'SMTP_URL must be an SMTP URL'],
    [{ ALERT_FROM: 'not an address' }, 'ALERT_FROM must be an email address'],
    [{ ALERT_WEBHOOK_CIDRS: '10.0.0.0/33' }, 'ALERT_WEBHOOK_CIDRS must be a comma-separated list'],
    [{ ALERT_GAS_MIN_BALANCE: 'lots' }, 'ALERT_GAS_MIN_BALANCE must be a decimal amount'],
    [{ ALERT_PENDING_MINUTES: '0' }, 'ALERT_PENDING_MINUTES must be greater than zero'],
  ])('explains %o in a sentence', (raw, expected) => {
    const problems = problemsOf(raw);
    expect(problems.join('\n')).toContain(expected);
  });

  it('lists every problem at once in the error message', () => {
    try {
      parseEnv({ PORT: 'x', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT must be a whole number[\s\S]*LOG_LEVEL must be one of/);
    }
  });
});

describe('decodeKey', () => {
  it('reads 64 hex characters and 32-byte base64', () => {
    expect(decodeKey('00'.repeat(32))?.length).toBe(32);
    expect(decodeKey(Buffer.alloc(32, 7).toString('base64'))?.length).toBe(32);
  });
  it('refuses other lengths', () => {
    expect(decodeKey('00'.repeat(16))).toBeNull();
    expect(decodeKey(Buffer.alloc(16).toString('base64'))).toBeNull();
  });
});
