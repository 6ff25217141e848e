// Contract reads and write requests against the sandbox and a real database: a read runs at once and is
// audited with its failed-call count; a write request is refused to roles without the permission before
// anything reaches the service; a tampered call is refused at its position in the batch.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCustodyClient } from '@/lib/custody';
import { auditLog, type Role } from '@/lib/db/schema';
import { ERC20_PRESET } from '@/lib/validation/abi';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { createTestSandbox, TEST_SANDBOX_BASE_URL, type TestSandbox } from '@/test/sandbox';

const state = vi.hoisted(() => ({
  user: null as null | { id: string; email: string; name: string; role: string; mustChangePassword: boolean },
}));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { provideServices } = await import('@/lib/server/services');
const { WALLET_NOT_CONNECTED } = await import('./define-action');
const { previewContractRequestAction, readContractCallsAction, readTokenUnitsAction } = await import(
  './contracts'
);

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

const method = (name: string) => {
  const fn = ERC20_PRESET.find((f) => f.name === name);
  if (!fn) throw new Error(`no ${name} in the preset`);
  return fn;
};

function tokenOf() {
  const wallet = sb.credentials.wallets.find((w) => w.assets.some((a) => a.symbol === 'USDC'));
  const usdc = wallet?.assets.find((a) => a.symbol === 'USDC');
  if (!wallet || !usdc) throw new Error('the sandbox seeds USDC');
  return { wallet, usdc };
}

describe('contract actions', () => {
  beforeEach(() => {
    state.user = null;
  });

  it('reads decimals() at once and audits the read with its failed-call count', async () => {
    const { wallet, usdc } = tokenOf();
    signedInAs('finance');
    const result = await readContractCallsAction({
      walletId: wallet.id,
      calls: [{ address: usdc.address, method: 'decimals', abi: [method('decimals')], parameters: [] }],
    });
    expect(result).toMatchObject({ ok: true, data: { results: [{ index: 0, value: '6' }], errors: [] } });
    const entries = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'contract.read'), eq(auditLog.target, wallet.id)));
    expect(entries.map((e) => [e.outcome, e.input])).toContainEqual([
      'success',
      { calls: [`${usdc.address}.decimals`], failed: 0 },
    ]);
  });

  it('refuses a call whose parameters do not fit its ABI, keyed by its position', async () => {
    const { wallet, usdc } = tokenOf();
    signedInAs('admin');
    const result = await readContractCallsAction({
      walletId: wallet.id,
      calls: [
        { address: usdc.address, method: 'decimals', abi: [method('decimals')], parameters: [] },
        { address: usdc.address, method: 'balanceOf', abi: [method('balanceOf')], parameters: ['0x1234'] },
      ],
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(Object.keys(result.fieldErrors ?? {})).toEqual(['calls.1']);
    expect(result.error).toMatch(/^Call 2: /);
  });

  it('refuses a write request to a role without the permission, and a wallet the console does not hold', async () => {
    const { wallet, usdc } = tokenOf();
    const request = {
      walletId: wallet.id,
      kind: 'contractWrite',
      addressId: wallet.addresses[0]?.id ?? 'none',
      calls: [{ address: usdc.address, method: 'decimals', abi: [method('decimals')], parameters: [] }],
    };
    signedInAs('support');
    expect(await previewContractRequestAction(request)).toMatchObject({
      ok: false,
      error: 'You do not have permission to do this.',
      status: 403,
    });
    signedInAs('admin');
    expect(await readTokenUnitsAction({ walletId: 'no-such-wallet', address: usdc.address })).toEqual({
      ok: false,
      error: WALLET_NOT_CONNECTED,
      status: 404,
    });
    expect(await readTokenUnitsAction({ walletId: wallet.id, address: usdc.address })).toMatchObject({
      ok: true,
      data: { decimals: 6, symbol: 'USDC' },
    });
  });
});
