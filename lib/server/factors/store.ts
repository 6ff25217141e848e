import 'server-only';
// A person's second factors as their security page lists them, and the rule that a person with approval rights
// always keeps at least one.
import { and, asc, eq, isNotNull } from 'drizzle-orm';
import { type ConsoleDb, type Role, userFactors } from '@/lib/db/schema';
import { ACTIONS, can } from '@/lib/server/permissions';

/** People who may approve anything must prove a second factor at sign-in and keep one enrolled. */
export function requiresSecondFactor(role: Role): boolean {
  return ACTIONS.some((action) => action.endsWith('.approve') && can(role, action));
}

export interface FactorSummary {
  id: string;
  kind: 'totp' | 'passkey';
  label: string;
  confirmed: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The user's factors, without any secret or key material. */
export async function listFactors(db: ConsoleDb, userId: string): Promise<FactorSummary[]> {
  const rows = await db
    .select({
      id: userFactors.id,
      kind: userFactors.kind,
      label: userFactors.label,
      confirmedAt: userFactors.confirmedAt,
      createdAt: userFactors.createdAt,
      lastUsedAt: userFactors.lastUsedAt,
    })
    .from(userFactors)
    .where(eq(userFactors.userId, userId))
    .orderBy(asc(userFactors.createdAt), asc(userFactors.label));
  return rows.map(({ confirmedAt, ...row }) => ({ ...row, confirmed: confirmedAt !== null }));
}

export async function confirmedFactorKinds(db: ConsoleDb, userId: string): Promise<Set<'totp' | 'passkey'>> {
  const rows = await db
    .select({ kind: userFactors.kind })
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt)));
  return new Set(rows.map((r) => r.kind));
}

export type RemoveFactorResult =
  | { ok: true; label: string }
  | { ok: false; error: string; status: 404 | 409 };

/** Removes one of the user's own factors; the last confirmed one of a person with approval rights stays. */
export async function removeFactor(
  db: ConsoleDb,
  user: { id: string; role: Role },
  factorId: string,
): Promise<RemoveFactorResult> {
  return db.transaction(async (tx) => {
    const mine = await tx
      .select({ id: userFactors.id, label: userFactors.label, confirmedAt: userFactors.confirmedAt })
      .from(userFactors)
      .where(eq(userFactors.userId, user.id))
      .for('update');
    const target = mine.find((f) => f.id === factorId);
    if (!target) return { ok: false, error: 'This factor does not exist.', status: 404 };
    const confirmedLeft = mine.filter((f) => f.confirmedAt && f.id !== factorId).length;
    if (target.confirmedAt && confirmedLeft === 0 && requiresSecondFactor(user.role)) {
      return {
        ok: false,
        error:
          'You approve requests, so you keep at least one second factor. Add another before removing this one.',
        status: 409,
      };
    }
    await tx.delete(userFactors).where(eq(userFactors.id, factorId));
    return { ok: true, label: target.label };
  });
}
