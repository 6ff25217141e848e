// Deleting a beneficiary against the sandbox and a real database: only admins may ask, nothing changes at the
// service until a second admin approves, the service then stops listing it, and the audit log keeps what was
// deleted (the page lists deleted beneficiaries from it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CustodyClient, createCustodyClient } from '@/lib/custody';
import { auditLog, operationRequests, type Role } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { newPerson, withSecondFactor } from '@/test/people';
import { sandboxConnection, testSandboxOptions } from '@/test/sandbox';

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
const { auditEntriesWith } = await import('@/lib/server/audit');
const { WALLET_NOT_CONNECTED } = await import('./define-action');
const { deleteBeneficiaryAction } = await import('./beneficiaries');
const { approveRequestAction } = await import('./approvals');

const dataDir = mkdtempSync(path.join(tmpdir(), 'beneficiary-actions-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
let client: CustodyClient;
const people = {} as Record<'admin' | 'admin2' | 'finance', Person>;

/** A person whose session proved its second factor just now (these requests ask for it). */
const signedIn = (email: string, role: Role): Promise<Person> =>
  newPerson(t.db, { email, name: email, role });

beforeAll(async () => {
  t = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir));
  const base = {
    config: {
      encryptionKey: Buffer.alloc(32, 4),
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
  const creds = await sandbox.credentials();
  wallet = creds.wallets[0]!;
  client = createCustodyClient(sandboxConnection(sandbox, creds, wallet.id)!);
  people.admin = await signedIn('admin@example.com', 'admin');
  people.admin2 = await signedIn('admin2@example.com', 'admin');
  people.finance = await signedIn('finance@example.com', 'finance');
}, 120_000);

afterAll(async () => {
  provideServices(undefined);
  await sandbox?.stop();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const as = (who: keyof typeof people) => {
  state.user = people[who];
};

const listed = async () => (await client.beneficiaries.list({ walletId: wallet.id, limit: 100 })).data;
const requestCount = async () => (await t.db.select().from(operationRequests)).length;

describe('deleteBeneficiaryAction', () => {
  it('files a request for an admin; the second admin’s approval deletes it, audited where the page reads it', async () => {
    const [beneficiary] = await listed();
    if (!beneficiary) throw new Error('the sandbox seeds beneficiaries');
    as('admin');
    const result = await deleteBeneficiaryAction({ walletId: wallet.id, beneficiaryId: beneficiary.id });
    expect(result).toMatchObject({ ok: true, data: { kind: 'requested' } });
    if (!result.ok) return;
    expect(result.data.summary).toContain(beneficiary.name);
    expect((await listed()).map((b) => b.id)).toContain(beneficiary.id);

    // The requester cannot approve it; the second admin can.
    const approve = () =>
      withSecondFactor(t.db, state.user!, () => approveRequestAction({ requestId: result.data.id }));
    expect(await approve()).toMatchObject({ ok: false, status: 403 });
    as('admin2');
    expect(await approve()).toMatchObject({
      ok: true,
      data: { status: 'SUCCESS' },
    });
    expect((await listed()).map((b) => b.id)).not.toContain(beneficiary.id);
    const deleted = await auditEntriesWith(t.db, 'beneficiary.delete', 'walletId', wallet.id);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({
      target: beneficiary.id,
      outcome: 'success',
      input: {
        walletId: wallet.id,
        name: beneficiary.name,
        address: beneficiary.address,
        requestedBy: people.admin.email,
      },
    });
    expect(typeof deleted[0]?.input.deletedAt).toBe('string');
  });

  it('refuses other roles before anything is filed, and audits the denial', async () => {
    const [beneficiary] = await listed();
    if (!beneficiary) throw new Error('the sandbox seeds beneficiaries');
    as('finance');
    const before = await requestCount();
    const result = await deleteBeneficiaryAction({ walletId: wallet.id, beneficiaryId: beneficiary.id });
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect(await requestCount()).toBe(before);
    expect((await listed()).map((b) => b.id)).toContain(beneficiary.id);
    const denials = await t.db.select().from(auditLog).where(eq(auditLog.outcome, 'denied'));
    expect(denials.map((e) => [e.action, e.role])).toContainEqual(['beneficiaryDelete.request', 'finance']);
  });

  it('refuses a wallet the console does not hold, and a beneficiary the service does not list, filing nothing', async () => {
    as('admin');
    const before = await requestCount();
    expect(await deleteBeneficiaryAction({ walletId: 'no-such-wallet', beneficiaryId: 'b-1' })).toMatchObject(
      {
        ok: false,
        error: WALLET_NOT_CONNECTED,
      },
    );
    const result = await deleteBeneficiaryAction({ walletId: wallet.id, beneficiaryId: crypto.randomUUID() });
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringContaining('not listed by the custody service'),
    });
    expect(await requestCount()).toBe(before);
  });
});
