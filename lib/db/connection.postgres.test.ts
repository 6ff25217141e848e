// Two console instances starting at once on one empty PostgreSQL database both migrate it.
// Runs only when TEST_DATABASE_URL names a server (vitest.config.ts leaves it out otherwise).
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONSOLE_MIGRATIONS, type DatabaseHandle, openDatabase, runMigrations } from './connection';

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
