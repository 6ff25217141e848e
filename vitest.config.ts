import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run longest (the insider search's two halves, 1.5 minutes each or more) start first, whatever
 * Vitest's duration cache says: a clean checkout has none (Vitest then starts the largest files first), and a long
 * file started last would leave the other worker idle at the end.
 */
const LONGEST = ['/independence.integration.test.ts', '/independence-search.integration.test.ts'];
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => (LONGEST.some((name) => file.moduleId.endsWith(name)) ? 0 : 1);
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  resolve: {
    tsconfigPaths: true,
    alias: {
      // `server-only` throws outside a React Server environment; tests run server code directly.
      'server-only': fileURLToPath(new URL('./test/server-only-stub.ts', import.meta.url)),
    },
  },
  test: {
    environment: 'node',
    include: ['lib/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    // `*.postgres.test.ts` needs a PostgreSQL server (separate connections, pg_terminate_backend).
    exclude: [...configDefaults.exclude, ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.postgres.test.ts'])],
    // A test that spawns processes or opens a second database waits its turn for CPU beside the browser suite.
    testTimeout: 90_000,
    // Set-up opens a PGlite database and often a seeded sandbox: a few seconds alone, far longer when the unit tests
    // run niced beside the browser suite on a busy machine. A hook that hangs still fails, after two minutes.
    hookTimeout: 120_000,
    // Worker threads: a third less CPU than child processes over the suite (each file's isolated module graph loads
    // faster in a thread), and CPU is what the suite is short of beside the browser tests.
    pool: 'threads',
    // Vitest's default is one worker fewer than the CPUs: a single worker on a 2-core machine, where the
    // database tests (PGlite runs in the worker's own thread) leave the second core idle.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    // Expected failures are logged by the code under test; keep the test output readable.
    env: { LOG_LEVEL: 'silent' },
  },
});
