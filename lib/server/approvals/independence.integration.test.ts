// "No one person moves money or loosens the rules", against an insider: the paths an admin took alone (reverse,
// transitive, two accounts of one person, an API token's secret through a chain, disabling the other admin, the
// command line), and a randomized search: one actor performs seeded random sequences of user, role, token,
// policy and money operations with every credential they could have seen, while honest admins approve the
// harmless-looking account changes; no request of the sequence may end approved with every party one of the
// actor's accounts. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL (scripts/test.sh).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { operationApprovals, operationRequests, type Role, serviceTokens, users } from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { provideServices } from '@/lib/server/services';
import { trustRecipients } from '@/test/address-book';
import { createTestDatabase, type TestDatabase } from '@/test/db';
import { acceptFromMailbox } from '@/test/invitations';
import { newPerson, signedIn as signedInAs, withSecondFactor } from '@/test/people';
import { testSandboxOptions } from '@/test/sandbox';
import { provideTestServices, TEST_ENCRYPTION_KEY } from '@/test/services';

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
// Nobody signs in with a password here: a cheap stand-in for bcrypt (cost 12, about 250 ms a hash) keeps thousands
// of accounts affordable.
vi.mock('@/lib/server/passwords', async (original) => ({
  ...(await original<typeof import('@/lib/server/passwords')>()),
  hashPassword: async (password: string) => `test:${password}`,
}));

const { findUserById } = await import('@/lib/server/users');
const { getApprovalEngine } = await import('@/lib/server/approvals');
const { bootstrapAdmin } = await import('./admin-quorum');
const { addUserAction, changeUserRoleAction, disableUserAction, enableUserAction } = await import(
  '@/lib/actions/users'
);
const { approveRequestAction } = await import('@/lib/actions/approvals');
const { updatePolicyAction, setFreezeAction } = await import('@/lib/actions/policy');
const { requestServiceTokenAction, revealServiceTokenAction } = await import('@/lib/actions/service-tokens');

const dataDir = mkdtempSync(path.join(tmpdir(), 'independence-'));
let t: TestDatabase;
let sandbox: Sandbox;
let wallet: SandboxCredentials['wallets'][number];
let usdc: { id: string; symbol: string; decimals: number };

const NOT_INDEPENDENT = /^Your decision cannot count as a second person’s: /;
const FINAL = ['PENDING_APPROVAL', 'REJECTED', 'CANCELLED', 'EXPIRED'];

beforeAll(async () => {
  t = await createTestDatabase();
  sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir, { seed: 'independence-test' }));
  // Invitations land in the sandbox mailbox under dataDir: an address the attacker asked for is one they read.
  await provideTestServices(t.handle, sandbox, { dataDir });
  wallet = (await sandbox.credentials()).wallets[0]!;
  usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  // The withdrawals here pay an address book entry past its cooling-off (the destination policy).
  await trustRecipients(t.db, wallet.id, ['0x00000000000000000000000000000000000000aa']);
}, 60_000);

afterAll(async () => {
  provideServices(undefined);
  await sandbox?.stop();
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const unique = (prefix: string) => `${prefix}-${crypto.randomUUID()}@example.com`;

const signedIn = (user: { id: string; email: string; name: string; role: string }) => signedInAs(t.db, user);

/** An account nobody in the console controls (the seed, the command-line bootstrap). */
const root = (prefix: string, role: Role): Promise<Person> =>
  newPerson(t.db, { email: unique(prefix), name: prefix, role });

const as = (p: Person) => {
  state.user = p;
};
const approve = (p: Person, requestId: string) => {
  as(p);
  return withSecondFactor(t.db, p, () => approveRequestAction({ requestId }));
};
const requestIdOf = (result: { ok: boolean; data?: unknown; error?: string }): string => {
  expect(result).toMatchObject({ ok: true, data: { kind: 'requested' } });
  return (result.data as { id: string }).id;
};
const statusOf = async (id: string) =>
  (await t.db.select().from(operationRequests).where(eq(operationRequests.id, id)))[0]?.status;

function withdrawal(amount = '0.01') {
  return {
    source: { kind: 'master' as const },
    items: [
      {
        assetId: usdc.id,
        symbol: usdc.symbol,
        decimals: usdc.decimals,
        address: '0x00000000000000000000000000000000000000aa',
        amount,
      },
    ],
  };
}

/**
 * The attacker's one path to a second account now that no credential passes through the console: `by` asks for a
 * user at an address `by` controls, `approver` approves, and `by` reads the invitation in that mailbox, chooses the
 * password (and enrols the authenticator app) and signs in as the new user.
 */
async function addThrough(by: Person, approver: Person, role: Role): Promise<Person> {
  as(by);
  const email = unique(`by-${by.name}`);
  const id = requestIdOf(await addUserAction({ email, name: `${role}-of-${by.name}`, role }));
  expect(await approve(approver, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
  return signedIn(await acceptFromMailbox(t.db, TEST_ENCRYPTION_KEY, dataDir, email));
}

async function tokenThrough(by: Person, approver: Person, name: string) {
  as(by);
  const id = requestIdOf(
    await requestServiceTokenAction({
      name,
      scopes: ['withdrawals:request'],
      walletIds: [wallet.id],
      dailyCapUsd: '1000000',
      minApprovals: 1,
      allowedCidrs: '',
      rateLimitPerMinute: 60,
      webhookUrl: '',
      expiresInDays: 30,
    }),
  );
  expect(await approve(approver, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
  as(by);
  expect(await revealServiceTokenAction({ requestId: id })).toMatchObject({ ok: true });
  const [token] = await t.db.select().from(serviceTokens).where(eq(serviceTokens.name, name));
  return { id: `token:${token!.id}`, email: `token ${name}`, role: 'token' };
}

describe('the paths one admin took alone', () => {
  let a: Person;
  let b: Person;
  let finance: Person;

  beforeAll(async () => {
    a = await root('attacker', 'admin');
    b = await root('honest', 'admin');
    finance = await root('finance', 'finance');
  });

  it('reverse: a user the admin asked for (at a mailbox they read) never approves the admin’s withdrawal, nor the admin theirs', async () => {
    const f = await addThrough(a, b, 'finance');
    const engine = await getApprovalEngine();
    const byF = await engine.create(f, 'withdraw', wallet.id, withdrawal());
    if (!byF.ok) throw new Error(byF.error);
    expect(await approve(a, byF.data.id)).toMatchObject({
      ok: false,
      error: expect.stringMatching(NOT_INDEPENDENT),
    });
    const byA = await engine.create(a, 'withdraw', wallet.id, withdrawal());
    if (!byA.ok) throw new Error(byA.error);
    expect(await approve(f, byA.data.id)).toMatchObject({
      ok: false,
      error: expect.stringMatching(NOT_INDEPENDENT),
    });
    expect([await statusOf(byF.data.id), await statusOf(byA.data.id)]).toEqual([
      'PENDING_APPROVAL',
      'PENDING_APPROVAL',
    ]);
    // An independent person may.
    expect(await approve(finance, byF.data.id)).toMatchObject({ ok: true });
  });

  it('transitive: an admin asked for by an admin the attacker asked for never approves the attacker’s requests', async () => {
    const x = await addThrough(a, b, 'admin');
    // As X, A asks for Y; A approves (A is independent of X? No: A controls X, so a third admin must).
    as(x);
    const yEmail = unique('y');
    const id = requestIdOf(await addUserAction({ email: yEmail, name: 'Y', role: 'admin' }));
    expect(await approve(a, id)).toMatchObject({ ok: false, error: expect.stringMatching(NOT_INDEPENDENT) });
    expect(await approve(b, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    // X asked for Y at a mailbox X (that is, A) reads.
    const y = await signedIn(await acceptFromMailbox(t.db, TEST_ENCRYPTION_KEY, dataDir, yEmail));
    as(a);
    const policy = requestIdOf(
      await updatePolicyAction({
        operationType: 'retry',
        approvals: '1',
        thresholdUsd: '',
        expiryMinutes: '45',
      }),
    );
    const refused = await approve(y, policy);
    expect(refused).toMatchObject({ ok: false, status: 403 });
    expect(refused.ok ? '' : refused.error).toMatch(/attacker-.*\(the requester\) controls your account/);
    expect(await statusOf(policy)).toBe('PENDING_APPROVAL');
  });

  it('two accounts of one person: the admin asks for two finance users, and one never approves the other', async () => {
    const f1 = await addThrough(a, b, 'finance');
    const f2 = await addThrough(a, b, 'finance');
    const engine = await getApprovalEngine();
    const made = await engine.create(f1, 'withdraw', wallet.id, withdrawal());
    if (!made.ok) throw new Error(made.error);
    expect(await approve(f2, made.data.id)).toMatchObject({
      ok: false,
      error: expect.stringMatching(NOT_INDEPENDENT),
    });
    expect(await statusOf(made.data.id)).toBe('PENDING_APPROVAL');
  });

  it('an API token’s secret through a chain: nobody the holder asked for approves the token’s requests', async () => {
    const token = await tokenThrough(a, b, `chain-${crypto.randomUUID()}`);
    const deputy = await addThrough(a, b, 'finance');
    const engine = await getApprovalEngine();
    const made = await engine.create(token, 'withdraw', wallet.id, withdrawal());
    if (!made.ok) throw new Error(made.error);
    expect(await approve(deputy, made.data.id)).toMatchObject({ ok: false, status: 403 });
    expect(await approve(a, made.data.id)).toMatchObject({ ok: false, status: 403 });
    expect(await statusOf(made.data.id)).toBe('PENDING_APPROVAL');
    expect(await approve(finance, made.data.id)).toMatchObject({ ok: true });
  });

  it('disabling the other admin is refused while it would leave too few independent admins, else a request the others decide; adding an admin is never lone', async () => {
    // a and b are the only independent admins (everyone else a asked for): disabling b would leave one.
    as(a);
    expect(await disableUserAction({ userId: b.id })).toEqual({
      ok: false,
      error: expect.stringMatching(/^This would leave 1 independent admin; the approval policy needs 2/),
    });
    // With a third independent admin, it is a request: never the requester's to approve, carried out by another.
    const c = await root('third', 'admin');
    as(a);
    const id = requestIdOf(await disableUserAction({ userId: b.id }));
    expect((await findUserById(t.db, b.id))?.disabledAt).toBeNull();
    expect(await approve(a, id)).toMatchObject({ ok: false, status: 403 });
    expect(await approve(c, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
    expect((await findUserById(t.db, b.id))?.disabledAt).not.toBeNull();
    as(a);
    expect(await approve(c, requestIdOf(await enableUserAction({ userId: b.id })))).toMatchObject({
      ok: true,
    });
    b = await signedIn((await findUserById(t.db, b.id))!);
    // Adding an admin is a request too, and the command line refuses once the console has its admins.
    as(a);
    requestIdOf(await addUserAction({ email: unique('deputy'), name: 'Deputy', role: 'admin' }));
    expect(
      await bootstrapAdmin(t.db, { email: unique('cli-deputy'), name: 'D', role: 'admin' }),
    ).toMatchObject({
      ok: false,
    });
  });
});

/** Seeded generator (mulberry32): the same seed, the same sequence. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let r = s;
    r = Math.imul(r ^ (r >>> 15), r | 1);
    r ^= r + Math.imul(r ^ (r >>> 7), r | 61);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const SEQUENCES = Number(process.env.INDEPENDENCE_SEQUENCES ?? 200);
const STEPS = 50;
const HARMLESS = ['userCreate', 'userRole', 'userEnable', 'userDisable', 'serviceTokenCreate'];

describe('one insider with every credential they could have seen', () => {
  it(`never completes a money request or a configuration change with only their own accounts (${SEQUENCES} seeded sequences of ${STEPS} steps)`, async () => {
    const engine = await getApprovalEngine();
    // Held approved requests are never sent: the property is about approval, and the sandbox's funds stay put.
    const keeper = await root('keeper', 'admin');
    as(keeper);
    expect(await setFreezeAction({ enabled: true })).toMatchObject({ ok: true });
    let refusals = 0;
    let completed = 0;

    for (let seq = 0; seq < SEQUENCES; seq++) {
      const seed = 1000 + seq;
      const rand = random(seed);
      const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
      const log: string[] = [];
      const honest = [await root(`h1-${seq}`, 'admin'), await root(`h2-${seq}`, 'admin')];
      const actor = await root(`actor-${seq}`, 'admin');
      // Everything the actor can act as: their own account, accounts they asked for at a mailbox they read (every
      // invitation their requests sent), tokens whose secret they were shown, and so on through those accounts.
      const people: Person[] = [actor];
      const tokens: Array<{ id: string; email: string; role: string }> = [];
      const theirs = () => new Set([...people.map((p) => p.id), ...tokens.map((x) => x.id)]);
      const requests: Array<{ id: string; kind: string; by: string; email?: string }> = [];
      const read = new Set<string>();
      const filed = (result: { ok: boolean; data?: unknown }, kind: string, by: string, email?: string) => {
        const data = result.data as { kind?: string; id?: string } | undefined;
        if (result.ok && data?.id) requests.push({ id: data.id, kind, by, ...(email ? { email } : {}) });
      };

      for (let step = 0; step < STEPS; step++) {
        const me = pick(people);
        const roll = rand();
        if (roll < 0.15) {
          const role = pick(['admin', 'finance'] as const);
          as(me);
          const email = unique(`s${seq}`);
          filed(await addUserAction({ email, name: `u${step}`, role }), 'userCreate', me.id, email);
          log.push(`${me.name} asks for a ${role}`);
        } else if (roll < 0.22) {
          const target = pick([...people, ...honest]);
          const role = pick(['admin', 'finance', 'viewer'] as const);
          as(me);
          filed(await changeUserRoleAction({ userId: target.id, role }), 'userRole', me.id);
          log.push(`${me.name} asks ${target.name} to be ${role}`);
        } else if (roll < 0.27) {
          const target = pick([...people, ...honest]);
          as(me);
          filed(await disableUserAction({ userId: target.id }), 'userDisable', me.id);
          as(me);
          filed(await enableUserAction({ userId: target.id }), 'userEnable', me.id);
          log.push(`${me.name} disables and re-enables ${target.name}`);
        } else if (roll < 0.33) {
          as(me);
          filed(
            await requestServiceTokenAction({
              name: `t-${crypto.randomUUID()}`,
              scopes: ['withdrawals:request'],
              walletIds: [wallet.id],
              dailyCapUsd: '1000000',
              minApprovals: 1,
              allowedCidrs: '',
              rateLimitPerMinute: 60,
              webhookUrl: '',
              expiresInDays: 30,
            }),
            'serviceTokenCreate',
            me.id,
          );
          log.push(`${me.name} asks for a token`);
        } else if (roll < 0.4) {
          as(me);
          filed(
            await updatePolicyAction({
              operationType: 'withdraw',
              approvals: '1',
              thresholdUsd: '',
              expiryMinutes: '60',
            }),
            'policyEdit',
            me.id,
          );
          log.push(`${me.name} asks to loosen the withdrawal policy`);
        } else if (roll < 0.52) {
          const who = tokens.length && rand() < 0.4 ? pick(tokens) : me;
          const made = await engine.create(who, 'withdraw', wallet.id, withdrawal());
          if (made.ok) requests.push({ id: made.data.id, kind: 'withdraw', by: who.id });
          log.push(`${who.email} requests a withdrawal`);
        } else if (roll < 0.8) {
          // The actor approves one of the sequence's requests with any account they hold.
          const mine = requests.filter((r) => theirs().has(r.by));
          if (mine.length) {
            const target = pick(mine);
            const result = await approve(me, target.id);
            if (!result.ok && NOT_INDEPENDENT.test(result.error)) refusals++;
            log.push(`${me.name} approves ${target.kind} ${target.id}: ${result.ok ? 'ok' : result.error}`);
          }
        } else if (roll < 0.9) {
          // An honest admin approves a harmless-looking account change.
          const harmless = requests.filter((r) => HARMLESS.includes(r.kind));
          if (harmless.length) {
            const target = pick(harmless);
            const h = pick(honest);
            await approve(h, target.id);
            log.push(`${h.name} approves ${target.kind} ${target.id}`);
          }
        } else {
          // The actor reads every credential their requests produced: the invitations in the mailboxes they
          // chose, the tokens' secrets.
          for (const r of requests.filter(
            (x) => x.kind === 'userCreate' || x.kind === 'serviceTokenCreate',
          )) {
            const asker = people.find((p) => p.id === r.by);
            if (!asker || (await statusOf(r.id)) !== 'SUCCESS') continue;
            as(asker);
            if (r.kind === 'userCreate' && r.email) {
              if (read.has(r.email)) continue;
              read.add(r.email);
              people.push(
                await signedIn(await acceptFromMailbox(t.db, TEST_ENCRYPTION_KEY, dataDir, r.email)),
              );
              log.push(`${asker.name} reads the invitation of ${r.email}`);
            } else if ((await revealServiceTokenAction({ requestId: r.id })).ok) {
              const [token] = await t.db
                .select()
                .from(serviceTokens)
                .where(
                  eq(
                    serviceTokens.id,
                    ((await engine.view(r.id))?.request.result as { tokenId?: string })?.tokenId ??
                      crypto.randomUUID(),
                  ),
                );
              if (token)
                tokens.push({ id: `token:${token.id}`, email: `token ${token.name}`, role: 'token' });
              log.push(`${asker.name} reads a token's secret`);
            }
          }
        }
      }

      // The property: every request of the sequence that got past approval had someone outside the actor's reach.
      const mineNow = theirs();
      for (const r of requests) {
        const status = await statusOf(r.id);
        if (!status || FINAL.includes(status)) continue;
        completed++;
        const approvers = await t.db
          .select({ id: operationApprovals.approverId })
          .from(operationApprovals)
          .where(eq(operationApprovals.requestId, r.id));
        const parties = [r.by, ...approvers.map((x) => x.id)];
        if (parties.every((p) => mineNow.has(p)))
          throw new Error(
            `seed ${seed}: ${r.kind} ${r.id} reached ${status} with only the actor's accounts\n${log.join('\n')}`,
          );
      }
      // The sequence's people leave, so the next sequence starts among its own (and alerts reach only them).
      await t.db
        .update(users)
        .set({ disabledAt: new Date() })
        .where(and(isNull(users.disabledAt), ne(users.id, keeper.id)));
    }
    // The search reached the interesting places: the actor tried their own accounts, and honest approvals let
    // some of their requests through.
    expect(refusals).toBeGreaterThan(SEQUENCES);
    expect(completed).toBeGreaterThan(0);
  }, 900_000);
});
