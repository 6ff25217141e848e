import 'server-only';
// Approval policy arithmetic: how many distinct approvers a request needs and how long it stays open.
import { isOperationKind, OPERATION_KINDS } from '@/lib/approvals/kinds';
import {
  DEFAULT_EXPIRY_SECONDS,
  FALLBACK_POLICY,
  MAX_EXPIRY_SECONDS,
  MIN_EXPIRY_SECONDS,
  type PolicyValues,
} from '@/lib/approvals/policy';
import { approvalPolicies, type ConsoleDb } from '@/lib/db/schema';
import { OPERATION_TYPES } from './operations/registry';
import { compareUsd } from './usd';

export { DEFAULT_EXPIRY_SECONDS, type PolicyValues };

/** The policy of a kind until an admin edits it: the one the kind declares (operations/registry.ts). */
export function defaultPolicy(type: string): PolicyValues {
  return isOperationKind(type) ? OPERATION_TYPES[type].defaultPolicy : FALLBACK_POLICY;
}

/**
 * Approvers needed for an amount. An amount whose USD value is unknown counts as above the threshold: a
 * missing price must never lower the bar.
 */
export function requiredApprovals(policy: PolicyValues, amountUsd: number | string | null): number {
  const base = Math.max(1, Math.floor(policy.approvals));
  if (policy.thresholdUsd === null) return base;
  if (amountUsd === null || compareUsd(amountUsd, policy.thresholdUsd) > 0) return base + 1;
  return base;
}

/**
 * Approvers needed by a request the console cannot value: a contract call it cannot decode or price (or an
 * unlimited token approval), which may move anything. The rule: the most the kind's own policy can ask, its
 * count above the threshold. A policy without a threshold has no "above", so then the most any kind's policy
 * asks for its largest amounts (`every`), and never less than one more than the kind's own count. An admin
 * may raise the bar by editing the policy; nothing the requester writes into the call lowers it.
 */
export function highestApprovals(own: PolicyValues, every: readonly PolicyValues[]): number {
  const most = (policy: PolicyValues) => requiredApprovals(policy, null);
  if (own.thresholdUsd !== null) return most(own);
  return Math.max(most(own) + 1, ...every.map(most));
}

/** `highestApprovals` of a kind, from the policies in force (one read of every edited policy). */
export async function highestApprovalsFor(db: Pick<ConsoleDb, 'select'>, type: string): Promise<number> {
  const rows = await db.select().from(approvalPolicies);
  const edited = new Map(
    rows.map((row) => [
      row.operationType,
      {
        approvals: row.approvals,
        thresholdUsd: row.thresholdUsd === null ? null : Number(row.thresholdUsd),
        expirySeconds: row.expirySeconds,
      },
    ]),
  );
  const policyOf = (kind: string) => edited.get(kind) ?? defaultPolicy(kind);
  return highestApprovals(policyOf(type), OPERATION_KINDS.map(policyOf));
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
