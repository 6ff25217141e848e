// The address book's filters as URL state, parsed once: the server page filters with the loader, the table's
// toolbar reads and writes the same parsers.
import { createLoader, parseAsString, parseAsStringLiteral } from 'nuqs/server';

export const ADDRESS_BOOK_SOURCES = ['console', 'whitelisted', 'beneficiary'] as const;

export const addressBookSearchParams = {
  /** Name, address, tag or notes contain this (case-insensitive). */
  q: parseAsString.withDefault(''),
  source: parseAsStringLiteral(ADDRESS_BOOK_SOURCES),
};

export const loadAddressBookSearchParams = createLoader(addressBookSearchParams);
