// Shapes of approval requests as the browser sees them (JSON from the server: dates as ISO strings).

export interface ReviewItem {
  index: number;
  address: string;
  amount: string;
  symbol: string;
  assetId: string;
  usd: number | null;
  networkFee: string | null;
  networkFeeUsd: number | null;
  /** Upstream reference (derived from the request id). */
  reference: string;
  /** The person's own reference, if any. */
  clientReference: string | null;
  note: string | null;
  metadata: Record<string, unknown> | null;
  aml: { status: string; provider: string; message: string } | null;
  warnings: string[];
}

export interface WithdrawalReview {
  kind: 'withdraw' | 'withdrawSign';
  wallet: { id: string; name: string; address: string; blockchain: string; slug: string; network: string };
  source: { kind: 'master' | 'address'; address: string; name: string | null; addressId: string | null };
  items: ReviewItem[];
  totals: { usd: number | null; byAsset: Array<{ symbol: string; amount: string }> };
  fee: { symbol: string; total: string | null; totalUsd: number | null; error: string | null };
  nativeBalance: { symbol: string; before: string | null; after: string | null; beforeUsd: number | null };
  estimatedArrivalSeconds: number | null;
  warnings: string[];
  builtAt: string;
}

export interface DecodedSignedTransaction {
  type: string;
  chainId: number | null;
  nonce: number | null;
  gas: string | null;
  maxFeePerGas: string | null;
  maxPriorityFeePerGas: string | null;
  gasPrice: string | null;
  to: string | null;
  value: string;
  tokenTransfer: { token: string; recipient: string; amount: string; rawAmount: string } | null;
  error?: string;
}

export interface SignOnlyResult {
  signed: Array<{
    index: number;
    transactionId: string;
    hash: string;
    signedTransaction: string;
    decoded: DecodedSignedTransaction;
  }>;
  errors: Array<{ index: number; message: string }>;
  message?: string;
}

export interface RequestSummaryDto {
  id: string;
  type: string;
  typeLabel: string;
  status: string;
  walletId: string;
  summary: string;
  amountUsd: number | null;
  requesterEmail: string;
  approvals: number;
  requiredApprovals: number;
  createdAt: string;
  expiresAt: string;
}

/** The review of a retry of a FAILED transaction (#1): what the service showed of the transaction. */
export interface RetryReview {
  kind: 'retry';
  wallet: { id: string; name: string; address: string; blockchain: string; slug: string; network: string };
  transaction: {
    id: string;
    reference: string | null;
    status: string | null;
    type: string | null;
    amount: string | null;
    symbol: string | null;
    recipientAddress: string | null;
    hash: string | null;
  };
  warnings: string[];
  builtAt: string;
}

export interface RequestDetailDto extends RequestSummaryDto {
  review: WithdrawalReview;
  payloadHash: string;
  lastError: string | null;
  rejectReason: string | null;
  confirmedAbsentAt: string | null;
  submitAttempts: number;
  result: SignOnlyResult | null;
  decisions: Array<{
    approverEmail: string;
    role: string;
    decision: string;
    reason: string | null;
    createdAt: string;
  }>;
  items: Array<{
    index: number;
    reference: string;
    transactionId: string | null;
    hash: string | null;
    status: string | null;
    confirmations: number | null;
    error: string | null;
  }>;
  timeline: Array<{
    id: number;
    at: string;
    kind: string;
    actorEmail: string | null;
    detail: Record<string, unknown>;
  }>;
  can: { approve: boolean; cancel: boolean; resubmit: boolean };
  frozen: boolean;
  isRequester: boolean;
  /** The submitting approval (and a resubmission) carries the custody service's two-factor code. */
  requiresTwoFactor?: boolean;
}

/** Statuses after which the page keeps polling (something is still moving upstream). */
export const MOVING_STATUSES = ['APPROVED', 'SUBMITTING', 'SUBMITTED', 'OUTCOME_UNKNOWN'];

export const STATUS_LABELS: Record<string, string> = {
  PENDING_APPROVAL: 'Pending approval',
  APPROVED: 'Approved',
  SUBMITTING: 'Submitting',
  SUBMITTED: 'Submitted',
  SUCCESS: 'Success',
  FAILED: 'Failed',
  REJECTED: 'Rejected',
  EXPIRED: 'Expired',
  CANCELLED: 'Cancelled',
  SUBMIT_FAILED: 'Submit failed',
  OUTCOME_UNKNOWN: 'Outcome unknown',
};
