import 'server-only';
// Reading a wallet's transactions for the console: one loader for the server page, the JSON route handler
// and the CSV export, so all three apply the URL's filters the same way. Everything returned is redacted.
import type { CustodyClient } from '@/lib/custody';
import type { PageMeta, Transaction, TransactionFilterType } from '@/lib/custody/schemas';
import {
  type TransactionFilterState,
  UPSTREAM_MAX_PAGE_SIZE,
  upstreamPagesFor,
} from '@/lib/validation/transactions';
import { csvRow } from './csv';
import { redactTransaction } from './redaction';

export interface TransactionPage {
  data: Transaction[];
  meta: PageMeta;
}

type UpstreamFilters = Omit<TransactionFilterState, 'page' | 'limit'>;

/** One upstream page: #3 when the view is scoped to an address, the wallet-wide extension otherwise. */
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
  if (filters.addressId)
    return client.addresses.listTransactions({ ...common, addressId: filters.addressId });
  return client.wallets.listTransactions({ ...common, reference: filters.reference });
}

/** One console page (up to 1000 rows: joined from consecutive upstream pages), redacted. */
export async function listTransactionPage(
  client: CustodyClient,
  walletId: string,
  filters: TransactionFilterState,
): Promise<TransactionPage> {
  const parts = await Promise.all(
    upstreamPagesFor(filters.page, filters.limit).map((p) =>
      fetchUpstream(client, walletId, filters, p.page, p.limit),
    ),
  );
  const data = parts.flatMap((p) => p.data).map((tx) => redactTransaction(tx));
  const totalItems = parts[0]?.meta.totalItems ?? data.length;
  return {
    data,
    meta: {
      currentPage: filters.page,
      itemCount: data.length,
      itemsPerPage: filters.limit,
      totalItems,
      totalPages: Math.ceil(totalItems / filters.limit),
    },
  };
}

/** One transaction (the drawer opened from a link when the row is not on the loaded page), redacted. */
export async function getTransaction(
  client: CustodyClient,
  walletId: string,
  id: string,
): Promise<Transaction> {
  const result = await client.wallets.getTransaction({ walletId, id });
  return redactTransaction(result.data);
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

export function transactionCsvRow(tx: Transaction): string {
  return csvRow(CSV_COLUMNS.map(([, read]) => read(tx)));
}

/** A stop for runaway exports: beyond this many rows the file ends with a note instead of growing. */
export const MAX_EXPORT_ROWS = 200_000;

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
): Promise<ReadableStream<Uint8Array>> {
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
