// Drops the run's PostgreSQL database (playwright.config.ts made one when TEST_DATABASE_URL was set) once the
// console has stopped.
import { dropRunDatabaseWhenStopped } from './helpers/run-database';

export default async function teardown() {
  const { TEST_DATABASE_URL, E2E_DATABASE_NAME, E2E_PORT } = process.env;
  if (!TEST_DATABASE_URL || !E2E_DATABASE_NAME) return;
  dropRunDatabaseWhenStopped(TEST_DATABASE_URL, E2E_DATABASE_NAME, [Number(E2E_PORT ?? 3100)]);
}
