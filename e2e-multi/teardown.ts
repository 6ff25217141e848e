// Drops the run's database and removes the data directories once both servers have stopped. Playwright
// stops its web servers after this teardown returns, so a detached process waits for their ports to close
// first: dropping the database under running servers would fill the log with their failed background rounds.
import { spawn } from 'node:child_process';

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
  const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  await client.query('DROP DATABASE IF EXISTS ' + process.env.E2E_MULTI_DATABASE + ' WITH (FORCE)');
  await client.end();
  for (const dir of [process.env.E2E_DATA_DIR, process.env.E2E_DATA_DIR_B]) {
    if (dir) require('node:fs').rmSync(dir, { recursive: true, force: true });
  }
})().catch((e) => { console.error('could not drop the two-instance database: ' + e.message); process.exit(1); });
`;

export default async function teardown() {
  const { TEST_DATABASE_URL, E2E_MULTI_DATABASE, E2E_INSTANCE_A, E2E_INSTANCE_B } = process.env;
  if (!TEST_DATABASE_URL || !E2E_MULTI_DATABASE) return;
  const ports = [E2E_INSTANCE_A, E2E_INSTANCE_B].map((origin) => Number(new URL(origin ?? '').port));
  const cleaner = spawn(process.execPath, ['-e', DROP_WHEN_STOPPED], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, PORTS: JSON.stringify(ports) },
  });
  cleaner.unref();
}
