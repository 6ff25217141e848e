// The address page's transaction view as URL state, parsed once: the server page reads it with the loader,
// the client table reads and writes it with the same parsers.
import { createLoader, parseAsInteger, parseAsString, parseAsStringLiteral } from 'nuqs/server';

export const ADDRESS_TRANSACTION_PAGE_SIZES = [10, 25, 50, 100] as const;
export const ADDRESS_TRANSACTION_ORDERS = ['DESC', 'ASC'] as const;

export const addressSearchParams = {
  page: parseAsInteger.withDefault(1),
  limit: parseAsInteger.withDefault(25),
  order: parseAsStringLiteral(ADDRESS_TRANSACTION_ORDERS).withDefault('DESC'),
  /** The transaction whose drawer is open. */
  open: parseAsString,
};

export const loadAddressSearchParams = createLoader(addressSearchParams);

export interface AddressTransactionView {
  page: number;
  limit: number;
  order: (typeof ADDRESS_TRANSACTION_ORDERS)[number];
}

/** The URL's values kept within what the table offers: a hand-edited URL cannot ask for 10,000 rows. */
export function addressTransactionView(search: {
  page: number;
  limit: number;
  order: AddressTransactionView['order'];
}): AddressTransactionView {
  const limit = (ADDRESS_TRANSACTION_PAGE_SIZES as readonly number[]).includes(search.limit)
    ? search.limit
    : 25;
  return { page: Math.min(Math.max(1, search.page), 100_000), limit, order: search.order };
}
