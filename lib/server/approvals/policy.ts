import 'server-only';
// Approval policy arithmetic: how many distinct approvers a request needs and how long it stays open.

export interface PolicyValues {
  /** Distinct approvers besides the requester; at least 1 (four eyes). */
  approvals: number;
  /** Above this many US dollars, one more approver; null: no threshold. */
  thresholdUsd: number | null;
  expirySeconds: number;
}

export const DEFAULT_EXPIRY_SECONDS = 24 * 60 * 60;
export const MIN_EXPIRY_SECONDS = 5;
export const MAX_EXPIRY_SECONDS = 30 * 24 * 60 * 60;

export const DEFAULT_POLICIES: Record<string, PolicyValues> = {
  withdraw: { approvals: 1, thresholdUsd: 10_000, expirySeconds: DEFAULT_EXPIRY_SECONDS },
  withdrawSign: { approvals: 1, thresholdUsd: 10_000, expirySeconds: DEFAULT_EXPIRY_SECONDS },
};

export function defaultPolicy(type: string): PolicyValues {
  return (
    DEFAULT_POLICIES[type] ?? { approvals: 1, thresholdUsd: null, expirySeconds: DEFAULT_EXPIRY_SECONDS }
  );
}

/**
 * Approvers needed for an amount. An amount whose USD value is unknown counts as above the threshold: a
 * missing price must never lower the bar.
 */
export function requiredApprovals(policy: PolicyValues, amountUsd: number | null): number {
  const base = Math.max(1, Math.floor(policy.approvals));
  if (policy.thresholdUsd === null) return base;
  if (amountUsd === null || amountUsd > policy.thresholdUsd) return base + 1;
  return base;
}

export function expiryFor(policy: PolicyValues, createdAt: Date): Date {
  const seconds = Math.min(
    MAX_EXPIRY_SECONDS,
    Math.max(MIN_EXPIRY_SECONDS, Math.floor(policy.expirySeconds)),
  );
  return new Date(createdAt.getTime() + seconds * 1000);
}

export function isExpired(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}

/** Milliseconds left before expiry (0 when past). */
export function timeLeft(expiresAt: Date, now: Date): number {
  return Math.max(0, expiresAt.getTime() - now.getTime());
}
