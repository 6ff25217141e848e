import 'server-only';
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { and, asc, desc, eq, gte, ilike, inArray, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import { auditActionsMatching } from '@/lib/audit-actions';
import type { ChainVerdict } from '@/lib/audit-verdict';
import { type AuditRow, auditLog, type ConsoleDb } from '@/lib/db/schema';
import { withoutControlCharacters } from '@/lib/validation/control-characters';
import { redactInput } from './redaction';

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

/** What the entry says when text was cleaned before it was stored. */
const CONTROL_CHARACTERS_REMOVED = 'controlCharactersRemoved';

/**
 * Text as the database can store it: control characters (a NUL above all, which PostgreSQL refuses in text
 * and JSON) become U+FFFD, so the entry of an attempt that carried them is never lost. `changed` says so.
 */
function storable(value: unknown, changed: { yes: boolean }): unknown {
  if (typeof value === 'string') {
    const clean = withoutControlCharacters(value);
    if (clean !== value) changed.yes = true;
    return clean;
  }
  if (Array.isArray(value)) return value.map((v) => storable(v, changed));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [storable(k, changed) as string, storable(v, changed)]),
    );
  }
  return value;
}

/**
 * Appends one entry and resolves once it is stored. The chain never forks: the database keeps each hash the
 * previous hash of at most one entry (a unique index), so of two writers chaining after the same entry, one
 * (another console instance on the same database) is refused and chains again after the winner's.
 *
 * Entries that arrive while an append is being written go into the next insert together (a group commit), chained
 * in arrival order. Nothing waits for a batch to fill: an entry arriving when nothing is being written is written
 * at once, in one statement when this process wrote the chain's last entry.
 *
 * Takes the database, never a transaction: a refused insert would end the transaction around it.
 */
export async function appendAudit(db: ConsoleDb, raw: AuditEntryInput): Promise<AuditRow> {
  const changed = { yes: false };
  // Redacted (and depth-bounded) first, then cleaned.
  const entry = storable({ ...raw, input: redactInput(raw.input ?? {}) }, changed) as AuditEntryInput;
  if (changed.yes) entry.input = { ...(entry.input ?? {}), [CONTROL_CHARACTERS_REMOVED]: true };
  let queue = appendQueues.get(db);
  if (!queue) {
    queue = { waiting: [], writing: false };
    appendQueues.set(db, queue);
  }
  const written = new Promise<AuditRow>((resolve, reject) => queue.waiting.push({ entry, resolve, reject }));
  if (!queue.writing) void drain(db, queue);
  return written;
}

interface WaitingEntry {
  entry: AuditEntryInput;
  resolve(row: AuditRow): void;
  reject(error: unknown): void;
}

/** Entries waiting for the transaction after the one being written, per database. */
const appendQueues = new WeakMap<ConsoleDb, { waiting: WaitingEntry[]; writing: boolean }>();

/** Most entries one transaction writes (11 parameters each). */
const MAX_ENTRIES_PER_APPEND = 200;

/** Writes what waits, batch after batch, until nothing does; one writer per database in this process. */
async function drain(db: ConsoleDb, queue: { waiting: WaitingEntry[]; writing: boolean }) {
  queue.writing = true;
  try {
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0, MAX_ENTRIES_PER_APPEND);
      try {
        const rows = await writeEntries(
          db,
          batch.map((w) => w.entry),
        );
        for (const [i, w] of batch.entries()) w.resolve(rows[i]!);
      } catch (error) {
        if (batch.length === 1 || !(error instanceof InsertRefused)) {
          for (const w of batch) w.reject(error instanceof InsertRefused ? error.cause : error);
          continue;
        }
        // The database refused the insert, so nothing of the batch was kept: each entry again on its own, so
        // that one the database cannot store fails alone.
        for (const w of batch) {
          try {
            w.resolve((await writeEntries(db, [w.entry]))[0]!);
          } catch (single) {
            w.reject(single instanceof InsertRefused ? single.cause : single);
          }
        }
      }
    }
  } finally {
    queue.writing = false;
  }
}

/** The insert itself failed: the transaction was rolled back, so none of its entries exists. */
class InsertRefused extends Error {
  constructor(override readonly cause: unknown) {
    super('The audit entries could not be stored.');
  }
}

/** The chain's last hash as this process last wrote it, per database: where its next entries chain. */
const chainHeads = new WeakMap<ConsoleDb, string>();

/** Writers chaining at the same moment retry at most this often before the append fails. */
const MAX_CHAIN_ATTEMPTS = 20;

/** The insert was refused because another entry already chains after the same one (audit_log_prev_hash). */
function chainedElsewhere(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505' && constraint === 'audit_log_prev_hash') return true;
  }
  return false;
}

async function lastStoredHash(db: ConsoleDb): Promise<string> {
  const [last] = await db.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return last?.hash ?? GENESIS_HASH;
}

/** One insert of the entries chained after the last one: the hash this process wrote last, else the stored one. */
async function writeEntries(db: ConsoleDb, entries: AuditEntryInput[]): Promise<AuditRow[]> {
  for (let attempt = 1; ; attempt++) {
    let prevHash = chainHeads.get(db) ?? (await lastStoredHash(db));
    const values = entries.map((entry) => {
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
      const row = { ...fields, prevHash, hash: hashEntry(prevHash, fields) };
      prevHash = row.hash;
      return row;
    });
    let rows: AuditRow[];
    try {
      // One entry is one statement. Several are kept only if their ids follow the order they were chained in
      // (the chain is read in id order): in a transaction of their own, none is kept otherwise.
      rows =
        values.length === 1
          ? await db.insert(auditLog).values(values).returning()
          : await db.transaction(async (tx) =>
              inChainOrder(values, await tx.insert(auditLog).values(values).returning()),
            );
    } catch (error) {
      chainHeads.delete(db);
      if (error instanceof OutOfOrder) throw error;
      // Another writer chained after the same entry first: chain after the one now last.
      if (chainedElsewhere(error) && attempt < MAX_CHAIN_ATTEMPTS) continue;
      throw new InsertRefused(error);
    }
    chainHeads.set(db, prevHash);
    return rows;
  }
}

class OutOfOrder extends Error {
  constructor() {
    super('Audit entries were stored out of order; none was kept.');
  }
}

/** The stored rows in the order their values were chained; throws when their ids do not follow that order. */
function inChainOrder(values: { hash: string }[], rows: AuditRow[]): AuditRow[] {
  const byHash = new Map(rows.map((r) => [r.hash, r]));
  const ordered = values.map((v) => byHash.get(v.hash));
  if (ordered.some((r, i) => !r || (i > 0 && r.id <= ordered[i - 1]!.id))) throw new OutOfOrder();
  return ordered as AuditRow[];
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
  /** Any part of the actor's email, the action (code or words) or the target. */
  q?: string;
  /** Any part of the actor's email. */
  actor?: string;
  /** Any part of the action's code or of its words ("approval", "withdraw.app"). */
  action?: string;
  from?: string;
  to?: string;
  page?: number;
  pageSize?: number;
}

/** `%text%` for ILIKE with the pattern characters of the text itself taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function actionMatches(text: string): SQL {
  const codes = auditActionsMatching(text);
  const byCode = ilike(auditLog.action, containsPattern(text));
  return codes.length ? (or(byCode, inArray(auditLog.action, codes)) as SQL) : byCode;
}

function auditWhere(filter: AuditFilter): SQL | undefined {
  const where: SQL[] = [];
  const q = filter.q?.trim();
  if (q) {
    const pattern = containsPattern(q);
    where.push(
      or(ilike(auditLog.actorEmail, pattern), ilike(auditLog.target, pattern), actionMatches(q)) as SQL,
    );
  }
  const actor = filter.actor?.trim();
  if (actor) where.push(ilike(auditLog.actorEmail, containsPattern(actor)));
  const action = filter.action?.trim();
  if (action) where.push(actionMatches(action));
  if (filter.from) where.push(gte(auditLog.at, new Date(filter.from).toISOString()));
  if (filter.to) where.push(lte(auditLog.at, new Date(`${filter.to}T23:59:59.999Z`).toISOString()));
  return where.length ? and(...where) : undefined;
}

export async function listAudit(db: ConsoleDb, filter: AuditFilter) {
  const pageSize = filter.pageSize ?? 50;
  const page = Math.max(1, filter.page ?? 1);
  const cond = auditWhere(filter);
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

/**
 * Every entry matching the filter, newest first, read in batches by id (keyset), so an export of a
 * long log neither loads it whole nor skips entries appended while it runs.
 */
export async function* eachAuditEntry(
  db: ConsoleDb,
  filter: Omit<AuditFilter, 'page' | 'pageSize'>,
  batchSize = 500,
): AsyncGenerator<AuditRow> {
  const cond = auditWhere(filter);
  let before: number | null = null;
  for (;;) {
    const rows: AuditRow[] = await db
      .select()
      .from(auditLog)
      .where(before === null ? cond : and(cond, lt(auditLog.id, before)))
      .orderBy(desc(auditLog.id))
      .limit(batchSize);
    yield* rows;
    if (rows.length < batchSize) return;
    before = rows[rows.length - 1]!.id;
  }
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
    .select({
      target: auditLog.target,
      at: auditLog.at,
      actorEmail: auditLog.actorEmail,
      requestedBy: sql<string | null>`${auditLog.input} ->> 'requestedBy'`,
    })
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
    // A change the console made once it was approved names who asked for it.
    if (row.target && !out.has(row.target))
      out.set(row.target, {
        at: new Date(row.at).toISOString(),
        actorEmail: row.requestedBy ?? row.actorEmail,
      });
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
