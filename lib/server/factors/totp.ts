import 'server-only';
// Authenticator apps (RFC 6238: SHA-1, 6 digits, 30 s steps, one step either side). The shared secret is sealed
// with the console's encryption key, bound to the factor's id; a code is accepted once (the last step is kept).
import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { generateSync, generateURI, verifySync } from 'otplib';
import { decryptSecret, encryptSecret } from '@/lib/crypto/aead';
import { newTotpSecret } from '@/lib/crypto/totp-secret';
import { type ConsoleDb, userFactors } from '@/lib/db/schema';

const TOTP_PERIOD_S = 30;
const ISSUER = 'Custody Console';
/** The otpauth:// address an authenticator app reads (from a QR code or typed). */
export function otpauthUri(secret: string, email: string): string {
  return generateURI({
    issuer: ISSUER,
    label: email,
    secret,
    algorithm: 'sha1',
    digits: 6,
    period: TOTP_PERIOD_S,
  });
}

/** The code for a moment (tests and the demo's printed secrets). */
export function totpCodeAt(secret: string, nowMs: number): string {
  return generateSync({ secret, epoch: Math.floor(nowMs / 1000) });
}

const aad = (factorId: string) => `factor:${factorId}`;

export function sealTotpSecret(key: Buffer, factorId: string, secret: string): string {
  return encryptSecret(secret, key, aad(factorId));
}

function openTotpSecret(key: Buffer, factorId: string, sealed: string): string {
  return decryptSecret(sealed, key, aad(factorId));
}

/** The time step a valid code belongs to, or null (wrong code, wrong shape, outside one step either side). */
function matchingStep(secret: string, code: string, nowMs: number, afterStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = verifySync({
      secret,
      token: code,
      epoch: Math.floor(nowMs / 1000),
      epochTolerance: TOTP_PERIOD_S,
      ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/** Starts an authenticator-app enrolment: an unconfirmed factor whose secret is shown once to its owner. */
export async function enrollTotp(
  db: ConsoleDb,
  key: Buffer,
  user: { id: string; email: string },
  label: string,
  secret = newTotpSecret(),
): Promise<{ factorId: string; secret: string; uri: string }> {
  const factorId = crypto.randomUUID();
  // One enrolment at a time: an earlier one never confirmed is dropped.
  await db
    .delete(userFactors)
    .where(
      and(eq(userFactors.userId, user.id), eq(userFactors.kind, 'totp'), isNull(userFactors.confirmedAt)),
    );
  await db.insert(userFactors).values({
    id: factorId,
    userId: user.id,
    kind: 'totp',
    label,
    secretSealed: sealTotpSecret(key, factorId, secret),
  });
  return { factorId, secret, uri: otpauthUri(secret, user.email) };
}

/**
 * Checks a code against one of the user's authenticator apps and, when it matches, records its step so the
 * same code (or an earlier one) is never accepted again: the update only lands while the stored step is older,
 * so two requests racing with one code cannot both pass. `factorId` limits the check to one factor (confirming
 * an enrolment); otherwise only confirmed factors count. Returns the factor that matched.
 */
export async function verifyTotp(
  db: ConsoleDb,
  key: Buffer,
  userId: string,
  code: string,
  options: { factorId?: string; now?: number } = {},
): Promise<{ factorId: string } | null> {
  const now = options.now ?? Date.now();
  const rows = await db
    .select()
    .from(userFactors)
    .where(
      and(
        eq(userFactors.userId, userId),
        eq(userFactors.kind, 'totp'),
        options.factorId ? eq(userFactors.id, options.factorId) : isNotNull(userFactors.confirmedAt),
      ),
    );
  for (const row of rows) {
    if (!row.secretSealed) continue;
    let secret: string;
    try {
      secret = openTotpSecret(key, row.id, row.secretSealed);
    } catch {
      continue;
    }
    const step = matchingStep(secret, code.trim(), now, row.lastStep);
    if (step === null) continue;
    const at = new Date(now);
    const [won] = await db
      .update(userFactors)
      .set({ lastStep: step, lastUsedAt: at, ...(row.confirmedAt ? {} : { confirmedAt: at }) })
      .where(
        and(eq(userFactors.id, row.id), or(isNull(userFactors.lastStep), lt(userFactors.lastStep, step))),
      )
      .returning({ id: userFactors.id });
    if (won) return { factorId: won.id };
  }
  return null;
}
