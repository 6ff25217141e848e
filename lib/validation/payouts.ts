// A payout file as the upload form sends it: the file's bytes travel base64-encoded inside the action's body
// and are parsed on the server. The caps keep one file within the action body limit; the shape's schema is
// `payout-schema.ts`.

/** Largest payout file accepted (the encoded file must fit the 2 MB action body). */
export const MAX_PAYOUT_FILE_BYTES = 1024 * 1024;
/** Most rows in one payout file (50 service batches). */
export const MAX_PAYOUT_ROWS = 1000;

export const PAYOUT_FILE_TOO_LARGE = `The file is larger than ${MAX_PAYOUT_FILE_BYTES / (1024 * 1024)} MB. Split it into smaller files.`;

/** The upload form's values (shape: `payout-schema.ts`): the file travels base64-encoded in `content`. */
export interface PayoutFileValues {
  walletId: string;
  /** `master`, or the id of a child address. */
  source: string;
  fileName: string;
  content: string;
}

/** One payment of a payout as the request stores it (checked: checksummed address, canonical amount). */
export interface PayoutItemPayload {
  /** The row's line in the file. */
  line: number;
  assetId: string;
  symbol: string;
  decimals: number;
  address: string;
  amount: string;
  /** The file's own reference: sent as the upstream reference (else one is derived from the request). */
  reference?: string;
  label?: string;
}

export interface PayoutPayload {
  source: { kind: 'master' } | { kind: 'address'; addressId: string };
  fileName: string;
  items: PayoutItemPayload[];
}
