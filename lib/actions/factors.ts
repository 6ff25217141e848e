'use server';
// A person's own second factors (authenticator apps and passkeys) and the step-up check that decisions ask for.
import { headers } from 'next/headers';
import { z } from 'zod';
import { checkStepUp, defineAction, ok, refuse } from '@/lib/actions/define-action';
import { createChallenge, takeChallenge } from '@/lib/server/factors/challenges';
import {
  type AuthenticationResponseJSON,
  assertionOptions,
  type RegistrationResponseJSON,
  registerPasskey,
  registrationOptions,
  verifyPasskey,
} from '@/lib/server/factors/passkeys';
import { relyingParty } from '@/lib/server/factors/relying-party';
import { forgetStepUp, grantDecision } from '@/lib/server/factors/step-up';
import { confirmedFactorKinds, removeFactor } from '@/lib/server/factors/store';
import { enrollTotp, verifyTotp } from '@/lib/server/factors/totp';
import type { Actor } from '@/lib/server/guard';
import { qrCodeDataUrl } from '@/lib/server/qr-code';
import { currentServices } from '@/lib/server/services';
import { recordStepUp } from '@/lib/server/sessions';
import { findUserById, lockedUntil, recordSignInAttempt } from '@/lib/server/users';
import {
  confirmTotpSchema,
  factorIdSchema,
  factorLabelSchema,
  finishPasskeySchema,
  stepUpPasskeySchema,
  verifyStepUpSchema,
} from '@/lib/validation/factors';

async function parts() {
  const services = await currentServices();
  const rp = relyingParty(services.config.origin, (await headers()).get('origin'));
  return { db: services.database.db, key: services.config.encryptionKey, rp };
}

/** Adding a factor next to one the person has is a change to how they prove who they are: step-up first. */
async function stepUpBeforeAdding(actor: Actor, context: string) {
  const { db } = await parts();
  if ((await confirmedFactorKinds(db, actor.id)).size === 0) return null;
  return checkStepUp(actor, context, { userId: actor.id }, `user:${actor.email}`);
}

export interface TotpEnrolment {
  factorId: string;
  /** Shown once, to its owner, to type into the app by hand. */
  secret: string;
  uri: string;
  /** The otpauth address as a QR code (SVG, data URL). */
  qrCode: string;
}

export const startTotpEnrolmentAction = defineAction({
  permission: 'read',
  input: factorLabelSchema,
  context: 'start authenticator enrolment',
  run: async ({ actor, input: { label } }) => {
    const refusal = await stepUpBeforeAdding(actor, 'start authenticator enrolment');
    if (refusal) return refusal;
    const { db, key } = await parts();
    const started = await enrollTotp(db, key, actor, label);
    return ok<TotpEnrolment>({
      ...started,
      qrCode: await qrCodeDataUrl(started.uri),
    });
  },
});

export const confirmTotpEnrolmentAction = defineAction({
  permission: 'read',
  input: confirmTotpSchema,
  context: 'confirm authenticator enrolment',
  audit: {
    action: 'factor.add',
    input: () => ({ kind: 'totp' }),
    target: (_i, data?: { factorId: string }) => data?.factorId,
  },
  run: async ({ actor, input: { factorId, code } }) => {
    const { db, key } = await parts();
    const matched = await verifyTotp(db, key, actor.id, code, { factorId });
    if (!matched)
      return refuse('The code is not right. Enter the code the app shows now.', {
        fieldErrors: { code: 'The code is not right' },
      });
    // The person just proved the factor: this session's check is fresh.
    await recordStepUp(db, actor.sessionId, Date.now());
    return ok({ factorId: matched.factorId });
  },
});

export const startPasskeyEnrolmentAction = defineAction({
  permission: 'read',
  input: z.undefined(),
  context: 'start passkey enrolment',
  run: async ({ actor }) => {
    const refusal = await stepUpBeforeAdding(actor, 'start passkey enrolment');
    if (refusal) return refusal;
    const { db, rp } = await parts();
    const challenge = await createChallenge(db, { subject: actor.id, purpose: 'register' });
    const options = await registrationOptions(db, rp, actor, challenge.challenge);
    return ok({ challengeId: challenge.id, options });
  },
});

export const finishPasskeyEnrolmentAction = defineAction({
  permission: 'read',
  input: finishPasskeySchema,
  context: 'finish passkey enrolment',
  audit: {
    action: 'factor.add',
    input: ({ label }) => ({ kind: 'passkey', label }),
    target: (_i, data?: { factorId: string }) => data?.factorId,
  },
  run: async ({ actor, input: { challengeId, label, response } }) => {
    const { db, rp } = await parts();
    const challenge = await takeChallenge(db, challengeId, 'register', actor.id);
    if (!challenge) return refuse('The passkey request expired. Try again.');
    const added = await registerPasskey(
      db,
      rp,
      actor.id,
      challenge.challenge,
      response as unknown as RegistrationResponseJSON,
      label,
    );
    if (!added) return refuse('The passkey could not be verified. Try again.');
    await recordStepUp(db, actor.sessionId, Date.now());
    return ok({ factorId: added.factorId });
  },
});

export const removeFactorAction = defineAction({
  permission: 'read',
  input: factorIdSchema,
  context: 'remove factor',
  target: ({ factorId }) => factorId,
  stepUp: ({ factorId }) => ({ factorId }),
  audit: {
    action: 'factor.remove',
    input: (_i, data?: { label: string }) => (data ? { label: data.label } : {}),
  },
  run: async ({ actor, input: { factorId } }) => {
    const { db } = await parts();
    const removed = await removeFactor(db, actor, factorId);
    return removed.ok ? ok({ label: removed.label }) : refuse(removed.error, { status: removed.status });
  },
});

/** The passkey challenge of a step-up, bound to the payload hash (it is part of what the passkey signs). */
export const stepUpPasskeyOptionsAction = defineAction({
  permission: 'read',
  input: stepUpPasskeySchema,
  context: 'step-up passkey options',
  run: async ({ actor, input: { payloadHash } }) => {
    const { db, rp } = await parts();
    const bytes = Buffer.concat([crypto.getRandomValues(Buffer.alloc(16)), Buffer.from(payloadHash, 'hex')]);
    const challenge = await createChallenge(db, {
      subject: actor.id,
      purpose: 'step-up',
      challenge: bytes.toString('base64url'),
      payloadHash,
    });
    const options = await assertionOptions(db, rp, actor.id, challenge.challenge);
    if (!options) return refuse('You have no passkey. Enter a code from your authenticator app.');
    return ok({ challengeId: challenge.id, options });
  },
});

const LOCKED = 'Too many failed attempts. Try again in 15 minutes.';

/**
 * The step-up itself: a code or a passkey, for the payload the action named. Recorded on the session (the next
 * five minutes of configuration requests go through) and as a grant for the one decision bound to that payload
 * hash, and audited with the hash. Wrong codes count towards the
 * account's lockout like wrong passwords.
 */
export const verifyStepUpAction = defineAction({
  permission: 'read',
  input: verifyStepUpSchema,
  context: 'step-up',
  audit: {
    action: 'auth.step_up',
    input: (input) => ({ payloadHash: input.payloadHash, method: 'code' in input ? 'totp' : 'passkey' }),
  },
  run: async ({ actor, input }) => {
    const { db, key, rp } = await parts();
    const user = await findUserById(db, actor.id);
    if (!user) return refuse('Your session has ended. Sign in again.', { status: 401 });
    const now = new Date();
    if (await lockedUntil(db, user.email, now)) return refuse(LOCKED, { status: 429 });
    let passed = false;
    if ('code' in input) {
      passed = Boolean(await verifyTotp(db, key, actor.id, input.code));
    } else {
      const challenge = await takeChallenge(db, input.challengeId, 'step-up', actor.id);
      passed =
        challenge?.payloadHash === input.payloadHash &&
        Boolean(
          await verifyPasskey(
            db,
            rp,
            actor.id,
            challenge.challenge,
            input.assertion as unknown as AuthenticationResponseJSON,
          ),
        );
    }
    if (!passed) {
      await recordSignInAttempt(db, user.email, false, now);
      if (await lockedUntil(db, user.email, now)) return refuse(LOCKED, { status: 429 });
      return 'code' in input
        ? refuse('The code is not right.', {
            fieldErrors: { code: 'The code is not right or was already used' },
          })
        : refuse('The passkey could not be verified.');
    }
    await recordStepUp(db, actor.sessionId, now.getTime());
    // The proof also serves the one decision bound to this payload hash (decisions have no five-minute window).
    await grantDecision(db, { userId: actor.id, sessionId: actor.sessionId, payloadHash: input.payloadHash });
    return ok(undefined);
  },
});

/** Makes the next decision in this session ask for the second factor again (leaving a desk, say). */
export const forgetStepUpAction = defineAction({
  permission: 'read',
  input: z.undefined(),
  context: 'forget step-up',
  audit: { action: 'auth.step_up_forget' },
  run: async ({ actor }) => {
    const { db } = await parts();
    await forgetStepUp(db, actor.sessionId);
    return ok(undefined);
  },
});
