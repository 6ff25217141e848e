import 'server-only';
// Configuration changes as operation kinds: one admin requests, a second admin approves, and the console
// carries the change out itself (no custody call) exactly once, when the last approval lands. Secrets travel
// sealed: a wallet's API key is sealed in the payload by the action (reviews show its last four characters).
// People's credentials never pass through anyone: a new user, and a reset, email the person a link where they set
// their own password and second factor.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  type ConfigurationKind,
  type ConfigurationResult,
  type PersonRef,
  PRIVATE_KEY_REVEAL_MINUTES,
  policyDiff,
  USER_RESET_SCOPES,
} from '@/lib/approvals/configuration';
import { isOperationKind } from '@/lib/approvals/kinds';
import {
  DEFAULT_EXPIRY_SECONDS,
  MAX_EXPIRY_SECONDS,
  MIN_EXPIRY_SECONDS,
  type PolicyValues,
} from '@/lib/approvals/policy';
import {
  approvalPolicies,
  type ConsoleDb,
  consoleSettings,
  operationRequests,
  walletConnections,
} from '@/lib/db/schema';
import { ROLES } from '@/lib/roles';
import { listFactors, requiresSecondFactor } from '../../factors/store';
import type { InvitationSent } from '../../invitations';
import {
  createInvitedUser,
  disableUser,
  enableUser,
  findUserById,
  lockCredentialsForReset,
  setUserRole,
} from '../../users';
import { adminLeavingRefusal } from '../admin-quorum';
import { recordProvenance } from '../independence';
import { defineLocalOperation, LocalRefusal } from './types';

/** A configuration change waits for one other admin, a day at most, until an admin edits its policy. */
const CONFIGURATION_POLICY: PolicyValues = {
  approvals: 1,
  thresholdUsd: null,
  expirySeconds: DEFAULT_EXPIRY_SECONDS,
};

const FREEZE_KEY = 'freeze';

const permissionsOf = <K extends ConfigurationKind>(key: K) =>
  ({ request: `${key}.request`, approve: `${key}.approve` }) as const;

const builtAt = () => new Date().toISOString();

const result = (kind: ConfigurationKind, message: string, extra: Partial<ConfigurationResult> = {}) => ({
  kind,
  message,
  ...extra,
});

const roleSchema = z.enum(ROLES);
const idSchema = z.uuid();
const walletIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9-]+$/);
const sealedSchema = z.string().min(1).max(2000);
const last4Schema = z.string().max(4);

async function person(db: ConsoleDb, id: string): Promise<PersonRef & { disabledAt: Date | null }> {
  const user = await findUserById(db, id);
  if (!user) throw new LocalRefusal('That user no longer exists.');
  return { id: user.id, email: user.email, name: user.name, role: user.role, disabledAt: user.disabledAt };
}

async function connection(db: ConsoleDb, walletId: string) {
  const [row] = await db.select().from(walletConnections).where(eq(walletConnections.id, walletId)).limit(1);
  return row;
}

const walletRef = (row: {
  id: string;
  name: string;
  network: string;
  blockchain: string;
  address: string;
}) => ({
  id: row.id,
  name: row.name,
  network: row.network,
  blockchain: row.blockchain,
  address: row.address,
});

const ADMIN_WARNING =
  'The person will be an admin: they can manage users, wallets and the policy, and approve other admins’ changes.';

// --- users -------------------------------------------------------------------------------------------------

export const userCreateOperation = defineLocalOperation({
  key: 'userCreate',
  permissions: permissionsOf('userCreate'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({
    email: z.email().max(200),
    name: z.string().min(1).max(100),
    role: roleSchema,
  }),
  async buildReview(p) {
    return {
      review: {
        kind: 'userCreate',
        email: p.email,
        name: p.name,
        role: p.role,
        warnings: p.role === 'admin' ? [ADMIN_WARNING] : [],
        builtAt: builtAt(),
      },
      summary: `Add ${p.email} as ${p.role}`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    // Against a real service without a mail server nobody can be invited (the form says so before any request).
    const problem = ctx.services.invitationProblem();
    if (problem) throw new LocalRefusal(problem);
    // The requester chose whose mailbox the account is: they control it (createInvitedUser records it). The
    // approvers are kept as provenance. Nobody sees a credential: the person sets their own at the emailed link.
    const created = await createInvitedUser(ctx.db, {
      ...p,
      createdBy: ctx.requester.id,
      requestId: ctx.requestId,
    });
    if (!created.ok) throw new LocalRefusal(created.error);
    await recordProvenance(ctx.db, approvedBy(created.user.id, await ctx.approverIds(), ctx.requestId));
    const invitation = await ctx.services.sendInvitation({
      userId: created.user.id,
      purpose: 'invitation',
      issuedBy: ctx.requester.id,
      requestId: ctx.requestId,
    });
    return {
      result: result(
        'userCreate',
        `${created.user.email} was added as ${p.role}. ${invitationSentence(invitation)}`,
        { userId: created.user.id, invitation },
      ),
      audit: {
        action: 'user.add',
        target: created.user.email,
        input: { email: created.user.email, name: p.name, role: p.role, invitation: sentWord(invitation) },
      },
    };
  },
});

const approvedBy = (subject: string, approvers: string[], requestId: string) =>
  approvers.map((actor) => ({ subject, actor, kind: 'approved' as const, requestId }));

const sentWord = (sent: InvitationSent) => (sent.delivered ? 'sent' : 'not sent');

function invitationSentence(sent: InvitationSent): string {
  return sent.delivered
    ? `The link was sent to ${sent.email}.`
    : `The email to ${sent.email} could not be sent (${sent.error ?? 'no reason given'}): send it again.`;
}

const RESET_WORDS = {
  password: 'the password',
  'password-and-factors': 'the password and every second factor',
} as const;

export const userResetOperation = defineLocalOperation({
  key: 'userReset',
  permissions: permissionsOf('userReset'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({ userId: idSchema, scope: z.enum(USER_RESET_SCOPES) }),
  async buildReview(p, ctx) {
    const { disabledAt, ...user } = await person(ctx.db, p.userId);
    const factors = (await listFactors(ctx.db, user.id)).filter((f) => f.confirmed).length;
    return {
      review: {
        kind: 'userReset',
        user,
        scope: p.scope,
        factors,
        warnings: [
          ...(disabledAt ? [`${user.email} is disabled: the reset is refused until they are enabled.`] : []),
          ...(p.scope === 'password-and-factors' && requiresSecondFactor(user.role)
            ? [
                `Whoever reads ${user.email} can then choose a new password and a new authenticator app: check that the person asked for this.`,
              ]
            : []),
        ],
        builtAt: builtAt(),
      },
      summary: `Send ${user.email} a reset link (${RESET_WORDS[p.scope]})`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const problem = ctx.services.invitationProblem();
    if (problem) throw new LocalRefusal(problem);
    const target = await findUserById(ctx.db, p.userId);
    if (!target) throw new LocalRefusal('That user no longer exists.');
    if (target.disabledAt) throw new LocalRefusal(`${target.email} is disabled: enable them first.`);
    const factors = p.scope === 'password-and-factors';
    // At once: a password (or factor) someone else may hold stops working now, not when the person uses the link.
    await lockCredentialsForReset(ctx.db, target.id, { factors });
    // The link goes to the address the account already has: asking for it gives no control over the account
    // (`reset` is not a controlling kind), nor does approving it.
    await recordProvenance(ctx.db, [
      { subject: target.id, actor: ctx.requester.id, kind: 'reset', requestId: ctx.requestId },
      ...approvedBy(target.id, await ctx.approverIds(), ctx.requestId),
    ]);
    const invitation = await ctx.services.sendInvitation({
      userId: target.id,
      purpose: 'reset',
      issuedBy: ctx.requester.id,
      requestId: ctx.requestId,
    });
    return {
      result: result(
        'userReset',
        `${target.email}: ${RESET_WORDS[p.scope]} no longer ${factors ? 'work' : 'works'}, and their open sessions ended. ${invitationSentence(invitation)}`,
        { userId: target.id, invitation },
      ),
      audit: {
        action: 'user.reset_link',
        target: target.email,
        input: { scope: p.scope, invitation: sentWord(invitation) },
      },
    };
  },
});

export const userRoleOperation = defineLocalOperation({
  key: 'userRole',
  permissions: permissionsOf('userRole'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({ userId: idSchema, role: roleSchema }),
  async buildReview(p, ctx) {
    const { disabledAt: _, ...user } = await person(ctx.db, p.userId);
    return {
      review: {
        kind: 'userRole',
        user,
        from: user.role,
        to: p.role,
        warnings: [
          ...(p.role === 'admin' ? [ADMIN_WARNING] : []),
          ...(user.role === p.role ? [`${user.email} already has this role.`] : []),
        ],
        builtAt: builtAt(),
      },
      summary: `Change ${user.email} from ${user.role} to ${p.role}`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    if (p.role !== 'admin') {
      const leaving = await adminLeavingRefusal(ctx.db, p.userId);
      if (leaving) throw new LocalRefusal(leaving);
    }
    const user = await setUserRole(ctx.db, p.userId, p.role, ctx.requester.id, ctx.requestId);
    if (!user) throw new LocalRefusal('That user no longer exists.');
    return {
      result: result('userRole', `${user.email} is now ${p.role}.`),
      audit: { action: 'user.change_role', target: user.email, input: { role: p.role } },
    };
  },
});

export const userEnableOperation = defineLocalOperation({
  key: 'userEnable',
  permissions: permissionsOf('userEnable'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({ userId: idSchema }),
  async buildReview(p, ctx) {
    const { disabledAt, ...user } = await person(ctx.db, p.userId);
    return {
      review: {
        kind: 'userEnable',
        user,
        disabledAt: disabledAt?.toISOString() ?? null,
        warnings: disabledAt ? [] : [`${user.email} is not disabled now.`],
        builtAt: builtAt(),
      },
      summary: `Enable ${user.email} (${user.role})`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const user = await enableUser(ctx.db, p.userId);
    if (!user) throw new LocalRefusal('That user no longer exists.');
    await recordProvenance(ctx.db, [
      { subject: user.id, actor: ctx.requester.id, kind: 'enabled', requestId: ctx.requestId },
    ]);
    return {
      result: result('userEnable', `${user.email} can sign in again.`),
      audit: { action: 'user.enable', target: user.email, input: {} },
    };
  },
});

export const userDisableOperation = defineLocalOperation({
  key: 'userDisable',
  permissions: permissionsOf('userDisable'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({ userId: idSchema }),
  async buildReview(p, ctx) {
    const { disabledAt, ...user } = await person(ctx.db, p.userId);
    const leaving = await adminLeavingRefusal(ctx.db, p.userId);
    return {
      review: {
        kind: 'userDisable',
        user,
        warnings: [
          ...(disabledAt ? [`${user.email} is disabled already.`] : []),
          ...(leaving ? [leaving] : []),
        ],
        builtAt: builtAt(),
      },
      summary: `Disable ${user.email} (${user.role})`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    // Checked again now: other changes may have landed since the request.
    const leaving = await adminLeavingRefusal(ctx.db, p.userId);
    if (leaving) throw new LocalRefusal(leaving);
    const user = await disableUser(ctx.db, p.userId);
    if (!user) throw new LocalRefusal('That user no longer exists.');
    return {
      result: result('userDisable', `${user.email} can no longer sign in.`),
      audit: { action: 'user.disable', target: user.email, input: {} },
    };
  },
});

// --- policy and freeze ---------------------------------------------------------------------------------------

export const policyEditOperation = defineLocalOperation({
  key: 'policyEdit',
  permissions: permissionsOf('policyEdit'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({
    operationType: z.string().refine(isOperationKind),
    approvals: z.int().min(1).max(10),
    thresholdUsd: z.number().nonnegative().nullable(),
    expirySeconds: z.int().min(MIN_EXPIRY_SECONDS).max(MAX_EXPIRY_SECONDS),
  }),
  async buildReview({ operationType, ...after }, ctx) {
    const before = await ctx.getPolicy(operationType);
    const diff = policyDiff(before, after);
    const label = ctx.labelOf(operationType);
    const loosened =
      after.approvals < before.approvals ||
      (before.thresholdUsd !== null &&
        (after.thresholdUsd === null || after.thresholdUsd > before.thresholdUsd)) ||
      after.expirySeconds > before.expirySeconds;
    return {
      review: {
        kind: 'policyEdit',
        operationType,
        operationLabel: label,
        before,
        after,
        diff,
        warnings: [
          ...(loosened
            ? ['This loosens the rules: fewer approvers, a higher threshold or a longer expiry.']
            : []),
          ...(diff.every((d) => !d.changed) ? ['Nothing changes: the values are the ones in force.'] : []),
        ],
        builtAt: builtAt(),
      },
      summary: `Policy of ${label}: ${
        diff
          .filter((d) => d.changed)
          .map((d) => `${d.before} → ${d.after}`)
          .join(', ') || 'unchanged'
      }`,
      amountUsd: null,
    };
  },
  async execute({ operationType, ...after }, ctx) {
    const before = await ctx.getPolicy(operationType);
    const set = {
      approvals: after.approvals,
      thresholdUsd: after.thresholdUsd === null ? null : String(after.thresholdUsd),
      expirySeconds: after.expirySeconds,
      updatedBy: ctx.requester.email,
      updatedAt: ctx.now,
    };
    await ctx.db
      .insert(approvalPolicies)
      .values({ operationType, ...set })
      .onConflictDoUpdate({ target: approvalPolicies.operationType, set });
    return {
      result: result('policyEdit', 'The new policy applies to requests created from now on.'),
      audit: { action: 'policy.edit', target: operationType, input: { before, after } },
    };
  },
});

export const freezeLiftOperation = defineLocalOperation({
  key: 'freezeLift',
  permissions: permissionsOf('freezeLift'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({}),
  async buildReview(_p, ctx) {
    const [freeze] = await ctx.db.select().from(consoleSettings).where(eq(consoleSettings.key, FREEZE_KEY));
    const held = await ctx.db
      .select({ id: operationRequests.id })
      .from(operationRequests)
      .where(eq(operationRequests.status, 'APPROVED'));
    const frozen = freeze?.enabled === true;
    return {
      review: {
        kind: 'freezeLift',
        frozen,
        frozenBy: frozen ? (freeze?.updatedBy ?? null) : null,
        frozenSince: frozen ? (freeze?.updatedAt.toISOString() ?? null) : null,
        heldApproved: held.length,
        warnings: [
          ...(frozen ? [] : ['The console is not frozen now.']),
          ...(held.length > 0
            ? [
                `${held.length} approved request${held.length === 1 ? ' is' : 's are'} sent at once when the freeze is lifted.`,
              ]
            : []),
        ],
        builtAt: builtAt(),
      },
      summary: 'Lift the emergency freeze',
      amountUsd: null,
    };
  },
  async execute(_p, ctx) {
    await ctx.db
      .insert(consoleSettings)
      .values({ key: FREEZE_KEY, enabled: false, updatedBy: ctx.requester.email, updatedAt: ctx.now })
      .onConflictDoUpdate({
        target: consoleSettings.key,
        set: { enabled: false, updatedBy: ctx.requester.email, updatedAt: ctx.now },
      });
    // Thawing sends what was approved meanwhile.
    const submitted = await ctx.submitHeld();
    return {
      result: result(
        'freezeLift',
        `The freeze is lifted; ${submitted} held request${submitted === 1 ? ' was' : 's were'} sent.`,
      ),
      audit: { action: 'freeze.toggle', target: 'console', input: { enabled: false, submitted } },
    };
  },
});

// --- wallet connections --------------------------------------------------------------------------------------

export const walletConnectOperation = defineLocalOperation({
  key: 'walletConnect',
  permissions: permissionsOf('walletConnect'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({
    id: walletIdSchema,
    name: z.string().min(1).max(200),
    network: z.string().min(1).max(50),
    blockchain: z.string().min(1).max(100),
    address: z.string().min(1).max(200),
    apiKeySealed: sealedSchema,
    apiKeyLast4: last4Schema,
  }),
  async buildReview({ apiKeySealed: _, apiKeyLast4, ...wallet }, ctx) {
    const existing = await connection(ctx.db, wallet.id);
    return {
      review: {
        kind: 'walletConnect',
        wallet,
        apiKeyLast4,
        warnings: [
          ...(wallet.network === 'mainnet' ? ['Mainnet: this wallet holds real funds.'] : []),
          ...(existing ? ['This wallet is already connected: approving fails.'] : []),
        ],
        builtAt: builtAt(),
      },
      summary: `Connect ${wallet.name} (${wallet.network})`,
      amountUsd: null,
    };
  },
  async execute({ apiKeySealed, apiKeyLast4: _, ...wallet }, ctx) {
    const done = await ctx.services.connectWallet(wallet, apiKeySealed, ctx.requester.email);
    if (!done) throw new LocalRefusal('This wallet is already connected. Rotate its key instead.');
    return {
      result: result('walletConnect', `${wallet.name} is connected.`),
      audit: {
        action: 'wallet.connect',
        target: wallet.id,
        input: { walletId: wallet.id, name: wallet.name, network: wallet.network },
      },
    };
  },
});

export const walletRotateOperation = defineLocalOperation({
  key: 'walletRotate',
  permissions: permissionsOf('walletRotate'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({
    walletId: walletIdSchema,
    apiKeySealed: sealedSchema,
    apiKeyLast4: last4Schema,
  }),
  async buildReview(p, ctx) {
    const row = await connection(ctx.db, p.walletId);
    if (!row) throw new LocalRefusal('This wallet is no longer connected.');
    return {
      review: {
        kind: 'walletRotate',
        wallet: walletRef(row),
        previousApiKeyLast4: row.apiKeyLast4,
        apiKeyLast4: p.apiKeyLast4,
        warnings: [],
        builtAt: builtAt(),
      },
      summary: `Rotate the key of ${row.name}`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const done = await ctx.services.rotateWalletKey(p.walletId, p.apiKeySealed);
    if (!done) throw new LocalRefusal('This wallet is no longer connected.');
    return {
      result: result(
        'walletRotate',
        'The new key is in use; the previous one verifies webhooks for 24 hours.',
      ),
      audit: { action: 'wallet.rotate_key', target: p.walletId, input: { walletId: p.walletId } },
    };
  },
});

export const walletRemoveOperation = defineLocalOperation({
  key: 'walletRemove',
  permissions: permissionsOf('walletRemove'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({ walletId: walletIdSchema }),
  async buildReview(p, ctx) {
    const row = await connection(ctx.db, p.walletId);
    if (!row) throw new LocalRefusal('This wallet is no longer connected.');
    return {
      review: {
        kind: 'walletRemove',
        wallet: walletRef(row),
        warnings: [
          'The console forgets this wallet and its key; its requests can no longer be sent. The wallet stays at the custody service.',
        ],
        builtAt: builtAt(),
      },
      summary: `Remove ${row.name} from the console`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const row = await connection(ctx.db, p.walletId);
    const done = await ctx.services.removeWallet(p.walletId);
    if (!done) throw new LocalRefusal('This wallet is no longer connected.');
    return {
      result: result('walletRemove', `${row?.name ?? p.walletId} was removed from the console.`),
      audit: {
        action: 'wallet.remove',
        target: p.walletId,
        input: { walletId: p.walletId, name: row?.name },
      },
    };
  },
});

// --- private keys ------------------------------------------------------------------------------------------

/**
 * Showing an address's private key: whoever holds it can move everything at the address without the console, so
 * one admin asks and another approves. Approval stores no key: it lets the asker see it once, within
 * PRIVATE_KEY_REVEAL_MINUTES, re-entering their password (`revealPrivateKeyAction`, `takePrivateKeyReveal`); the
 * key is read from the service at that moment and never kept.
 */
export const privateKeyRevealOperation = defineLocalOperation({
  key: 'privateKeyReveal',
  permissions: permissionsOf('privateKeyReveal'),
  defaultPolicy: CONFIGURATION_POLICY,
  payloadSchema: z.strictObject({
    walletId: walletIdSchema,
    addressId: z.string().min(1).max(100),
    address: z.string().min(1).max(200),
    addressName: z.string().max(200).nullable(),
  }),
  async buildReview(p, ctx) {
    const wallet = await connection(ctx.db, p.walletId);
    if (!wallet) throw new LocalRefusal('That wallet is not connected to the console.');
    return {
      review: {
        kind: 'privateKeyReveal',
        walletId: p.walletId,
        walletName: wallet.name,
        addressId: p.addressId,
        address: p.address,
        addressName: p.addressName,
        warnings: [
          `Whoever holds this private key can move everything at ${p.address} without the console, its approvals or its limits.`,
          `Once approved, the admin who asked sees the key once, within ${PRIVATE_KEY_REVEAL_MINUTES} minutes, after re-entering their password.`,
        ],
        builtAt: builtAt(),
      },
      summary: `Show the private key of ${p.addressName ? `${p.addressName} (${p.address})` : p.address}`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const until = new Date(ctx.now.getTime() + PRIVATE_KEY_REVEAL_MINUTES * 60_000);
    return {
      result: result(
        'privateKeyReveal',
        `The admin who asked may see the private key once, until ${until.toISOString().slice(11, 16)} UTC.`,
        {
          privateKey: 'waiting',
          revealUntil: until.toISOString(),
          walletId: p.walletId,
          addressId: p.addressId,
          addressLabel: p.addressName ?? p.address,
        },
      ),
      audit: {
        action: 'privateKey.reveal_approved',
        target: `address:${p.addressId}`,
        input: { walletId: p.walletId },
      },
    };
  },
});
