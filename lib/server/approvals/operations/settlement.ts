import 'server-only';
// Auto-settlement as operation kinds: switching the wallet's auto-settlement on or off (#9) and creating (#10)
// or changing (#11) a child address's rule. A rule sends every matching deposit to its destination, so one
// admin's rule is not in force until another admin approves it; the console then makes the same call the
// settlement screen made, once.
import { z } from 'zod';
import { DESTINATION_POLICY_OFF_WARNING } from '@/lib/approvals/address-book';
import {
  describeBookName,
  describeMaximum,
  describeMinimum,
  describeSlippageTolerance,
  forwardsEverything,
  type NamedAddress,
  type RuleFieldRow,
  type RuleView,
} from '@/lib/approvals/custody-settings';
import { DEFAULT_EXPIRY_SECONDS } from '@/lib/approvals/policy';
import type { AutoSettlementRuleInput } from '@/lib/custody';
import { SETTLEMENT_ORDERS } from '@/lib/custody/constants';
import type { AutoSettlementRule } from '@/lib/custody/schemas';
import { shortAddress } from '@/lib/format';
import { addressKey } from '@/lib/validation/addresses';
import { addressBookPolicyOf, checkDestinations } from '../../address-book';
import { looksLikeMissingEndpoint } from '../lookup';
import type { ReviewContext } from '../types';
import {
  bookNamesOf,
  checksummed,
  mainnetWarnings,
  namedAddress,
  reviewAddress,
  reviewWallet,
} from './review-parts';
import { defineOperation, LocalRefusal } from './types';

/** One other admin approves, within a day, until an admin edits the policy (as every configuration change). */
export const CUSTODY_SETTINGS_POLICY = {
  approvals: 1,
  thresholdUsd: null,
  expirySeconds: DEFAULT_EXPIRY_SECONDS,
};

/** The request changes settings, not balances: nothing to follow once the service has answered. */
export const settingsFinality = {
  finality: 'answer' as const,
  finalWhenFound: () => null,
  itemCount: () => 0,
};

/** A custody id as a path segment: letters, digits, dashes and underscores. */
export const custodyIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\w-]+$/);

/** An EVM address as the service takes it, checksummed by the action. */
export const evmAddressSchema = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

// A non-negative decimal, or the service's "no bound" (-1).
const bound = z.string().regex(/^(-1|\d+(\.\d+)?)$/);

/** The body of #10 and #11 exactly as the settlement screen builds it (`toRuleBody`). */
const ruleBodySchema = z.strictObject({
  name: z.string().min(1).max(100),
  isActive: z.boolean(),
  order: z.enum(SETTLEMENT_ORDERS),
  slippageTolerance: bound,
  source: z.strictObject({
    assets: z.array(z.string().min(1).max(32)).min(1).max(50),
    blockchain: z.string().min(1).max(64),
    minAmount: bound,
    maxAmount: bound,
  }),
  destination: z.strictObject({
    address: evmAddressSchema,
    asset: z.string().min(1).max(32),
    blockchain: z.string().min(1).max(64),
  }),
});

/** How people name an address in a summary: its book name, else its short form. */
const nameOf = (named: NamedAddress) => named.bookName ?? shortAddress(named.address);

type RuleLike = Pick<AutoSettlementRule, 'name' | 'isActive' | 'order' | 'slippageTolerance'> & {
  source: { assets: string[]; blockchain: string; minAmount: string; maxAmount: string };
  destination: { address: string; asset: string; blockchain: string };
};

function ruleView(rule: RuleLike, names: Parameters<typeof namedAddress>[1]): RuleView {
  const asset = rule.source.assets.join(', ');
  return {
    name: rule.name,
    isActive: rule.isActive,
    order: rule.order,
    slippage: describeSlippageTolerance(rule.slippageTolerance),
    sourceAssets: asset,
    sourceBlockchain: rule.source.blockchain,
    minAmount: describeMinimum(rule.source.minAmount, asset),
    maxAmount: describeMaximum(rule.source.maxAmount, asset),
    destination: namedAddress(rule.destination.address, names),
    destinationAsset: rule.destination.asset,
    destinationBlockchain: rule.destination.blockchain,
  };
}

const destinationWords = (named: NamedAddress) => {
  const book = describeBookName(named);
  return book ? `${named.address} — ${book}` : named.address;
};

const RULE_FIELDS: Array<[RuleFieldRow['field'], string, (r: RuleView) => string]> = [
  ['destination', 'Destination address', (r) => destinationWords(r.destination)],
  ['minAmount', 'Minimum', (r) => r.minAmount],
  ['maxAmount', 'Maximum', (r) => r.maxAmount],
  ['sourceAssets', 'Source assets', (r) => r.sourceAssets],
  ['destinationAsset', 'Destination asset', (r) => r.destinationAsset],
  ['isActive', 'On or off', (r) => (r.isActive ? 'On' : 'Off')],
  ['name', 'Name', (r) => r.name],
  ['order', 'Order', (r) => r.order],
  ['slippage', 'Slippage tolerance', (r) => r.slippage],
  ['sourceBlockchain', 'Source blockchain', (r) => r.sourceBlockchain],
  ['destinationBlockchain', 'Destination blockchain', (r) => r.destinationBlockchain],
];

function ruleRows(before: RuleView | null, after: RuleView): RuleFieldRow[] {
  return RULE_FIELDS.map(([field, label, words]) => {
    const b = before ? words(before) : null;
    const a = words(after);
    return { field, label, before: b, after: a, changed: b !== null && b !== a };
  });
}

/** What makes a rule worth a second look: a destination outside the book, no minimum. */
function ruleWarnings(rule: RuleLike, view: RuleView, prefix = ''): string[] {
  const warnings: string[] = [];
  if (!view.destination.bookName)
    warnings.push(
      `${prefix}The destination ${view.destination.address} is not in the address book: no address book entry, whitelisted address or beneficiary names it.`,
    );
  if (forwardsEverything(rule.source.minAmount))
    warnings.push(
      `${prefix}${rule.source.minAmount === '-1' ? 'No minimum' : 'Minimum 0'}: every matching deposit, however small, is forwarded to the destination.`,
    );
  return warnings;
}

export const settlementToggleOperation = defineOperation({
  key: 'settlementToggle',
  permissions: { request: 'settlementToggle.request', approve: 'settlementToggle.approve' },
  defaultPolicy: CUSTODY_SETTINGS_POLICY,
  ...settingsFinality,
  payloadSchema: z.strictObject({ isActive: z.boolean() }),
  addressIdOf: () => null,
  async buildReview(p, ctx) {
    const { client, walletId } = ctx;
    const [wallet, settlement, bookPolicy] = await Promise.all([
      client.wallets.get({ walletId }).then((r) => r.data),
      client.autoSettlement.get({ walletId }).then((r) => r.data),
      addressBookPolicyOf(ctx.db),
    ]);
    const names = await bookNamesOf(
      ctx,
      settlement.rules.map((r) => r.destination.address),
    );
    const rules = settlement.rules.map((r) => ({ rule: r, view: ruleView(r, names) }));
    const warnings = [...mainnetWarnings(wallet.network)];
    if (settlement.isActive === p.isActive)
      warnings.push(`Nothing changes: auto-settlement is already ${p.isActive ? 'on' : 'off'}.`);
    // Switching on puts the active rules in force: with the destination policy on, each destination was held to
    // the address book's rules (destinations.ts) or the request refused; off, the review says so.
    const inForce = p.isActive ? rules.filter((r) => r.rule.isActive) : [];
    if (inForce.length > 0 && !bookPolicy.destinationPolicy) warnings.push(DESTINATION_POLICY_OFF_WARNING);
    for (const { rule, view } of inForce) warnings.push(...ruleWarnings(rule, view, `Rule “${rule.name}”: `));
    return {
      review: {
        kind: 'settlementToggle',
        wallet: reviewWallet(wallet),
        settlementName: settlement.name,
        before: settlement.isActive,
        after: p.isActive,
        rules: rules.map((r) => r.view),
        warnings,
        builtAt: new Date().toISOString(),
      },
      summary: `Switch ${p.isActive ? 'on' : 'off'} the auto-settlement of ${wallet.name}`,
      amountUsd: null,
    };
  },
  async submit(p, ctx) {
    const { data } = await ctx.client.autoSettlement.update(
      { walletId: ctx.walletId },
      { isActive: p.isActive },
    );
    return {
      items: [],
      final: 'SUCCESS',
      result: {
        kind: 'settlementToggle',
        message: `The wallet's auto-settlement is ${data.isActive ? 'on' : 'off'}.`,
      },
      change: {
        action: 'settlement.wallet_toggle',
        target: ctx.walletId,
        input: { isActive: data.isActive },
      },
    };
  },
});

const rulePayloadSchema = z.strictObject({
  addressId: custodyIdSchema,
  /** The rule changed (#11); null: a new rule (#10). */
  ruleId: custodyIdSchema.nullable(),
  rule: ruleBodySchema,
});

type RulePayload = z.infer<typeof rulePayloadSchema>;

/** The rule in force, as the service lists it: `unknown` when the service does not list an address's rules. */
async function ruleInForce(
  ctx: ReviewContext,
  p: RulePayload,
): Promise<AutoSettlementRule | 'unknown' | null> {
  if (!p.ruleId) return null;
  try {
    const { data } = await ctx.client.addressRules.list({ walletId: ctx.walletId, addressId: p.addressId });
    const rule = data.find((r) => r.id === p.ruleId);
    if (!rule) throw new LocalRefusal('That rule is no longer listed by the custody service.');
    return rule;
  } catch (error) {
    if (looksLikeMissingEndpoint(error)) return 'unknown';
    throw error;
  }
}

export const settlementRuleOperation = defineOperation({
  key: 'settlementRule',
  permissions: { request: 'settlementRule.request', approve: 'settlementRule.approve' },
  defaultPolicy: CUSTODY_SETTINGS_POLICY,
  ...settingsFinality,
  payloadSchema: rulePayloadSchema,
  addressIdOf: (p) => p.addressId,
  async buildReview(p, ctx) {
    const { client, walletId } = ctx;
    // Every matching deposit goes to the destination: it is held to the rules of a withdrawal's recipient. A rule
    // switched off forwards nothing, so switching one off is never refused.
    const destinations = await checkDestinations(ctx.db, walletId, [p.rule.destination.address], ctx.now);
    const [problem] = p.rule.isActive ? destinations.problems : [];
    if (problem) throw new LocalRefusal(`${problem.message} Nothing was requested.`);
    const [wallet, child, current] = await Promise.all([
      client.wallets.get({ walletId }).then((r) => r.data),
      client.addresses.get({ walletId, addressId: p.addressId }).then((r) => r.data),
      ruleInForce(ctx, p),
    ]);
    const known = current && current !== 'unknown' ? current : null;
    const names = await bookNamesOf(ctx, [
      p.rule.destination.address,
      ...(known ? [known.destination.address] : []),
    ]);
    const after = ruleView(p.rule, names);
    const before = known ? ruleView(known, names) : null;
    const warnings = [
      ...mainnetWarnings(wallet.network),
      ...(destinations.policy.destinationPolicy ? [] : [DESTINATION_POLICY_OFF_WARNING]),
      ...ruleWarnings(p.rule, after),
    ];
    if (known && addressKey(known.destination.address) !== addressKey(p.rule.destination.address))
      warnings.push(
        `The destination changes from ${checksummed(known.destination.address)} to ${after.destination.address}.`,
      );
    if (current === 'unknown')
      warnings.push(
        'This custody service does not list an address’s rules: the rule in force cannot be shown beside the proposed one.',
      );
    const where = child.name ?? shortAddress(child.address);
    return {
      review: {
        kind: 'settlementRule',
        action: p.ruleId ? 'update' : 'create',
        wallet: reviewWallet(wallet),
        address: reviewAddress(child),
        ruleId: p.ruleId,
        before,
        after,
        rows: ruleRows(before, after),
        warnings,
        builtAt: new Date().toISOString(),
      },
      summary: p.ruleId
        ? `Change auto-settlement rule “${p.rule.name}” of ${where} (to ${nameOf(after.destination)})`
        : `New auto-settlement rule “${p.rule.name}” on ${where}: deposits to ${nameOf(after.destination)}`,
      amountUsd: null,
    };
  },
  async submit(p, ctx) {
    const body: AutoSettlementRuleInput = p.rule;
    const at = { walletId: ctx.walletId, addressId: p.addressId };
    const { data } = p.ruleId
      ? await ctx.client.addressRules.update({ ...at, id: p.ruleId }, body)
      : await ctx.client.addressRules.create(at, body);
    return {
      items: [],
      final: 'SUCCESS',
      result: {
        kind: 'settlementRule',
        message: `Rule “${data.name}” was ${p.ruleId ? 'changed' : 'created'} at the custody service.`,
      },
      change: {
        action: p.ruleId ? 'settlement.rule_update' : 'settlement.rule_create',
        target: data.id,
        input: { addressId: p.addressId, ...p.rule },
      },
    };
  },
});
