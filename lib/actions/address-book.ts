'use server';
import { type RequestedChange, requestConfigurationChange } from '@/lib/actions/configuration-request';
import {
  ActionRefusal,
  type ActionResult,
  defineAction,
  WALLET_NOT_CONNECTED,
} from '@/lib/actions/define-action';
import { withdrawFormContext } from '@/lib/server/approvals';
import {
  addressBookEntrySchema,
  addressBookImportSchema,
  coolingOffSchema,
  entryOfForm,
  parseAddressBookCsv,
} from '@/lib/validation/address-book';

// The approval engine audits the requests these file; a second admin approves each.

/** The wallet's chain as the custody service describes it: addresses are checked against it. */
async function chainOf(walletId: string) {
  const context = await withdrawFormContext(walletId);
  if (!context) throw new ActionRefusal(WALLET_NOT_CONNECTED, undefined, 404);
  return { isEvmCompatible: context.wallet.isEvmCompatible, name: context.wallet.blockchain };
}

/** Asks to add an entry to a wallet's address book, or to change one; a second admin approves. */
export const requestAddressBookEntryAction = defineAction({
  permission: 'addressBookSave.request',
  resource: 'address-book',
  input: addressBookEntrySchema,
  target: (input) => input.walletId,
  context: 'address book entry',
  stepUp: (input) => ({ change: 'addressBookSave', ...input }),
  run: async ({ input, actor }): Promise<ActionResult<RequestedChange>> => {
    const chain = await chainOf(input.walletId);
    const entry = entryOfForm(input, chain);
    if (!entry.ok) throw new ActionRefusal('Check the highlighted fields.', entry.fieldErrors);
    return requestConfigurationChange(actor, 'addressBookSave', {
      walletId: input.walletId,
      entries: [entry.entry],
    });
  },
});

/** Every row of a CSV file becomes one request a second admin approves; a file with errors files nothing. */
export const importAddressBookAction = defineAction({
  permission: 'addressBookSave.request',
  resource: 'address-book',
  input: addressBookImportSchema,
  target: (input) => input.walletId,
  context: 'address book import',
  stepUp: (input) => ({ change: 'addressBookImport', walletId: input.walletId, csv: input.csv }),
  run: async ({ input, actor }): Promise<ActionResult<RequestedChange>> => {
    const chain = await chainOf(input.walletId);
    const parsed = parseAddressBookCsv(input.csv, { chain, defaultChain: chain.name });
    if (parsed.errors.length > 0)
      throw new ActionRefusal(
        `Nothing was requested. ${parsed.errors
          .slice(0, 5)
          .map((e) => `Line ${e.line}: ${e.message}`)
          .join(' ')}${parsed.errors.length > 5 ? ` (${parsed.errors.length - 5} more)` : ''}`,
        { csv: 'Fix the lines named above.' },
      );
    return requestConfigurationChange(actor, 'addressBookSave', {
      walletId: input.walletId,
      entries: parsed.entries,
    });
  },
});

/**
 * Asks to change the address book policy: the cooling-off before a new entry can receive money, and the
 * destination policy (money goes only to address book entries past their cooling-off).
 */
export const requestCoolingOffChangeAction = defineAction({
  permission: 'coolingOffEdit.request',
  resource: 'address-book-policy',
  input: coolingOffSchema,
  context: 'address book policy',
  stepUp: (input) => ({ change: 'coolingOffEdit', ...input }),
  run: async ({ input, actor }) =>
    requestConfigurationChange(
      actor,
      'coolingOffEdit',
      {
        coolingOffSeconds: Math.round(input.coolingOffMinutes * 60),
        ...(input.destinationPolicy === undefined ? {} : { destinationPolicy: input.destinationPolicy }),
      },
      'coolingOffMinutes',
    ),
});
