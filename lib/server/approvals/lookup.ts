import 'server-only';
// Finding a request's upstream transactions with whatever the service offers. The spec's 23 endpoints have
// no "transaction by reference" and no "transaction by id" for the master wallet: the extensions do, #3 does
// for child addresses, and the webhook logs (#22, #23) carry every delivered Transaction with its reference.
import { type CustodyClient, CustodyError } from '@/lib/custody';

/** The transaction fields the engine follows. */
export interface FoundTransaction {
  id: string;
  reference: string | null;
  status: string;
  type: string | null;
  hash: string | null;
  confirmations: number | null;
  createdAt: string | null;
  amount: string | null;
  symbol: string | null;
  recipientAddress: string | null;
}

export interface LookupTarget {
  walletId: string;
  /** The child address the operation acts from; null for the master wallet. */
  addressId: string | null;
  /** Null when the item's reference was never sent upstream (a retry names its transaction by id). */
  reference: string | null;
  /** The upstream transaction already linked to this item, if any. */
  transactionId: string | null;
}

export interface LookupResult {
  /**
   * True when the service answered a lookup that would have shown a transaction with this reference
   * whatever its status (the wallet-wide list by reference, or #3 of the source address). Only such an
   * answer can support "not executed"; the webhook logs only show what was delivered.
   */
  conclusive: boolean;
  /** Every distinct upstream transaction carrying the reference (or the linked id). */
  transactions: FoundTransaction[];
  /** Which lookups answered, for the timeline and the page. */
  via: string[];
}

/** Extension endpoints a lookup may use; a missing one is skipped (and reported through `onMissing`). */
export type LookupCapability = 'transaction' | 'walletTransactions';

export interface LookupOptions {
  /** Capabilities known to be absent on this connection; unknown ones are tried. */
  missing: ReadonlySet<LookupCapability>;
  onMissing(name: LookupCapability): void | Promise<void>;
  isMissingEndpoint(error: unknown): boolean;
  /** How many pages of webhook logs (#22) to scan, newest first. */
  webhookPages?: number;
}

/** How the answer of a lookup endpoint names a transaction: the loose schema's Transaction. */
type UpstreamTransaction = {
  id: string;
  reference?: string | null;
  status: string;
  type?: string | null;
  hash?: string | null;
  confirmations?: number | null;
  createdAt?: string | null;
  amount?: string | null;
  asset?: { symbol?: string | null } | null;
  recipientAddress?: string | null;
};

function toFound(tx: UpstreamTransaction): FoundTransaction {
  return {
    id: tx.id,
    reference: tx.reference ?? null,
    status: tx.status,
    type: tx.type ?? null,
    hash: tx.hash ?? null,
    confirmations: tx.confirmations ?? null,
    createdAt: tx.createdAt ?? null,
    amount: tx.amount ?? null,
    symbol: tx.asset?.symbol ?? null,
    recipientAddress: tx.recipientAddress ?? null,
  };
}

/** An endpoint the service does not have answers like an unknown path (`404 Cannot GET /v1/...`) or 405. */
export function looksLikeMissingEndpoint(error: unknown): boolean {
  return (
    error instanceof CustodyError &&
    error.kind === 'http' &&
    (error.status === 405 || (error.status === 404 && /^Cannot [A-Z]+ \//.test(error.message)))
  );
}

/** A missing record on an endpoint that exists: "nothing found", not a failed lookup. */
function isNotFound(error: unknown): boolean {
  return error instanceof CustodyError && error.kind === 'http' && error.status === 404;
}

export async function lookUpTransactions(
  client: CustodyClient,
  target: LookupTarget,
  options: LookupOptions,
): Promise<LookupResult> {
  const found = new Map<string, FoundTransaction>();
  const via: string[] = [];
  let conclusive = false;
  const add = (tx: UpstreamTransaction | undefined | null) => {
    if (!tx) return;
    // Deposits that share a reference (an internal transfer's receiving side) are not a second payment.
    if (tx.type === 'DEPOSIT') return;
    if (tx.id !== target.transactionId && (target.reference === null || tx.reference !== target.reference))
      return;
    // Logs hold a transaction as it was at each delivery: a settled state outranks PENDING.
    const seen = found.get(tx.id);
    if (seen && seen.status !== 'PENDING' && tx.status === 'PENDING') return;
    found.set(tx.id, toFound(tx));
  };
  /** Runs one extension lookup; false when the endpoint turned out to be missing. */
  const tryExtension = async (name: LookupCapability, run: () => Promise<void>) => {
    if (options.missing.has(name)) return false;
    try {
      await run();
      return true;
    } catch (error) {
      if (options.isMissingEndpoint(error)) {
        await options.onMissing(name);
        return false;
      }
      throw error;
    }
  };

  let byId = false;
  if (target.transactionId) {
    const id = target.transactionId;
    byId = await tryExtension('transaction', async () => {
      try {
        add((await client.wallets.getTransaction({ walletId: target.walletId, id })).data);
        via.push('transaction by id');
      } catch (error) {
        if (!isNotFound(error) || options.isMissingEndpoint(error)) throw error;
      }
    });
  }

  const reference = target.reference;
  const listed =
    reference !== null &&
    (await tryExtension('walletTransactions', async () => {
      const page = await client.wallets.listTransactions({
        walletId: target.walletId,
        reference,
        limit: 20,
      });
      for (const tx of page.data) add(tx);
      via.push('wallet transactions by reference');
    }));
  // Looking up by id answers for an item that names its transaction; by reference for one that sends it.
  if (listed || (reference === null && byId)) conclusive = true;

  if (!conclusive && target.addressId) {
    // #3: the source address's transactions, newest first; filtered by id when one is linked, else read
    // and matched by reference here (the spec gives #3 no reference filter).
    const page = await client.addresses.listTransactions({
      walletId: target.walletId,
      addressId: target.addressId,
      ...(target.transactionId ? { id: target.transactionId } : { order: 'DESC' as const }),
    });
    for (const tx of page.data) add(tx);
    via.push('address transactions');
    conclusive = true;
  }

  if (!listed && target.transactionId) {
    // #23: the deliveries of the linked transaction carry it as it was when each was sent.
    try {
      const logs = await client.webhooks.forTransaction({
        walletId: target.walletId,
        transactionId: target.transactionId,
      });
      for (const log of logs.data) add(log.payload as UpstreamTransaction | undefined);
      via.push('transaction webhook logs');
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  if (!listed && reference !== null) {
    // The webhook logs carry each delivered Transaction with its reference: proof that something was
    // executed, never that nothing was.
    const pages = options.webhookPages ?? 2;
    for (let page = 1; page <= pages; page++) {
      const logs = await client.webhooks.list({ walletId: target.walletId, page, limit: 100 });
      for (const log of logs.data) add(log.payload as UpstreamTransaction | undefined);
      if (page >= (logs.meta?.totalPages ?? 1)) break;
    }
    via.push('webhook logs');
  }

  return { conclusive, transactions: [...found.values()], via };
}
