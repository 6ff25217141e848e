// The shapes of a typed-data signature request and of its form in zod (their types and every check of the
// document are in `typed-data.ts`). A module of its own so that the form's page loads zod at its first validation.
import { z } from 'zod';
import { plainJson, plainText } from './text';
import { TYPED_DATA_FORM_MODES, type TypedDataFormValues, type TypedDataRequest } from './typed-data';

/**
 * A typed-data signature request (#21) as the action receives it: the EIP-712 document and the child address
 * that signs it. The document's meaning is checked by `checkTypedData`.
 */
export const typedDataRequestSchema = z.object({
  walletId: plainText().min(1).max(100),
  addressId: plainText().min(1, 'Choose the signing address.').max(100),
  domain: plainJson(),
  types: plainJson(),
  message: plainJson(),
  primaryType: plainText().max(200).nullable().optional(),
}) satisfies z.ZodType<TypedDataRequest, TypedDataRequest>;

/**
 * The signature form as people fill it in: a permit, an authorization, or the three JSON texts. The document
 * the action receives is built from it (`buildPermit`, `buildTransferWithAuthorization`, `parseTypedDataText`);
 * the signing address is the action's own field.
 */
export const typedDataFormSchema = z.object({
  walletId: typedDataRequestSchema.shape.walletId,
  addressId: typedDataRequestSchema.shape.addressId,
  mode: z.enum(TYPED_DATA_FORM_MODES),
  token: plainText().max(200),
  name: plainText().max(200),
  version: plainText().max(200),
  chainId: plainText().max(200),
  verifyingContract: plainText().max(200),
  spender: plainText().max(200),
  to: plainText().max(200),
  value: plainText().max(200),
  nonce: plainText().max(200),
  authNonce: plainText().max(200),
  deadline: plainText().max(200),
  validAfter: plainText().max(200),
  validBefore: plainText().max(200),
  domain: plainText({ multiline: true }).max(100_000),
  types: plainText({ multiline: true }).max(100_000),
  message: plainText({ multiline: true }).max(100_000),
}) satisfies z.ZodType<TypedDataFormValues, TypedDataFormValues>;
