// The shape of a swap request as the form holds it and the server action receives it, in zod; its meaning is
// `validateSwap` in `swaps.ts`. A module of its own so that the form's page loads zod at its first validation.
import { z } from 'zod';
import { SWAP_ORDERS, type SwapFormValues } from './swaps';
import { metadataText, plainText } from './text';

/** What the form sends: raw text, checked against the source's balances by `validateSwap`. */
export const swapFormSchema = z.object({
  walletId: plainText().min(1).max(100),
  addressId: plainText().min(1, 'Choose the child address to swap from.').max(100),
  fromAssetId: plainText().min(1, 'Choose the asset to swap from.').max(100),
  toAssetId: plainText().min(1, 'Choose the asset to receive.').max(100),
  amount: plainText().max(100),
  order: z.enum(SWAP_ORDERS, { message: 'Choose an order.' }),
  metadata: metadataText().optional(),
}) satisfies z.ZodType<SwapFormValues, SwapFormValues>;
