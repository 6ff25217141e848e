import 'server-only';
// #4 the wallet: its assets, USD totals, settlement configuration and (masked) API credential; extension:
// renaming it or changing its description.
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { schemas, updateWalletInput } from '@/lib/custody/schemas';
import { invalid, type WalletRow } from '../context';
import type { SandboxCore } from '../core';
import { sandboxBalances, sandboxRules, sandboxWallets } from '../db/schema';
import { centsToDollars, usdCents } from '../money';
import * as req from '../requests';
import { assetApi, blockchainApi, ruleApi } from '../serialize';
import { endpoint } from './endpoint';

async function walletBalances(core: SandboxCore, wallet: WalletRow) {
  const assets = core.catalog.walletAssetsOf(wallet.id);
  const children = core.catalog.addressesOf(wallet.id).filter((a) => a.type === 'INTERNAL');
  const holders = [wallet.address, ...children.map((c) => c.address)].map((a) => a.toLowerCase());
  const rows = assets.length
    ? await core.db
        .select()
        .from(sandboxBalances)
        .where(
          and(
            inArray(
              sandboxBalances.assetId,
              assets.map((a) => a.asset.id),
            ),
            inArray(sandboxBalances.holder, holders),
          ),
        )
    : [];
  return { assets, rows, master: wallet.address.toLowerCase() };
}

/** The wallet as #4 gives it, the private key only when asked for. */
async function walletApi(core: SandboxCore, wallet: WalletRow, showPrivateKey: boolean) {
  const { catalog } = core;
  const chain = catalog.blockchainOf(wallet);
  const { assets, rows, master } = await walletBalances(core, wallet);
  let currentCents = 0n;
  let unsweptCents = 0n;
  for (const row of rows) {
    const asset = catalog.assets.get(row.assetId);
    if (!asset) continue;
    // The same per-asset cents the balances read reports, so the total is their exact sum.
    const cents = usdCents(BigInt(row.amount), asset.decimals, asset.usdPrice);
    if (row.holder === master) currentCents += cents;
    else unsweptCents += cents;
  }
  const walletRules = await core.db
    .select()
    .from(sandboxRules)
    .where(and(eq(sandboxRules.walletId, wallet.id), isNull(sandboxRules.addressId)))
    .orderBy(asc(sandboxRules.createdAt));
  const settlement = wallet.autoSettlement as { isActive: boolean; name: string };
  const apiKey = catalog.apiKeys.get(wallet.id) ?? '';
  return {
    id: wallet.id,
    address: wallet.address,
    name: wallet.name,
    description: wallet.description,
    network: wallet.network,
    status: wallet.status,
    isActive: wallet.isActive,
    derivationPath: wallet.derivationPath,
    blockchain: blockchainApi(chain),
    assets: assets.map(({ entry, asset }) => ({
      id: entry.id,
      asset: assetApi(catalog, asset),
      isActive: entry.isActive,
      createdAt: entry.createdAt.toISOString(),
      updatedAt: entry.updatedAt.toISOString(),
    })),
    analytics: {
      currentBalance: centsToDollars(currentCents),
      numberOfAssets: assets.length,
      unsweptBalance: centsToDollars(unsweptCents),
    },
    configurations: {
      addresses: { isActive: true, prefunding: { isActive: false, rules: [] } },
      autoSettlement: {
        isActive: settlement.isActive,
        rules: walletRules.map((r) => ruleApi(r, false)),
      },
    },
    business: catalog.business,
    apiCredential: {
      id: wallet.credentialId,
      type: 'API_KEY',
      status: 'ACTIVE',
      isActive: true,
      // The key is a secret: only its last characters are shown, enough to tell keys apart.
      key: `${'*'.repeat(12)}${apiKey.slice(-4)}`,
      webhookUrl: core.options.webhookUrl,
      createdAt: wallet.createdAt.toISOString(),
      updatedAt: wallet.updatedAt.toISOString(),
      revokedAt: null,
    },
    ...(showPrivateKey ? { privateKey: core.keys.privateKey(wallet.derivationPath) } : {}),
    createdAt: wallet.createdAt.toISOString(),
    updatedAt: wallet.updatedAt.toISOString(),
  };
}

export const walletEndpoints = [
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId',
    summary: '#4 Get a wallet',
    response: { data: schemas.wallet },
    query: ['showPrivateKey'],
    async handle({ core }, { wallet, query }) {
      const data = await walletApi(core, wallet, query.get('showPrivateKey') === 'true');
      return { data, message: 'Wallet fetched successfully' };
    },
  }),
  endpoint({
    method: 'PATCH',
    pattern: '/v1/wallets/:walletId',
    summary: "Extension: rename the wallet or change its description (Blockradar's Update Wallet)",
    body: req.walletUpdateBody,
    documentedBody: updateWalletInput,
    response: { data: schemas.wallet },
    async handle({ core }, { wallet, body }) {
      const name = body.name?.trim();
      if (body.name !== undefined && !name) throw invalid('name must not be empty');
      if (name === undefined && body.description === undefined)
        throw invalid('Nothing to update: send name or description');
      const [row] = await core.db
        .update(sandboxWallets)
        .set({
          ...(name === undefined ? {} : { name }),
          ...(body.description === undefined ? {} : { description: body.description }),
          updatedAt: core.stamp(),
        })
        .where(eq(sandboxWallets.id, wallet.id))
        .returning();
      if (!row) throw new Error('update returned nothing');
      // Requests are authenticated against the catalog: both maps must hold the new row.
      core.catalog.wallets.set(row.id, row);
      core.catalog.walletByKeyHash.set(row.apiKeyHash, row);
      core.options.onCatalogChanged();
      return { data: await walletApi(core, row, false), message: 'Wallet updated successfully' };
    },
  }),
];
