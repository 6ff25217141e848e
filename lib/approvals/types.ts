// Approval types the engine (server) and the pages (browser) share: no server imports here.

/** The wallet a review names, as every kind's review shows it. */
export type ReviewWallet = {
  id: string;
  name: string;
  address: string;
  blockchain: string;
  slug: string;
  network: string;
};
/** A child address a review names (the source of a swap, the signer of a contract call). */
export type ReviewAddress = { addressId: string; address: string; name: string | null };
/** Where money leaves from: the master wallet (no address id) or one of its child addresses. */
export type ReviewSource = {
  kind: 'master' | 'address';
  address: string;
  name: string | null;
  addressId: string | null;
};

export type ResolutionVerdict = 'paid' | 'not_paid' | 'failed';

export const RESOLUTION_LABELS: Record<ResolutionVerdict, string> = {
  paid: 'Paid: the service shows the transaction',
  not_paid: 'Not paid: the service shows no such transaction',
  failed: 'Failed: the service shows the transaction failed',
};

/** The review of a retry of a FAILED transaction (#1): what the service showed of the transaction. */
export type RetryReview = {
  kind: 'retry';
  wallet: ReviewWallet;
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
