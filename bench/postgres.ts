// A throw-away database on the PostgreSQL server of DATABASE_URL, for one figure's run.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export async function freshPostgresDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `console_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
