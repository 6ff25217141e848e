import 'server-only';
// Reading a wallet's transactions for the console: one loader for the server page, the JSON route handler
// and the CSV export, so all three apply the URL's filters the same way. Everything returned is redacted.
import { type CustodyClient, isMissingEndpoint } from '@/lib/custody';
import { CustodyError } from '@/lib/custody/errors';
import {
  type PageMeta,
  TRANSACTION_FILTER_TYPES,
  type Transaction,
  type TransactionFilterType,
} from '@/lib/custody/schemas';
import {
  clampPage,
  type TransactionFilterState,
  type TransactionSortField,
  UPSTREAM_MAX_PAGE_SIZE,
  upstreamPagesFor,
} from '@/lib/validation/transactions';
import type { TransactionRow } from '@/lib/wallet-view';
import { type CapabilityName, capabilitiesOf, markCapabilityMissing } from './capabilities';
import { csvRow } from './csv';
import { redactTransaction } from './redaction';
import { childAddressIdsFor } from './wallet-addresses';
import { runPool } from './webhooks';

export interface TransactionPage {
  data: Transaction[];
  meta: PageMeta;
  /**
   * `wallet`: every transaction of the wallet. `child-addresses`: the service has no wallet-wide list, so the
   * rows are those of the child addresses the console knows (#3), merged by date; master-wallet
   * transactions are missing.
   */
  scope?: 'wallet' | 'child-addresses';
  /**
   * Set when the service could not sort or filter the list itself and the console stopped reading at this
   * many rows: the page is ordered and counted among those rows only.
   */
  scanLimit?: number;
}

/**
 * Where a wallet's transactions are read: the wallet-wide extension, or #3 for each of the given child
 * addresses (a service with the spec alone).
 */
export type TransactionSource = { kind: 'wallet' } | { kind: 'addresses'; addressIds: readonly string[] };
const WALLET_SOURCE: TransactionSource = { kind: 'wallet' };

/** The source for a wallet, from its capabilities: `need` is the extension the read would use. */
async function transactionSourceFor(
  client: CustodyClient,
  walletId: string,
  need: CapabilityName = 'walletTransactions',
): Promise<TransactionSource> {
  const capabilities = await capabilitiesOf(walletId);
  if (capabilities[need]) return WALLET_SOURCE;
  return { kind: 'addresses', addressIds: await childAddressIdsFor(client, walletId, capabilities) };
}

/**
 * Runs a read with the wallet's source. When the extension turns out to be missing anyway ("Cannot GET"),
 * it is marked missing and the read runs again per address, so the view never fails for it.
 */
export async function withTransactionSource<T>(
  client: CustodyClient,
  walletId: string,
  run: (source: TransactionSource) => Promise<T>,
  need: CapabilityName = 'walletTransactions',
): Promise<T> {
  const source = await transactionSourceFor(client, walletId, need);
  try {
    return await run(source);
  } catch (error) {
    if (source.kind !== 'wallet' || !isMissingEndpoint(error)) throw error;
    await markCapabilityMissing(walletId, need);
    return run(await transactionSourceFor(client, walletId, need));
  }
}

type UpstreamFilters = Omit<TransactionFilterState, 'page' | 'limit'>;

/**
 * One upstream page: #3 when the view is scoped to an address and sorted by date (all #3 can do), the
 * wallet-wide extension otherwise (it takes `addressId` and `sort`).
 */
function fetchUpstream(
  client: CustodyClient,
  walletId: string,
  filters: UpstreamFilters,
  page: number,
  limit: number,
) {
  const common = {
    walletId,
    status: filters.status,
    // The wallet-wide list takes every type; #3 only DEPOSIT/WITHDRAW/SALVAGE (the parser drops others).
    type: filters.type as TransactionFilterType | undefined,
    assets: filters.assets.length > 0 ? filters.assets : undefined,
    order: filters.order,
    id: filters.id,
    hash: filters.hash,
    page,
    limit,
  };
  if (filters.addressId && filters.sort === 'createdAt')
    return client.addresses.listTransactions({ ...common, addressId: filters.addressId });
  return client.wallets.listTransactions({
    ...common,
    reference: filters.reference,
    addressId: filters.addressId,
    // Sent only when asked for, so a date-ordered read is the same call as a service without `sort` knows.
    sort: filters.sort === 'createdAt' ? undefined : filters.sort,
  });
}

/**
 * Whether the console must order the rows itself: the source is #3 (no `sort` in the spec) and the view is
 * sorted by something other than date.
 */
function sortsLocally(filters: UpstreamFilters, source: TransactionSource): boolean {
  return source.kind === 'addresses' && filters.sort !== 'createdAt';
}

/** An amount as a number; null for a missing or malformed one (it sorts last in both directions). */
function decimalOf(value: string | null | undefined): number | null {
  if (value === null || value === undefined || !/^-?\d+(\.\d+)?$/.test(value.trim())) return null;
  return Number(value);
}

/**
 * The order of the wallet-wide list's `sort` (lib/sandbox/handlers/transactions.ts), for rows the console sorts itself:
 * amounts as numbers, missing values last whatever the direction, ties by date, then id, in the same
 * direction.
 */
export function compareTransactions(
  sort: TransactionSortField,
  order: 'ASC' | 'DESC',
): (a: Transaction, b: Transaction) => number {
  const sign = order === 'ASC' ? 1 : -1;
  const byDate = (a: Transaction, b: Transaction) => {
    const d = createdAtOf(a) - createdAtOf(b);
    if (d !== 0) return sign * d;
    return sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
  const key = (tx: Transaction): number | string | null => {
    switch (sort) {
      case 'amount':
        return decimalOf(tx.amount);
      case 'amountUSD':
        return decimalOf(tx.amountUSD);
      case 'type':
        return tx.type ?? null;
      case 'status':
        return tx.status ?? null;
      case 'createdAt':
        return null;
    }
  };
  if (sort === 'createdAt') return byDate;
  return (a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka === null || kb === null) {
      if (ka !== kb) return ka === null ? 1 : -1;
      return byDate(a, b);
    }
    if (ka < kb) return -sign;
    if (ka > kb) return sign;
    return byDate(a, b);
  };
}

// ---------------------------------------------------------------------------------------------------------
// Without the wallet-wide list: #3 per child address, merged by date

/** Child addresses read at once. */
const PER_ADDRESS_CONCURRENCY = 4;
/**
 * With filters #3 cannot apply upstream, or a sort it cannot do, at most this many rows are read (merged by
 * date, newest first when sorting) to count, sort and page: the bound of what the console can do alone.
 */
export const MAX_LOCAL_FILTER_SCAN = 5_000;

/** #3 takes only DEPOSIT, WITHDRAW and SALVAGE as `type` and has no `reference`: those filter here. */
function localFilterOf(filters: UpstreamFilters): ((tx: Transaction) => boolean) | null {
  const typeUpstream =
    filters.type === undefined || (TRANSACTION_FILTER_TYPES as readonly string[]).includes(filters.type);
  if (typeUpstream && !filters.reference) return null;
  return (tx) =>
    (typeUpstream || tx.type === filters.type) && (!filters.reference || tx.reference === filters.reference);
}

function createdAtOf(tx: Transaction): number {
  const time = Date.parse(tx.createdAt ?? '');
  return Number.isNaN(time) ? 0 : time;
}

interface Cursor {
  addressId: string;
  buffer: Transaction[];
  nextPage: number;
  totalPages: number;
  totalItems: number;
}

/** A 404 on #3 means the address is not (or no longer) the wallet's: it has no rows here. */
function isGoneAddress(error: unknown): boolean {
  return error instanceof CustodyError && error.kind === 'http' && error.status === 404;
}

/**
 * Rows of several child addresses in one date order (the filters' `order`, newest first by default), read
 * page by page per address: a k-way merge that holds at most one upstream page per address.
 */
async function openAddressMerge(
  client: CustodyClient,
  walletId: string,
  filters: UpstreamFilters,
  addressIds: readonly string[],
  pageSize: number,
) {
  const typeUpstream =
    filters.type !== undefined && (TRANSACTION_FILTER_TYPES as readonly string[]).includes(filters.type)
      ? (filters.type as TransactionFilterType)
      : undefined;
  const fill = async (cursor: Cursor) => {
    const page = await client.addresses.listTransactions({
      walletId,
      addressId: cursor.addressId,
      status: filters.status,
      type: typeUpstream,
      assets: filters.assets.length > 0 ? filters.assets : undefined,
      order: filters.order,
      id: filters.id,
      hash: filters.hash,
      page: cursor.nextPage,
      limit: pageSize,
    });
    cursor.nextPage += 1;
    cursor.totalPages = page.data.length === 0 ? 0 : page.meta.totalPages;
    cursor.totalItems = page.meta.totalItems;
    cursor.buffer.push(...page.data);
  };
  const cursors: Cursor[] = [...new Set(addressIds)].map((addressId) => ({
    addressId,
    buffer: [],
    nextPage: 1,
    totalPages: 1,
    totalItems: 0,
  }));
  const first = await runPool(cursors, PER_ADDRESS_CONCURRENCY, fill);
  const live: Cursor[] = [];
  for (const [i, result] of first.entries()) {
    if (result.ok) live.push(cursors[i] as Cursor);
    else if (!isGoneAddress(result.error)) throw result.error;
  }
  const ascending = filters.order === 'ASC';
  const seen = new Set<string>();
  const before = (a: Transaction, b: Transaction) => {
    const d = createdAtOf(a) - createdAtOf(b);
    if (d !== 0) return ascending ? d < 0 : d > 0;
    return ascending ? a.id < b.id : a.id > b.id;
  };
  return {
    /** Sum of the addresses' totals as #3 reported them (before any local filter). */
    totalItems: live.reduce((n, c) => n + c.totalItems, 0),
    /** The next row in order, or null when every address is read to the end. */
    async next(): Promise<Transaction | null> {
      for (;;) {
        let best: Cursor | undefined;
        for (const c of live) {
          const head = c.buffer[0];
          if (head && (!best || before(head, best.buffer[0] as Transaction))) best = c;
        }
        if (!best) return null;
        const tx = best.buffer.shift() as Transaction;
        // Every address with more pages keeps a row buffered, so the next comparison sees all heads.
        if (best.buffer.length === 0 && best.nextPage <= best.totalPages) await fill(best);
        // A transfer between two child addresses is listed under both.
        if (seen.has(tx.id)) continue;
        seen.add(tx.id);
        return tx;
      }
    },
  };
}

/** One console page merged from the child addresses' lists (or one address's #3, sorted here). */
async function listAddressesPage(
  client: CustodyClient,
  walletId: string,
  filters: TransactionFilterState,
  addressIds: readonly string[],
): Promise<TransactionPage> {
  const local = localFilterOf(filters);
  const localSort = filters.sort !== 'createdAt';
  const page = (n: number, data: Transaction[], totalItems: number, scanLimit?: number): TransactionPage => ({
    data,
    meta: {
      currentPage: n,
      itemCount: data.length,
      itemsPerPage: filters.limit,
      totalItems,
      totalPages: Math.ceil(totalItems / filters.limit),
    },
    scope: 'child-addresses',
    ...(scanLimit ? { scanLimit } : {}),
  });

  if (!local && !localSort) {
    // The upstream totals are exact: the page is clamped before reading, and reading stops at its end.
    const merge = await openAddressMerge(
      client,
      walletId,
      filters,
      addressIds,
      Math.min(UPSTREAM_MAX_PAGE_SIZE, filters.page * filters.limit),
    );
    const current = clampPage(filters.page, merge.totalItems, filters.limit);
    const start = (current - 1) * filters.limit;
    const end = start + filters.limit;
    const data: Transaction[] = [];
    for (let i = 0; i < end; i += 1) {
      const tx = await merge.next();
      if (!tx) break;
      if (i >= start) data.push(redactTransaction(tx));
    }
    return page(current, data, merge.totalItems);
  }

  // #3 cannot filter or sort this way: read up to MAX_LOCAL_FILTER_SCAN rows (newest first when sorting, so
  // the bound keeps the most recent ones), then filter, sort and page them here.
  const merge = await openAddressMerge(
    client,
    walletId,
    localSort ? { ...filters, order: 'DESC' } : filters,
    addressIds,
    UPSTREAM_MAX_PAGE_SIZE,
  );
  const rows: Transaction[] = [];
  let scanned = 0;
  let exhausted = false;
  while (scanned < MAX_LOCAL_FILTER_SCAN) {
    const tx = await merge.next();
    if (!tx) {
      exhausted = true;
      break;
    }
    scanned += 1;
    if (!local || local(tx)) rows.push(tx);
  }
  if (!exhausted) exhausted = (await merge.next()) === null;
  if (localSort) rows.sort(compareTransactions(filters.sort, filters.order));
  const current = clampPage(filters.page, rows.length, filters.limit);
  const start = (current - 1) * filters.limit;
  const data = rows.slice(start, start + filters.limit).map((tx) => redactTransaction(tx));
  return page(current, data, rows.length, exhausted ? undefined : MAX_LOCAL_FILTER_SCAN);
}

/**
 * One console page (up to 1000 rows: joined from consecutive upstream pages), redacted. A page beyond the
 * last is answered with the last page (`meta.currentPage` says which).
 */
export async function listTransactionPage(
  client: CustodyClient,
  walletId: string,
  filters: TransactionFilterState,
  source: TransactionSource = WALLET_SOURCE,
): Promise<TransactionPage> {
  if (source.kind === 'addresses' && (!filters.addressId || sortsLocally(filters, source)))
    return listAddressesPage(
      client,
      walletId,
      filters,
      filters.addressId ? [filters.addressId] : source.addressIds,
    );
  const read = (page: number) =>
    Promise.all(
      upstreamPagesFor(page, filters.limit).map((p) =>
        fetchUpstream(client, walletId, filters, p.page, p.limit),
      ),
    );
  let current = filters.page;
  let parts = await read(current);
  let totalItems = parts[0]?.meta.totalItems ?? 0;
  const last = clampPage(current, totalItems, filters.limit);
  if (last < current && parts.every((p) => p.data.length === 0)) {
    current = last;
    // An empty list has no last page to read: page 1 of nothing is already known.
    if (totalItems > 0) {
      parts = await read(current);
      totalItems = parts[0]?.meta.totalItems ?? totalItems;
    }
  }
  const data = parts.flatMap((p) => p.data).map((tx) => redactTransaction(tx));
  if (parts.length === 0) totalItems = data.length;
  return {
    data,
    meta: {
      currentPage: current,
      itemCount: data.length,
      itemsPerPage: filters.limit,
      totalItems,
      totalPages: Math.ceil(totalItems / filters.limit),
    },
    scope: 'wallet',
  };
}

/** A page of the console's transactions table: its rows cut to what the table and drawer render. */
export type TransactionRowPage = Omit<TransactionPage, 'data'> & { data: TransactionRow[] };

/**
 * What the browser gets of a (redacted) transaction for the table and its drawer: the fields they render, and of
 * the nested asset, chain, address and beneficiary only the names and decimals shown.
 */
export function toTransactionRow(tx: Transaction): TransactionRow {
  return {
    id: tx.id,
    reference: tx.reference,
    hash: tx.hash,
    type: tx.type,
    status: tx.status,
    confirmed: tx.confirmed,
    confirmations: tx.confirmations,
    amount: tx.amount,
    amountPaid: tx.amountPaid,
    amountUSD: tx.amountUSD,
    currency: tx.currency,
    rate: tx.rate,
    rateUSD: tx.rateUSD,
    toAmount: tx.toAmount,
    toCurrency: tx.toCurrency,
    feeMetadata: tx.feeMetadata,
    gasFee: tx.gasFee,
    gasPrice: tx.gasPrice,
    gasUsed: tx.gasUsed,
    blockHash: tx.blockHash,
    blockNumber: tx.blockNumber,
    chainId: tx.chainId,
    network: tx.network,
    note: tx.note,
    reason: tx.reason,
    metadata: tx.metadata,
    recipientAddress: tx.recipientAddress,
    senderAddress: tx.senderAddress,
    tokenAddress: tx.tokenAddress,
    ...(tx.createdChannel === undefined ? {} : { createdChannel: tx.createdChannel }),
    createdAt: tx.createdAt,
    updatedAt: tx.updatedAt,
    amlScreening: tx.amlScreening,
    asset: tx.asset && { symbol: tx.asset.symbol, decimals: tx.asset.decimals },
    toAsset: tx.toAsset && { symbol: tx.toAsset.symbol, decimals: tx.toAsset.decimals },
    blockchain: tx.blockchain && {
      name: tx.blockchain.name,
      slug: tx.blockchain.slug,
      symbol: tx.blockchain.symbol,
    },
    address: tx.address && { name: tx.address.name },
    addressId: tx.addressId,
    assetSwept: tx.assetSwept,
    assetSweptAmount: tx.assetSweptAmount,
    assetSweptGasFee: tx.assetSweptGasFee,
    assetSweptAt: tx.assetSweptAt,
    assetSweptHash: tx.assetSweptHash,
    assetSweptRecipientAddress: tx.assetSweptRecipientAddress,
    beneficiary: tx.beneficiary && { name: tx.beneficiary.name },
  };
}

export function toTransactionRowPage(page: TransactionPage): TransactionRowPage {
  return { ...page, data: page.data.map(toTransactionRow) };
}

/**
 * One transaction (the drawer opened from a link when the row is not on the loaded page), redacted. Without
 * the by-id extension it is looked up with #3's `id` filter on each known child address.
 */
export async function getTransaction(
  client: CustodyClient,
  walletId: string,
  id: string,
  source: TransactionSource = WALLET_SOURCE,
): Promise<Transaction> {
  if (source.kind === 'wallet') {
    const result = await client.wallets.getTransaction({ walletId, id });
    return redactTransaction(result.data);
  }
  const found = await findOnAddresses(client, walletId, source.addressIds, { id });
  if (!found)
    throw new CustodyError({
      kind: 'http',
      status: 404,
      message: 'Transaction not found among the child addresses this console knows',
      method: 'GET',
      path: `/v1/wallets/${walletId}/addresses/*/transactions`,
    });
  return redactTransaction(found);
}

/** The first transaction matching an id or hash on any of the addresses (#3 filters); null when none. */
export async function findOnAddresses(
  client: CustodyClient,
  walletId: string,
  addressIds: readonly string[],
  filter: { id: string } | { hash: string },
): Promise<Transaction | null> {
  const results = await runPool([...new Set(addressIds)], PER_ADDRESS_CONCURRENCY, (addressId) =>
    client.addresses.listTransactions({ walletId, addressId, ...filter, limit: 1 }),
  );
  for (const result of results) {
    if (result.ok) {
      const tx = result.value.data[0];
      if (tx) return tx;
    } else if (!isGoneAddress(result.error)) throw result.error;
  }
  return null;
}

// What the export writes, in order. Timestamps in ISO 8601 (UTC), amounts as the upstream's decimal strings.
const CSV_COLUMNS: Array<[string, (tx: Transaction) => unknown]> = [
  ['id', (tx) => tx.id],
  ['createdAt', (tx) => isoOrRaw(tx.createdAt)],
  ['updatedAt', (tx) => isoOrRaw(tx.updatedAt)],
  ['type', (tx) => tx.type],
  ['status', (tx) => tx.status],
  ['asset', (tx) => tx.asset?.symbol ?? tx.currency],
  ['amount', (tx) => tx.amount],
  ['amountUSD', (tx) => tx.amountUSD],
  ['gasFee', (tx) => tx.gasFee],
  ['senderAddress', (tx) => tx.senderAddress],
  ['recipientAddress', (tx) => tx.recipientAddress],
  ['hash', (tx) => tx.hash],
  ['reference', (tx) => tx.reference],
  ['blockchain', (tx) => tx.blockchain?.slug],
  ['network', (tx) => tx.network],
  ['confirmations', (tx) => tx.confirmations],
  ['addressId', (tx) => tx.addressId],
  ['assetSwept', (tx) => tx.assetSwept],
  ['amlStatus', (tx) => (tx.amlScreening && 'status' in tx.amlScreening ? tx.amlScreening.status : null)],
  ['note', (tx) => tx.note],
  ['reason', (tx) => tx.reason],
];

function isoOrRaw(value: string | null | undefined): string | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

export const TRANSACTION_CSV_HEADER = CSV_COLUMNS.map(([name]) => name);

function transactionCsvRow(tx: Transaction): string {
  return csvRow(CSV_COLUMNS.map(([, read]) => read(tx)));
}

/** A stop for runaway exports: beyond this many rows the file ends with a note instead of growing. */
const MAX_EXPORT_ROWS = 200_000;

/**
 * Every row of the filtered view (all pages, the URL's order), as CSV, fetched page by page while the
 * response streams: memory stays flat and the first bytes leave before the last page is read. The first
 * page is read before the stream exists, so a refused call becomes an error response, not an empty file.
 */
export async function openTransactionCsvStream(
  client: CustodyClient,
  walletId: string,
  filters: UpstreamFilters,
  onDone: (outcome: { rows: number; error?: unknown }) => void,
  source: TransactionSource = WALLET_SOURCE,
): Promise<ReadableStream<Uint8Array>> {
  if (source.kind === 'addresses' && (!filters.addressId || sortsLocally(filters, source)))
    return openAddressesCsvStream(
      client,
      walletId,
      filters,
      onDone,
      filters.addressId ? [filters.addressId] : source.addressIds,
    );
  const encoder = new TextEncoder();
  const first = await fetchUpstream(client, walletId, filters, 1, UPSTREAM_MAX_PAGE_SIZE);
  let next: Transaction[] | null = first.data;
  let page = 2;
  let totalPages = first.meta.totalPages;
  let rows = 0;
  // Rows arriving while the export runs shift later pages; an id already written is not written twice.
  const written = new Set<string>();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRow(TRANSACTION_CSV_HEADER)));
    },
    // Each pull must enqueue or close: a pull that returns with nothing queued is not called again.
    async pull(controller) {
      try {
        for (;;) {
          if (next === null) {
            if (page > totalPages || rows >= MAX_EXPORT_ROWS) {
              if (rows >= MAX_EXPORT_ROWS)
                controller.enqueue(encoder.encode(csvRow([`# stopped after ${MAX_EXPORT_ROWS} rows`])));
              controller.close();
              onDone({ rows });
              return;
            }
            const result = await fetchUpstream(client, walletId, filters, page, UPSTREAM_MAX_PAGE_SIZE);
            page += 1;
            totalPages = result.meta.totalPages;
            // An empty page ends the export even if `meta` promised more (rows removed meanwhile).
            if (result.data.length === 0) totalPages = 0;
            next = result.data;
          }
          const fresh = next.filter((tx) => !written.has(tx.id));
          next = null;
          if (fresh.length === 0) continue;
          for (const tx of fresh) written.add(tx.id);
          rows += fresh.length;
          controller.enqueue(
            encoder.encode(fresh.map((tx) => transactionCsvRow(redactTransaction(tx))).join('')),
          );
          return;
        }
      } catch (error) {
        onDone({ rows, error });
        // The header is already sent: a truncated file must not pass for a complete one.
        controller.error(error);
      }
    },
  });
}

/**
 * The export without the wallet-wide list: every known child address's rows, merged by date; in another
 * order, the newest MAX_LOCAL_FILTER_SCAN rows sorted here (the file then ends with a line saying so).
 */
async function openAddressesCsvStream(
  client: CustodyClient,
  walletId: string,
  filters: UpstreamFilters,
  onDone: (outcome: { rows: number; error?: unknown }) => void,
  addressIds: readonly string[],
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const local = localFilterOf(filters);
  const localSort = filters.sort !== 'createdAt';
  // Opened before the stream exists: a refused first read becomes an error response, not an empty file.
  const merge = await openAddressMerge(
    client,
    walletId,
    localSort ? { ...filters, order: 'DESC' } : filters,
    addressIds,
    UPSTREAM_MAX_PAGE_SIZE,
  );
  let rows = 0;
  let next: () => Promise<Transaction | null> = () => merge.next();
  let boundNote: string | null = null;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvRow(TRANSACTION_CSV_HEADER)));
    },
    async pull(controller) {
      try {
        if (localSort && boundNote === null) {
          const sorted: Transaction[] = [];
          let scanned = 0;
          for (;;) {
            const tx = scanned < MAX_LOCAL_FILTER_SCAN ? await merge.next() : null;
            if (!tx) break;
            scanned += 1;
            sorted.push(tx);
          }
          const more = scanned >= MAX_LOCAL_FILTER_SCAN && (await merge.next()) !== null;
          boundNote = more
            ? `# sorted by ${filters.sort} among the newest ${MAX_LOCAL_FILTER_SCAN} rows: the service cannot sort this list`
            : '';
          sorted.sort(compareTransactions(filters.sort, filters.order));
          let i = 0;
          next = async () => sorted[i++] ?? null;
        }
        const chunk: string[] = [];
        while (chunk.length < UPSTREAM_MAX_PAGE_SIZE && rows < MAX_EXPORT_ROWS) {
          const tx = await next();
          if (!tx) break;
          if (local && !local(tx)) continue;
          chunk.push(transactionCsvRow(redactTransaction(tx)));
          rows += 1;
        }
        if (chunk.length > 0) {
          controller.enqueue(encoder.encode(chunk.join('')));
          if (rows < MAX_EXPORT_ROWS) return;
        }
        if (rows >= MAX_EXPORT_ROWS)
          controller.enqueue(encoder.encode(csvRow([`# stopped after ${MAX_EXPORT_ROWS} rows`])));
        if (boundNote) controller.enqueue(encoder.encode(csvRow([boundNote])));
        controller.close();
        onDone({ rows });
      } catch (error) {
        onDone({ rows, error });
        controller.error(error);
      }
    },
  });
}
