import 'server-only';
// Sign-in's second step for people with approval rights: after the right password a pending sign-in (a
// one-time row, five minutes) stands for "password checked"; its id goes back to the form, never the password.
// The step completes with a code, a passkey, or (with no factor yet) the enrolment of one.
import { z } from 'zod';
import type { ConsoleDb, UserRow } from '@/lib/db/schema';
import type { SignInClient } from '@/lib/server/sign-in-throttle';
import { findUserById, recordSignInAttempt, signInLocked } from '@/lib/server/users';
import { plainText } from '@/lib/validation/text';
import { createChallenge, dropChallenge, findChallenge, takeChallenge } from './challenges';
import {
  type AuthenticationResponseJSON,
  assertionOptions,
  type RegistrationResponseJSON,
  registerPasskey,
  registrationOptions,
  verifyPasskey,
} from './passkeys';
import type { RelyingParty } from './relying-party';
import { confirmedFactorKinds } from './store';
import { enrollTotp, verifyTotp } from './totp';

export type FactorKind = 'totp' | 'passkey';

export interface PendingSignIn {
  pendingId: string;
  /** The kinds of factor the person has; empty: they enrol one now. */
  methods: FactorKind[];
}

export async function beginSecondStep(
  db: ConsoleDb,
  userId: string,
  now = Date.now(),
): Promise<PendingSignIn> {
  const kinds = await confirmedFactorKinds(db, userId);
  const row = await createChallenge(db, { subject: userId, purpose: 'sign-in', now });
  return { pendingId: row.id, methods: (['totp', 'passkey'] as const).filter((k) => kinds.has(k)) };
}

const json = <T>() =>
  z.string().transform((text, ctx): T => {
    try {
      return JSON.parse(text) as T;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'Unreadable answer from the browser' });
      return z.NEVER;
    }
  });

/** What the form sends for the second step (all strings: it travels as form fields). */
export const secondStepSchema = z.discriminatedUnion('method', [
  z.object({ pendingId: z.string().uuid(), method: z.literal('totp'), code: z.string().trim().max(16) }),
  z.object({
    pendingId: z.string().uuid(),
    method: z.literal('passkey'),
    response: json<AuthenticationResponseJSON>(),
  }),
  z.object({
    pendingId: z.string().uuid(),
    method: z.literal('enrol-totp'),
    factorId: z.string().uuid(),
    code: z.string().trim().max(16),
  }),
  z.object({
    pendingId: z.string().uuid(),
    method: z.literal('enrol-passkey'),
    response: json<RegistrationResponseJSON>(),
    label: plainText().trim().min(1).max(60).default('Passkey'),
  }),
]);
export type SecondStepInput = z.output<typeof secondStepSchema>;

export type SecondStepResult =
  | { ok: true; user: UserRow; method: SecondStepInput['method'] }
  | {
      ok: false;
      reason: 'invalid' | 'locked' | 'expired';
      user?: UserRow;
      /** Locked because the client's address is over its limit (for the audit; the answer is the same). */
      addressThrottled?: true;
    };

async function pendingUser(db: ConsoleDb, pendingId: string, now: number) {
  const pending = await findChallenge(db, pendingId, 'sign-in', now);
  if (!pending) return null;
  const user = await findUserById(db, pending.subject);
  if (!user || user.disabledAt) {
    await dropChallenge(db, pendingId);
    return null;
  }
  return { pending, user };
}

/**
 * Checks the second step. A wrong code or a failed passkey counts towards the account's lockout like a wrong
 * password, and with `client` towards its address's; the pending sign-in survives it (the person types again)
 * until it expires or sign-in locks.
 */
export async function completeSecondStep(
  db: ConsoleDb,
  key: Buffer,
  rp: RelyingParty,
  input: SecondStepInput,
  now = Date.now(),
  client?: SignInClient,
): Promise<SecondStepResult> {
  const found = await pendingUser(db, input.pendingId, now);
  if (!found) return { ok: false, reason: 'expired' };
  const { pending, user } = found;
  const locked = async (): Promise<SecondStepResult | null> => {
    const lock = await signInLocked(db, user.email, client, new Date(now));
    if (!lock.locked) return null;
    await dropChallenge(db, pending.id);
    return {
      ok: false,
      reason: 'locked',
      user,
      ...(lock.addressThrottled ? { addressThrottled: true } : {}),
    };
  };
  const before = await locked();
  if (before) return before;
  const enrolled = (await confirmedFactorKinds(db, user.id)).size > 0;
  let passed = false;
  switch (input.method) {
    case 'totp':
      passed = Boolean(await verifyTotp(db, key, user.id, input.code, { now }));
      break;
    case 'passkey':
      passed = Boolean(await verifyPasskey(db, rp, user.id, pending.challenge, input.response));
      break;
    case 'enrol-totp':
      // Enrolling here is only for a person without any factor: otherwise the factor they have is due.
      passed =
        !enrolled &&
        Boolean(await verifyTotp(db, key, user.id, input.code, { now, factorId: input.factorId }));
      break;
    case 'enrol-passkey':
      passed =
        !enrolled &&
        Boolean(await registerPasskey(db, rp, user.id, pending.challenge, input.response, input.label));
      break;
  }
  if (passed) {
    // One-time: a second tab racing with the same pending sign-in gets nothing.
    const taken = await takeChallenge(db, pending.id, 'sign-in', user.id, now);
    if (!taken) return { ok: false, reason: 'expired' };
    await recordSignInAttempt(db, user.email, true, new Date(now), client?.address);
    return { ok: true, user, method: input.method };
  }
  await recordSignInAttempt(db, user.email, false, new Date(now), client?.address);
  return (await locked()) ?? { ok: false, reason: 'invalid', user };
}

/** The passkey request options for a pending sign-in (its own challenge); null when it is gone. */
export async function pendingPasskeyOptions(db: ConsoleDb, rp: RelyingParty, pendingId: string) {
  const found = await pendingUser(db, pendingId, Date.now());
  if (!found) return null;
  return assertionOptions(db, rp, found.user.id, found.pending.challenge);
}

/** Enrolment during sign-in, for a person with approval rights and no factor yet. */
export async function pendingEnrolment(
  db: ConsoleDb,
  key: Buffer,
  rp: RelyingParty,
  pendingId: string,
  kind: FactorKind,
) {
  const found = await pendingUser(db, pendingId, Date.now());
  if (!found) return null;
  if ((await confirmedFactorKinds(db, found.user.id)).size > 0) return null;
  if (kind === 'totp')
    return { kind, ...(await enrollTotp(db, key, found.user, 'Authenticator app')) } as const;
  return { kind, options: await registrationOptions(db, rp, found.user, found.pending.challenge) } as const;
}
