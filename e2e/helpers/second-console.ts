// A second console in real-service mode, for one journey: pointed at this run's sandbox over HTTP as it would be
// at the custody service (CUSTODY_API_URL), with its own data directory and secrets, nobody seeded. It mails
// through the run's SMTP server. Stopped by its process group (next start leaves next-server as a child).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from '@playwright/test';

interface SecondConsole {
  origin: string;
  /** `npm run users -- …` on the console's server; returns what it printed. */
  users(args: string[]): string;
  stop(): Promise<void>;
}

/** A port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startRealServiceConsole(serviceOrigin: string): Promise<SecondConsole> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    CUSTODY_API_URL: `${serviceOrigin}/sandbox`,
    CONSOLE_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'console-real-service-')),
    CONSOLE_ORIGIN: origin,
    AUTH_SECRET: randomBytes(32).toString('base64'),
    CONSOLE_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SMTP_URL: process.env.E2E_SMTP_URL,
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: '1',
    // The loopback: nothing to gain from compressing, only work.
    CONSOLE_COMPRESS: 'off',
    LOG_LEVEL: 'warn',
  };
  const server: ChildProcess = spawn(
    'node_modules/.bin/next',
    ['start', '-p', String(port), '--keepAliveTimeout', '180000'],
    {
      env,
      detached: true,
      stdio: 'ignore',
    },
  );
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  const stop = async () => {
    if (server.pid && server.exitCode === null && server.signalCode === null) {
      process.kill(-server.pid, 'SIGTERM');
      await exited;
    }
  };
  try {
    // The health route opens the database: the console is ready when it answers.
    await expect
      .poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status ?? 0, {
        message: 'the second console answers its health route',
        timeout: 180_000,
        intervals: [500, 1000, 2000],
      })
      .toBe(200);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    origin,
    users: (args) =>
      execFileSync('npm', ['run', '--silent', 'users', '--', ...args], { env, encoding: 'utf8' }),
    stop,
  };
}
