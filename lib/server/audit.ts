import 'server-only';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { and, asc, desc, eq, gte, inArray, lte, type SQL, sql } from 'drizzle-orm';
import type { ChainVerdict } from '@/lib/audit-verdict';
import { type AuditRow, auditLog, type ConsoleDb } from '@/lib/db/schema';
import { redactInput } from './redact';

export const GENESIS_HASH = '0'.repeat(64);

export interface AuditEntryInput {
  actorId: string | null;
  actorEmail: string;
  role: string;
  action: string;
  target?: string | null;
  input?: Record<string, unknown>;
  outcome: 'success' | 'denied' | 'failed' | string;
  requestId?: string | null;
}

type ChainFields = Omit<AuditRow, 'id' | 'hash' | 'prevHash'>;

/** SHA-256 over the previous hash and the entry's canonical JSON (RFC 8785). */
export function hashEntry(prevHash: string, entry: ChainFields): string {
  const body = canonicalize({
    // The database hands timestamps back in its own format; hash one canonical spelling.
    at: new Date(entry.at).toISOString(),
    actorId: entry.actorId,
    actorEmail: entry.actorEmail,
    role: entry.role,
    action: entry.action,
    target: entry.target,
    input: entry.input,
    outcome: entry.outcome,
    requestId: entry.requestId,
  });
  return createHash('sha256')
    .update(prevHash + body)
    .digest('hex');
}

/** Appends one entry; serialised by an advisory lock so the chain never forks. */
export async function appendAudit(db: ConsoleDb, entry: AuditEntryInput): Promise<AuditRow> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7301)`);
    const [last] = await tx
      .select({ hash: auditLog.hash })
      .from(auditLog)
      .orderBy(desc(auditLog.id))
      .limit(1);
    const prevHash = last?.hash ?? GENESIS_HASH;
    const fields: ChainFields = {
      at: new Date().toISOString(),
      actorId: entry.actorId,
      actorEmail: entry.actorEmail,
      role: entry.role,
      action: entry.action,
      target: entry.target ?? null,
      input: redactInput(entry.input ?? {}),
      outcome: entry.outcome,
      requestId: entry.requestId ?? null,
    };
    const [row] = await tx
      .insert(auditLog)
      .values({ ...fields, prevHash, hash: hashEntry(prevHash, fields) })
      .returning();
    return row!;
  });
}

export type { ChainVerdict };

/** Walks the chain in order and reports the first entry whose link or content does not hold. */
export async function verifyAuditChain(db: ConsoleDb): Promise<ChainVerdict> {
  const rows = await db.select().from(auditLog).orderBy(asc(auditLog.id));
  let prevHash = GENESIS_HASH;
  for (const row of rows) {
    if (row.prevHash !== prevHash) {
      return {
        ok: false,
        entries: rows.length,
        brokenAt: row.id,
        reason: 'the entry before this one was changed or removed',
      };
    }
    if (hashEntry(row.prevHash, row) !== row.hash) {
      return {
        ok: false,
        entries: rows.length,
        brokenAt: row.id,
        reason: 'this entry was changed after it was written',
      };
    }
    prevHash = row.hash;
  }
  return { ok: true, entries: rows.length };
}

export interface AuditFilter {
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
  page?: number;
  pageSize?: number;
}

export async function listAudit(db: ConsoleDb, filter: AuditFilter) {
  const where: SQL[] = [];
  if (filter.actor) where.push(eq(auditLog.actorEmail, filter.actor.toLowerCase()));
  if (filter.action) where.push(eq(auditLog.action, filter.action));
  if (filter.from) where.push(gte(auditLog.at, new Date(filter.from).toISOString()));
  if (filter.to) where.push(lte(auditLog.at, new Date(`${filter.to}T23:59:59.999Z`).toISOString()));
  const pageSize = filter.pageSize ?? 50;
  const page = Math.max(1, filter.page ?? 1);
  const cond = where.length ? and(...where) : undefined;
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(cond)
      .orderBy(desc(auditLog.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(cond),
  ]);
  return { rows, total: count?.n ?? 0, page, pageSize };
}

/** The newest successful audit entry per target among some actions: "last updated by whom, when". */
export async function lastChangeOf(
  db: ConsoleDb,
  actions: string[],
  targets: string[],
): Promise<Map<string, { at: string; actorEmail: string }>> {
  const out = new Map<string, { at: string; actorEmail: string }>();
  if (targets.length === 0) return out;
  const rows = await db
    .select({ target: auditLog.target, at: auditLog.at, actorEmail: auditLog.actorEmail })
    .from(auditLog)
    .where(
      and(
        inArray(auditLog.action, actions),
        inArray(auditLog.target, targets),
        eq(auditLog.outcome, 'success'),
      ),
    )
    .orderBy(desc(auditLog.id));
  for (const row of rows) {
    if (row.target && !out.has(row.target))
      out.set(row.target, { at: new Date(row.at).toISOString(), actorEmail: row.actorEmail });
  }
  return out;
}

/** Successful entries of one action whose input names a value (e.g. everything deleted in one wallet). */
export async function auditEntriesWith(db: ConsoleDb, action: string, inputKey: string, inputValue: string) {
  return db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.action, action),
        eq(auditLog.outcome, 'success'),
        sql`${auditLog.input} ->> ${inputKey} = ${inputValue}`,
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(100);
}
