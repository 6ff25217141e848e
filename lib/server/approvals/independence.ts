import 'server-only';
// Four eyes that hold against an insider. Each account keeps its provenance (account_provenance); the people who
// control an account are the transitive closure of the rows that give control, plus, for an API token, everyone
// shown its secret and the admin who asked for it. A decision counts only when the decider and every other party
// to the request (its requester, the approvers so far) have disjoint control sets: nobody, the two of them
// included, controls both. Pairwise "neither controls the other" is not enough: an admin who asked for two
// accounts would hold both and could request with one and approve with the other.
import { inArray, sql } from 'drizzle-orm';
import { TOKEN_ACTOR_PREFIX, TOKEN_HOLDER_REFUSAL } from '@/lib/approvals/service-tokens';
import { accountProvenance, type ConsoleDb, type ProvenanceKind, users } from '@/lib/db/schema';
import type { AnyDb } from '@/lib/db/types';

type Reader = Pick<ConsoleDb, 'select' | 'execute'>;

/**
 * Provenance that gives control over an account: asking for it (the asker chose whose mailbox it is), setting
 * or seeing its password or factor, asking for its role or for it to sign in again. Approving someone else's
 * request is recorded too but gives no control: the approver never holds the account's credentials, and
 * counting them would make every account added in the console controlled by every admin who ever approved one.
 * Asking for a reset link (`reset`) gives none either: the link goes to the mailbox the account already has, so
 * the asker never holds the new credential; whoever chose that mailbox holds `requested` already.
 */
const CONTROLLING_KINDS: readonly ProvenanceKind[] = ['requested', 'credential', 'factor', 'role', 'enabled'];

/** Account id -> the people who directly control it. Token accounts are `token:<id>`. */
export type ControlGraph = ReadonlyMap<string, ReadonlySet<string>>;

/** One statement: every controlling edge, the people and the tokens alike. */
export async function loadControlGraph(reader: Reader): Promise<ControlGraph> {
  const kinds = sql.join(
    CONTROLLING_KINDS.map((k) => sql`${k}`),
    sql`, `,
  );
  const result = await reader.execute(sql`
    SELECT subject, actor FROM account_provenance WHERE kind IN (${kinds})
    UNION ALL
    SELECT ${TOKEN_ACTOR_PREFIX} || id::text, created_by::text FROM service_tokens
    UNION ALL
    SELECT ${TOKEN_ACTOR_PREFIX} || t.id::text, seen.value
      FROM service_tokens t, jsonb_array_elements_text(t.secret_seen_by) AS seen(value)`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
    subject: string;
    actor: string;
  }>;
  const graph = new Map<string, Set<string>>();
  for (const { subject, actor } of rows) {
    if (!actor || actor === subject) continue;
    const set = graph.get(subject) ?? new Set<string>();
    set.add(actor);
    graph.set(subject, set);
  }
  return graph;
}

/** The account itself and everyone who controls it, directly or through a chain of accounts. */
export function controlSet(graph: ControlGraph, id: string): Set<string> {
  const seen = new Set([id]);
  const queue = [id];
  while (queue.length > 0) {
    const next = queue.pop() as string;
    for (const controller of graph.get(next) ?? []) {
      if (seen.has(controller)) continue;
      seen.add(controller);
      queue.push(controller);
    }
  }
  return seen;
}

/**
 * Every account not independent of `id`: those whose control set meets its control set (everyone who controls
 * it, and everyone any of them controls). One walk each way, for listing who may approve among many people.
 */
export function notIndependentOf(graph: ControlGraph, id: string): Set<string> {
  const controlled = new Map<string, string[]>();
  for (const [subject, controllers] of graph)
    for (const c of controllers) controlled.set(c, [...(controlled.get(c) ?? []), subject]);
  const reach = new Set(controlSet(graph, id));
  const queue = [...reach];
  while (queue.length > 0) {
    const next = queue.pop() as string;
    for (const subject of controlled.get(next) ?? []) {
      if (reach.has(subject)) continue;
      reach.add(subject);
      queue.push(subject);
    }
  }
  return reach;
}

/** Why two accounts are not independent: `shared` controls both (it may be one of the two). */
export interface Conflict {
  other: string;
  shared: string;
}

/** The first party `decider` is not independent of, or null when independent of all of them. */
export function firstConflict(
  graph: ControlGraph,
  decider: string,
  parties: readonly string[],
): Conflict | null {
  const mine = controlSet(graph, decider);
  for (const other of parties) {
    const theirs = controlSet(graph, other);
    for (const id of mine) if (theirs.has(id)) return { other, shared: id };
  }
  return null;
}

/** Whether every two of `ids` are independent. */
export function allIndependent(graph: ControlGraph, ids: readonly string[]): boolean {
  return ids.every((id, i) => firstConflict(graph, id, ids.slice(i + 1)) === null);
}

/**
 * The most accounts among `ids` that are pairwise independent (exact: the console has few admins, and the
 * search stops at `enough`).
 */
export function largestIndependentGroup(
  graph: ControlGraph,
  ids: readonly string[],
  enough = Infinity,
): number {
  const sets = ids.map((id) => controlSet(graph, id));
  const disjoint = (a: Set<string>, b: Set<string>) => {
    for (const x of a) if (b.has(x)) return false;
    return true;
  };
  let best = 0;
  const grow = (start: number, chosen: Set<string>[]) => {
    best = Math.max(best, chosen.length);
    if (best >= enough || chosen.length + (sets.length - start) <= best) return;
    for (let i = start; i < sets.length; i++) {
      const candidate = sets[i] as Set<string>;
      if (chosen.every((c) => disjoint(c, candidate))) grow(i + 1, [...chosen, candidate]);
    }
  };
  grow(0, []);
  return Math.min(best, enough);
}

/** The sentence a refused decider reads: who stands between them and the other party. */
async function conflictSentence(
  reader: Pick<ConsoleDb, 'select'>,
  decider: string,
  conflict: Conflict,
  requesterId: string,
): Promise<string> {
  if (conflict.other.startsWith(TOKEN_ACTOR_PREFIX)) return TOKEN_HOLDER_REFUSAL;
  const ids = [conflict.other, conflict.shared].filter((id) => !id.startsWith(TOKEN_ACTOR_PREFIX));
  const rows = ids.length
    ? await reader.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids))
    : [];
  const email = (id: string) => rows.find((r) => r.id === id)?.email ?? 'another account';
  const party = conflict.other === requesterId ? 'the requester' : 'an earlier approver';
  const who = `${email(conflict.other)} (${party})`;
  const why =
    conflict.shared === decider
      ? `you control the account of ${who}: you asked for it, set its credentials, or asked for its role`
      : conflict.shared === conflict.other
        ? `${who} controls your account: they asked for it, set its credentials, or asked for its role`
        : `${email(conflict.shared)} controls both your account and that of ${who}`;
  return `Your decision cannot count as a second person’s: ${why}. Someone independent of both must decide.`;
}

/** Adds provenance rows (never updated or deleted). */
export async function recordProvenance(
  db: AnyDb,
  rows: Array<{ subject: string; actor: string; kind: ProvenanceKind; requestId?: string | null }>,
  at = new Date(),
): Promise<void> {
  const values = rows
    .filter((r) => r.actor && r.subject && r.actor !== r.subject)
    .map((r) => ({ ...r, requestId: r.requestId ?? null, at }));
  if (values.length === 0) return;
  await (db as ConsoleDb).insert(accountProvenance).values(values);
}

/**
 * Why `deciderId` may not decide on a request as another person (the sentence the engine answers with), or null
 * when they are independent of the requester and of each of `others` (the approvers so far, a proposer).
 */
export async function independenceRefusal(
  reader: Reader,
  deciderId: string,
  requesterId: string,
  others: readonly string[] = [],
): Promise<string | null> {
  const graph = await loadControlGraph(reader);
  const parties = [requesterId, ...others.filter((id) => id !== deciderId && id !== requesterId)];
  const conflict = firstConflict(graph, deciderId, parties);
  return conflict ? conflictSentence(reader, deciderId, conflict, requesterId) : null;
}
