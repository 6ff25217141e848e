// Spending limits: policy rules over rolling windows (in USD or in one asset, per wallet, per requester or per
// destination) and what a request that would break one needs: more approvals, or nothing (refused).
// Browser-safe: the policy page, the withdrawal form and the review read these shapes.

/** Whose spending a rule adds up: the wallet's, each requester's, or what goes to each destination address. */
export const LIMIT_SCOPES = ['wallet', 'requester', 'destination'] as const;
export type LimitScope = (typeof LIMIT_SCOPES)[number];

export const LIMIT_SCOPE_WORDS: Record<LimitScope, string> = {
  wallet: 'per wallet',
  requester: 'per requester',
  destination: 'per destination address',
};

/** The rolling windows an admin picks from, in hours. */
export const LIMIT_WINDOWS = [
  { hours: 1, label: '1 hour' },
  { hours: 24, label: '24 hours' },
  { hours: 168, label: '7 days' },
] as const;

export type LimitBreach = 'approvals' | 'refuse';

/** The rule as stored and as the policy page edits it. Amounts are decimal strings. */
export interface SpendingRuleValues {
  /** The wallet it applies to; null: every wallet (each adds up on its own under `wallet` scope). */
  walletId: string | null;
  scope: LimitScope;
  windowHours: number;
  /** `usd`: the USD value of priced requests; `asset`: amounts of `assetSymbol`. */
  unit: 'usd' | 'asset';
  /** With `asset`, the asset counted; with `usd`, an optional filter (null: every asset). */
  assetSymbol: string | null;
  limit: string;
  onBreach: LimitBreach;
  /** With `approvals`: how many approvers beyond the policy's. */
  extraApprovals: number;
}

export interface SpendingRule extends SpendingRuleValues {
  id: string;
}

/** One rule against one request: how much the window holds, what this request adds and what is left after. */
export interface LimitCheckRow {
  ruleId: string;
  /** "$1,000.00 per 24 hours per wallet (Treasury)". */
  rule: string;
  unit: 'usd' | 'asset';
  /** What the amounts are counted in: "USD" or the asset's symbol. */
  symbol: string;
  limit: string;
  /** The destination address the row is about (destination rules). */
  destination: string | null;
  used: string;
  /** What this request adds; null when its USD value is unknown (counted as over the limit). */
  request: string | null;
  /** limit − used − request; negative when broken; null when the request's value is unknown. */
  remainingAfter: string | null;
  breached: boolean;
  onBreach: LimitBreach;
  extraApprovals: number;
}

export interface LimitCheck {
  rows: LimitCheckRow[];
  /** Approvers the broken rules add (the largest of them). */
  extraApprovals: number;
  /** The first broken rule that refuses, if any. */
  refusedBy: LimitCheckRow | null;
  checkedAt: string;
}

/** What is left in a window before a person types an amount (the withdrawal form). */
export interface LimitRemaining {
  ruleId: string;
  rule: string;
  windowHours: number;
  unit: 'usd' | 'asset';
  symbol: string;
  limit: string;
  /** Null for a destination rule: it adds up per recipient address, known once one is typed. */
  used: string | null;
  remaining: string | null;
  onBreach: LimitBreach;
  extraApprovals: number;
  /** A USD rule that counts one asset only ("USDT only"): that asset's symbol; null otherwise. */
  onlySymbol?: string | null;
}

export function windowWords(hours: number): string {
  const known = LIMIT_WINDOWS.find((w) => w.hours === hours);
  if (known) return known.label;
  return hours % 24 === 0 ? `${hours / 24} days` : `${hours} hours`;
}

const usdWords = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,000.00" or "1,000 USDT": a limit amount in its unit. */
export function limitAmountWords(amount: string, unit: 'usd' | 'asset', symbol: string | null): string {
  const n = Number(amount);
  if (unit === 'usd') return Number.isFinite(n) ? usdWords.format(n) : `${amount} USD`;
  const [whole = '0', fraction] = amount.replace(/^-/, '').split('.');
  const grouped = `${amount.startsWith('-') ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
  return `${grouped} ${symbol ?? ''}`.trim();
}

/** How the rule reads everywhere: "$1,000.00 per 24 hours per wallet (Treasury), USDT only". */
export function describeRule(rule: SpendingRuleValues, walletName?: string | null): string {
  const amount = limitAmountWords(rule.limit, rule.unit, rule.assetSymbol);
  const where = rule.walletId === null ? ' (every wallet)' : ` (${walletName ?? `wallet ${rule.walletId}`})`;
  const only = rule.unit === 'usd' && rule.assetSymbol ? `, ${rule.assetSymbol} only` : '';
  return `${amount} per ${windowWords(rule.windowHours)} ${LIMIT_SCOPE_WORDS[rule.scope]}${where}${only}`;
}

/** What breaking the rule means, in words. */
export function breachWords(rule: Pick<SpendingRuleValues, 'onBreach' | 'extraApprovals'>): string {
  return rule.onBreach === 'refuse'
    ? 'refused'
    : `needs ${rule.extraApprovals} more approval${rule.extraApprovals === 1 ? '' : 's'}`;
}
