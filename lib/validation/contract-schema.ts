// The shapes of a contract call batch and of a contract request in zod, as the actions parse them (the calls'
// meaning is checked in `abi.ts`). A module of its own so that the builder's page loads zod at its first validation.
import { z } from 'zod';
import { CONTRACT_REQUEST_KINDS, type ContractRequestValues, MAX_CONTRACT_CALLS, type SentCall } from './abi';
import { plainJson, plainText } from './text';

/** One call as the browser sends it; each is re-checked against its own ABI entry by `revalidateWireCall`. */
const wireCallSchema = z.object({
  address: plainText().max(100),
  method: plainText().min(1).max(200),
  abi: z.array(z.record(plainText(), plainJson())).min(1).max(50),
  parameters: z.array(plainJson()).max(50),
}) satisfies z.ZodType<SentCall, SentCall>;

/** A batch to read or estimate (#18, #19). */
export const contractCallsSchema = z.object({
  walletId: plainText().min(1).max(100),
  calls: z
    .array(wireCallSchema)
    .min(1, { message: 'Add at least one call.' })
    .max(MAX_CONTRACT_CALLS, { message: `A batch holds at most ${MAX_CONTRACT_CALLS} calls.` }),
});

/** A write (#16) or sign-only write (#17) as an approval request: the batch and the address it is made from. */
export const contractRequestSchema = contractCallsSchema.extend({
  kind: z.enum(CONTRACT_REQUEST_KINDS),
  addressId: plainText().min(1, { message: 'Choose the address the calls are made from.' }).max(100),
}) satisfies z.ZodType<ContractRequestValues, ContractRequestValues>;
