// The log never carries a failed query's bound values: a real database error, logged as the console logs it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { createLogger } from './logger';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

function capture() {
  // The suite runs silent; these tests read what the logger writes.
  process.env.LOG_LEVEL = 'info';
  const lines: string[] = [];
  const destination = { write: (line: string) => void lines.push(line) };
  const logger = createLogger(destination);
  process.env.LOG_LEVEL = 'silent';
  return { logger, lines };
}

describe('logging failed queries', () => {
  it('keeps the query but not its parameters, in the error, its message, stack and cause', async () => {
    const secret = `hash-${crypto.randomUUID()}`;
    const error = await t.db
      .execute(sql`select ${secret}::text as s, 1 / 0 as n`)
      .then(() => null)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    // The driver's error really carries the value: the test would catch a logger that let it through.
    expect(
      JSON.stringify({ m: (error as Error).message, p: (error as { params?: unknown }).params }),
    ).toContain(secret);
    const { logger, lines } = capture();
    logger.error({ err: error, context: 'test' }, 'unexpected failure');
    logger.error({ error, cause: (error as Error).cause }, 'unexpected failure');
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).toContain('select');
    }
    expect(JSON.parse(lines[0]!).err.params).toBe('[redacted]');
  });

  it('leaves ordinary errors as pino writes them', () => {
    const { logger, lines } = capture();
    logger.error({ err: new Error('the service did not answer') }, 'custody call failed');
    const logged = JSON.parse(lines[0]!);
    expect(logged.err.message).toBe('the service did not answer');
    expect(logged.err.stack).toContain('logger.test');
  });

  it('keeps a users insert that fails from logging the password hash', async () => {
    const passwordHash = `$2b$12$${crypto.randomUUID()}`;
    const error = await t.db
      .insert(users)
      // A second user with the same email makes the insert fail with every value bound.
      .values([
        { email: 'twice@example.com', name: 'X', role: 'admin', passwordHash },
        { email: 'twice@example.com', name: 'X', role: 'admin', passwordHash },
      ])
      .then(() => null)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const { logger, lines } = capture();
    logger.error({ err: error }, 'unexpected failure');
    expect(lines[0]).not.toContain(passwordHash);
  });
});
