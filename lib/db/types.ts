import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/** A Drizzle database over PGlite or node-postgres: the same schema and code path on both. */
// biome-ignore lint/suspicious/noExplicitAny: the schema generic differs per caller (console, sandbox).
export type AnyDb = PgDatabase<PgQueryResultHKT, any>;
