// The shape of a payout file upload in zod (the caps and the values' type are in `payouts.ts`). A module of its
// own so that the form's page loads zod at its first validation.
import { z } from 'zod';
import { MAX_PAYOUT_FILE_BYTES, PAYOUT_FILE_TOO_LARGE, type PayoutFileValues } from './payouts';
import { plainText } from './text';

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
}) satisfies z.ZodType<PayoutFileValues, PayoutFileValues>;
