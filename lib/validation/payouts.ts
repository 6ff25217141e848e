// A payout file as the upload form sends it: the file's bytes travel base64-encoded inside the action's body
// and are parsed on the server. The caps keep one file within the action body limit.
import { z } from 'zod';
import { plainText } from './text';

/** Largest payout file accepted (the encoded file must fit the 2 MB action body). */
export const MAX_PAYOUT_FILE_BYTES = 1024 * 1024;
/** Most rows in one payout file (50 service batches). */
export const MAX_PAYOUT_ROWS = 1000;

export const PAYOUT_FILE_TOO_LARGE = `The file is larger than ${MAX_PAYOUT_FILE_BYTES / (1024 * 1024)} MB. Split it into smaller files.`;

// 1.4 MB encoded: with the other fields still under the 2 MB action body limit the proxy enforces.
const base64Limit = Math.ceil(MAX_PAYOUT_FILE_BYTES / 3) * 4;

export const payoutFileSchema = z.object({
  walletId: plainText().min(1, 'Choose a wallet.').max(100),
  /** `master`, or the id of a child address. */
  source: plainText().min(1, 'Choose where the funds come from.').max(100),
  fileName: plainText()
    .min(1, 'Choose a CSV or XLSX file.')
    .max(200, 'The file name is too long.')
    .refine((name) => /\.(csv|xlsx)$/i.test(name), 'Choose a .csv or .xlsx file.'),
  content: z
    .string()
    .min(1, 'The file is empty.')
    .max(base64Limit, PAYOUT_FILE_TOO_LARGE)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'The file could not be read.'),
});
export type PayoutFileValues = z.infer<typeof payoutFileSchema>;

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
