import 'server-only';
// Auto-settlement: #8 and #9 the wallet's switch, #10 and #11 an address's rules; extension: the rule list.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { autoSettlementRuleInput, schemas } from '@/lib/custody/schemas';
import { invalid, notFound, type WalletRow } from '../context';
import type { SandboxCore } from '../core';
import { sandboxRules, sandboxWallets } from '../db/schema';
import { parseAmount } from '../money';
import * as req from '../requests';
import { ruleApi } from '../serialize';
import { endpoint } from './endpoint';
import { addressOf, checkAddress, isUuidLike, ORDERS } from './shared';

async function walletSettlement(core: SandboxCore, wallet: WalletRow) {
  const rules = await core.db
    .select()
    .from(sandboxRules)
    .where(and(eq(sandboxRules.walletId, wallet.id), isNull(sandboxRules.addressId)))
    .orderBy(asc(sandboxRules.createdAt));
  const config = wallet.autoSettlement as { isActive: boolean; name: string };
  return { isActive: config.isActive, name: config.name, rules: rules.map((r) => ruleApi(r, false)) };
}

function validateRule(rule: {
  order: string;
  slippageTolerance: string | number;
  source: { assets: string[]; blockchain: string; minAmount: string | number; maxAmount: string | number };
  destination: { address: string; asset: string; blockchain: string };
}) {
  if (!ORDERS.includes(rule.order)) throw invalid(`order must be one of ${ORDERS.join(', ')}`);
  // -1 means "no limit" (slippage) or "no bound" (amounts).
  const decimal = /^(-1|\d+(\.\d+)?)$/;
  const slippage = String(rule.slippageTolerance);
  if (!decimal.test(slippage)) throw invalid('slippageTolerance must be a non-negative decimal or -1');
  const min = String(rule.source.minAmount);
  const max = String(rule.source.maxAmount);
  if (!decimal.test(min) || !decimal.test(max))
    throw invalid('minAmount and maxAmount must be non-negative decimals or -1');
  if (parseAmount(max, 36).ok && parseAmount(min, 36).ok) {
    const a = parseAmount(min, 36);
    const b = parseAmount(max, 36);
    if (a.ok && b.ok && a.value > b.value) throw invalid('minAmount must not exceed maxAmount');
  }
  if (rule.source.assets.length === 0) throw invalid('source.assets must name at least one asset');
  const destination = checkAddress(rule.destination.address, 'destination address');
  return {
    order: rule.order,
    slippageTolerance: slippage,
    source: { ...rule.source, minAmount: min, maxAmount: max },
    destination: { ...rule.destination, address: destination },
  };
}

export const autoSettlementEndpoints = [
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/auto-settlements',
    summary: '#8 Get wallet auto-settlement',
    response: { data: schemas.walletAutoSettlement },
    async handle({ core }, { wallet }) {
      return { data: await walletSettlement(core, wallet), message: 'Auto settlements fetched successfully' };
    },
  }),
  endpoint({
    method: 'PATCH',
    pattern: '/v1/wallets/:walletId/auto-settlements',
    summary: '#9 Enable or disable wallet auto-settlement',
    body: req.autoSettlementPatchBody,
    response: { data: schemas.walletAutoSettlement },
    async handle({ core }, { wallet, body }) {
      const config = {
        ...(wallet.autoSettlement as { isActive: boolean; name: string }),
        isActive: body.isActive,
      };
      const [row] = await core.db
        .update(sandboxWallets)
        .set({ autoSettlement: config, updatedAt: core.stamp() })
        .where(eq(sandboxWallets.id, wallet.id))
        .returning();
      if (row) {
        core.catalog.wallets.set(row.id, row);
        core.catalog.walletByKeyHash.set(row.apiKeyHash, row);
      }
      return {
        data: await walletSettlement(core, row ?? wallet),
        message: body.isActive
          ? 'Auto settlement enabled successfully'
          : 'Auto settlement disabled successfully',
      };
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules',
    summary: '#10 Create an address auto-settlement rule',
    body: req.ruleCreateBody,
    documentedBody: autoSettlementRuleInput,
    response: { data: schemas.autoSettlementRule },
    async handle({ core }, { wallet, params, body }) {
      const address = addressOf(core, wallet, params.addressId);
      const valid = validateRule(body);
      const at = core.stamp();
      const [row] = await core.db
        .insert(sandboxRules)
        .values({
          id: randomUUID(),
          walletId: wallet.id,
          addressId: address.id,
          name: body.name,
          isActive: body.isActive ?? true,
          ...valid,
          createdAt: at,
          updatedAt: at,
        })
        .returning();
      if (!row) throw new Error('insert returned nothing');
      return { data: ruleApi(row), message: 'Auto settlement rule created successfully' };
    },
  }),
  endpoint({
    method: 'PATCH',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules/:id',
    summary: '#11 Update an address auto-settlement rule',
    body: req.ruleUpdateBody,
    documentedBody: autoSettlementRuleInput,
    response: { data: schemas.autoSettlementRule },
    async handle({ core }, { wallet, params, body }) {
      const address = addressOf(core, wallet, params.addressId);
      const id = params.id ?? '';
      const [current] = isUuidLike(id)
        ? await core.db
            .select()
            .from(sandboxRules)
            .where(
              and(
                eq(sandboxRules.id, id),
                eq(sandboxRules.walletId, wallet.id),
                eq(sandboxRules.addressId, address.id),
              ),
            )
        : [];
      if (!current) throw notFound('Auto settlement rule');
      const merged = {
        order: body.order ?? current.order,
        slippageTolerance: body.slippageTolerance ?? current.slippageTolerance,
        source: { ...(current.source as Record<string, never>), ...body.source } as {
          assets: string[];
          blockchain: string;
          minAmount: string;
          maxAmount: string;
        },
        destination: { ...(current.destination as Record<string, never>), ...body.destination } as {
          address: string;
          asset: string;
          blockchain: string;
        },
      };
      const valid = validateRule(merged);
      const [row] = await core.db
        .update(sandboxRules)
        .set({
          name: body.name ?? current.name,
          isActive: body.isActive ?? current.isActive,
          ...valid,
          updatedAt: core.stamp(),
        })
        .where(eq(sandboxRules.id, current.id))
        .returning();
      if (!row) throw notFound('Auto settlement rule');
      return { data: ruleApi(row), message: 'Auto settlement rule updated successfully' };
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/auto-settlements/rules',
    summary: "Extension: list an address's auto-settlement rules",
    response: { data: z.array(schemas.autoSettlementRule) },
    async handle({ core }, { wallet, params }) {
      const address = addressOf(core, wallet, params.addressId);
      const rows = await core.db
        .select()
        .from(sandboxRules)
        .where(and(eq(sandboxRules.walletId, wallet.id), eq(sandboxRules.addressId, address.id)))
        .orderBy(asc(sandboxRules.createdAt));
      return { data: rows.map((r) => ruleApi(r)), message: 'Auto settlement rules fetched successfully' };
    },
  }),
];
