import 'server-only';
// Passkeys (WebAuthn, through SimpleWebAuthn): registration and assertion, each against a one-time challenge.
// The console keeps the credential's id, public key (COSE) and signature counter; never a private key.
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, eq, isNotNull } from 'drizzle-orm';
import { type ConsoleDb, userFactors } from '@/lib/db/schema';
import type { RelyingParty } from './relying-party';

export type { AuthenticationResponseJSON, RegistrationResponseJSON };

async function passkeysOf(db: ConsoleDb, userId: string) {
  return db
    .select()
    .from(userFactors)
    .where(
      and(
        eq(userFactors.userId, userId),
        eq(userFactors.kind, 'passkey'),
        isNotNull(userFactors.confirmedAt),
      ),
    );
}

/** Options for the browser's `navigator.credentials.create`, for a challenge already stored. */
export async function registrationOptions(
  db: ConsoleDb,
  rp: RelyingParty,
  user: { id: string; email: string; name: string },
  challenge: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await passkeysOf(db, user.id);
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user.id),
    challenge: Buffer.from(challenge, 'base64url'),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId!, transports: p.transports ?? undefined })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** Verifies a registration and stores the passkey, confirmed. Null when it does not verify. */
export async function registerPasskey(
  db: ConsoleDb,
  rp: RelyingParty,
  userId: string,
  challenge: string,
  response: RegistrationResponseJSON,
  label: string,
): Promise<{ factorId: string } | null> {
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
  } catch {
    return null;
  }
  if (!verified.verified) return null;
  const { credential } = verified.registrationInfo;
  const now = new Date();
  const [row] = await db
    .insert(userFactors)
    .values({
      userId,
      kind: 'passkey',
      label,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? null,
      confirmedAt: now,
    })
    .onConflictDoNothing({ target: userFactors.credentialId })
    .returning({ id: userFactors.id });
  return row ? { factorId: row.id } : null;
}

/** Options for `navigator.credentials.get`, limited to the user's passkeys; null when they have none. */
export async function assertionOptions(
  db: ConsoleDb,
  rp: RelyingParty,
  userId: string,
  challenge: string,
): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
  const passkeys = await passkeysOf(db, userId);
  if (passkeys.length === 0) return null;
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    challenge: Buffer.from(challenge, 'base64url'),
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId!, transports: p.transports ?? undefined })),
    userVerification: 'preferred',
  });
}

/**
 * Verifies an assertion by one of the user's passkeys against the challenge, and moves its counter on.
 * A counter that does not grow (a cloned authenticator) fails inside the library.
 */
export async function verifyPasskey(
  db: ConsoleDb,
  rp: RelyingParty,
  userId: string,
  challenge: string,
  response: AuthenticationResponseJSON,
): Promise<{ factorId: string } | null> {
  const passkeys = await passkeysOf(db, userId);
  const row = passkeys.find((p) => p.credentialId === response?.id);
  if (!row?.publicKey || !row.credentialId) return null;
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: row.credentialId,
        publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
        counter: row.counter ?? 0,
        transports: (row.transports ?? undefined) as never,
      },
      requireUserVerification: false,
    });
  } catch {
    return null;
  }
  if (!result.verified) return null;
  await db
    .update(userFactors)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(eq(userFactors.id, row.id));
  return { factorId: row.id };
}
