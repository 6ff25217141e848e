// Two console instances starting at once on one empty PostgreSQL database both migrate it; every pooled connection
// answers one query at a time. Runs only when TEST_DATABASE_URL names a server (vitest.config.ts leaves it out otherwise).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Client, type Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox, type Sandbox } from '@/lib/sandbox';
import { openTestHandle } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import { CONSOLE_MIGRATIONS, type DatabaseHandle, openDatabase, runMigrations } from './connection';
import { STATEMENTS_LOCK_KEY, withDatabaseLock } from './exclusive';

const adminUrl = process.env.TEST_DATABASE_URL;
if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set: this file runs against PostgreSQL only');

const name = `console_migrate_${randomBytes(6).toString('hex')}`;
const handles: DatabaseHandle[] = [];

async function admin(text: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

beforeAll(() => admin(`CREATE DATABASE ${name}`));
afterAll(async () => {
  await Promise.all(handles.map((h) => h.close()));
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('migrations on a shared PostgreSQL database', () => {
  it('applies each migration once when several instances migrate at the same moment', async () => {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    for (let i = 0; i < 3; i++) handles.push(await openDatabase({ url: url.toString() }));

    const outcomes = await Promise.allSettled(handles.map((h) => runMigrations(h, CONSOLE_MIGRATIONS)));
    expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'ok'))).toEqual([
      'ok',
      'ok',
      'ok',
    ]);

    const client = new Client({ connectionString: url.toString() });
    await client.connect();
    const applied = await client.query<{ hash: string; n: string }>(
      'SELECT hash, count(*) AS n FROM __drizzle_migrations GROUP BY hash',
    );
    await client.end();
    expect(applied.rows.length).toBeGreaterThan(0);
    expect(applied.rows.filter((r) => Number(r.n) !== 1)).toEqual([]);
  });

  it('survives the server dropping an idle pooled connection and carries on with a new one', async () => {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const broken: Error[] = [];
    const handle = await openDatabase({ url: url.toString(), onConnectionError: (e) => broken.push(e) });
    handles.push(handle);
    const pool = handle.client as import('pg').Pool;
    const [{ pid }] = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [
      { pid: number },
    ];

    const admin = new Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.end();

    await vi.waitFor(() => expect(broken.map((e) => e.message)).toEqual([expect.stringMatching(/terminat/)]));
    const again = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(again.rows[0]?.pid).not.toBe(pid);
  });
});

/**
 * Watches every connection `pool` opens from now on and records the SQL of each query started on a connection
 * while an earlier one on it has not answered. node-postgres queues such a query behind the other (a transaction
 * or a locked connection gains nothing from it) and warns from the third on, a warning pg 9 turns into an error.
 * `queries` counts every query watched, so a watch that saw nothing cannot pass for one that saw no overlap.
 */
function watchConnections(pool: Pool): { queries: number; overlaps: string[] } {
  const seen = { queries: 0, overlaps: [] as string[] };
  pool.on('connect', (client) => {
    let running = 0;
    const done = () => {
      running -= 1;
    };
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: typeof query }).query = (...args) => {
      seen.queries += 1;
      if (running > 0) {
        const [first] = args;
        seen.overlaps.push(typeof first === 'string' ? first : String((first as { text?: unknown }).text));
      }
      running += 1;
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        args[args.length - 1] = (...answer: unknown[]) => {
          done();
          return callback(...answer);
        };
        return query(...args);
      }
      const result = query(...args);
      Promise.resolve(result).then(done, done);
      return result;
    };
  });
  return seen;
}

describe('one query at a time on each pooled connection', () => {
  let opened: Awaited<ReturnType<typeof openTestHandle>>;
  let seen: ReturnType<typeof watchConnections>;
  let dataDir: string;
  const sandboxes: Sandbox[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'one-query-'));
    opened = await openTestHandle();
    seen = watchConnections(opened.handle.client as Pool);
  });
  afterAll(async () => {
    for (const sandbox of sandboxes) await sandbox.stop();
    await opened?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('the watch names a query started in a transaction before the one before it answered', async () => {
    const { db } = opened.handle;
    await db.transaction(async (tx) => {
      await Promise.all([tx.execute(sql`select 1 as first`), tx.execute(sql`select 2 as second`)]);
    });
    expect(seen.overlaps).toEqual(['select 2 as second']);
  });

  it('starting, seeding and running the sandbox, and work under the database lock, never overlap', async () => {
    const { handle } = opened;
    const before = { queries: seen.queries, overlaps: seen.overlaps.length };
    // Migrating and seeding under the seed lock (the catalog is read inside the seed's transaction), then a second
    // instance finding the database current.
    const first = await createSandbox(testSandboxOptions(handle, path.join(dataDir, 'a')));
    sandboxes.push(first);
    sandboxes.push(await createSandbox(testSandboxOptions(handle, path.join(dataDir, 'b'))));
    // A withdrawal mined and settled, its webhooks delivered.
    const [wallet] = (await first.credentials()).wallets;
    const usdc = wallet?.assets.find((asset) => asset.symbol === 'USDC');
    if (!wallet || !usdc) throw new Error('The sandbox seeded no wallet with USDC');
    const answer = await first.handle(
      new Request(`http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/withdraw`, {
        method: 'POST',
        headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          assets: [{ id: usdc.id, address: '0x00000000000000000000000000000000000000aa', amount: '1' }],
        }),
      }),
    );
    expect(answer.status).toBe(200);
    await first.drain();
    // Work of its own while the statements lock is held on another connection.
    const locked = await withDatabaseLock(handle.db, handle.kind, STATEMENTS_LOCK_KEY, 'wait', async () => {
      const rows = await handle.db.execute(sql`select count(*)::int as n from sandbox_transactions`);
      return (rows as unknown as { rows: Array<{ n: number }> }).rows[0]?.n;
    });
    expect(locked).toEqual({ ran: true, value: expect.any(Number) });

    expect(seen.queries - before.queries).toBeGreaterThan(50);
    expect(seen.overlaps.slice(before.overlaps)).toEqual([]);
  });
});
