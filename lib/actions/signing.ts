'use server';
import { ActionRefusal, defineAction, ok } from '@/lib/actions/define-action';
import { isReviewOf } from '@/lib/approvals/kinds';
import type { CustodyClient } from '@/lib/custody';
import { lookUpTypedAddress } from '@/lib/server/address-lookup';
import { getApprovalEngine } from '@/lib/server/approvals';
import type { TypedDataPayload } from '@/lib/server/approvals/typed-data';
import { checkTypedData, signerProblem, type TypedDataRequest } from '@/lib/validation/typed-data';
import { typedDataRequestSchema } from '@/lib/validation/typed-data-schema';

/**
 * The types and message agreeing (and within the limits), then the signing address as the custody service has
 * it, which a permit or authorization must name as its owner: all before anything is stored or signed.
 */
async function checkedPayload(
  input: TypedDataRequest,
  custody: (walletId: string) => Promise<CustodyClient>,
): Promise<TypedDataPayload> {
  const typed = checkTypedData(input);
  if (!typed.ok) throw new ActionRefusal(typed.error, typed.fieldErrors);
  const client = await custody(input.walletId);
  const child = (await client.addresses.get({ walletId: input.walletId, addressId: input.addressId })).data;
  if (child.type && child.type !== 'INTERNAL') {
    const error = 'Sign from a child address of this wallet.';
    throw new ActionRefusal(error, { addressId: error });
  }
  const notTheSigner = signerProblem(typed.value, child.address);
  if (notTheSigner) throw new ActionRefusal(notTheSigner, { message: notTheSigner });
  return { addressId: child.id, signer: child.address, ...typed.value };
}

const signing = {
  permission: 'typedDataSign.request' as const,
  input: typedDataRequestSchema,
  invalid: 'first-issue' as const,
  target: (input: TypedDataRequest) => input.walletId,
};

/** The review approvers will see, without creating the request. The engine audits requests itself. */
export const previewTypedDataAction = defineAction({
  ...signing,
  context: 'typed-data preview',
  run: async ({ actor, input, custody }) => {
    const payload = await checkedPayload(input, custody);
    const engine = await getApprovalEngine();
    const preview = await engine.preview(actor, 'typedDataSign', input.walletId, payload);
    if (!preview.ok) return preview;
    const { review } = preview.data;
    if (!isReviewOf(review, 'typedDataSign'))
      throw new Error('The signing preview has a review of another kind.');
    return ok({
      review,
      requiredApprovals: preview.data.requiredApprovals,
    });
  },
});

/** Creates the signature request; nothing is signed until it is approved. */
export const createTypedDataRequestAction = defineAction({
  ...signing,
  context: 'typed-data request',
  run: async ({ actor, input, custody }) => {
    const payload = await checkedPayload(input, custody);
    const engine = await getApprovalEngine();
    const created = await engine.create(actor, 'typedDataSign', input.walletId, payload);
    if (!created.ok) return created;
    return ok({ id: created.data.id });
  },
});

/** Checks an address id typed into the form (#5) and answers it as a signing address option. */
export async function lookUpSigningAddressAction(input: unknown) {
  return lookUpTypedAddress('typedDataSign.request', input);
}
