import { defineConfig } from 'drizzle-kit';

// The embedded sandbox keeps its own schema and migrations, applied with the table __sandbox_migrations.
export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/sandbox/db/schema.ts',
  out: './lib/sandbox/db/migrations',
  migrations: { table: '__sandbox_migrations', schema: 'public' },
});
