import 'server-only';
// Address-book changes as configuration kinds: one admin asks to add or change entries of a wallet's book (one
// entry from the form, or every row of a CSV import), a second admin approves, and the console writes them.
// A new or changed address starts its cooling-off at approval; the cooling-off is itself a policy change.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  type AddressBookChangeRow,
  DESTINATION_POLICY_LABEL,
  describeDuration,
  MAX_COOLING_OFF_SECONDS,
} from '@/lib/approvals/address-book';
import { lookAlikeOf, lookAlikeWarning } from '@/lib/approvals/look-alike';
import { type ConsoleDb, operationApprovals, walletConnections } from '@/lib/db/schema';
import { addressBookEntries } from '@/lib/db/tables/address-book';
import { MAX_BOOK_ENTRIES, MIN_COOLING_OFF_SECONDS } from '@/lib/validation/address-book';
import { addressKey } from '@/lib/validation/addresses';
import {
  addressBookPolicyOf,
  consoleEntries,
  coolingOffSeconds,
  setAddressBookPolicy,
} from '../../address-book';
import { defineLocalOperation, LocalRefusal } from './types';

const POLICY = { approvals: 1, thresholdUsd: null, expirySeconds: 24 * 60 * 60 };

const entrySchema = z.strictObject({
  /** A change of this console entry; absent: a new entry, or a change of the entry with this address. */
  id: z.uuid().optional(),
  name: z.string().min(1).max(100),
  address: z.string().min(1).max(200),
  chain: z.string().min(1).max(50),
  tags: z.array(z.string().min(1).max(40)).max(20),
  notes: z.string().max(1000),
});

type EntryPayload = z.infer<typeof entrySchema>;

const saveSchema = z.strictObject({
  walletId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9-]+$/),
  entries: z.array(entrySchema).min(1).max(MAX_BOOK_ENTRIES),
});

/** Each row of the request matched to the console entry it changes, if any (by id, else by address). */
async function resolve(db: ConsoleDb, walletId: string, entries: EntryPayload[]) {
  const existing = await consoleEntries(db, walletId);
  return entries.map((entry) => {
    const match = entry.id
      ? existing.find((e) => e.id === entry.id)
      : existing.find((e) => e.addressKey === addressKey(entry.address));
    if (entry.id && !match) throw new LocalRefusal('That address book entry no longer exists.');
    return { entry, match: match ?? null, existing };
  });
}

export const addressBookSaveOperation = defineLocalOperation({
  key: 'addressBookSave',
  permissions: { request: 'addressBookSave.request', approve: 'addressBookSave.approve' },
  defaultPolicy: POLICY,
  payloadSchema: saveSchema,
  async buildReview(p, ctx) {
    const [wallet] = await ctx.db
      .select({ id: walletConnections.id, name: walletConnections.name })
      .from(walletConnections)
      .where(eq(walletConnections.id, p.walletId))
      .limit(1);
    if (!wallet) throw new LocalRefusal('This wallet is not connected to the console.');
    const resolved = await resolve(ctx.db, p.walletId, p.entries);
    const seconds = await coolingOffSeconds(ctx.db);
    const warnings: string[] = [];
    const keys = p.entries.map((e) => addressKey(e.address));
    const repeated = keys.filter((k, i) => keys.indexOf(k) !== i);
    if (repeated.length > 0) warnings.push('Some rows name the same address: the last one wins.');
    const rows: AddressBookChangeRow[] = resolved.map(({ entry, match, existing }) => {
      const known = existing
        .filter((e) => e.id !== match?.id)
        .map((e) => ({ address: e.address, label: `address book “${e.name}”` }));
      const imitated = lookAlikeOf(entry.address, known);
      if (imitated) warnings.push(`${entry.name}: ${lookAlikeWarning(imitated)}`);
      const taken = existing.find(
        (e) => e.addressKey === addressKey(entry.address) && match && e.id !== match.id,
      );
      if (taken) warnings.push(`${entry.name}: ${entry.address} is already in the book as “${taken.name}”.`);
      return {
        name: entry.name,
        address: entry.address,
        chain: entry.chain,
        tags: entry.tags,
        notes: entry.notes,
        before: match
          ? {
              name: match.name,
              address: match.address,
              chain: match.chain,
              tags: match.tags,
              notes: match.notes,
            }
          : null,
      };
    });
    const added = rows.filter((r) => !r.before || addressKey(r.before.address) !== addressKey(r.address));
    if (added.length > 0)
      warnings.push(
        `${added.length === 1 ? 'The new address' : `${added.length} new addresses`} can receive money ${describeDuration(seconds * 1000)} after approval (cooling-off).`,
      );
    const first = rows[0]!;
    return {
      review: {
        kind: 'addressBookSave',
        walletId: wallet.id,
        walletName: wallet.name,
        entries: rows,
        coolingOffSeconds: seconds,
        warnings,
        builtAt: new Date().toISOString(),
      },
      summary:
        rows.length === 1
          ? `${first.before ? 'Change' : 'Add'} “${first.name}” in the address book of ${wallet.name}`
          : `${rows.length} address book entries for ${wallet.name}`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const approvers = await ctx.db
      .select({ email: operationApprovals.approverEmail })
      .from(operationApprovals)
      .where(
        and(eq(operationApprovals.requestId, ctx.requestId), eq(operationApprovals.decision, 'approve')),
      );
    const approvedBy = approvers.map((a) => a.email);
    let added = 0;
    let changed = 0;
    await ctx.db
      .transaction(async (tx) => {
        for (const { entry, match } of await resolve(tx as unknown as ConsoleDb, p.walletId, p.entries)) {
          const key = addressKey(entry.address);
          const fields = {
            name: entry.name,
            address: entry.address,
            addressKey: key,
            chain: entry.chain,
            tags: entry.tags,
            notes: entry.notes,
            requestId: ctx.requestId,
            requestedBy: ctx.requester.email,
            approvedBy,
            updatedAt: ctx.now,
          };
          if (match) {
            // A new address is a new counterparty: its cooling-off starts again.
            const since = match.addressKey === key ? match.addressSince : ctx.now;
            await tx
              .update(addressBookEntries)
              .set({ ...fields, addressSince: since })
              .where(eq(addressBookEntries.id, match.id));
            changed += 1;
          } else {
            await tx
              .insert(addressBookEntries)
              .values({ ...fields, walletId: p.walletId, addressSince: ctx.now, createdAt: ctx.now })
              .onConflictDoUpdate({
                target: [addressBookEntries.walletId, addressBookEntries.addressKey],
                set: fields,
              });
            added += 1;
          }
        }
      })
      .catch((error: unknown) => {
        // Two entries of the book cannot share an address (the unique index).
        if (String((error as { code?: string }).code) === '23505')
          throw new LocalRefusal('Another entry of this book already has that address.');
        throw error;
      });
    const parts = [...(added ? [`${added} added`] : []), ...(changed ? [`${changed} changed`] : [])].join(
      ', ',
    );
    return {
      result: { kind: 'addressBookSave', message: `The address book was updated: ${parts}.` },
      audit: {
        action: 'addressBook.save',
        target: p.walletId,
        input: { added, changed, names: p.entries.slice(0, 20).map((e) => e.name) },
      },
    };
  },
});

const onOff = (on: boolean) => (on ? 'on' : 'off');

/**
 * The address book policy as one configuration kind: the cooling-off, and the destination policy (money goes
 * only to address book entries past their cooling-off). A request without `destinationPolicy` leaves it as it is.
 */
export const coolingOffEditOperation = defineLocalOperation({
  key: 'coolingOffEdit',
  permissions: { request: 'coolingOffEdit.request', approve: 'coolingOffEdit.approve' },
  defaultPolicy: POLICY,
  payloadSchema: z.strictObject({
    coolingOffSeconds: z.int().min(MIN_COOLING_OFF_SECONDS).max(MAX_COOLING_OFF_SECONDS),
    destinationPolicy: z.boolean().optional(),
  }),
  async buildReview(p, ctx) {
    const before = await addressBookPolicyOf(ctx.db);
    const after = p.coolingOffSeconds;
    const destinationAfter = p.destinationPolicy ?? before.destinationPolicy;
    const coolingChanges = after !== before.coolingOffSeconds;
    const destinationChanges = destinationAfter !== before.destinationPolicy;
    const parts = [
      ...(coolingChanges || !destinationChanges
        ? [
            `cooling-off ${describeDuration(before.coolingOffSeconds * 1000)} → ${describeDuration(after * 1000)}`,
          ]
        : []),
      ...(destinationChanges
        ? [`destination policy ${onOff(before.destinationPolicy)} → ${onOff(destinationAfter)}`]
        : []),
    ];
    return {
      review: {
        kind: 'coolingOffEdit',
        beforeSeconds: before.coolingOffSeconds,
        afterSeconds: after,
        destinationPolicyBefore: before.destinationPolicy,
        destinationPolicyAfter: destinationAfter,
        warnings: [
          ...(after < before.coolingOffSeconds
            ? [
                'This loosens the rules: new address book entries can receive money sooner, including those cooling off now.',
              ]
            : []),
          ...(before.destinationPolicy && !destinationAfter
            ? [
                `This loosens the rules: “${DESTINATION_POLICY_LABEL}” goes off, and money may go to addresses outside the address book (typed by hand, whitelisted or beneficiaries) with a warning only.`,
              ]
            : []),
          ...(!before.destinationPolicy && destinationAfter
            ? [
                'Requests waiting for approval that pay an address outside the address book will be refused at their final approval.',
              ]
            : []),
          ...(!coolingChanges && !destinationChanges
            ? ['Nothing changes: the values are the ones in force.']
            : []),
        ],
        builtAt: new Date().toISOString(),
      },
      summary: `Address book policy: ${parts.join('; ')}`,
      amountUsd: null,
    };
  },
  async execute(p, ctx) {
    const before = await addressBookPolicyOf(ctx.db);
    const after = {
      coolingOffSeconds: p.coolingOffSeconds,
      destinationPolicy: p.destinationPolicy ?? before.destinationPolicy,
    };
    await setAddressBookPolicy(ctx.db, after, ctx.requester.email, ctx.now);
    return {
      result: {
        kind: 'coolingOffEdit',
        message: `New address book entries can receive money ${describeDuration(p.coolingOffSeconds * 1000)} after approval. ${
          after.destinationPolicy
            ? 'Money goes only to address book entries past their cooling-off.'
            : 'The destination policy is off: addresses outside the address book are paid with a warning.'
        }`,
      },
      audit: {
        action: 'addressBook.cooling_off',
        target: 'address-book',
        input: {
          beforeSeconds: before.coolingOffSeconds,
          afterSeconds: after.coolingOffSeconds,
          destinationPolicyBefore: before.destinationPolicy,
          destinationPolicyAfter: after.destinationPolicy,
        },
      },
    };
  },
});
