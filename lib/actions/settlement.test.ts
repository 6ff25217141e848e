// Auto-settlement actions against the real sandbox: the rule form's errors come back keyed as the form names
// its fields, and each change is a request that reaches the service only when a second admin approves it,
// audited with the rule the service stored.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, operationRequests } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { newPerson, withSecondFactor } from '@/test/people';
import { testSandboxOptions } from '@/test/sandbox';

type Person = {
  id: string;
  email: string;
  name: string;
  role: string;
  mustChangePassword: boolean;
  sessionId: string;
};
const state = vi.hoisted(() => ({ user: null as null | Person }));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { connectSandboxWallets, createCustodyConnections } = await import('@/lib/server/wallets');
const { createAddressRuleAction, setWalletSettlementAction, updateAddressRuleAction } = await import(
  './settlement'
);
const { approveRequestAction } = await import('./approvals');

const dataDir = mkdtempSync(path.join(tmpdir(), 'settlement-actions-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
let admin: Person;
let admin2: Person;

/** An admin whose session proved its second factor just now (these changes ask for it). */
const signedInAdmin = (email: string): Promise<Person> =>
  newPerson(t.db, { email, name: email, role: 'admin' });

beforeAll(async () => {
  t = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir));
  const base = {
    config: {
      encryptionKey: Buffer.alloc(32, 9),
      sandboxMode: true,
      env: {
        CUSTODY_READ_BUDGET_MS: 8000,
        CUSTODY_WRITE_TIMEOUT_MS: 15000,
        UNKNOWN_OUTCOME_WINDOW_MS: 600_000,
      },
    },
    database: t.handle,
    sandbox,
  } as unknown as ConsoleServices;
  const services = { ...base, custody: createCustodyConnections(base) };
  provideServices(services);
  await connectSandboxWallets(services);
  [wallet] = (await sandbox.credentials()).wallets as [SandboxCredentials['wallets'][number]];
  // The rule's destination is an address book entry past its cooling-off (the destination policy is on).
  await trustRecipients(t.db, wallet.id, [rule.destinationAddress]);
  admin = await signedInAdmin('settlement-admin@example.com');
  admin2 = await signedInAdmin('settlement-admin2@example.com');
  state.user = admin;
}, 120_000);

afterAll(async () => {
  provideServices(undefined);
  await sandbox.stop();
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The changes the console made at the service once approved, in its own name. */
const changes = (action: string) =>
  t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.outcome, 'success')));

/** The rules the service holds for an address, read straight from the sandbox. */
async function sandboxRules(addressId: string) {
  const response = await sandbox.fetch(
    `http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/addresses/${addressId}/auto-settlements/rules`,
    { headers: { 'x-api-key': wallet.apiKey } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: Array<{ id: string; name: string; slippageTolerance: string }> })
    .data;
}

/** The request id of a `requested` outcome; fails the test otherwise. */
function requestIdOf(result: { ok: boolean; data?: unknown; error?: string }): string {
  expect(result).toMatchObject({ ok: true, data: { kind: 'requested' } });
  return (result.data as { id: string }).id;
}

/** The second admin approves; the requester is signed in again afterwards. */
async function approvedByAdmin2(requestId: string) {
  state.user = admin2;
  try {
    return await withSecondFactor(t.db, admin2, () => approveRequestAction({ requestId }));
  } finally {
    state.user = admin;
  }
}

const requestCount = async () => (await t.db.select().from(operationRequests)).length;

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
  it('keys rule errors as the form names its fields, and files nothing', async () => {
    const address = wallet.addresses[0]!;
    const before = await requestCount();
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
    expect(await requestCount()).toBe(before);
  });

  it('creates and updates an address rule only when a second admin approves, audited with the stored rule', async () => {
    const address = wallet.addresses[0]!;
    const rulesBefore = await sandboxRules(address.id);
    const created = requestIdOf(
      await createAddressRuleAction({ walletId: wallet.id, addressId: address.id, rule }),
    );
    expect(await sandboxRules(address.id)).toEqual(rulesBefore);
    expect(await approvedByAdmin2(created)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
    const stored = (await sandboxRules(address.id)).filter((r) => r.name === 'USDC onward');
    expect(stored).toHaveLength(1);
    const ruleId = stored[0]!.id;

    const updated = requestIdOf(
      await updateAddressRuleAction({
        walletId: wallet.id,
        addressId: address.id,
        ruleId,
        rule: { ...rule, slippageTolerance: '0.75' },
      }),
    );
    expect((await sandboxRules(address.id)).find((r) => r.id === ruleId)?.slippageTolerance).toBe('-1');
    expect(await approvedByAdmin2(updated)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
    expect((await sandboxRules(address.id)).find((r) => r.id === ruleId)?.slippageTolerance).toBe('0.75');

    const [create] = await changes('settlement.rule_create');
    expect(create?.target).toBe(ruleId);
    expect(create?.input).toMatchObject({
      addressId: address.id,
      name: 'USDC onward',
      requestedBy: admin.email,
      destination: {
        address: '0x000000000000000000000000000000000000dEaD',
        asset: 'USDC',
        blockchain: 'ethereum',
      },
    });
    const [update] = await changes('settlement.rule_update');
    expect(update?.target).toBe(ruleId);
    expect(update?.input).toMatchObject({ slippageTolerance: '0.75', requestedBy: admin.email });
  });

  it('holds a rule to the wallet’s own assets and blockchain, refusing the rest at the field', async () => {
    const address = wallet.addresses[0]!;
    const before = await requestCount();
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
    // Nothing was filed, so nothing can reach the service.
    expect(await requestCount()).toBe(before);
    const listed = await sandboxRules(address.id);
    const stored = JSON.stringify(listed);
    for (const refused of ['NOPE', '<b>', 'A999', 'solana', 'drop table', 'DOGE'])
      expect(stored).not.toContain(refused);
  });

  it('switches the wallet-level auto-settlement only when a second admin approves', async () => {
    const read = async () => {
      const response = await sandbox.fetch(
        `http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/auto-settlements`,
        { headers: { 'x-api-key': wallet.apiKey } },
      );
      return ((await response.json()) as { data: { isActive: boolean } }).data.isActive;
    };
    const before = await read();
    const off = requestIdOf(await setWalletSettlementAction({ walletId: wallet.id, isActive: !before }));
    expect(await read()).toBe(before);
    expect(await approvedByAdmin2(off)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
    expect(await read()).toBe(!before);
    const log = await changes('settlement.wallet_toggle');
    expect(log.map((e) => [e.target, e.input.isActive, e.input.requestedBy])).toEqual([
      [wallet.id, !before, admin.email],
    ]);
  });

  it('refuses to switch auto-settlement on while an active wallet rule pays outside the address book', async () => {
    const response = await sandbox.fetch(
      `http://sandbox.internal/sandbox/v1/wallets/${wallet.id}/auto-settlements`,
      { headers: { 'x-api-key': wallet.apiKey } },
    );
    const settlement = (
      (await response.json()) as {
        data: { isActive: boolean; rules: Array<{ isActive: boolean; destination: { address: string } }> };
      }
    ).data;
    if (settlement.isActive)
      await approvedByAdmin2(
        requestIdOf(await setWalletSettlementAction({ walletId: wallet.id, isActive: false })),
      );
    const destination = settlement.rules.find((r) => r.isActive)!.destination.address;
    const before = await requestCount();
    const refused = await setWalletSettlementAction({ walletId: wallet.id, isActive: true });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error).toContain(
      `in force once auto-settlement is on: ${destination} is not in this wallet's address book`,
    );
    expect(await requestCount()).toBe(before);
    // Once the destination is an entry past its cooling-off, the switch is asked for.
    await trustRecipients(t.db, wallet.id, [destination]);
    const id = requestIdOf(await setWalletSettlementAction({ walletId: wallet.id, isActive: true }));
    expect(await approvedByAdmin2(id)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
  });
});
