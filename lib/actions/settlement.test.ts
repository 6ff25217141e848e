// Auto-settlement actions against the real sandbox: the rule form's errors come back keyed as the form names
// its fields, and each change is audited with the rule the service stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';

const state = vi.hoisted(() => ({
  user: null as null | { id: string; email: string; name: string; role: string; mustChangePassword: boolean },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { createUser } = await import('@/lib/server/users');
const { connectSandboxWallets, createCustodyConnections } = await import('@/lib/server/wallets');
const { createAddressRuleAction, setWalletSettlementAction, updateAddressRuleAction } = await import(
  './settlement'
);

const dataDir = mkdtempSync(path.join(tmpdir(), 'settlement-actions-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
let adminEmail: string;

beforeAll(async () => {
  t = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir));
  const base = {
    config: {
      encryptionKey: Buffer.alloc(32, 9),
      sandboxMode: true,
      env: { CUSTODY_READ_BUDGET_MS: 8000, CUSTODY_WRITE_TIMEOUT_MS: 15000 },
    },
    database: t.handle,
    sandbox,
  } as unknown as ConsoleServices;
  const services = { ...base, custody: createCustodyConnections(base) };
  provideServices(services);
  await connectSandboxWallets(services);
  [wallet] = (await sandbox.credentials()).wallets as [SandboxCredentials['wallets'][number]];
  const created = await createUser(t.db, {
    email: 'settlement-admin@example.com',
    name: 'Admin',
    role: 'admin',
  });
  if (!created.ok) throw new Error(created.error);
  state.user = { ...created.user, mustChangePassword: false };
  adminEmail = created.user.email;
});

afterAll(async () => {
  provideServices(undefined);
  await sandbox.stop();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const entries = (action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, action))
    // Refused inputs are audited too; these checks read what reached the service.
    .then((rows) => rows.filter((r) => r.actorEmail === adminEmail && r.outcome !== 'invalid'));

/** The rules the service holds for an address, read straight from the sandbox. */
async function sandboxRules(addressId: string) {
  const response = await sandbox.fetch(
    `http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/addresses/${addressId}/auto-settlements/rules`,
    { headers: { 'x-api-key': wallet.apiKey } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: unknown[] }).data;
}

const rule = {
  name: 'USDC onward',
  isActive: true,
  order: 'CHEAPEST' as const,
  slippageTolerance: '-1',
  sourceAssets: ['USDC'],
  sourceBlockchain: 'ethereum',
  minAmount: '500',
  maxAmount: '-1',
  destinationBlockchain: 'ethereum',
  destinationAsset: 'USDC',
  destinationAddress: '0x000000000000000000000000000000000000dead',
};

describe('settlement actions', () => {
  it('keys rule errors as the form names its fields', async () => {
    const address = wallet.addresses[0]!;
    const result = await createAddressRuleAction({
      walletId: wallet.id,
      addressId: address.id,
      rule: { ...rule, minAmount: '10', maxAmount: '5', destinationAddress: '0xdead' },
    });
    expect(result).toEqual({
      ok: false,
      error: 'Check the highlighted fields.',
      fieldErrors: {
        minAmount: 'The minimum must not be above the maximum',
        destinationAddress: 'An EVM address has 40 characters after 0x; this one has 4.',
      },
    });
  });

  it('creates and updates an address rule, audited with the rule the service stored', async () => {
    const address = wallet.addresses[0]!;
    const created = await createAddressRuleAction({ walletId: wallet.id, addressId: address.id, rule });
    expect(created).toMatchObject({ ok: true, data: { name: 'USDC onward', order: 'CHEAPEST' } });
    if (!created.ok) return;
    const ruleId = created.data.id;
    const updated = await updateAddressRuleAction({
      walletId: wallet.id,
      addressId: address.id,
      ruleId,
      rule: { ...rule, slippageTolerance: '0.75' },
    });
    expect(updated).toMatchObject({ ok: true, data: { id: ruleId, slippageTolerance: '0.75' } });

    const [create] = await entries('settlement.rule_create');
    expect([create?.outcome, create?.target]).toEqual(['success', ruleId]);
    expect(create?.input).toMatchObject({
      addressId: address.id,
      name: 'USDC onward',
      destination: {
        address: '0x000000000000000000000000000000000000dEaD',
        asset: 'USDC',
        blockchain: 'ethereum',
      },
    });
    const [update] = await entries('settlement.rule_update');
    expect([update?.outcome, update?.target]).toEqual(['success', ruleId]);
    expect(update?.input).toMatchObject({ slippageTolerance: '0.75' });
  });

  it('holds a rule to the wallet’s own assets and blockchain, refusing the rest at the field', async () => {
    const address = wallet.addresses[0]!;
    const before = (await entries('settlement.rule_create')).filter((e) => e.outcome === 'success').length;
    const cases: Array<[Partial<typeof rule>, string, string]> = [
      [{ sourceAssets: Array.from({ length: 1000 }, (_, i) => `A${i}`) }, 'sourceAssets', 'Choose at most'],
      [{ sourceAssets: ['NOPE'] }, 'sourceAssets', 'Choose source assets among this wallet’s assets'],
      [{ sourceAssets: ['<b>USDC</b>'] }, 'sourceAssets', 'Choose source assets among this wallet’s assets'],
      [{ sourceAssets: ['USDC', 'USDC'] }, 'sourceAssets', 'Choose each source asset once'],
      [{ sourceBlockchain: 'solana' }, 'sourceBlockchain', 'Choose one of this wallet’s blockchains'],
      [
        { destinationBlockchain: "ethereum'; drop table users; --" },
        'destinationBlockchain',
        'Choose one of',
      ],
      [{ destinationAsset: 'DOGE' }, 'destinationAsset', 'Choose one of this wallet’s assets'],
      [{ name: 'rule\u0000name' }, 'name', 'Remove control characters'],
    ];
    for (const [change, field, message] of cases) {
      const result = await createAddressRuleAction({
        walletId: wallet.id,
        addressId: address.id,
        rule: { ...rule, ...change },
      });
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.fieldErrors?.[field]).toContain(message);
    }
    const after = (await entries('settlement.rule_create')).filter((e) => e.outcome === 'success').length;
    expect(after).toBe(before);
    const listed = await sandboxRules(address.id);
    const stored = JSON.stringify(listed);
    for (const refused of ['NOPE', '<b>', 'A999', 'solana', 'drop table', 'DOGE'])
      expect(stored).not.toContain(refused);
  });

  it('switches the wallet-level auto-settlement', async () => {
    const off = await setWalletSettlementAction({ walletId: wallet.id, isActive: false });
    expect(off).toEqual({ ok: true, data: { isActive: false } });
    const on = await setWalletSettlementAction({ walletId: wallet.id, isActive: true });
    expect(on).toEqual({ ok: true, data: { isActive: true } });
    const log = await entries('settlement.wallet_toggle');
    expect(log.map((e) => [e.outcome, e.target, e.input])).toEqual([
      ['success', wallet.id, { isActive: false }],
      ['success', wallet.id, { isActive: true }],
    ]);
  });
});
