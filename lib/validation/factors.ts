// Second factors and step-up: the schemas the security page, the sign-in form and the step-up dialog share
// with their actions.
import { z } from 'zod';
import { plainText } from './text';

const code = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code');

export const factorLabelSchema = z.object({
  label: plainText().trim().min(1, 'Name it').max(60, 'At most 60 characters'),
});

export const confirmTotpSchema = z.object({ factorId: z.uuid(), code });

export const factorIdSchema = z.object({ factorId: z.uuid() });

// The browser's WebAuthn answer, passed through to SimpleWebAuthn, which checks every part of it.
const webAuthnAnswer = z
  .object({
    id: z.string().max(1024),
    rawId: z.string().max(1024),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
  })
  .passthrough();

export const finishPasskeySchema = factorLabelSchema.extend({
  challengeId: z.uuid(),
  response: webAuthnAnswer,
});

const payloadHash = z.string().regex(/^[0-9a-f]{64}$/, 'Unknown request');

export const stepUpPasskeySchema = z.object({ payloadHash });

export const verifyStepUpSchema = z.union([
  z.object({ payloadHash, code }),
  z.object({ payloadHash, challengeId: z.uuid(), assertion: webAuthnAnswer }),
]);

export const stepUpCodeSchema = z.object({ code });
