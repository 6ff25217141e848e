import 'server-only';
// Transactions: #1 retry, #2 resend webhook, #3 an address's list; extensions: the wallet's list and one transaction.
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { parseUnits, zeroAddress } from 'viem';
import { schemas, TRANSACTION_SORT_FIELDS, type TransactionSortField } from '@/lib/custody/schemas';
import { invalid, type WalletRow } from '../context';
import { eventFor, GAS, type Plan, type SandboxCore, type TransactionRow } from '../core';
import { amountSortKey, amountUsdSortKey, sandboxTransactions } from '../db/schema';
import * as req from '../requests';
import type { TransactionBody } from '../serialize';
import { endpoint, type Result } from './endpoint';
import { orderOf, pagedList, selectPage } from './paging';
import { addressOf, isUuidLike, transactionOf } from './shared';

const TX_TYPES = ['DEPOSIT', 'WITHDRAW', 'SALVAGE', 'SWAP', 'CUSTOM_SMART_CONTRACT', 'SIGNED'];
const TX_STATUSES = ['PENDING', 'SUCCESS', 'FAILED'];
const zeroUuid = '00000000-0000-0000-0000-000000000000';

/**
 * Extension: `sort` of the wallet-wide transaction list (`GET /v1/wallets/{walletId}/transactions`), with
 * `order` as its direction. Amounts are decimal strings and compare as numbers; a missing or malformed value
 * sorts last in both directions; ties fall back to date, then id, in the same direction, so paging is stable.
 * #3 (per address) is the spec's and sorts by date only.
 */
const TX_SORTS = TRANSACTION_SORT_FIELDS;

function sortOf(query: URLSearchParams): TransactionSortField {
  const raw = query.get('sort');
  if (raw === null || raw === '') return 'createdAt';
  const field = TX_SORTS.find((f) => f.toLowerCase() === raw.toLowerCase());
  if (!field) throw invalid(`sort must be one of ${TX_SORTS.join(', ')}`);
  return field;
}

/**
 * The ORDER BY of a sort other than date, each matching an index of the table (db/schema.ts), so a page of a
 * large history is read from the index instead of sorting every row of the wallet.
 */
function orderByKey(field: Exclude<TransactionSortField, 'createdAt'>, order: 'ASC' | 'DESC'): SQL {
  const t = sandboxTransactions;
  switch (field) {
    case 'amount':
    case 'amountUSD': {
      const key = field === 'amount' ? amountSortKey(t.amount) : amountUsdSortKey(t.body);
      return order === 'ASC' ? sql`${key} asc nulls last` : sql`${key} desc nulls last`;
    }
    // Never null (NOT NULL columns): plain ASC or DESC, which one index serves in both directions.
    case 'type':
      return order === 'ASC' ? asc(t.type) : desc(t.type);
    case 'status':
      return order === 'ASC' ? asc(t.status) : desc(t.status);
  }
}

function listTransactions(
  core: SandboxCore,
  wallet: WalletRow,
  query: URLSearchParams,
  extra: SQL[],
  allTypes: boolean,
  sortable = false,
): Promise<Result> {
  return pagedList(
    query,
    'Transactions fetched successfully',
    (window) => {
      const where: SQL[] = [eq(sandboxTransactions.walletId, wallet.id), ...extra];
      const id = query.get('id');
      if (id) {
        if (!isUuidLike(id)) throw invalid('id must be a UUID');
        where.push(eq(sandboxTransactions.id, id));
      }
      const hash = query.get('hash');
      if (hash) where.push(eq(sandboxTransactions.hash, hash));
      const status = query.get('status')?.toUpperCase();
      if (status) {
        if (!TX_STATUSES.includes(status)) throw invalid(`status must be one of ${TX_STATUSES.join(', ')}`);
        where.push(eq(sandboxTransactions.status, status));
      }
      const type = query.get('type')?.toUpperCase();
      if (type) {
        const allowed = allTypes ? TX_TYPES : ['DEPOSIT', 'WITHDRAW', 'SALVAGE'];
        if (!allowed.includes(type)) throw invalid(`type must be one of ${allowed.join(', ')}`);
        where.push(eq(sandboxTransactions.type, type));
      }
      const assets = query.get('assets');
      if (assets) {
        const symbols = assets
          .split(',')
          .map((s) => s.trim().toUpperCase())
          .filter(Boolean);
        const ids = core.catalog
          .walletAssetsOf(wallet.id)
          .filter((a) => symbols.includes(a.asset.symbol.toUpperCase()))
          .map((a) => a.asset.id);
        where.push(
          ids.length ? inArray(sandboxTransactions.assetId, ids) : eq(sandboxTransactions.id, zeroUuid),
        );
      }
      const order = orderOf(query);
      const sort = order === 'ASC' ? asc : desc;
      const field = sortable ? sortOf(query) : 'createdAt';
      const byDate = [sort(sandboxTransactions.createdAt), sort(sandboxTransactions.id)];
      const orderBy = field === 'createdAt' ? byDate : [orderByKey(field, order), ...byDate];
      return selectPage(core.db, sandboxTransactions, and(...where), orderBy, window);
    },
    (row) => core.serialize(row),
  );
}

/**
 * A failed withdrawal of the seeded history carries no plan; one is rebuilt from its fields so it can be
 * retried (#1) like any other: the same sender, recipient, asset and amount.
 */
function historyTransferPlan(core: SandboxCore, row: TransactionRow): Plan | null {
  if (row.type !== 'WITHDRAW' || !row.assetId || !row.amount || !row.senderAddress || !row.recipientAddress)
    return null;
  const asset = core.catalog.assets.get(row.assetId);
  if (!asset) return null;
  return {
    kind: 'transfer',
    from: row.senderAddress,
    to: row.recipientAddress,
    assetId: asset.id,
    amount: parseUnits(row.amount, asset.decimals).toString(),
    gasUsed: (asset.address === zeroAddress ? GAS.nativeTransfer : GAS.tokenTransfer).toString(),
  };
}

export const transactionEndpoints = [
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/transactions/retry',
    summary: '#1 Retry a failed transaction',
    body: req.idBody,
    response: { data: schemas.transaction },
    movesMoney: true,
    async handle({ core }, { wallet, body }) {
      const row = await transactionOf(core, wallet, body.id);
      if (row.status !== 'FAILED') throw invalid('Only failed transactions can be retried');
      const plan = (row.plan as Plan | null) ?? historyTransferPlan(core, row);
      if (!plan || plan.kind === 'stuck' || plan.kind === 'deposit') {
        throw invalid(`A ${row.type} transaction from the history cannot be retried in the sandbox`);
      }
      const next = await core.updateTransaction(core.db, row, {
        plan,
        status: 'PENDING',
        hash: null,
        blockNumber: null,
        confirmations: 0,
        body: { ...(row.body as TransactionBody), reason: null, confirmed: false, blockHash: null },
      });
      return { data: core.serialize(next), message: 'Transaction retried' };
    },
  }),
  endpoint({
    method: 'POST',
    pattern: '/v1/wallets/:walletId/transactions/webhooks/resend',
    summary: "#2 Resend a transaction's webhook",
    body: req.idBody,
    response: { data: schemas.transaction },
    async handle({ core }, { wallet, body }) {
      const row = await transactionOf(core, wallet, body.id);
      const event = eventFor(row);
      if (!event) throw invalid('The transaction is still pending; it has no webhook to resend yet');
      await core.queueWebhook(core.db, row, event);
      return { data: core.serialize(row), message: 'Transaction fetched successfully' };
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/addresses/:addressId/transactions',
    summary: "#3 List an address's transactions",
    response: { data: schemas.transaction, paged: true },
    query: [
      'id',
      'hash',
      'status',
      'type',
      {
        name: 'order',
        description: 'ASC or DESC (default DESC): date order; this list does not take `sort`.',
      },
      'assets',
      'page',
      'limit',
    ],
    handle({ core }, { wallet, params, query }) {
      const address = addressOf(core, wallet, params.addressId);
      return listTransactions(core, wallet, query, [eq(sandboxTransactions.addressId, address.id)], false);
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/transactions',
    summary: "Extension: list a wallet's transactions",
    response: { data: schemas.transaction, paged: true },
    query: [
      'id',
      'hash',
      'status',
      'type',
      { name: 'order', description: 'ASC or DESC (default DESC), the direction of `sort`.' },
      'assets',
      'reference',
      'addressId',
      {
        name: 'sort',
        description:
          'Sort field: createdAt (default), amount, amountUSD, type or status; `order` (ASC or DESC, default DESC) is its direction. Amounts compare as numbers, missing values come last, ties fall back to createdAt, then id.',
      },
      'page',
      'limit',
    ],
    handle({ core }, { wallet, query }) {
      const extra: SQL[] = [];
      const reference = query.get('reference');
      if (reference) extra.push(eq(sandboxTransactions.reference, reference));
      const addressId = query.get('addressId');
      if (addressId) extra.push(eq(sandboxTransactions.addressId, addressOf(core, wallet, addressId).id));
      return listTransactions(core, wallet, query, extra, true, true);
    },
  }),
  endpoint({
    method: 'GET',
    pattern: '/v1/wallets/:walletId/transactions/:id',
    summary: 'Extension: get one transaction',
    response: { data: schemas.transaction },
    async handle({ core }, { wallet, params }) {
      const row = await transactionOf(core, wallet, params.id ?? '');
      return { data: core.serialize(row), message: 'Transaction fetched successfully' };
    },
  }),
];
