// Drops the run's database and removes the data directories once both servers have stopped.
import { dropRunDatabaseWhenStopped } from '../e2e/helpers/run-database';

export default async function teardown() {
  const {
    TEST_DATABASE_URL,
    E2E_MULTI_DATABASE,
    E2E_INSTANCE_A,
    E2E_INSTANCE_B,
    E2E_DATA_DIR,
    E2E_DATA_DIR_B,
  } = process.env;
  if (!TEST_DATABASE_URL || !E2E_MULTI_DATABASE) return;
  const ports = [E2E_INSTANCE_A, E2E_INSTANCE_B].map((origin) => Number(new URL(origin ?? '').port));
  const dirs = [E2E_DATA_DIR, E2E_DATA_DIR_B].filter((dir): dir is string => Boolean(dir));
  dropRunDatabaseWhenStopped(TEST_DATABASE_URL, E2E_MULTI_DATABASE, ports, dirs);
}
