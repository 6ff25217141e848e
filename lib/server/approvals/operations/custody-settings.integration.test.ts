// The custody service's settings that direct money, through the approval engine against the embedded sandbox:
// an auto-settlement rule, the wallet's auto-settlement switch, the whitelist and beneficiaries change at the
// service only when a second admin approves, never by the requester's own approval, and exactly once. The
// insider's settlement redirect (a rule with minimum 0 to an address of their choosing) forwards nothing
// until someone else approves it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BeneficiaryDeleteReview,
  SettlementRuleReview,
  WhitelistAddReview,
} from '@/lib/approvals/custody-settings';
import { decryptSecret, encryptSecret } from '@/lib/crypto/aead';
import { type CustodyClient, createCustodyClient } from '@/lib/custody';
import { auditLog, operationRequests, users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { setDestinationPolicy } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { sandboxConnection, TEST_SANDBOX_BASE_URL, testSandboxOptions } from '@/test/sandbox';
import { createApprovalEngine, type EngineActor } from '../engine';
import type { ConfigurationServices } from './types';
import { privateKeyBinding } from './whitelist';

const dataDir = mkdtempSync(path.join(tmpdir(), 'custody-settings-'));
const KEY = Buffer.alloc(32, 3);
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let client: CustodyClient;
let admin: EngineActor;
let admin2: EngineActor;
let admin3: EngineActor;
let finance: EngineActor;

const ATTACKER = '0x000000000000000000000000000000000000a77a';

// Sealing as the console does it, so a private key given with a whitelisting reaches the service.
const configuration = {
  seal: (plaintext: string, binding: string) => encryptSecret(plaintext, KEY, binding),
  open: (sealed: string, binding: string) => decryptSecret(sealed, KEY, binding),
} as unknown as ConfigurationServices;

const engine = () =>
  createApprovalEngine({
    db: database.db,
    connectionFor: async (walletId) => sandboxConnection(sandbox, creds, walletId),
    configuration,
  });

async function addUser(email: string, role: string): Promise<EngineActor> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email, role: role as never, passwordHash: 'not-a-real-hash' })
    .returning();
  return { id: row!.id, email, role };
}

/** One admin's request: created, and refused to its requester and to finance. */
async function requested(kind: string, payload: Record<string, unknown>) {
  const e = engine();
  const created = await e.create(admin, kind, wallet.id, payload);
  if (!created.ok) throw new Error(created.error);
  const id = created.data.id;
  expect(created.data.requiredApprovals).toBe(1);
  expect(await e.approve(admin, id)).toMatchObject({ ok: false, status: 403 });
  expect(await e.approve(finance, id)).toMatchObject({ ok: false, status: 403 });
  return id;
}

async function approvedBySecondAdmin(id: string) {
  const approved = await engine().approve(admin2, id);
  expect(approved).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
  // A third approval, a resubmission: nothing is sent again.
  expect((await engine().approve(admin3, id)).ok).toBe(false);
  expect((await engine().resubmit(admin3, id)).ok).toBe(false);
}

const requestRow = async (id: string) =>
  (await database.db.select().from(operationRequests).where(eq(operationRequests.id, id)))[0]!;

const floatAddress = (n: number) => wallet.addresses.find((a) => a.name === `Operating float ${n}`)!;
const usdc = () => wallet.assets.find((a) => a.symbol === 'USDC')!;

const rulesOf = async (addressId: string) =>
  (await client.addressRules.list({ walletId: wallet.id, addressId })).data;

const whitelisted = async () =>
  (await client.wallets.listAddresses({ walletId: wallet.id, type: 'EXTERNAL', limit: 100 })).data.filter(
    (a) => a.isActive !== false,
  );

async function deposit(addressId: string, amount: string) {
  const response = await sandbox.fetch(`${TEST_SANDBOX_BASE_URL}/control/deposits`, {
    method: 'POST',
    headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ addressId, assetId: usdc().id, amount }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

/** The address's transactions as the service lists them (#3). */
const transactionsOf = async (addressId: string) =>
  (await client.addresses.listTransactions({ walletId: wallet.id, addressId })).data;

const forwardedTo = (txs: Awaited<ReturnType<typeof transactionsOf>>, address: string) =>
  txs.filter((t) => t.type !== 'DEPOSIT' && t.recipientAddress.toLowerCase() === address.toLowerCase());

const attackRule = {
  name: 'Forward every USDC',
  isActive: true,
  order: 'RECOMMENDED',
  slippageTolerance: '-1',
  source: { assets: ['USDC'], blockchain: 'ethereum', minAmount: '0', maxAmount: '-1' },
  destination: { address: getAddress(ATTACKER), asset: 'USDC', blockchain: 'ethereum' },
};

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox(
    testSandboxOptions(database.handle, dataDir, { seed: 'custody-settings-test' }),
  );
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  client = createCustodyClient(sandboxConnection(sandbox, creds, wallet.id)!);
  admin = await addUser('admin@example.com', 'admin');
  admin2 = await addUser('admin2@example.com', 'admin');
  admin3 = await addUser('admin3@example.com', 'admin');
  finance = await addUser('finance@example.com', 'finance');
  // The second admin's approval is the gate under test here, for destinations outside the book too: the
  // destination policy, a gate of its own (destination-policy.integration.test.ts), is off.
  await setDestinationPolicy(database.db, false);
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('auto-settlement rules', () => {
  it('the settlement redirect (minimum 0, the insider’s destination) forwards nothing until a second admin approves', async () => {
    const float = floatAddress(1);
    const id = await requested('settlementRule', { addressId: float.id, ruleId: null, rule: attackRule });

    // The approver sees what the rule does, and why to look twice.
    const review = (await requestRow(id)).review as SettlementRuleReview;
    expect(review.kind).toBe('settlementRule');
    expect(review.before).toBeNull();
    expect(review.after.destination).toEqual({
      address: getAddress(ATTACKER),
      bookName: null,
      bookSource: null,
    });
    expect(review.after.minAmount).toBe('0 USDC');
    expect(review.warnings.join('\n')).toContain('is not in the address book');
    expect(review.warnings.join('\n')).toContain('Minimum 0: every matching deposit');

    // Not in force: the service has no such rule, and a customer's 123 USDC stays where it was paid.
    expect((await rulesOf(float.id)).map((r) => r.destination.address.toLowerCase())).not.toContain(ATTACKER);
    const before = await deposit(float.id, '123');
    await sandbox.settleAll();
    const settled = await transactionsOf(float.id);
    expect(settled.find((t) => t.id === before)?.status).toBe('SUCCESS');
    expect(forwardedTo(settled, ATTACKER)).toEqual([]);

    await approvedBySecondAdmin(id);
    const rules = (await rulesOf(float.id)).filter((r) => r.destination.address.toLowerCase() === ATTACKER);
    expect(rules).toHaveLength(1);
    expect(rules[0]).toMatchObject({ name: 'Forward every USDC', source: { minAmount: '0' } });

    // In force from the approval on: the next deposit is forwarded, the one before it never is.
    const after = await deposit(float.id, '7');
    await sandbox.settleAll();
    expect(forwardedTo(await transactionsOf(float.id), ATTACKER)).toHaveLength(1);
    const [forwarded] = forwardedTo(await transactionsOf(float.id), ATTACKER);
    expect(forwarded?.metadata).toMatchObject({ depositId: after });
    expect(forwarded?.amount).toBe('7');

    // The change itself is audited in the console's name, naming who asked for it.
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'settlement.rule_create'), eq(auditLog.target, rules[0]!.id)));
    expect(entry).toMatchObject({ actorEmail: 'system', outcome: 'success' });
    expect(entry?.input).toMatchObject({ requestedBy: admin.email, request: id, walletId: wallet.id });
  }, 60_000);

  it('a rule change shows the rule in force beside the proposed one, and changes it once when approved', async () => {
    const customer = wallet.addresses.find((a) => a.name === 'Customer 002')!;
    const [current, ...others] = await rulesOf(customer.id);
    if (!current) throw new Error('the sandbox seeds a rule on this address');
    // A beneficiary the whitelist does not name: the review names the destination by it.
    const external = new Set((await whitelisted()).map((a) => a.address.toLowerCase()));
    const beneficiary = (await client.beneficiaries.list({ walletId: wallet.id, limit: 100 })).data.find(
      (b) => !external.has(b.address.toLowerCase()),
    )!;
    const proposed = {
      name: current.name,
      isActive: current.isActive,
      order: current.order,
      slippageTolerance: current.slippageTolerance,
      source: { ...current.source, minAmount: '-1' },
      destination: { ...current.destination, address: getAddress(beneficiary.address) },
    };
    const id = await requested('settlementRule', {
      addressId: customer.id,
      ruleId: current.id,
      rule: proposed,
    });

    const review = (await requestRow(id)).review as SettlementRuleReview;
    expect(review.before?.destination.address).toBe(getAddress(current.destination.address));
    expect(review.after.destination).toMatchObject({ bookName: beneficiary.name, bookSource: 'beneficiary' });
    const row = (field: string) => review.rows.find((r) => r.field === field)!;
    expect(row('destination')).toMatchObject({ changed: true });
    expect(row('minAmount')).toMatchObject({ after: 'no minimum', changed: true });
    expect(row('name')).toMatchObject({ before: current.name, after: current.name, changed: false });
    expect(review.warnings.join('\n')).toContain(
      `The destination changes from ${getAddress(current.destination.address)} to ${getAddress(beneficiary.address)}`,
    );
    expect(review.warnings.join('\n')).toContain('No minimum: every matching deposit');

    // Unchanged until approved.
    expect((await rulesOf(customer.id)).find((r) => r.id === current.id)).toEqual(current);
    await approvedBySecondAdmin(id);
    const after = await rulesOf(customer.id);
    // Changed in place: no rule added.
    expect(after).toHaveLength(others.length + 1);
    const changed = after.find((r) => r.id === current.id);
    expect(changed?.destination.address.toLowerCase()).toBe(beneficiary.address.toLowerCase());
    expect(changed?.source.minAmount).toBe('-1');
  }, 60_000);

  it('switches the wallet’s auto-settlement only when a second admin approves', async () => {
    const before = (await client.autoSettlement.get({ walletId: wallet.id })).data.isActive;
    const id = await requested('settlementToggle', { isActive: !before });
    expect((await client.autoSettlement.get({ walletId: wallet.id })).data.isActive).toBe(before);
    await approvedBySecondAdmin(id);
    expect((await client.autoSettlement.get({ walletId: wallet.id })).data.isActive).toBe(!before);
    expect((await requestRow(id)).result).toMatchObject({ kind: 'settlementToggle' });
  });
});

describe('the whitelist', () => {
  const privateKey = generatePrivateKey();
  const address = privateKeyToAccount(privateKey).address;

  it('whitelists an address (with its sealed private key) only when a second admin approves, once', async () => {
    const id = await requested('whitelistAdd', {
      address,
      name: 'OTC desk',
      disableAutoSweep: false,
      enableGaslessWithdraw: false,
      showPrivateKey: false,
      privateKeySealed: configuration.seal(privateKey, privateKeyBinding(wallet.id, address)),
    });
    const stored = await requestRow(id);
    // The key never sits in the request in clear.
    expect(JSON.stringify(stored.payload)).not.toContain(privateKey.slice(2));
    const review = stored.review as WhitelistAddReview;
    expect(review).toMatchObject({ kind: 'whitelistAdd', name: 'OTC desk', privateKeyGiven: true });
    expect(review.address.address).toBe(address);
    expect(review.warnings.join('\n')).toContain('labelled “Whitelisted (service)”');

    expect((await whitelisted()).map((a) => a.address.toLowerCase())).not.toContain(address.toLowerCase());
    await approvedBySecondAdmin(id);
    // The service checks that the key belongs to the address: it accepted it, and lists the address once.
    const listed = (await whitelisted()).filter((a) => a.address.toLowerCase() === address.toLowerCase());
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ type: 'EXTERNAL', name: 'OTC desk' });
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'whitelist.add'), eq(auditLog.target, listed[0]!.id)));
    expect(entry?.input).toMatchObject({ privateKeyGiven: true, requestedBy: admin.email });
    expect(JSON.stringify(entry?.input)).not.toContain(privateKey.slice(2));
  });

  it('removes a whitelisted address only when a second admin approves; a refusal upstream can be sent again', async () => {
    const target = (await whitelisted()).find((a) => a.address.toLowerCase() === address.toLowerCase())!;
    const id = await requested('whitelistRemove', { addressId: target.id });
    expect((await whitelisted()).map((a) => a.id)).toContain(target.id);

    // The service does not offer the removal just now: nothing changes, and the request can be sent again.
    const faults = (body: unknown) =>
      sandbox.fetch(`${TEST_SANDBOX_BASE_URL}/control/faults`, {
        method: 'POST',
        headers: { 'x-api-key': wallet.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await faults({ specOnly: true });
    try {
      expect(await engine().approve(admin2, id)).toMatchObject({
        ok: true,
        data: { status: 'SUBMIT_FAILED' },
      });
    } finally {
      await faults({ specOnly: false });
    }
    expect((await requestRow(id)).lastError).toContain('does not offer removing whitelisted addresses');
    expect((await whitelisted()).map((a) => a.id)).toContain(target.id);
    expect(await engine().resubmit(admin, id)).toMatchObject({ ok: false, status: 403 });
    expect(await engine().resubmit(admin2, id)).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
    expect((await whitelisted()).map((a) => a.id)).not.toContain(target.id);
    expect((await engine().resubmit(admin3, id)).ok).toBe(false);
  });

  it('refuses to file the removal of an address that is not whitelisted', async () => {
    const internal = wallet.addresses.find((a) => a.type === 'INTERNAL')!;
    const refused = await engine().create(admin, 'whitelistRemove', wallet.id, { addressId: internal.id });
    expect(refused).toMatchObject({
      ok: false,
      error: expect.stringContaining('Only whitelisted (external)'),
    });
  });
});

describe('beneficiaries', () => {
  it('deletes a beneficiary only when a second admin approves, once, and keeps who was deleted', async () => {
    const listed = async () => (await client.beneficiaries.list({ walletId: wallet.id, limit: 100 })).data;
    const [beneficiary] = await listed();
    if (!beneficiary) throw new Error('the sandbox seeds beneficiaries');
    const id = await requested('beneficiaryDelete', { beneficiaryId: beneficiary.id });
    const review = (await requestRow(id)).review as BeneficiaryDeleteReview;
    expect(review.beneficiary).toMatchObject({ id: beneficiary.id, name: beneficiary.name });
    expect(review.beneficiary.address?.toLowerCase()).toBe(beneficiary.address.toLowerCase());

    expect((await listed()).map((b) => b.id)).toContain(beneficiary.id);
    await approvedBySecondAdmin(id);
    expect((await listed()).map((b) => b.id)).not.toContain(beneficiary.id);
    const entries = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'beneficiary.delete'), eq(auditLog.target, beneficiary.id)));
    expect(entries).toHaveLength(1);
    expect(entries[0]?.input).toMatchObject({
      walletId: wallet.id,
      name: beneficiary.name,
      address: beneficiary.address,
      requestedBy: admin.email,
    });

    // Asking again for one already deleted is refused before anyone is asked to approve it.
    const again = await engine().create(admin, 'beneficiaryDelete', wallet.id, {
      beneficiaryId: beneficiary.id,
    });
    expect(again).toMatchObject({ ok: false, error: expect.stringContaining('not listed') });
  });
});
