// State survives a restart (PGlite files in a temp dir), the second start does not reseed, and the
// credentials command reads what the running sandbox wrote.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/lib/db/connection';
import { createSandbox, type SandboxOptions } from './index';

const run = promisify(execFile);
const dir = mkdtempSync(path.join(tmpdir(), 'sandbox-restart-'));
const emptyDir = mkdtempSync(path.join(tmpdir(), 'sandbox-empty-'));

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
});

const options = (db: SandboxOptions['db']): SandboxOptions => ({
  db,
  dbKind: 'pglite',
  encryptionKey: Buffer.alloc(32, 3),
  seed: 'restart-test',
  blockTimeMs: 1000,
  webhookUrl: 'http://127.0.0.1:9/hooks',
  webhookRetryMs: [],
  signatureHeader: 'x-blockradar-signature',
  baseUrl: 'http://localhost:3000/sandbox',
  dataDir: dir,
  fetch: async () => new Response('ok'),
});

async function get(sandbox: Awaited<ReturnType<typeof createSandbox>>, key: string, url: string) {
  const res = await sandbox.handle(
    new Request(`http://localhost:3000/sandbox${url}`, { headers: { 'x-api-key': key } }),
  );
  return (await res.json()) as {
    data: { status: string; hash: string | null };
    meta?: { totalItems: number };
  };
}

describe('restart', () => {
  it('keeps state across a restart without reseeding, and a pending transaction settles afterwards', async () => {
    let database = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    let sandbox = await createSandbox(options(database.db));
    const first = await sandbox.credentials();
    const w = first.wallets[0]!;
    const usdc = w.assets.find((a) => a.symbol === 'USDC')!;
    const res = await sandbox.handle(
      new Request(`http://localhost:3000/sandbox/v1/wallets/${w.id}/withdraw`, {
        method: 'POST',
        headers: { 'x-api-key': w.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          assets: [{ id: usdc.id, address: '0x00000000000000000000000000000000000000aa', amount: '7' }],
        }),
      }),
    );
    const pending = ((await res.json()) as { data: { id: string } }).data;
    await sandbox.tick();
    const total = (await get(sandbox, w.apiKey, `/v1/wallets/${w.id}/transactions?limit=1`)).meta!.totalItems;
    await sandbox.stop();
    await database.close();

    database = await openDatabase({ dataDir: path.join(dir, 'pglite') });
    sandbox = await createSandbox(options(database.db));
    const second = await sandbox.credentials();
    expect(second).toEqual(first);
    expect((await get(sandbox, w.apiKey, `/v1/wallets/${w.id}/transactions?limit=1`)).meta!.totalItems).toBe(
      total,
    );
    const before = (await get(sandbox, w.apiKey, `/v1/wallets/${w.id}/transactions/${pending.id}`)).data;
    expect(before.status).toBe('PENDING');
    expect(before.hash).toMatch(/^0x/);
    await sandbox.drain();
    const after = (await get(sandbox, w.apiKey, `/v1/wallets/${w.id}/transactions/${pending.id}`)).data;
    expect(after.status).toBe('SUCCESS');
    expect(after.hash).toBe(before.hash);
    await sandbox.stop();
    await database.close();
    // Two PGlite data directories initialised and migrated from nothing (the restart is the point, so no template),
    // and a seeded sandbox: about 80 s beside the browser suite, which left the suite's 90 s too little headroom.
  }, 240_000);

  it('npm run sandbox:credentials prints the file the sandbox wrote, or explains how to get one', async () => {
    const tsx = path.join(process.cwd(), 'node_modules/.bin/tsx');
    const script = path.join(process.cwd(), 'scripts/sandbox-credentials.ts');
    const { stdout } = await run(tsx, ['--conditions=react-server', script], {
      env: { ...process.env, CONSOLE_DATA_DIR: dir },
    });
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject(
      JSON.parse(readFileSync(path.join(dir, 'sandbox-credentials.json'), 'utf8')),
    );
    // The demo users' authenticator apps, each with its secret and setup address.
    const admin = printed.demoUsers.find((u: { email: string }) => u.email === 'admin@example.com');
    expect(admin.authenticators[0].secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(admin.authenticators[0].uri).toContain(`secret=${admin.authenticators[0].secret}`);
    expect(printed.wallets[0].apiKey).toMatch(/^sbx_/);
    expect(printed.totpSecret).toMatch(/^[A-Z2-7]+$/);

    const missing = await run(tsx, ['--conditions=react-server', script], {
      env: { ...process.env, CONSOLE_DATA_DIR: emptyDir },
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in missing && missing.code).toBe(1);
    expect('stderr' in missing && missing.stderr).toMatch(/npm start/);
  });
});
