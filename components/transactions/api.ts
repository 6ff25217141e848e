// Browser-side reads of the console's transaction route handlers (the custody API is only reached by the
// server). Errors carry the server's message, which for upstream failures is the upstream's own.
import type { PageMeta, Transaction } from '@/lib/custody/schemas';
import { serializeTransactionSearch, type TransactionFilterState } from '@/lib/validation/transactions';
import type { TransactionRow } from '@/lib/wallet-view';

export interface TransactionPageData {
  data: TransactionRow[];
  /** `currentPage` is the page served: the last one when the asked page was past the end. */
  meta: PageMeta;
  scope?: 'wallet' | 'child-addresses';
  /** Set when the console sorted or filtered only this many rows (the service could not). */
  scanLimit?: number;
}

async function readJson<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => null)) as (T & { message?: string }) | null;
  if (!res.ok || body === null) {
    throw new Error(body?.message ?? `The console answered HTTP ${res.status}`);
  }
  return body;
}

function walletBase(walletId: string): string {
  return `/api/wallets/${encodeURIComponent(walletId)}/transactions`;
}

export async function fetchTransactionPage(
  walletId: string,
  filters: TransactionFilterState,
): Promise<TransactionPageData> {
  const qs = serializeTransactionSearch(filters);
  return readJson<TransactionPageData>(
    await fetch(`${walletBase(walletId)}${qs ? `?${qs}` : ''}`, { headers: { accept: 'application/json' } }),
  );
}

export async function fetchTransaction(walletId: string, id: string): Promise<Transaction> {
  const body = await readJson<{ data: Transaction }>(
    await fetch(`${walletBase(walletId)}/${encodeURIComponent(id)}`, {
      headers: { accept: 'application/json' },
    }),
  );
  return body.data;
}

/** The export of exactly the filtered view: same filters and sort, every page. */
export function transactionExportUrl(walletId: string, filters: TransactionFilterState): string {
  const { page: _page, limit: _limit, ...rest } = filters;
  const qs = serializeTransactionSearch(rest);
  return `${walletBase(walletId)}/export.csv${qs ? `?${qs}` : ''}`;
}
