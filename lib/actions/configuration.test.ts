// Configuration changes as requests a second admin approves, against a real database and the real sandbox:
// each is carried out once when the last approval lands, never by the requester's own approval, never by
// someone the requester added or promoted; secrets stay sealed and out of reviews, events and the audit log.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  auditLog,
  operationEvents,
  operationRequests,
  type Role,
  users,
  walletConnections,
} from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { type ConsoleServices, provideServices } from '@/lib/server/services';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { acceptFromMailbox, linkTokenFor } from '@/test/invitations';
import { signedIn as signedInAs, withSecondFactor } from '@/test/people';
import { testSandboxOptions } from '@/test/sandbox';

type Person = {
  id: string;
  email: string;
  name: string;
  role: string;
  mustChangePassword: boolean;
  sessionId?: string;
};
const state = vi.hoisted(() => ({ user: null as null | Person }));

vi.mock('@/lib/server/auth', () => ({ auth: async () => (state.user ? { user: state.user } : null) }));
vi.mock('next/cache', () => ({ revalidatePath: () => undefined }));

const { checkCredentials, createUser, findUserByEmail } = await import('@/lib/server/users');
const { checkInvitation } = await import('@/lib/server/invitations');
const { enrollTotp, verifyTotp, totpCodeAt } = await import('@/lib/server/factors/totp');
const { listFactors } = await import('@/lib/server/factors/store');
const { connectSandboxWallets, createCustodyConnections, openApiKey } = await import('@/lib/server/wallets');
const { getApprovalEngine } = await import('@/lib/server/approvals');
const { requestDetail } = await import('@/lib/server/approvals/dto');
const { addUserAction, changeUserRoleAction, enableUserAction, disableUserAction, requestResetLinkAction } =
  await import('./users');
const { updatePolicyAction, setFreezeAction } = await import('./policy');
const { connectWalletAction, removeWalletAction, rotateWalletKeyAction } = await import(
  './wallet-connections'
);
const { approveRequestAction } = await import('./approvals');

const dataDir = mkdtempSync(path.join(tmpdir(), 'configuration-requests-'));
const KEY = Buffer.alloc(32, 7);
let t: TestDatabase;
let sandbox: Sandbox;
let services: ConsoleServices;
let wallet: SandboxCredentials['wallets'][number];

beforeAll(async () => {
  t = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir));
  const base = {
    config: {
      encryptionKey: KEY,
      sandboxMode: true,
      // Invitations go to the sandbox mailbox here (no SMTP_URL): the test reads them as the person would.
      dataDir,
      origin: 'https://console.example.com',
      env: {
        CUSTODY_READ_BUDGET_MS: 8000,
        CUSTODY_WRITE_TIMEOUT_MS: 15000,
        UNKNOWN_OUTCOME_WINDOW_MS: 600_000,
      },
    },
    database: t.handle,
    sandbox,
  } as unknown as ConsoleServices;
  services = { ...base, custody: createCustodyConnections(base) };
  provideServices(services);
  await connectSandboxWallets(services);
  [wallet] = (await sandbox.credentials()).wallets as [SandboxCredentials['wallets'][number]];
  // Withdrawals in these tests pay an address book entry past its cooling-off (the destination policy).
  for (const w of (await sandbox.credentials()).wallets)
    await trustRecipients(t.db, w.id, ['0x00000000000000000000000000000000000000aa']);
}, 120_000);

afterAll(async () => {
  provideServices(undefined);
  await sandbox?.stop();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function person(prefix: string, role: Role): Promise<Person> {
  const created = await createUser(t.db, {
    email: `${prefix}-${crypto.randomUUID()}@example.com`,
    name: prefix,
    role,
  });
  if (!created.ok) throw new Error(created.error);
  return signedIn(created.user);
}

const signedIn = (user: { id: string; email: string; name: string; role: string }) => signedInAs(t.db, user);

const as = (p: Person) => {
  state.user = p;
};

const row = async (id: string) =>
  (await t.db.select().from(operationRequests).where(eq(operationRequests.id, id)))[0];

const approveAs = async (p: Person, requestId: string) => {
  as(p);
  return withSecondFactor(t.db, p, () => approveRequestAction({ requestId }));
};

/** The request id of a `requested` outcome; fails the test otherwise. */
function requestIdOf(result: { ok: boolean; data?: unknown; error?: string }): string {
  expect(result).toMatchObject({ ok: true, data: { kind: 'requested' } });
  return (result.data as { id: string }).id;
}

const actorOf = (p: Person) => ({ id: p.id, email: p.email, role: p.role });

/** The engine's refusal of someone not independent of the requester or of an earlier approver. */
const NOT_INDEPENDENT = expect.stringMatching(/^Your decision cannot count as a second person’s: /);

describe('no lone-admin door', () => {
  // Runs first: the database holds one admin only.
  let first: Person;

  it('files the only admin’s new admin as a request nobody can approve, and the command line adds admins until the quorum stands', async () => {
    const { adminQuorum, bootstrapAdmin } = await import('@/lib/server/approvals/admin-quorum');
    first = await person('first-admin', 'admin');
    expect(await adminQuorum(t.db)).toEqual({ independent: 1, needed: 2, short: true });
    as(first);
    const email = `second-${crypto.randomUUID()}@example.com`;
    const id = requestIdOf(await addUserAction({ email, name: 'Second', role: 'admin' }));
    expect(await findUserByEmail(t.db, email)).toBeUndefined();
    expect(await approveAs(first, id)).toMatchObject({ ok: false, status: 403 });

    // The command line adds admins only, and only while the quorum is short.
    const finance = await bootstrapAdmin(t.db, {
      email: `cli-fin-${crypto.randomUUID()}@example.com`,
      name: 'F',
      role: 'finance',
    });
    expect(finance).toEqual({ ok: false, error: expect.stringMatching(/adds admins only/) });
    const cli = await bootstrapAdmin(t.db, {
      email: `cli-${crypto.randomUUID()}@example.com`,
      name: 'C',
      role: 'admin',
    });
    if (!cli.ok) throw new Error(cli.error);
    expect(await adminQuorum(t.db)).toEqual({ independent: 2, needed: 2, short: false });
    const more = await bootstrapAdmin(t.db, {
      email: `cli-more-${crypto.randomUUID()}@example.com`,
      name: 'M',
      role: 'admin',
    });
    expect(more).toEqual({ ok: false, error: expect.stringMatching(/has its 2 independent admins/) });

    // The admin the command line added is independent of the first: their approval carries the request.
    const second = await signedIn(cli.user);
    expect(await approveAs(second, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    expect((await findUserByEmail(t.db, email))?.role).toBe('admin');
  });

  it('refuses disabling or demoting an admin when fewer independent admins than the policy needs would be left', async () => {
    // Two independent admins (first and the command line's) and the second admin first asked for: theirs is not
    // independent of first, so it does not count.
    const admins = await t.db.select().from(users).where(eq(users.role, 'admin'));
    const other = admins.find((u) => u.id !== first.id && u.createdBy === null)!;
    as(first);
    expect(await disableUserAction({ userId: other.id })).toEqual({
      ok: false,
      error: expect.stringMatching(/^This would leave 1 independent admin; the approval policy needs 2/),
    });
    expect(await changeUserRoleAction({ userId: other.id, role: 'viewer' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^This would leave 1 independent admin/),
    });
    expect((await findUserByEmail(t.db, other.email))?.disabledAt).toBeNull();
  });
});

describe('configuration requests', () => {
  let a: Person;
  let b: Person;
  let c: Person;
  let finance: Person;

  beforeAll(async () => {
    a = await person('admin-a', 'admin');
    b = await person('admin-b', 'admin');
    c = await person('admin-c', 'admin');
    finance = await person('fin', 'finance');
  });

  it('creates a user once on the last approval; the requester and non-admins cannot approve', async () => {
    as(a);
    const email = `new-${crypto.randomUUID()}@example.com`;
    const id = requestIdOf(await addUserAction({ email, name: 'New Person', role: 'support' }));
    expect(await findUserByEmail(t.db, email)).toBeUndefined();

    expect(await approveAs(a, id)).toMatchObject({
      ok: false,
      error: 'You cannot approve or reject your own request.',
    });
    expect(await approveAs(finance, id)).toMatchObject({ ok: false, status: 403 });
    expect(await findUserByEmail(t.db, email)).toBeUndefined();

    // Two admins approve at once: one approval carries it out, the other finds it decided.
    const [one, two] = await Promise.all([
      getApprovalEngine().then((e) => e.approve(actorOf(b), id)),
      getApprovalEngine().then((e) => e.approve(actorOf(c), id)),
    ]);
    expect([one.ok && one.data.status, two.ok && two.data.status].filter(Boolean)).toEqual(['SUCCESS']);
    const created = await t.db.select().from(users).where(eq(users.email, email));
    expect(created).toHaveLength(1);
    expect(created[0]?.createdBy).toBe(a.id);
    // No password anyone knows: the person chooses one at the link emailed to them.
    expect(created[0]?.mustChangePassword).toBe(false);
    expect(await linkTokenFor(dataDir, email)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await row(id))?.status).toBe('SUCCESS');
    const added = await t.db.select().from(auditLog).where(eq(auditLog.action, 'user.add'));
    expect(added.filter((e) => e.target === email).map((e) => e.outcome)).toEqual(['success']);
  });

  it('emails the new user their invitation: requester and approver see where it went, never the link', async () => {
    as(a);
    const email = `invited-${crypto.randomUUID()}@example.com`;
    const id = requestIdOf(await addUserAction({ email, name: 'Invited Person', role: 'viewer' }));
    expect(await approveAs(b, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    const token = await linkTokenFor(dataDir, email);
    expect((await checkInvitation(t.db, token)).ok).toBe(true);

    const engine = await getApprovalEngine();
    for (const viewer of [a, b]) {
      const detail = await requestDetail(engine, actorOf(viewer), id);
      expect(detail?.configurationResult).toMatchObject({
        kind: 'userCreate',
        invitation: { email, delivered: true },
        invitationStatus: { purpose: 'invitation', email, state: 'open', canResend: true },
      });
      expect(JSON.stringify(detail)).not.toContain(token);
    }
    // The finance person reading the request may not send it again.
    expect(
      (await requestDetail(engine, actorOf(finance), id))?.configurationResult?.invitationStatus?.canResend,
    ).toBe(false);
    const everything = JSON.stringify([
      await row(id),
      await t.db.select().from(auditLog),
      await t.db.select().from(operationEvents),
    ]);
    expect(everything).not.toContain(token);

    // Once the person used it, the page says so and offers nothing more.
    await acceptFromMailbox(t.db, KEY, dataDir, email, 'invited person chose');
    expect(
      (await requestDetail(engine, actorOf(a), id))?.configurationResult?.invitationStatus,
    ).toMatchObject({
      state: 'accepted',
      canResend: false,
    });
    expect((await checkCredentials(t.db, email, 'invited person chose')).ok).toBe(true);
  });

  it('sends a reset link only when a second admin approves; the asker gains no control over the account', async () => {
    // A finance person nobody in the console controls, with an authenticator app.
    const target = await person('reset-target', 'finance');
    const app = await enrollTotp(t.db, KEY, target, 'Old phone');
    expect(
      await verifyTotp(t.db, KEY, target.id, totpCodeAt(app.secret, Date.now()), { factorId: app.factorId }),
    ).not.toBeNull();
    const { hashPassword } = await import('@/lib/server/passwords');
    const { users: usersTable } = await import('@/lib/db/schema');
    await t.db
      .update(usersTable)
      .set({ passwordHash: await hashPassword('old password of mine') })
      .where(eq(usersTable.id, target.id));

    as(a);
    expect(await requestResetLinkAction({ userId: a.id, scope: 'password' })).toMatchObject({
      ok: false,
      error: 'Ask another admin to send you a reset link.',
    });
    expect(await requestResetLinkAction({ userId: target.id, scope: 'everything' })).toMatchObject({
      ok: false,
      error: 'Choose what the link resets',
    });
    const id = requestIdOf(
      await requestResetLinkAction({ userId: target.id, scope: 'password-and-factors' }),
    );
    expect((await row(id))?.review).toMatchObject({
      kind: 'userReset',
      scope: 'password-and-factors',
      factors: 1,
      warnings: [expect.stringMatching(/new authenticator app: check that the person asked for this/)],
    });
    // Nothing changes before the approval; the asker cannot approve it.
    expect((await checkCredentials(t.db, target.email, 'old password of mine')).ok).toBe(true);
    expect(await approveAs(a, id)).toMatchObject({ ok: false });
    expect(await approveAs(b, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });

    // At once: the old password and factor stop working; the link is in the person's mailbox only.
    expect((await checkCredentials(t.db, target.email, 'old password of mine')).ok).toBe(false);
    expect(await listFactors(t.db, target.id)).toEqual([]);
    const token = await linkTokenFor(dataDir, target.email);
    expect(await checkInvitation(t.db, token)).toMatchObject({ ok: true, needsFactor: true });
    expect(JSON.stringify([await row(id), await t.db.select().from(auditLog)])).not.toContain(token);
    const entry = (await t.db.select().from(auditLog).where(eq(auditLog.action, 'user.reset_link'))).find(
      (e) => e.target === target.email,
    );
    expect(entry?.input).toMatchObject({ scope: 'password-and-factors', invitation: 'sent' });
    await acceptFromMailbox(t.db, KEY, dataDir, target.email, 'my new password now');
    expect((await checkCredentials(t.db, target.email, 'my new password now')).ok).toBe(true);
    expect((await listFactors(t.db, target.id)).map((f) => f.confirmed)).toEqual([true]);

    // The asker never held the new credential: they still count as independent of the person.
    const source = (await sandbox.credentials()).wallets[1]!;
    const usdc = source.assets.find((x) => x.symbol === 'USDC')!;
    const engine = await getApprovalEngine();
    const made = await engine.create(actorOf(target), 'withdraw', source.id, {
      source: { kind: 'master' },
      items: [
        {
          assetId: usdc.id,
          symbol: usdc.symbol,
          decimals: usdc.decimals,
          address: '0x00000000000000000000000000000000000000aa',
          amount: '0.01',
        },
      ],
    });
    if (!made.ok) throw new Error(made.error);
    expect(await engine.approve(actorOf(a), made.data.id)).toMatchObject({ ok: true });
  });

  it('changes a role and enables a user only after a second admin approves; disabling stays immediate', async () => {
    const target = await person('target', 'viewer');
    as(a);
    const roleId = requestIdOf(await changeUserRoleAction({ userId: target.id, role: 'finance' }));
    expect((await findUserByEmail(t.db, target.email))?.role).toBe('viewer');
    expect(await approveAs(b, roleId)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    const promoted = await findUserByEmail(t.db, target.email);
    expect([promoted?.role, promoted?.roleGrantedBy]).toEqual(['finance', a.id]);

    as(a);
    expect(await disableUserAction({ userId: target.id })).toEqual({
      ok: true,
      data: { email: target.email },
    });
    expect((await findUserByEmail(t.db, target.email))?.disabledAt).not.toBeNull();
    const enableId = requestIdOf(await enableUserAction({ userId: target.id }));
    expect((await findUserByEmail(t.db, target.email))?.disabledAt).not.toBeNull();
    expect(await approveAs(c, enableId)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    expect((await findUserByEmail(t.db, target.email))?.disabledAt).toBeNull();
  });

  it('refuses users the requester added or promoted through a quorum, for every kind of request', async () => {
    // Added by a (b approved), and promoted by a (c approved).
    as(a);
    const email = `puppet-${crypto.randomUUID()}@example.com`;
    await approveAs(b, requestIdOf(await addUserAction({ email, name: 'Puppet', role: 'admin' })));
    const puppet = await signedIn((await findUserByEmail(t.db, email))!);
    const promotedUser = await person('promoted', 'viewer');
    as(a);
    await approveAs(c, requestIdOf(await changeUserRoleAction({ userId: promotedUser.id, role: 'admin' })));
    const promoted = await signedIn((await findUserByEmail(t.db, promotedUser.email))!);
    expect(promoted.role).toBe('admin');

    as(a);
    const id = requestIdOf(
      await updatePolicyAction({
        operationType: 'retry',
        approvals: '2',
        thresholdUsd: '',
        expiryMinutes: '30',
      }),
    );
    expect(await approveAs(puppet, id)).toEqual({ ok: false, error: NOT_INDEPENDENT, status: 403 });
    expect(await approveAs(promoted, id)).toEqual({ ok: false, error: NOT_INDEPENDENT, status: 403 });
    expect((await row(id))?.status).toBe('PENDING_APPROVAL');
    // Another person may; and the puppet approves other admins' requests.
    expect(await approveAs(b, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    as(b);
    const byB = requestIdOf(await enableUserAction({ userId: finance.id }));
    expect(await approveAs(puppet, byB)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
  });

  it('refuses a finance user the admin added approving the admin’s withdrawal (the reported attack)', async () => {
    as(a);
    const email = `fin-puppet-${crypto.randomUUID()}@example.com`;
    await approveAs(b, requestIdOf(await addUserAction({ email, name: 'Fin Puppet', role: 'finance' })));
    const puppet = (await findUserByEmail(t.db, email))!;
    const source = (await sandbox.credentials()).wallets[1]!;
    const usdc = source.assets.find((x) => x.symbol === 'USDC')!;
    const engine = await getApprovalEngine();
    const created = await engine.create(actorOf(a), 'withdraw', source.id, {
      source: { kind: 'master' },
      items: [
        {
          assetId: usdc.id,
          symbol: usdc.symbol,
          decimals: usdc.decimals,
          address: '0x00000000000000000000000000000000000000aa',
          amount: '0.5',
        },
      ],
    });
    if (!created.ok) throw new Error(created.error);
    expect(
      await engine.approve({ id: puppet.id, email: puppet.email, role: 'finance' }, created.data.id),
    ).toEqual({
      ok: false,
      error: NOT_INDEPENDENT,
      status: 403,
    });
    expect((await row(created.data.id))?.status).toBe('PENDING_APPROVAL');
    await engine.cancel(actorOf(a), created.data.id);
  });

  it('shows a policy change as a before/after diff and applies it only when approved', async () => {
    const engine = await getApprovalEngine();
    const before = await engine.getPolicy('withdraw');
    as(a);
    const id = requestIdOf(
      await updatePolicyAction({
        operationType: 'withdraw',
        approvals: '2',
        thresholdUsd: '5000',
        expiryMinutes: '90',
      }),
    );
    const stored = await row(id);
    expect(stored?.review).toMatchObject({
      kind: 'policyEdit',
      operationType: 'withdraw',
      before,
      after: { approvals: 2, thresholdUsd: 5000, expirySeconds: 5400 },
      diff: [
        { field: 'approvals', before: '1 approver', after: '2 approvers', changed: true },
        { field: 'thresholdUsd', before: '10,000 USD', after: '5,000 USD', changed: true },
        { field: 'expirySeconds', before: '1 day', after: '90 minutes', changed: true },
      ],
    });
    expect(await engine.getPolicy('withdraw')).toEqual(before);
    expect(await approveAs(c, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    expect(await engine.getPolicy('withdraw')).toEqual({
      approvals: 2,
      thresholdUsd: 5000,
      expirySeconds: 5400,
    });
    const [entry] = (await t.db.select().from(auditLog).where(eq(auditLog.action, 'policy.edit'))).filter(
      (e) => e.target === 'withdraw',
    );
    expect(entry?.input).toMatchObject({
      before,
      after: { approvals: 2, thresholdUsd: 5000, expirySeconds: 5400 },
    });
  });

  it('refuses a policy change whose values are the policy’s own, and files nothing', async () => {
    const engine = await getApprovalEngine();
    const current = await engine.getPolicy('swap');
    const requestsBefore = await t.db.select().from(operationRequests);
    as(a);
    const result = await updatePolicyAction({
      operationType: 'swap',
      approvals: String(current.approvals),
      thresholdUsd: current.thresholdUsd === null ? '' : String(current.thresholdUsd),
      expiryMinutes: String(current.expirySeconds / 60),
    });
    expect(result).toMatchObject({
      ok: false,
      error: 'Nothing changed: the policy already has these values.',
    });
    expect(await t.db.select().from(operationRequests)).toHaveLength(requestsBefore.length);
    expect(await engine.getPolicy('swap')).toEqual(current);
  });

  it('freezes at once and lifts the freeze only after a second admin approves', async () => {
    const engine = await getApprovalEngine();
    as(a);
    expect(await setFreezeAction({ enabled: true })).toEqual({ ok: true, data: { kind: 'frozen' } });
    expect(await engine.isFrozen()).toBe(true);
    const id = requestIdOf(await setFreezeAction({ enabled: false }));
    expect(await engine.isFrozen()).toBe(true);
    // The freeze holds money, not its own lifting.
    expect(await approveAs(b, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    expect(await engine.isFrozen()).toBe(false);
  });

  it('removes, connects and rotates a wallet only when approved; the key is sealed and never audited', async () => {
    const stored = async () =>
      (await t.db.select().from(walletConnections).where(eq(walletConnections.id, wallet.id)))[0];
    as(a);
    const removeId = requestIdOf(await removeWalletAction({ walletId: wallet.id }));
    expect(await stored()).toBeDefined();
    expect(await approveAs(b, removeId)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    expect(await stored()).toBeUndefined();

    as(a);
    const connectId = requestIdOf(
      await connectWalletAction({ walletId: wallet.id, apiKey: ` ${wallet.apiKey} ` }),
    );
    const request = await row(connectId);
    expect(request?.review).toMatchObject({
      kind: 'walletConnect',
      wallet: { id: wallet.id, name: wallet.name },
      apiKeyLast4: wallet.apiKey.slice(-4),
    });
    expect(JSON.stringify(request)).not.toContain(wallet.apiKey);
    expect(await stored()).toBeUndefined();
    const detail = await requestDetail(await getApprovalEngine(), actorOf(b), connectId);
    expect(JSON.stringify(detail)).not.toContain('apiKeySealed');
    expect(await approveAs(b, connectId)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    const connected = await stored();
    expect(connected?.apiKeyLast4).toBe(wallet.apiKey.slice(-4));
    expect(openApiKey(services, wallet.id, connected?.apiKeySealed ?? '')).toBe(wallet.apiKey);

    as(a);
    const rotateId = requestIdOf(await rotateWalletKeyAction({ walletId: wallet.id, apiKey: wallet.apiKey }));
    expect((await stored())?.previousApiKeySealed).toBeNull();
    expect(await approveAs(c, rotateId)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    expect((await stored())?.previousApiKeySealed).not.toBeNull();

    const everything = JSON.stringify([
      await t.db.select().from(auditLog),
      await t.db.select().from(operationEvents),
      await t.db.select().from(operationRequests),
    ]);
    expect(everything).not.toContain(wallet.apiKey);
    const log = (await t.db.select().from(auditLog)).filter((e) => e.target === wallet.id);
    expect(log.map((e) => [e.action, e.outcome])).toEqual([
      ['wallet.remove', 'success'],
      ['wallet.connect', 'success'],
      ['wallet.rotate_key', 'success'],
    ]);
  });
});
