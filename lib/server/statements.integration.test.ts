// Statements against the real sandbox: its signed webhooks reach the receiver and are stored, the wallet moves
// money (deposits, a sweep, a swap, a withdrawal, their fees), and the statement balances; a transaction changed
// in the service's database after its webhook shows as a difference naming it; the file's hash is audited.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CustodyClient, createCustodyClient } from '@/lib/custody';
import { auditLog, schema } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { sandboxTransactions } from '@/lib/sandbox/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { verifyAuditChain } from './audit';
import { runMonthlyStatements } from './statement-schedule';
import {
  auditedStatementHashes,
  auditStatementFile,
  loadStatements,
  STATEMENT_AUDIT_ACTION,
  sha256Hex,
  statementCsv,
} from './statements';

const HEADER = 'x-blockradar-signature';
vi.mock('./runtime', async () => {
  const { currentServices, currentDb } = await import('./services');
  return { getRuntime: currentServices, getDb: currentDb };
});

let testDb: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let dataDir: string;
let client: CustodyClient;
let wallet: SandboxCredentials['wallets'][number];
let withdrawalId = '';
const today = new Date().toISOString().slice(0, 10);
const ACTOR = { actorId: null, actorEmail: 'system', role: 'system', requestId: null };

async function control(body: Record<string, unknown>) {
  const res = await sandbox.handle(
    new Request('http://x/sandbox/control/deposits', {
      method: 'POST',
      headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = mkdtempSync(path.join(tmpdir(), 'statements-it-'));
  const encryptionKey = Buffer.alloc(32, 9);
  const { POST } = await import('@/app/api/webhooks/custody/route');
  sandbox = await createSandbox({
    db: testDb.db,
    dbKind: testDb.handle.kind,
    encryptionKey,
    seed: 'statements-integration',
    blockTimeMs: 1000,
    webhookUrl: 'http://console.test/api/webhooks/custody',
    webhookRetryMs: [10],
    signatureHeader: HEADER,
    baseUrl: 'http://console.test/sandbox',
    dataDir,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => POST(new Request(input, init))) as typeof fetch,
  });
  const runtime = {
    config: { encryptionKey, sandboxMode: true, env: { WEBHOOK_SIGNATURE_HEADER: HEADER } },
    database: testDb.handle,
    sandbox,
  };
  const { connectSandboxWallets, createCustodyConnections } = await import('./wallets');
  const services = { ...runtime, custody: createCustodyConnections(runtime as never) };
  (await import('./services')).provideServices(services as never);
  await connectSandboxWallets(services as never);
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  client = createCustodyClient({
    baseUrl: 'http://sandbox.internal/sandbox',
    fetch: sandbox.fetch,
    apiKey: wallet.apiKey,
  });

  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  const usdt = wallet.assets.find((a) => a.symbol === 'USDT')!;
  const sweeping = wallet.addresses.find((a) => a.type === 'INTERNAL' && !a.disableAutoSweep)!;
  const holding = wallet.addresses.find((a) => a.type === 'INTERNAL' && a.disableAutoSweep)!;
  // A deposit swept to the master wallet (its gas in the native asset), and one that stays on its address.
  await control({ addressId: sweeping.id, assetId: usdc.id, amount: '50' });
  await control({ addressId: holding.id, assetId: usdc.id, amount: '40' });
  await sandbox.drain();
  await client.swaps.execute(
    { walletId: wallet.id, addressId: holding.id },
    { amount: '10', fromAssetId: usdc.assetId, toAssetId: usdt.assetId, order: 'NO_SLIPPAGE' },
  );
  const withdrawal = await client.withdraw.fromMaster(
    { walletId: wallet.id },
    { assets: [{ id: usdc.id, address: '0x000000000000000000000000000000000000dEaD', amount: '5' }] },
  );
  withdrawalId = withdrawal.data.id;
  await sandbox.drain();
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  await testDb?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('month-end statements with the sandbox', () => {
  it('balances a period with deposits, a swap, a withdrawal and fees to zero difference', async () => {
    const statements = await loadStatements(testDb.db, client, {
      walletId: wallet.id,
      from: today,
      to: today,
    });
    const usdc = statements.find((s) => s.asset.symbol === 'USDC')!;
    expect(usdc).toMatchObject({
      deposits: '90',
      withdrawals: '5',
      swapsOut: '10',
      fees: '0',
      difference: '0',
      differences: [],
      scope: 'wallet',
    });
    expect(usdc.opening.source).toBe('derived');
    expect(usdc.lines.every((l) => l.source === 'signed')).toBe(true);
    const usdt = statements.find((s) => s.asset.symbol === 'USDT')!;
    expect(usdt).toMatchObject({ swapsIn: '10', difference: '0' });
    const native = statements.find((s) => s.asset.native)!;
    // Sweep, swap and withdrawal gas, all paid in the native asset.
    expect(Number(native.fees)).toBeGreaterThan(0);
    expect(native.difference).toBe('0');
    for (const s of statements) {
      expect(s.difference).toBe('0');
      // The closing is held against its parts.
      const scale = 10n ** BigInt(s.asset.decimals);
      const toUnits = (v: string) => {
        const [whole = '0', frac = ''] = v.replace('-', '').split('.');
        const n = BigInt(whole) * scale + BigInt(frac.padEnd(s.asset.decimals, '0') || '0');
        return v.startsWith('-') ? -n : n;
      };
      const parts =
        toUnits(s.opening.amount!) +
        toUnits(s.deposits) +
        toUnits(s.swapsIn) -
        toUnits(s.withdrawals) -
        toUnits(s.swapsOut) -
        toUnits(s.fees);
      expect(parts).toBe(toUnits(s.closing.amount!));
      expect(s.lines.reduce((sum, l) => sum + toUnits(l.net), 0n)).toBe(
        toUnits(s.closing.amount!) - toUnits(s.opening.amount!),
      );
    }
  });

  it('writes the file hash to the audit chain, and the next period opens at the audited closing', async () => {
    const [usdc] = await loadStatements(testDb.db, client, {
      walletId: wallet.id,
      from: today,
      to: today,
      symbols: ['USDC'],
    });
    const csv = statementCsv(usdc!);
    // Number cells stay numbers: a withdrawal's negative net is written as a number a spreadsheet adds up.
    const outgoing = usdc!.lines.find((l) => String(l.net).startsWith('-'));
    expect(outgoing).toBeDefined();
    expect(csv).toContain(`,${outgoing!.net},`);
    expect(csv).not.toMatch(/'-\d/);
    const sha256 = await auditStatementFile(testDb.db, ACTOR, usdc!, csv);
    expect(sha256).toBe(sha256Hex(csv));
    const [entry] = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, STATEMENT_AUDIT_ACTION), eq(auditLog.target, wallet.id)));
    expect(entry?.input).toMatchObject({ asset: 'USDC', from: today, to: today, sha256 });
    expect(await verifyAuditChain(testDb.db)).toMatchObject({ ok: true });
    expect(await auditedStatementHashes(testDb.db, wallet.id, sha256)).toHaveLength(1);
    // Re-generated from the same figures, the file is the same bytes.
    const [again] = await loadStatements(testDb.db, client, {
      walletId: wallet.id,
      from: today,
      to: today,
      symbols: ['USDC'],
    });
    expect(sha256Hex(statementCsv(again!))).toBe(sha256);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const [next] = await loadStatements(testDb.db, client, {
      walletId: wallet.id,
      from: tomorrow,
      to: tomorrow,
      symbols: ['USDC'],
    });
    expect(next?.opening).toMatchObject({ source: 'recorded', amount: usdc!.closing.amount });
    expect(next?.difference).toBe('0');
  });

  it('shows a transaction changed after its webhook as a difference with both values', async () => {
    // The service's own record of the withdrawal is altered: 5 becomes 6; the ledger and the signed copy say 5.
    await testDb.db
      .update(sandboxTransactions)
      .set({ amount: '6', body: sql`${sandboxTransactions.body} || '{"amount":"6"}'::jsonb` })
      .where(eq(sandboxTransactions.id, withdrawalId));
    const [usdc] = await loadStatements(testDb.db, client, {
      walletId: wallet.id,
      from: today,
      to: today,
      symbols: ['USDC'],
    });
    expect(usdc?.withdrawals).toBe('5');
    expect(usdc?.difference).toBe('1');
    expect(usdc?.differences).toEqual([
      expect.objectContaining({
        transactionId: withdrawalId,
        listed: '-6',
        signed: '-5',
        amount: '1',
        what: expect.stringContaining('amount listed 6, signed 5'),
      }),
    ]);
  });

  it("generates last month's statements on the first day of a month, once, and not on other days", async () => {
    const today = new Date();
    const firstOfNext = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1, 0, 30));
    const secondOfNext = new Date(firstOfNext.getTime() + 86_400_000);
    const thisMonth = {
      from: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)).toISOString().slice(0, 10),
      to: new Date(firstOfNext.getTime() - 86_400_000).toISOString().slice(0, 10),
    };
    const { currentServices } = await import('./services');
    const services = await currentServices();
    const parts = (now: Date) => ({
      db: testDb.db,
      dbKind: testDb.handle.kind,
      clientFor: (walletId: string) => services.custody.clientFor(walletId),
      now: () => now,
    });
    expect(await runMonthlyStatements(parts(secondOfNext))).toBe(0);
    const generated = await runMonthlyStatements(parts(firstOfNext));
    expect(generated).toBeGreaterThanOrEqual(wallet.assets.length);
    const entries = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, STATEMENT_AUDIT_ACTION), eq(auditLog.target, wallet.id)));
    const scheduled = entries.filter(
      (e) =>
        e.actorEmail === 'statement-schedule' && (e.input as Record<string, unknown>).from === thisMonth.from,
    );
    expect(scheduled.map((e) => (e.input as Record<string, unknown>).asset).sort()).toEqual(
      [...new Set(wallet.assets.map((a) => a.symbol))].sort(),
    );
    expect(scheduled[0]?.input).toMatchObject({
      to: thisMonth.to,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // The check runs every hour: the same day again generates nothing new.
    expect(await runMonthlyStatements(parts(firstOfNext))).toBe(0);
    expect(await verifyAuditChain(testDb.db)).toMatchObject({ ok: true });
  });

  it('two consoles on one database, both checking on the first of a month, write each statement once', async () => {
    const today = new Date();
    // The first of the month after next: next month's statements, which no other case writes.
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 2, 1, 0, 30));
    const { currentServices } = await import('./services');
    const services = await currentServices();
    // On PostgreSQL a second console is another database object over other connections; a PGlite data directory
    // has one console, whose two checks at once share the database object.
    const handle = testDb.handle;
    const second =
      handle.kind === 'postgres'
        ? (await import('drizzle-orm/node-postgres')).drizzle({
            client: handle.client as import('pg').Pool,
            schema,
          })
        : testDb.db;
    const parts = (db: typeof testDb.db) => ({
      db,
      dbKind: handle.kind,
      clientFor: (walletId: string) => services.custody.clientFor(walletId),
      now: () => first,
    });
    const [a, b] = await Promise.all([
      runMonthlyStatements(parts(testDb.db)),
      runMonthlyStatements(parts(second as typeof testDb.db)),
    ]);
    const nextFrom = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1))
      .toISOString()
      .slice(0, 10);
    const nextMonth = (
      await testDb.db.select().from(auditLog).where(eq(auditLog.action, STATEMENT_AUDIT_ACTION))
    ).filter(
      (e) => e.actorEmail === 'statement-schedule' && (e.input as Record<string, unknown>).from === nextFrom,
    );
    // Each asset's statement of this wallet once, whichever console wrote it; every wallet's in all.
    expect(
      nextMonth
        .filter((e) => e.target === wallet.id)
        .map((e) => (e.input as Record<string, unknown>).asset)
        .sort(),
    ).toEqual([...new Set(wallet.assets.map((x) => x.symbol))].sort());
    expect(
      new Set(nextMonth.map((e) => `${e.target} ${(e.input as Record<string, unknown>).asset}`)).size,
    ).toBe(nextMonth.length);
    expect(a + b).toBe(nextMonth.length);
    expect(await verifyAuditChain(testDb.db)).toMatchObject({ ok: true });
  });
});
