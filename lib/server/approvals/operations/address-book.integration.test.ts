// The address book through the approval engine against the sandbox: a second admin approves every change,
// a new entry is paid only after the cooling-off (a policy value changed through its own request), a changed
// address starts its cooling-off again, and the withdrawal review names the entry or, with the destination
// policy off, flags a look-alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TransportOptions } from '@/lib/custody';
import { addressBookEntries, users, walletConnections } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import type { WithdrawalPayload } from '@/lib/validation/withdrawals';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { testSandboxOptions } from '@/test/sandbox';
import { checkDestinations, coolingOffSeconds } from '../../address-book';
import { createApprovalEngine, type EngineActor } from '../engine';

const dataDir = mkdtempSync(path.join(tmpdir(), 'address-book-'));
let database: TestDatabase;
let sandbox: Sandbox;
let creds: SandboxCredentials;
let wallet: SandboxCredentials['wallets'][number];
let usdc: { id: string; decimals: number; symbol: string };
let admin: EngineActor;
let admin2: EngineActor;
let finance: EngineActor;

const ACME = '0x1111111111111111111111111111111111111a2b';
// Same first and last three characters as ACME after 0x, different in between.
const LOOK_ALIKE = '0x1119999999999999999999999999999999999a2b';

function connectionFor(walletId: string): Promise<TransportOptions | null> {
  const w = creds.wallets.find((x) => x.id === walletId);
  if (!w) return Promise.resolve(null);
  return Promise.resolve({
    baseUrl: 'http://sandbox.internal/sandbox',
    apiKey: w.apiKey,
    timeoutMs: 5_000,
    retries: 0,
    fetch: (url: string, init: RequestInit) => sandbox.fetch(url, init),
  });
}

const engine = () => createApprovalEngine({ db: database.db, connectionFor });

async function addUser(email: string, role: string): Promise<EngineActor> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email, role: role as never, passwordHash: 'not-a-real-hash' })
    .returning();
  return { id: row!.id, email, role };
}

const payTo = (address: string): WithdrawalPayload => ({
  source: { kind: 'master' },
  items: [{ assetId: usdc.id, symbol: usdc.symbol, decimals: usdc.decimals, address, amount: '0.5' }],
});

/** One admin requests, another approves; the console makes the change at once. */
async function throughQuorum(kind: string, payload: Record<string, unknown>) {
  const e = engine();
  const created = await e.create(admin, kind, 'console', payload);
  if (!created.ok) throw new Error(created.error);
  const approved = await e.approve(admin2, created.data.id);
  if (!approved.ok) throw new Error(approved.error);
  expect(approved.data.status).toBe('SUCCESS');
  return created.data.id;
}

const entryOf = (address: string) =>
  database.db
    .select()
    .from(addressBookEntries)
    .where(eq(addressBookEntries.addressKey, address.toLowerCase()));

beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(database.handle, dataDir, { seed: 'address-book-test' }));
  creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  const asset = wallet.assets.find((a) => a.symbol === 'USDC')!;
  usdc = { id: asset.id, decimals: asset.decimals, symbol: asset.symbol };
  admin = await addUser('admin@example.com', 'admin');
  admin2 = await addUser('admin2@example.com', 'admin');
  finance = await addUser('finance@example.com', 'finance');
  await database.db.insert(walletConnections).values({
    id: wallet.id,
    name: wallet.name,
    blockchain: 'ethereum',
    network: 'testnet',
    address: '0x00000000000000000000000000000000000000cc',
    apiKeySealed: 'v1.sealed',
    apiKeyLast4: 'abcd',
    createdBy: 'admin@example.com',
  });
}, 120_000);

afterAll(async () => {
  await sandbox?.stop();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('address book', () => {
  it('adds an entry only when a second admin approves, never the requester or finance', async () => {
    const e = engine();
    const created = await e.create(admin, 'addressBookSave', wallet.id, {
      walletId: wallet.id,
      entries: [{ name: 'Acme', address: ACME, chain: 'ethereum', tags: ['supplier'], notes: 'invoices' }],
    });
    if (!created.ok) throw new Error(created.error);
    expect(created.data.summary).toContain('Add “Acme”');
    expect(await entryOf(ACME)).toHaveLength(0);
    const own = await e.approve(admin, created.data.id);
    expect(own.ok).toBe(false);
    const notAdmin = await e.approve(finance, created.data.id);
    expect(notAdmin).toMatchObject({ ok: false, status: 403 });
    expect(await entryOf(ACME)).toHaveLength(0);
    const approved = await e.approve(admin2, created.data.id);
    expect(approved).toMatchObject({ ok: true, data: { status: 'SUCCESS' } });
    const [row] = await entryOf(ACME);
    expect(row).toMatchObject({ name: 'Acme', tags: ['supplier'], requestedBy: admin.email });
    expect(row!.approvedBy).toEqual([admin2.email]);
  });

  it('refuses a withdrawal to a new entry until the cooling-off has passed', async () => {
    expect(await coolingOffSeconds(database.db)).toBe(24 * 60 * 60);
    const refused = await engine().preview(finance, 'withdraw', wallet.id, payTo(ACME));
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error).toContain('Acme');
      expect(refused.error).toContain('can receive money from');
    }
    const creating = await engine().create(finance, 'withdraw', wallet.id, payTo(ACME));
    expect(creating.ok).toBe(false);

    // The cooling-off is a policy value: changed through its own request, approved by the second admin.
    await throughQuorum('coolingOffEdit', { coolingOffSeconds: 5 });
    expect(await coolingOffSeconds(database.db)).toBe(5);
    const problems = async () =>
      (await checkDestinations(database.db, wallet.id, [ACME], new Date())).problems;
    await vi.waitFor(async () => expect(await problems()).toEqual([]), {
      timeout: 15_000,
      interval: 250,
    });
    const preview = await engine().preview(finance, 'withdraw', wallet.id, payTo(ACME));
    if (!preview.ok) throw new Error(preview.error);
    const review = preview.data.review as { items: Array<{ book?: unknown; warnings: string[] }> };
    expect(review.items[0]!.book).toMatchObject({ name: 'Acme', source: 'console' });
    expect(review.items[0]!.warnings.join(' ')).not.toContain('Outside the address book');
  }, 30_000);

  it('refuses a look-alike of a book entry under the destination policy, and flags it when the policy is off', async () => {
    const refused = await engine().preview(finance, 'withdraw', wallet.id, payTo(LOOK_ALIKE));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error).toContain(`${LOOK_ALIKE} is not in this wallet's address book`);

    await throughQuorum('coolingOffEdit', { coolingOffSeconds: 5, destinationPolicy: false });
    const preview = await engine().preview(finance, 'withdraw', wallet.id, payTo(LOOK_ALIKE));
    if (!preview.ok) throw new Error(preview.error);
    const item = (preview.data.review as { items: Array<{ book?: unknown; warnings: string[] }> }).items[0]!;
    expect(item.book).toBeNull();
    const warnings = item.warnings.join('\n');
    expect(warnings).toContain(`Looks like ${ACME} (address book “Acme”)`);
    expect(warnings).toContain('Outside the address book');
    await throughQuorum('coolingOffEdit', { coolingOffSeconds: 5, destinationPolicy: true });
  });

  it('starts the cooling-off again when an entry’s address changes, not when its name does', async () => {
    await throughQuorum('coolingOffEdit', { coolingOffSeconds: 3600 });
    const [before] = await entryOf(ACME);
    // A row without an id whose address is in the book changes that entry (a re-imported file).
    await throughQuorum('addressBookSave', {
      walletId: wallet.id,
      entries: [{ name: 'Acme Ltd', address: ACME, chain: 'ethereum', tags: [], notes: '' }],
    });
    const [renamed] = await entryOf(ACME);
    expect(renamed).toMatchObject({ id: before!.id, name: 'Acme Ltd' });
    expect(renamed!.addressSince).toEqual(before!.addressSince);

    const moved = '0x2222222222222222222222222222222222222222';
    await throughQuorum('addressBookSave', {
      walletId: wallet.id,
      entries: [{ id: before!.id, name: 'Acme Ltd', address: moved, chain: 'ethereum', tags: [], notes: '' }],
    });
    const [changed] = await entryOf(moved);
    expect(changed!.id).toBe(before!.id);
    expect(changed!.addressSince.getTime()).toBeGreaterThan(before!.addressSince.getTime());
    const [problem] = (await checkDestinations(database.db, wallet.id, [moved], new Date())).problems;
    expect(problem?.message).toContain('Acme Ltd');
    expect(await entryOf(ACME)).toHaveLength(0);
  });

  it('shows what changes in the review, and refuses a change of an entry that is gone', async () => {
    const [entry] = await database.db.select().from(addressBookEntries).limit(1);
    const preview = await engine().preview(admin, 'addressBookSave', wallet.id, {
      walletId: wallet.id,
      entries: [
        {
          id: entry!.id,
          name: 'Acme Group',
          address: entry!.address,
          chain: 'ethereum',
          tags: [],
          notes: '',
        },
        {
          name: 'Beta',
          address: '0x3333333333333333333333333333333333333333',
          chain: 'ethereum',
          tags: [],
          notes: '',
        },
      ],
    });
    if (!preview.ok) throw new Error(preview.error);
    const review = preview.data.review as {
      entries: Array<{ name: string; before: { name: string } | null }>;
      warnings: string[];
    };
    expect(review.entries.map((r) => [r.name, r.before?.name ?? null])).toEqual([
      ['Acme Group', 'Acme Ltd'],
      ['Beta', null],
    ]);
    expect(review.warnings.join(' ')).toContain('can receive money 1 hour after approval');
    const gone = await engine().preview(admin, 'addressBookSave', wallet.id, {
      walletId: wallet.id,
      entries: [
        {
          id: '00000000-0000-4000-8000-000000000000',
          name: 'X',
          address: ACME,
          chain: 'e',
          tags: [],
          notes: '',
        },
      ],
    });
    expect(gone).toMatchObject({ ok: false, error: 'That address book entry no longer exists.' });
  });
});
