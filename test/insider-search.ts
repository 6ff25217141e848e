// The insider of lib/server/approvals/independence*.integration.test.ts: a console on a test database and sandbox
// whose actions the test runs as anyone (its mocked `auth()` answers with whoever `as` named), the paths an
// insider takes to a second account or a token, and the seeded randomized search. The search's sequences are split
// over two test files so that both workers run them; each file calls this with the mocks of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { expect } from 'vitest';
import { requestAddressBookEntryAction, requestCoolingOffChangeAction } from '@/lib/actions/address-book';
import { approveRequestAction } from '@/lib/actions/approvals';
import { requestSpendingLimitRemovalAction } from '@/lib/actions/limits';
import { setFreezeAction, updatePolicyAction } from '@/lib/actions/policy';
import { requestServiceTokenAction, revealServiceTokenAction } from '@/lib/actions/service-tokens';
import {
  addUserAction,
  changeUserRoleAction,
  disableUserAction,
  enableUserAction,
  requestResetLinkAction,
} from '@/lib/actions/users';
import {
  operationApprovals,
  operationRequests,
  type Role,
  serviceTokens,
  spendingLimits,
  users,
} from '@/lib/db/schema';
import { createSandbox, type Sandbox, type SandboxCredentials } from '@/lib/sandbox';
import { getApprovalEngine } from '@/lib/server/approvals';
import { provideServices } from '@/lib/server/services';
import { trustRecipients } from './address-book';
import { createTestDatabase, type TestDatabase } from './db';
import { acceptFromMailbox } from './invitations';
import { masterWithdrawal } from './payloads';
import { newPerson, signedIn as signedInAs, type TestPerson, withSecondFactor } from './people';
import { random } from './random';
import { testSandboxOptions } from './sandbox';
import { provideTestServices, TEST_ENCRYPTION_KEY } from './services';

export type Person = TestPerson;
type Actor = { id: string; email: string; role: string };

export const NOT_INDEPENDENT = /^Your decision cannot count as a second person’s: /;
const FINAL = ['PENDING_APPROVAL', 'REJECTED', 'CANCELLED', 'EXPIRED'];

/** An API token that may request withdrawals from one wallet, as the insider asks for one. */
function tokenInput(name: string, walletId: string) {
  return {
    name,
    scopes: ['withdrawals:request' as const],
    walletIds: [walletId],
    dailyCapUsd: '1000000',
    minApprovals: 1,
    allowedCidrs: '',
    rateLimitPerMinute: 60,
    webhookUrl: '',
    expiresInDays: 30,
  };
}

/** Sequences of the search over both files (seeds 1000 on), each of STEPS random steps. */
export const SEQUENCES = Number(process.env.INDEPENDENCE_SEQUENCES ?? 200);
export const STEPS = 50;

export interface InsiderConsole {
  t: TestDatabase;
  dataDir: string;
  wallet: SandboxCredentials['wallets'][number];
  /** An account nobody in the console controls (the seed, the command-line bootstrap). */
  root(prefix: string, role: Role): Promise<Person>;
  signedIn(user: { id: string; email: string; name: string; role: string }): Promise<Person>;
  /** Runs the next actions as `p`. */
  as(p: Person): void;
  approve(p: Person, requestId: string): ReturnType<typeof approveRequestAction>;
  requestIdOf(result: { ok: boolean; data?: unknown; error?: string }): string;
  statusOf(id: string): Promise<string | undefined>;
  withdrawal(amount?: string): unknown;
  /** A spending limit in force (far above anything the search moves), for the insider to ask to remove. */
  limitId: string;
  /**
   * The attacker's one path to a second account now that no credential passes through the console: `by` asks for
   * a user at an address `by` controls, `approver` approves, and `by` reads the invitation in that mailbox, chooses
   * the password (and enrols the authenticator app) and signs in as the new user.
   */
  addThrough(by: Person, approver: Person, role: Role): Promise<Person>;
  /** `by` asks for an API token, `approver` approves, `by` is shown its secret. */
  tokenThrough(by: Person, approver: Person, name: string): Promise<Actor>;
  close(): Promise<void>;
}

const unique = (prefix: string) => `${prefix}-${crypto.randomUUID()}@example.com`;

export async function openInsiderConsole(
  actAs: (p: Person) => void,
  sandboxSeed: string,
): Promise<InsiderConsole> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'independence-'));
  const t = await createTestDatabase();
  const sandbox: Sandbox = await createSandbox(testSandboxOptions(t.handle, dataDir, { seed: sandboxSeed }));
  // Invitations land in the sandbox mailbox under dataDir: an address the attacker asked for is one they read.
  await provideTestServices(t.handle, sandbox, { dataDir });
  const wallet = (await sandbox.credentials()).wallets[0]!;
  const usdc = wallet.assets.find((a) => a.symbol === 'USDC')!;
  // The withdrawals here pay an address book entry past its cooling-off (the destination policy).
  await trustRecipients(t.db, wallet.id, ['0x00000000000000000000000000000000000000aa']);
  const [limit] = await t.db
    .insert(spendingLimits)
    .values({
      walletId: wallet.id,
      scope: 'wallet',
      windowHours: 24,
      unit: 'usd',
      limitAmount: '1000000000',
      onBreach: 'refuse',
      createdBy: 'test',
    })
    .returning({ id: spendingLimits.id });

  const signedIn = (user: { id: string; email: string; name: string; role: string }) =>
    signedInAs(t.db, user);
  const approve = (p: Person, requestId: string) => {
    actAs(p);
    return withSecondFactor(t.db, p, () => approveRequestAction({ requestId }));
  };
  const requestIdOf = (result: { ok: boolean; data?: unknown; error?: string }): string => {
    expect(result).toMatchObject({ ok: true, data: { kind: 'requested' } });
    return (result.data as { id: string }).id;
  };
  const world: InsiderConsole = {
    t,
    dataDir,
    wallet,
    root: (prefix, role) => newPerson(t.db, { email: unique(prefix), name: prefix, role }),
    signedIn,
    as: actAs,
    approve,
    requestIdOf,
    statusOf: async (id) =>
      (await t.db.select().from(operationRequests).where(eq(operationRequests.id, id)))[0]?.status,
    withdrawal: (amount = '0.01') => masterWithdrawal(usdc, amount),
    limitId: limit!.id,
    async addThrough(by, approver, role) {
      actAs(by);
      const email = unique(`by-${by.name}`);
      const id = requestIdOf(await addUserAction({ email, name: `${role}-of-${by.name}`, role }));
      expect(await approve(approver, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
      return signedIn(await acceptFromMailbox(t.db, TEST_ENCRYPTION_KEY, dataDir, email));
    },
    async tokenThrough(by, approver, name) {
      actAs(by);
      const id = requestIdOf(await requestServiceTokenAction(tokenInput(name, wallet.id)));
      expect(await approve(approver, id)).toEqual({ ok: true, data: { status: 'SUCCESS' } });
      actAs(by);
      expect(await revealServiceTokenAction({ requestId: id })).toMatchObject({ ok: true });
      const [token] = await t.db.select().from(serviceTokens).where(eq(serviceTokens.name, name));
      return { id: `token:${token!.id}`, email: `token ${name}`, role: 'token' };
    },
    async close() {
      provideServices(undefined);
      await sandbox.stop();
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return world;
}

/** Every kind of request the search files: each must be filed in each half of the run. */
export const SEARCHED_KINDS = [
  'userCreate',
  'userRole',
  'userDisable',
  'userEnable',
  'userReset',
  'serviceTokenCreate',
  'policyEdit',
  'coolingOffEdit',
  'addressBookSave',
  'limitEdit',
  'withdraw',
];

const HARMLESS = ['userCreate', 'userRole', 'userEnable', 'userDisable', 'userReset', 'serviceTokenCreate'];

/**
 * Sequences `from` to `to` (exclusive) of the search, seeded 1000 + their number: one actor asks for users, roles,
 * disabling and re-enabling, reset links (password, or password and second factors), API tokens, looser rules (the
 * withdrawal policy, the address book's cooling-off and destination policy, a stranger's address in the book, a
 * spending limit removed) and withdrawals, approves with every account and token whose invitation or secret
 * reached them, and reads every invitation and secret their requests produce, while two honest admins approve the
 * harmless-looking account changes. After each sequence no request may stand approved (or later) with only the
 * actor's accounts as requester and approvers (a failure throws with the seed and the steps). Answers how often
 * the actor met the refusal, how many requests got past approval, and the kinds of request filed.
 */
export async function searchSequences(
  c: InsiderConsole,
  from: number,
  to: number,
): Promise<{ refusals: number; completed: number; kinds: Set<string> }> {
  const { t, dataDir, wallet, root, as, approve } = c;
  const engine = await getApprovalEngine();
  // Held approved requests are never sent: the property is about approval, and the sandbox's funds stay put.
  const keeper = await root('keeper', 'admin');
  as(keeper);
  expect(await setFreezeAction({ enabled: true })).toMatchObject({ ok: true });
  let refusals = 0;
  let completed = 0;
  const kinds = new Set<string>();
  /** Each request's status, one read for all of them. */
  const statusesOf = async (ids: string[]) =>
    new Map(
      ids.length === 0
        ? []
        : (
            await t.db
              .select({ id: operationRequests.id, status: operationRequests.status })
              .from(operationRequests)
              .where(inArray(operationRequests.id, ids))
          ).map((row) => [row.id, row.status]),
    );

  for (let seq = from; seq < to; seq++) {
    const seed = 1000 + seq;
    const rand = random(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
    const log: string[] = [];
    const honest = [await root(`h1-${seq}`, 'admin'), await root(`h2-${seq}`, 'admin')];
    const actor = await root(`actor-${seq}`, 'admin');
    // Everything the actor can act as: their own account, accounts they asked for at a mailbox they read (every
    // invitation their requests sent), tokens whose secret they were shown, and so on through those accounts.
    const people: Person[] = [actor];
    const tokens: Actor[] = [];
    const theirs = () => new Set([...people.map((p) => p.id), ...tokens.map((x) => x.id)]);
    const requests: Array<{ id: string; kind: string; by: string; email?: string }> = [];
    const read = new Set<string>();
    const filed = (result: { ok: boolean; data?: unknown }, kind: string, by: string, email?: string) => {
      const data = result.data as { kind?: string; id?: string } | undefined;
      if (!result.ok || !data?.id) return;
      requests.push({ id: data.id, kind, by, ...(email ? { email } : {}) });
      kinds.add(kind);
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
      } else if (roll < 0.25) {
        const target = pick([...people, ...honest]);
        as(me);
        filed(await disableUserAction({ userId: target.id }), 'userDisable', me.id);
        as(me);
        filed(await enableUserAction({ userId: target.id }), 'userEnable', me.id);
        log.push(`${me.name} disables and re-enables ${target.name}`);
      } else if (roll < 0.27) {
        // A reset link (password, or password and second factors) goes to the person's own mailbox: one the
        // actor reads only for an account they asked for, which they hold already.
        const target = pick([...people, ...honest]);
        const scope = pick(['password', 'password-and-factors'] as const);
        as(me);
        filed(await requestResetLinkAction({ userId: target.id, scope }), 'userReset', me.id);
        log.push(`${me.name} asks for a ${scope} reset link for ${target.name}`);
      } else if (roll < 0.33) {
        as(me);
        filed(
          await requestServiceTokenAction(tokenInput(`t-${crypto.randomUUID()}`, wallet.id)),
          'serviceTokenCreate',
          me.id,
        );
        log.push(`${me.name} asks for a token`);
      } else if (roll < 0.4) {
        // A rule loosened: the withdrawal policy, the address book's cooling-off and destination policy, a
        // stranger's address put in the book, or a spending limit taken away.
        const change = pick(['policy', 'book policy', 'book entry', 'limit'] as const);
        as(me);
        if (change === 'policy')
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
        else if (change === 'book policy')
          filed(
            await requestCoolingOffChangeAction({ coolingOffMinutes: '1', destinationPolicy: false }),
            'coolingOffEdit',
            me.id,
          );
        else if (change === 'book entry')
          filed(
            await requestAddressBookEntryAction({
              walletId: wallet.id,
              entryId: '',
              name: `Insider ${seq}-${step}`,
              address: `0x${crypto.randomUUID().replace(/-/g, '').padEnd(40, '7')}`,
              chain: 'ethereum',
              tags: '',
              notes: '',
            }),
            'addressBookSave',
            me.id,
          );
        else filed(await requestSpendingLimitRemovalAction({ ruleId: c.limitId }), 'limitEdit', me.id);
        log.push(`${me.name} asks to loosen a rule (${change})`);
      } else if (roll < 0.52) {
        const who = tokens.length && rand() < 0.4 ? pick(tokens) : me;
        const made = await engine.create(who, 'withdraw', wallet.id, c.withdrawal());
        if (made.ok) {
          requests.push({ id: made.data.id, kind: 'withdraw', by: who.id });
          kinds.add('withdraw');
        }
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
        // chose, the tokens' secrets. (Reading them changes no request's status: one read for all.)
        const producing = requests.filter((x) => x.kind === 'userCreate' || x.kind === 'serviceTokenCreate');
        const statuses = await statusesOf(producing.map((r) => r.id));
        for (const r of producing) {
          const asker = people.find((p) => p.id === r.by);
          if (!asker || statuses.get(r.id) !== 'SUCCESS') continue;
          as(asker);
          if (r.kind === 'userCreate' && r.email) {
            if (read.has(r.email)) continue;
            read.add(r.email);
            people.push(
              await c.signedIn(await acceptFromMailbox(t.db, TEST_ENCRYPTION_KEY, dataDir, r.email)),
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
            if (token) tokens.push({ id: `token:${token.id}`, email: `token ${token.name}`, role: 'token' });
            log.push(`${asker.name} reads a token's secret`);
          }
        }
      }
    }

    // The property: every request of the sequence that got past approval had someone outside the actor's reach.
    const mineNow = theirs();
    const ids = requests.map((r) => r.id);
    const statuses = await statusesOf(ids);
    const approvers =
      ids.length === 0
        ? []
        : await t.db
            .select({ requestId: operationApprovals.requestId, id: operationApprovals.approverId })
            .from(operationApprovals)
            .where(inArray(operationApprovals.requestId, ids));
    for (const r of requests) {
      const status = statuses.get(r.id);
      if (!status || FINAL.includes(status)) continue;
      completed++;
      const parties = [r.by, ...approvers.filter((x) => x.requestId === r.id).map((x) => x.id)];
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
  return { refusals, completed, kinds };
}
