// Deleting a beneficiary against the sandbox and a real database: only admins may, the service stops listing
// it, and the audit log keeps what was deleted (the page lists deleted beneficiaries from it).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCustodyClient } from '@/lib/custody';
import { auditLog, type Role } from '@/lib/db/schema';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { createTestSandbox, TEST_SANDBOX_BASE_URL, type TestSandbox } from '@/test/sandbox';

const state = vi.hoisted(() => ({
  user: null as null | { id: string; email: string; name: string; role: string; mustChangePassword: boolean },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { provideServices } = await import('@/lib/server/services');
const { auditEntriesWith } = await import('@/lib/server/audit');
const { WALLET_NOT_CONNECTED } = await import('./define-action');
const { deleteBeneficiaryAction } = await import('./beneficiaries');

let t: TestDatabase;
let sb: TestSandbox;

function clientFor(walletId: string) {
  const wallet = sb.credentials.wallets.find((w) => w.id === walletId);
  if (!wallet) return null;
  return createCustodyClient({
    baseUrl: TEST_SANDBOX_BASE_URL,
    fetch: sb.sandbox.fetch,
    apiKey: wallet.apiKey,
  });
}

beforeAll(async () => {
  [t, sb] = await Promise.all([createTestDatabase(), createTestSandbox()]);
  provideServices({
    database: { db: t.db },
    custody: { clientFor: async (walletId: string) => clientFor(walletId) },
  } as never);
});
afterAll(async () => {
  provideServices(undefined);
  await Promise.all([t?.close(), sb?.close()]);
});

function signedInAs(role: Role) {
  state.user = {
    id: crypto.randomUUID(),
    email: `${role}@example.com`,
    name: role,
    role,
    mustChangePassword: false,
  };
}

async function listed(walletId: string) {
  const client = clientFor(walletId);
  if (!client) throw new Error('unknown wallet');
  return (await client.beneficiaries.list({ walletId })).data;
}

const entriesFor = (target: string) => t.db.select().from(auditLog).where(eq(auditLog.target, target));

describe('deleteBeneficiaryAction', () => {
  beforeEach(() => {
    state.user = null;
  });

  it('deletes for an admin and audits what was deleted, where the page reads it', async () => {
    const wallet = sb.credentials.wallets[0]!;
    const [beneficiary] = await listed(wallet.id);
    if (!beneficiary) throw new Error('the sandbox seeds beneficiaries');
    signedInAs('admin');

    const result = await deleteBeneficiaryAction({ walletId: wallet.id, beneficiaryId: beneficiary.id });
    expect(result.ok).toBe(true);
    expect((await listed(wallet.id)).map((b) => b.id)).not.toContain(beneficiary.id);
    const deleted = await auditEntriesWith(t.db, 'beneficiary.delete', 'walletId', wallet.id);
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({
      target: beneficiary.id,
      outcome: 'success',
      input: { walletId: wallet.id, name: beneficiary.name, address: beneficiary.address },
    });
    expect(typeof deleted[0]?.input.deletedAt).toBe('string');
  });

  it('refuses other roles before calling the service, and audits the denial', async () => {
    const wallet = sb.credentials.wallets[0]!;
    const [beneficiary] = await listed(wallet.id);
    if (!beneficiary) throw new Error('the sandbox seeds beneficiaries');
    signedInAs('finance');

    const result = await deleteBeneficiaryAction({ walletId: wallet.id, beneficiaryId: beneficiary.id });
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect((await listed(wallet.id)).map((b) => b.id)).toContain(beneficiary.id);
    const denials = await t.db.select().from(auditLog).where(eq(auditLog.outcome, 'denied'));
    expect(denials.map((e) => [e.action, e.role])).toContainEqual(['beneficiary.delete', 'finance']);
  });

  it('refuses a wallet the console does not hold, and says why a deletion the service refuses failed', async () => {
    signedInAs('admin');
    expect(await deleteBeneficiaryAction({ walletId: 'no-such-wallet', beneficiaryId: 'b-1' })).toEqual({
      ok: false,
      error: WALLET_NOT_CONNECTED,
      status: 404,
    });

    const wallet = sb.credentials.wallets[0]!;
    const missing = crypto.randomUUID();
    const result = await deleteBeneficiaryAction({ walletId: wallet.id, beneficiaryId: missing });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).not.toMatch(/Something went wrong/);
    expect((await entriesFor(missing)).map((e) => [e.outcome, e.input])).toEqual([
      ['failed', { walletId: wallet.id }],
    ]);
  });
});
