// A PostgreSQL database of the run's own, for the consoles a Playwright configuration starts: made once in the
// main process (Playwright's workers load the configuration again and find its name in the env they inherit),
// dropped once the consoles have stopped.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

/**
 * Creates a database named `prefix_<random>` on the server of `adminUrl` and answers its name. Synchronous, as a
 * configuration file is read.
 */
export function createRunDatabase(adminUrl: string, prefix: string): string {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  execFileSync(
    process.execPath,
    [
      '-e',
      `const { Client } = require('pg');
       const c = new Client({ connectionString: process.env.ADMIN_URL });
       c.connect().then(() => c.query('CREATE DATABASE ${name}')).then(() => c.end(), (e) => { console.error(e.message); process.exit(1); });`,
    ],
    { stdio: 'inherit', env: { ...process.env, ADMIN_URL: adminUrl } },
  );
  return name;
}

/** The address of database `name` on the server of `adminUrl`. */
export function runDatabaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const DROP_WHEN_STOPPED = `
const net = require('node:net');
const { Client } = require('pg');
const ports = JSON.parse(process.env.PORTS);
const listening = (port) => new Promise((resolve) => {
  const socket = net.connect(port, '127.0.0.1');
  socket.once('connect', () => { socket.destroy(); resolve(true); });
  socket.once('error', () => resolve(false));
});
(async () => {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && (await Promise.all(ports.map(listening))).some(Boolean)) {
    await new Promise((r) => setTimeout(r, 200));
  }
  const client = new Client({ connectionString: process.env.ADMIN_URL });
  await client.connect();
  await client.query('DROP DATABASE IF EXISTS ' + process.env.DATABASE_NAME + ' WITH (FORCE)');
  await client.end();
  for (const dir of JSON.parse(process.env.DIRS)) require('node:fs').rmSync(dir, { recursive: true, force: true });
})().catch((e) => { console.error('could not drop the run database: ' + e.message); process.exit(1); });
`;

/**
 * Drops database `name` and removes `dirs` once nothing listens on `ports`. Playwright stops its web servers after
 * a global teardown returns, so a detached process waits for their ports to close first: dropping the database
 * under running servers would fill the log with their failed background rounds.
 */
export function dropRunDatabaseWhenStopped(
  adminUrl: string,
  name: string,
  ports: number[],
  dirs: string[] = [],
): void {
  const cleaner = spawn(process.execPath, ['-e', DROP_WHEN_STOPPED], {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      ADMIN_URL: adminUrl,
      DATABASE_NAME: name,
      PORTS: JSON.stringify(ports),
      DIRS: JSON.stringify(dirs),
    },
  });
  cleaner.unref();
}
