// The transactions view's URL state as a zod schema, for route handlers (`withPermission`). Kept apart from
// `transactions.ts`, which the browser loads with the table, so that zod stays out of the page.
import { z } from 'zod';
import { badFields, parseTransactionSearch, type TransactionSearch } from './transactions';

/** Strict schema of the query (route handlers: `withPermission('read', handler, transactionSearchSchema)`). */
export const transactionSearchSchema = z
  .record(z.string(), z.string())
  .transform((raw, ctx): TransactionSearch => {
    for (const error of badFields(raw)) {
      const [path = '', message = ''] = error.split(': ');
      ctx.addIssue({ code: 'custom', path: [path], message });
    }
    return parseTransactionSearch(raw);
  });
