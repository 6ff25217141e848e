import 'server-only';
// Demo users in sandbox mode come with authenticator-app factors whose secrets follow from SANDBOX_SEED and the
// email, so a person trying the demo (`npm run sandbox:credentials`) and the end-to-end tests can compute codes.
// Several per user: a code is accepted once, and automated sign-ins running side by side each need their own.
// Never used against the real service.
import { createHmac } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { base32 } from '@/lib/crypto/totp-secret';
import { type ConsoleDb, userFactors, users } from '@/lib/db/schema';
import { otpauthUri, sealTotpSecret } from './totp';

export const DEMO_FACTORS_PER_USER = 6;
const demoLabel = (index: number) => `Demo authenticator ${index + 1}`;

/** The demo user's secret number `index` (0-based): HMAC-SHA256 of the email under the seed, 160 bits. */
export function demoTotpSecret(seed: string, email: string, index = 0): string {
  const mac = createHmac('sha256', seed).update(`demo-totp:${index}:${email.trim().toLowerCase()}`).digest();
  return base32(mac.subarray(0, 20));
}

export function demoFactors(seed: string, email: string) {
  return Array.from({ length: DEMO_FACTORS_PER_USER }, (_, index) => {
    const secret = demoTotpSecret(seed, email, index);
    return { label: demoLabel(index), secret, uri: otpauthUri(secret, email) };
  });
}

/** Enrols the demo users' factors (confirmed), once each; users who already have them are left alone. */
export async function seedDemoFactors(
  db: ConsoleDb,
  options: { sandboxMode: boolean; seed: string; key: Buffer; emails: string[] },
): Promise<void> {
  if (!options.sandboxMode) return;
  const people = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(inArray(users.email, options.emails));
  const now = new Date();
  for (const person of people) {
    const have = await db
      .select({ label: userFactors.label })
      .from(userFactors)
      .where(and(eq(userFactors.userId, person.id), eq(userFactors.kind, 'totp')));
    const labels = new Set(have.map((f) => f.label));
    const missing = demoFactors(options.seed, person.email).filter((f) => !labels.has(f.label));
    if (missing.length === 0) continue;
    await db.insert(userFactors).values(
      missing.map((f) => {
        const id = crypto.randomUUID();
        return {
          id,
          userId: person.id,
          kind: 'totp' as const,
          label: f.label,
          secretSealed: sealTotpSecret(options.key, id, f.secret),
          confirmedAt: now,
        };
      }),
    );
  }
}
