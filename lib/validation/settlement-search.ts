// The auto-settlement page's URL state, without zod: the address picker in the browser writes it and the
// server page reads it.
import { createLoader, createParser, createSerializer } from 'nuqs/server';

/** URL state of the auto-settlement page: the child address whose rules are shown (an overlong id is none). */
const settlementSearchParams = {
  addressId: createParser({
    parse: (value: string) => (value.length <= 100 ? value : null),
    serialize: (value: string) => value,
  }),
};

/** Reads the page's `searchParams` (the server page). */
export const loadSettlementSearch = createLoader(settlementSearchParams);
/** The page's URL for a state, e.g. `/wallets/w/settlement?addressId=…` (the address picker). */
export const serializeSettlementSearch = createSerializer(settlementSearchParams);
