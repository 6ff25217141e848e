import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/lib/db/connection';
import { auditLog, type ConsoleDb, schema } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { appendAudit, GENESIS_HASH, hashEntry, verifyAuditChain } from './audit';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t.close();
});

const actor = { actorId: null, actorEmail: 'admin@example.com', role: 'admin' };

async function appendSome(n: number, prefix: string) {
  const rows = [];
  for (let i = 0; i < n; i++) {
    rows.push(
      await appendAudit(t.db, { ...actor, action: `${prefix}.${i}`, outcome: 'success', input: { i } }),
    );
  }
  return rows;
}

/** Tampering needs the append-only triggers out of the way, as an attacker with database access would. */
async function asAttacker(work: () => Promise<unknown>) {
  await t.db.execute(sql`ALTER TABLE audit_log DISABLE TRIGGER USER`);
  try {
    await work();
  } finally {
    await t.db.execute(sql`ALTER TABLE audit_log ENABLE TRIGGER USER`);
  }
}

describe('audit chain', () => {
  it('links each entry to the previous one by hash', async () => {
    const [first, second] = await appendSome(2, 'link');
    expect(first!.prevHash).toBe(GENESIS_HASH);
    expect(second!.prevHash).toBe(first!.hash);
    expect(second!.hash).toBe(hashEntry(first!.hash, second!));
    expect(await verifyAuditChain(t.db)).toEqual({ ok: true, entries: 2 });
  });

  it('redacts secrets from the stored input', async () => {
    const row = await appendAudit(t.db, {
      ...actor,
      action: 'wallet.connect',
      outcome: 'success',
      input: { walletId: 'w1', apiKey: 'sk_live_123', nested: { privateKey: '0xabc', code: '123456' } },
    });
    expect(row.input).toEqual({
      walletId: 'w1',
      apiKey: '[redacted]',
      nested: { privateKey: '[redacted]', code: '[redacted]' },
    });
    expect(JSON.stringify(row)).not.toContain('sk_live_123');
  });

  it('refuses updates and deletes at the database', async () => {
    const causeOf = (e: unknown) => String((e as { cause?: Error }).cause?.message ?? (e as Error).message);
    await expect(t.db.execute(sql`UPDATE audit_log SET outcome = 'failed'`).catch(causeOf)).resolves.toMatch(
      /append-only/,
    );
    await expect(t.db.execute(sql`DELETE FROM audit_log`).catch(causeOf)).resolves.toMatch(/append-only/);
  });

  it('finds an edited entry', async () => {
    const rows = await appendSome(3, 'edit');
    const victim = rows[1]!;
    await asAttacker(() =>
      t.db.execute(sql`UPDATE audit_log SET outcome = 'failed' WHERE id = ${victim.id}`),
    );
    const verdict = await verifyAuditChain(t.db);
    expect(verdict).toMatchObject({
      ok: false,
      brokenAt: victim.id,
      reason: 'this entry was changed after it was written',
    });
    await asAttacker(() =>
      t.db.execute(sql`UPDATE audit_log SET outcome = 'success' WHERE id = ${victim.id}`),
    );
    expect((await verifyAuditChain(t.db)).ok).toBe(true);
  });

  it('finds a deleted entry at the one that follows it', async () => {
    const rows = await appendSome(3, 'delete');
    await asAttacker(() => t.db.delete(auditLog).where(sql`id = ${rows[1]!.id}`));
    const verdict = await verifyAuditChain(t.db);
    expect(verdict).toMatchObject({
      ok: false,
      brokenAt: rows[2]!.id,
      reason: 'the entry before this one was changed or removed',
    });
  });

  it('keeps the chain straight under concurrent appends', async () => {
    const fresh = await createTestDatabase();
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          appendAudit(fresh.db, { ...actor, action: `c.${i}`, outcome: 'success' }),
        ),
      );
      expect(await verifyAuditChain(fresh.db)).toEqual({ ok: true, entries: 20 });
    } finally {
      await fresh.close();
    }
  });

  it('keeps one chain when two console instances append to one database at once', async () => {
    const fresh = await createTestDatabase();
    // The second instance: on PostgreSQL a pool of its own, on PGlite another Drizzle object on the client.
    let second: ConsoleDb;
    let closeSecond = async () => {};
    if (fresh.handle.kind === 'postgres') {
      const opened = await openDatabase({
        url: fresh.handle.client.options.connectionString as string,
        schema,
      });
      second = opened.db as ConsoleDb;
      closeSecond = () => opened.close();
    } else {
      const { drizzle } = await import('drizzle-orm/pglite');
      second = drizzle({ client: fresh.handle.client, schema }) as unknown as ConsoleDb;
    }
    try {
      // Each instance chains after the last entry it wrote; the other's entries make that stale at almost every
      // append, and the database refuses the fork until the instance chains after the entry now last.
      for (let round = 0; round < 5; round++) {
        await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            appendAudit(i % 2 ? fresh.db : second, {
              ...actor,
              action: `two.${round}.${i}`,
              outcome: 'success',
            }),
          ),
        );
      }
      expect(await verifyAuditChain(fresh.db)).toEqual({ ok: true, entries: 40 });
      const rows = await fresh.db.select().from(auditLog);
      expect(new Set(rows.map((r) => r.action)).size).toBe(40);
    } finally {
      await closeSecond();
      await fresh.close();
    }
  });

  it('stores entries arriving together in order, and fails alone an entry the database refuses', async () => {
    const fresh = await createTestDatabase();
    try {
      // A database-side refusal of one entry, as a value it cannot store would be.
      await fresh.db.execute(sql`
        CREATE FUNCTION refuse_poison() RETURNS trigger AS $$
        BEGIN
          IF NEW.action = 'poison' THEN RAISE EXCEPTION 'refused'; END IF;
          RETURN NEW;
        END;
        $$ LANGUAGE plpgsql`);
      await fresh.db.execute(
        sql`CREATE TRIGGER refuse_poison BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION refuse_poison()`,
      );
      const settled = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          appendAudit(fresh.db, { ...actor, action: i === 5 ? 'poison' : `g.${i}`, outcome: 'success' }),
        ),
      );
      expect(settled.map((s) => s.status)).toEqual(
        Array.from({ length: 12 }, (_, i) => (i === 5 ? 'rejected' : 'fulfilled')),
      );
      const rows = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      // Each caller gets its own row, and the ids follow the order the entries were chained in.
      expect(rows.map((r) => r.action)).toEqual(
        Array.from({ length: 12 }, (_, i) => `g.${i}`).filter((a) => a !== 'g.5'),
      );
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.id).toBeGreaterThan(rows[i - 1]!.id);
      expect(await verifyAuditChain(fresh.db)).toEqual({ ok: true, entries: 11 });
    } finally {
      await fresh.close();
    }
  });
});

describe('audit entries with control characters', () => {
  it('stores an attempt carrying NUL and control characters, cleaned, and says so', async () => {
    const row = await appendAudit(t.db, {
      ...actor,
      action: 'whitelist.add',
      target: 'rule\u0000name',
      outcome: 'invalid',
      input: { name: 'Nia\u0000\u0007', nested: { list: ['a\u009fb'] }, 'k\u0000': 1, note: 'line\nnext' },
    });
    const [stored] = await t.db.select().from(auditLog).where(sql`${auditLog.id} = ${row.id}`);
    expect(stored?.target).toBe('rule\ufffdname');
    expect(stored?.input).toEqual({
      name: 'Nia\ufffd\ufffd',
      nested: { list: ['a\ufffdb'] },
      'k\ufffd': 1,
      note: 'line\nnext',
      controlCharactersRemoved: true,
    });
    // The hash covers what was stored.
    expect(hashEntry(stored!.prevHash, stored!)).toBe(stored!.hash);
  });

  it('leaves clean entries as they are', async () => {
    const row = await appendAudit(t.db, {
      ...actor,
      action: 'x',
      outcome: 'success',
      input: { name: 'Nia' },
    });
    expect(row.input).toEqual({ name: 'Nia' });
  });
});
