// Approval types the engine (server) and the pages (browser) share: no server imports here.

export type ResolutionVerdict = 'paid' | 'not_paid' | 'failed';

export const RESOLUTION_LABELS: Record<ResolutionVerdict, string> = {
  paid: 'Paid: the service shows the transaction',
  not_paid: 'Not paid: the service shows no such transaction',
  failed: 'Failed: the service shows the transaction failed',
};

/** The review of a retry of a FAILED transaction (#1): what the service showed of the transaction. */
export type RetryReview = {
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
};
