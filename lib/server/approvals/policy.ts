import 'server-only';
// Approval policy arithmetic: how many distinct approvers a request needs and how long it stays open.
import { isOperationKind } from '@/lib/approvals/kinds';
import {
  DEFAULT_EXPIRY_SECONDS,
  FALLBACK_POLICY,
  MAX_EXPIRY_SECONDS,
  MIN_EXPIRY_SECONDS,
  type PolicyValues,
} from '@/lib/approvals/policy';
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
