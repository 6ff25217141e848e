import 'server-only';
// Extensions: Blockradar's reference data (Miscellaneous in its API reference): the assets and the blockchains
// the service supports, and the current rate of assets in a currency. Served from the sandbox's own catalog and
// price table; not scoped to a wallet, so any wallet's key reads them.
import { z } from 'zod';
import { schemas } from '@/lib/custody/schemas';
import { invalid } from '../context';
import { assetApi, blockchainApi } from '../serialize';
import { endpoint } from './endpoint';

/** The only currency the sandbox's price table holds. */
const RATE_CURRENCY = 'USD';

const symbolsOf = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);

export const miscellaneousEndpoints = [
  endpoint({
    method: 'GET',
    pattern: '/v1/assets',
    summary: 'Extension: the assets the service supports, each with its blockchain',
    response: { data: z.array(schemas.supportedAsset) },
    async handle({ core }) {
      const data = [...core.catalog.assets.values()]
        .sort((a, b) => a.network.localeCompare(b.network) || a.symbol.localeCompare(b.symbol))
        .map((asset) => assetApi(core.catalog, asset));
      return { data, message: 'Assets fetched successfully' };
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/blockchains',
    summary: 'Extension: the blockchains the service supports',
    response: { data: z.array(schemas.blockchain) },
    async handle({ core }) {
      const data = [...core.catalog.blockchains.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map(blockchainApi);
      return { data, message: 'Blockchains fetched successfully' };
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/assets/rates',
    summary: 'Extension: the current rate of assets in a currency',
    response: { data: schemas.assetRates },
    query: [
      { name: 'assets', description: 'Comma-separated asset symbols; every priced asset when absent' },
      { name: 'currency', description: 'The currency to price them in (the sandbox knows USD only)' },
    ],
    async handle({ core }, { query }) {
      const currency = query.get('currency')?.trim().toUpperCase() || RATE_CURRENCY;
      if (currency !== RATE_CURRENCY) throw invalid(`Currency ${currency} is not supported`);
      const prices = new Map<string, number>();
      for (const asset of core.catalog.assets.values())
        prices.set(asset.symbol.toUpperCase(), Number(asset.usdPrice));
      const wanted = symbolsOf(query.get('assets'));
      // An asset the service does not price is left out, as Blockradar answers only what it knows.
      const symbols = (wanted.length > 0 ? wanted : [...prices.keys()]).filter((s) => prices.has(s)).sort();
      const data = Object.fromEntries(symbols.map((s) => [s, { [currency]: prices.get(s) as number }]));
      return { data, message: 'Rates retrieved successfully' };
    },
  }),
];
