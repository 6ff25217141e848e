import 'server-only';
// Spending limits: what the console's own money-moving requests add up to in a rolling window, and what a new
// request would leave. A request is checked when it is created and again at its final approval, each time
// under one database lock (an advisory lock inside the transaction that inserts or approves), so two requests
// checked at the same moment never both fit under a limit that only one fits under. Amounts are exact
// decimals (bigint), never binary floating point.
import { and, asc, gt, inArray, ne, sql } from 'drizzle-orm';
import { kindsWhere, type LimitCounting, traitsOf } from '@/lib/approvals/kinds';
import {
  describeRule,
  type LimitCheck,
  type LimitCheckRow,
  type LimitRemaining,
  limitAmountWords,
  type SpendingRule,
} from '@/lib/approvals/limits';
import { type ConsoleDb, operationRequests, spendingLimits, walletConnections } from '@/lib/db/schema';
import { addressKey } from '@/lib/validation/addresses';

/** The kinds whose money counts against limits (the kinds' traits say which and how). */
export const LIMITED_KINDS = kindsWhere((traits) => traits.limits !== null);

export function isLimitedKind(type: string): boolean {
  return (traitsOf(type)?.limits ?? null) !== null;
}

/**
 * Requests whose money is on its way or may still go: approved, being sent, sent, settled, with an open
 * outcome, or refused upstream but open to a resubmission. Rejected, expired, cancelled and failed ones free
 * their amount.
 */
const COMMITTED_STATUSES = [
  'APPROVED',
  'SUBMITTING',
  'SUBMITTED',
  'SUCCESS',
  'SUBMIT_FAILED',
  'OUTCOME_UNKNOWN',
  'DUPLICATE',
];

/**
 * At creation, requests still waiting for approval count too: two requests made one after the other must
 * not both fit. At the final approval only the committed ones count: a request waiting beside this one may
 * never be approved, and it is checked again at its own final approval.
 */
export const COUNTED_AT = {
  create: ['PENDING_APPROVAL', ...COMMITTED_STATUSES],
  approval: COMMITTED_STATUSES,
} as const;

/** The fixed advisory lock every limit check and the insert or approval that follows it run under. */
const LIMITS_LOCK_KEY = 7304;

// --- exact decimals -------------------------------------------------------------------------------------------

/** Fixed scale of the arithmetic: enough for any asset's decimals (the spec's assets have at most 36). */
const SCALE = 36;
const ONE = 10n ** BigInt(SCALE);
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

function toUnits(value: string): bigint {
  const match = DECIMAL.exec(value.trim());
  if (!match) throw new RangeError(`Not a decimal amount: ${value}`);
  const fraction = (match[3] ?? '').slice(0, SCALE).padEnd(SCALE, '0');
  const units = BigInt(match[2] ?? '0') * ONE + BigInt(fraction || '0');
  return match[1] ? -units : units;
}

function fromUnits(units: bigint, places?: number): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  let fraction = (abs % ONE).toString().padStart(SCALE, '0');
  fraction = places === undefined ? fraction.replace(/0+$/, '') : fraction.slice(0, places);
  const text = `${abs / ONE}${fraction ? `.${fraction}` : ''}`;
  return negative && abs !== 0n ? `-${text}` : text;
}

// --- what a request moves ---------------------------------------------------------------------------------------

/** One movement of a request: an amount of an asset to a destination (null for a swap), with its USD value. */
export interface Contribution {
  destination: string | null;
  symbol: string;
  amount: string;
  /** USD to the cent; null when no price was known. */
  usd: string | null;
  /** Swaps count against USD limits only when priced; an unpriced withdrawal counts as over a USD limit. */
  pricedOnly: boolean;
}

const usdText = (value: unknown): string | null =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value.toFixed(2) : null;

/** The movements of a request, read from its payload and the USD values its review carries. */
export function contributionsOf(type: string, payload: unknown, review: unknown): Contribution[] {
  const counting = traitsOf(type)?.limits ?? null;
  if (counting === null) return [];
  return COUNTED_BY[counting](
    (payload ?? {}) as Record<string, unknown>,
    (review ?? {}) as Record<string, unknown>,
  );
}

type Counter = (payload: Record<string, unknown>, review: Record<string, unknown>) => Contribution[];

const COUNTED_BY: { readonly [C in LimitCounting]: Counter } = {
  recipients: recipientContributions,
  swap: swapContributions,
  contractCalls: (_payload, review) => contractContributions(review),
  signature: (_payload, review) => signatureContributions(review),
};

/** A swap's amount sold, with no destination: its proceeds stay at its address. */
function swapContributions(p: Record<string, unknown>, r: Record<string, unknown>): Contribution[] {
  if (typeof p.amount !== 'string' || typeof p.fromSymbol !== 'string') return [];
  return [
    {
      destination: null,
      symbol: p.fromSymbol,
      amount: p.amount,
      usd: usdText(r.amountUsd),
      pricedOnly: true,
    },
  ];
}

/** Each payload item's amount to its address, priced by the review's line of the same index. */
function recipientContributions(p: Record<string, unknown>, r: Record<string, unknown>): Contribution[] {
  const items = Array.isArray(p.items) ? (p.items as Array<Record<string, unknown>>) : [];
  // A withdrawal's review lists its recipients as `items`, a payout file's as `rows`, in payload order.
  const listed = Array.isArray(r.items) ? r.items : Array.isArray(r.rows) ? r.rows : [];
  const reviewed = listed as Array<Record<string, unknown>>;
  return items.flatMap((item, index) =>
    typeof item.amount === 'string' && typeof item.symbol === 'string' && typeof item.address === 'string'
      ? [
          {
            destination: addressKey(item.address),
            symbol: item.symbol,
            amount: item.amount,
            usd: usdText(reviewed[index]?.usd),
            pricedOnly: false,
          },
        ]
      : [],
  );
}

const USD_CENTS = /^\d+\.\d{2}$/;

/**
 * A permit's allowance to its spender, or an authorization's transfer to its recipient, as the review read and
 * priced it. A signature the console could not read counts nothing here: it needs the highest quorum instead.
 */
function signatureContributions(review: Record<string, unknown>): Contribution[] {
  const description = (review.description ?? {}) as Record<string, unknown>;
  const value = (description.value ?? {}) as Record<string, unknown>;
  const token = (description.token ?? {}) as Record<string, unknown>;
  if (
    typeof description.spender !== 'string' ||
    typeof token.symbol !== 'string' ||
    typeof value.units !== 'string' ||
    !DECIMAL.test(value.units)
  )
    return [];
  const usd = review.valueUsd;
  return [
    {
      destination: addressKey(description.spender),
      symbol: token.symbol,
      amount: value.units,
      usd: typeof usd === 'string' && USD_CENTS.test(usd) ? usd : null,
      pricedOnly: false,
    },
  ];
}

/**
 * A contract call's movements as its review decoded and priced them (the payload holds only the ABI call):
 * a transfer to its recipient, an allowance to its spender, native coin to the contract. A call the console
 * could not decode or price has no USD value, so it counts as over a USD limit, as an unpriced withdrawal does.
 */
function contractContributions(review: Record<string, unknown>): Contribution[] {
  const calls = Array.isArray(review.calls) ? (review.calls as Array<Record<string, unknown>>) : [];
  return calls.flatMap((call) =>
    (Array.isArray(call.movements) ? (call.movements as Array<Record<string, unknown>>) : []).flatMap((m) =>
      typeof m.destination === 'string' &&
      typeof m.symbol === 'string' &&
      typeof m.amount === 'string' &&
      DECIMAL.test(m.amount)
        ? [
            {
              destination: addressKey(m.destination),
              symbol: m.symbol,
              amount: m.amount,
              usd: typeof m.usd === 'string' && USD_CENTS.test(m.usd) ? m.usd : null,
              pricedOnly: false,
            },
          ]
        : [],
    ),
  );
}

// --- the window arithmetic ----------------------------------------------------------------------------------------

export interface LimitHistoryEntry {
  walletId: string;
  requesterId: string;
  createdAt: Date;
  contributions: Contribution[];
}

export interface LimitCandidate {
  walletId: string;
  requesterId: string;
  contributions: Contribution[];
}

/** Where a window starts: requests created after this instant count. */
export function windowStart(now: Date, hours: number): Date {
  return new Date(now.getTime() - hours * 3_600_000);
}

/** What one movement adds under a rule: units, 'skip' (not counted by it) or 'unknown' (no USD value). */
function counted(rule: SpendingRule, c: Contribution): bigint | 'skip' | 'unknown' {
  if (rule.assetSymbol && c.symbol !== rule.assetSymbol) return 'skip';
  if (rule.unit === 'asset') return toUnits(c.amount);
  if (c.usd === null) return c.pricedOnly ? 'skip' : 'unknown';
  return toUnits(c.usd);
}

function ruleApplies(rule: SpendingRule, walletId: string): boolean {
  return rule.walletId === null || rule.walletId === walletId;
}

/** Whether a past request falls in the same group as the candidate under the rule (before destinations). */
function sameGroup(rule: SpendingRule, entry: LimitHistoryEntry, candidate: LimitCandidate): boolean {
  if (!ruleApplies(rule, entry.walletId)) return false;
  if (rule.scope === 'wallet') return entry.walletId === candidate.walletId;
  if (rule.scope === 'requester') return entry.requesterId === candidate.requesterId;
  return true;
}

/** What the past requests of the rule's window and group hold (a movement with no USD value adds nothing). */
function usedBy(
  rule: SpendingRule,
  history: LimitHistoryEntry[],
  candidate: LimitCandidate,
  now: Date,
  destination: string | null,
): bigint {
  const since = windowStart(now, rule.windowHours).getTime();
  let used = 0n;
  for (const entry of history) {
    if (entry.createdAt.getTime() <= since || !sameGroup(rule, entry, candidate)) continue;
    for (const c of entry.contributions) {
      if (destination !== null && c.destination !== destination) continue;
      const units = counted(rule, c);
      if (typeof units === 'bigint') used += units;
    }
  }
  return used;
}

function symbolOf(rule: SpendingRule): string {
  return rule.unit === 'usd' ? 'USD' : (rule.assetSymbol ?? '');
}

const places = (rule: SpendingRule) => (rule.unit === 'usd' ? 2 : undefined);

/**
 * Every rule that applies to the candidate, with what its window holds, what the candidate adds and what is
 * left after it. A candidate whose USD value is unknown breaks a USD rule: a missing price never lowers the bar.
 */
export function evaluateLimits(
  rules: SpendingRule[],
  history: LimitHistoryEntry[],
  candidate: LimitCandidate,
  now: Date,
  nameOf: (walletId: string | null) => string | null = () => null,
): LimitCheck {
  const rows: LimitCheckRow[] = [];
  for (const rule of rules) {
    if (!ruleApplies(rule, candidate.walletId)) continue;
    const destinations =
      rule.scope === 'destination'
        ? [...new Set(candidate.contributions.map((c) => c.destination).filter((d) => d !== null))]
        : [null];
    for (const destination of destinations) {
      let request: bigint | null = 0n;
      let applies = false;
      for (const c of candidate.contributions) {
        if (destination !== null && c.destination !== destination) continue;
        const units = counted(rule, c);
        if (units === 'skip') continue;
        applies = true;
        request = units === 'unknown' || request === null ? null : request + units;
      }
      if (!applies) continue;
      const limit = toUnits(rule.limit);
      const used = usedBy(rule, history, candidate, now, destination);
      const after = request === null ? null : limit - used - request;
      rows.push({
        ruleId: rule.id,
        rule: describeRule(rule, nameOf(rule.walletId)),
        unit: rule.unit,
        symbol: symbolOf(rule),
        limit: fromUnits(limit, places(rule)),
        destination,
        used: fromUnits(used, places(rule)),
        request: request === null ? null : fromUnits(request, places(rule)),
        remainingAfter: after === null ? null : fromUnits(after, places(rule)),
        breached: after === null || after < 0n,
        onBreach: rule.onBreach,
        extraApprovals: rule.onBreach === 'approvals' ? rule.extraApprovals : 0,
      });
    }
  }
  const broken = rows.filter((r) => r.breached);
  return {
    rows,
    extraApprovals: Math.max(0, ...broken.map((r) => r.extraApprovals)),
    refusedBy: broken.find((r) => r.onBreach === 'refuse') ?? null,
    checkedAt: now.toISOString(),
  };
}

/** What is left of each wallet and requester rule before an amount is typed (destination rules need one). */
export function remainingOf(
  rules: SpendingRule[],
  history: LimitHistoryEntry[],
  who: { walletId: string; requesterId: string },
  now: Date,
  nameOf: (walletId: string | null) => string | null = () => null,
): LimitRemaining[] {
  const candidate: LimitCandidate = { ...who, contributions: [] };
  return rules
    .filter((rule) => ruleApplies(rule, who.walletId))
    .map((rule) => {
      const limit = toUnits(rule.limit);
      const used = rule.scope === 'destination' ? null : usedBy(rule, history, candidate, now, null);
      const remaining = used === null ? null : limit - used;
      return {
        ruleId: rule.id,
        rule: describeRule(rule, nameOf(rule.walletId)),
        windowHours: rule.windowHours,
        unit: rule.unit,
        symbol: symbolOf(rule),
        limit: fromUnits(limit, places(rule)),
        used: used === null ? null : fromUnits(used, places(rule)),
        remaining: remaining === null ? null : fromUnits(remaining < 0n ? 0n : remaining, places(rule)),
        onBreach: rule.onBreach,
        extraApprovals: rule.onBreach === 'approvals' ? rule.extraApprovals : 0,
        onlySymbol: rule.unit === 'usd' ? (rule.assetSymbol ?? null) : null,
      };
    });
}

/** The sentence of a refusal: which rule, and by how much the request goes over it. */
export function refusalMessage(row: LimitCheckRow): string {
  const amount = (value: string) => limitAmountWords(value, row.unit, row.symbol);
  const to = row.destination ? ` to ${row.destination}` : '';
  if (row.request === null || row.remainingAfter === null)
    return `Refused by the spending limit ${row.rule}: the USD value of this request${to} is unknown, so it counts as over the limit.`;
  const over = row.remainingAfter.replace(/^-/, '');
  return `Refused by the spending limit ${row.rule}: ${amount(row.used)} already counted in the window, this request${to} adds ${amount(row.request)}, ${amount(over)} over the limit of ${amount(row.limit)}.`;
}

// --- the database ----------------------------------------------------------------------------------------------

type Db = Pick<ConsoleDb, 'select' | 'execute'>;

export function ruleOf(row: typeof spendingLimits.$inferSelect): SpendingRule {
  return {
    id: row.id,
    walletId: row.walletId,
    scope: row.scope as SpendingRule['scope'],
    windowHours: row.windowHours,
    unit: row.unit === 'asset' ? 'asset' : 'usd',
    assetSymbol: row.assetSymbol,
    limit: fromUnits(toUnits(row.limitAmount)),
    onBreach: row.onBreach === 'refuse' ? 'refuse' : 'approvals',
    extraApprovals: row.extraApprovals,
  };
}

/** The rules in force with how each reads, for the policy page. */
export async function listSpendingLimits(db: Db): Promise<Array<SpendingRule & { description: string }>> {
  const [rules, nameOf] = await Promise.all([loadRules(db), walletNames(db)]);
  return rules.map((rule) => ({ ...rule, description: describeRule(rule, nameOf(rule.walletId)) }));
}

async function loadRules(db: Db): Promise<SpendingRule[]> {
  const rows = await db.select().from(spendingLimits).orderBy(asc(spendingLimits.createdAt));
  return rows.map(ruleOf);
}

/** Wallet names for rule descriptions. */
export async function walletNames(db: Db): Promise<(walletId: string | null) => string | null> {
  const rows = await db
    .select({ id: walletConnections.id, name: walletConnections.name })
    .from(walletConnections);
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return (walletId) => (walletId === null ? null : (names.get(walletId) ?? null));
}

async function loadHistory(
  db: Db,
  rules: SpendingRule[],
  now: Date,
  statuses: readonly string[],
  excludeId?: string,
): Promise<LimitHistoryEntry[]> {
  if (rules.length === 0) return [];
  const since = windowStart(now, Math.max(...rules.map((r) => r.windowHours)));
  const rows = await db
    .select({
      type: operationRequests.type,
      walletId: operationRequests.walletId,
      requesterId: operationRequests.requesterId,
      createdAt: operationRequests.createdAt,
      payload: operationRequests.payload,
      review: operationRequests.review,
    })
    .from(operationRequests)
    .where(
      and(
        inArray(operationRequests.type, LIMITED_KINDS),
        inArray(operationRequests.status, [...statuses]),
        gt(operationRequests.createdAt, since),
        excludeId ? ne(operationRequests.id, excludeId) : undefined,
      ),
    );
  return rows.map((row) => ({
    walletId: row.walletId,
    requesterId: row.requesterId,
    createdAt: row.createdAt,
    contributions: contributionsOf(row.type, row.payload, row.review),
  }));
}

/**
 * When any limit is in force, takes the limits lock for the rest of the transaction `tx`: the check and the
 * insert or approval after it happen as one step for every console instance on the database (PGlite is one
 * process; the lock is the same). Without a limit nothing is serialised, and false says there is nothing to check.
 */
export async function lockLimits(tx: Db): Promise<boolean> {
  const [any] = await tx.select({ id: spendingLimits.id }).from(spendingLimits).limit(1);
  if (!any) return false;
  await takeLimitsLock(tx);
  return true;
}

/** Whether any limit is in force, as a column of a query the caller makes anyway (what `lockLimits` reads first). */
export function limitsInForce() {
  return sql<boolean>`exists (select 1 from ${spendingLimits})`.mapWith(Boolean);
}

/** The limits lock, for a caller that has read `limitsInForce()` in this transaction and found a limit. */
export async function takeLimitsLock(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LIMITS_LOCK_KEY})`);
}

/** The check of a request against every rule, reading the rules and the window's requests through `db`. */
export async function checkLimits(
  db: Db,
  candidate: LimitCandidate,
  now: Date,
  moment: keyof typeof COUNTED_AT,
  excludeId?: string,
): Promise<LimitCheck> {
  const rules = await loadRules(db);
  const history = await loadHistory(db, rules, now, COUNTED_AT[moment], excludeId);
  return evaluateLimits(rules, history, candidate, now, await walletNames(db));
}

/** What is left today for a person about to request from a wallet. */
export async function remainingLimits(
  db: Db,
  who: { walletId: string; requesterId: string },
  now: Date,
): Promise<LimitRemaining[]> {
  const rules = await loadRules(db);
  const history = await loadHistory(db, rules, now, COUNTED_AT.create);
  return remainingOf(rules, history, who, now, await walletNames(db));
}
