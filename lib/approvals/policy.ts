// Approval policy values and their limits: what an admin edits per operation kind and what each kind
// starts with. Browser-safe, so the policy form shows the same limits the server enforces.

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

/** Above this many US dollars a priced operation (withdrawal, swap) needs one more approver by default. */
export const DEFAULT_THRESHOLD_USD = 10_000;

/** What applies to an unknown kind: four eyes, no threshold. Every registered kind declares its own. */
export const FALLBACK_POLICY: PolicyValues = {
  approvals: 1,
  thresholdUsd: null,
  expirySeconds: DEFAULT_EXPIRY_SECONDS,
};

/** Whether a policy change would leave the policy as it is. */
export function isSamePolicy(a: PolicyValues, b: PolicyValues): boolean {
  return (
    a.approvals === b.approvals && a.thresholdUsd === b.thresholdUsd && a.expirySeconds === b.expirySeconds
  );
}

/** The refusal of a policy change whose values are the policy's own. */
export const POLICY_UNCHANGED = 'Nothing changed: the policy already has these values.';
