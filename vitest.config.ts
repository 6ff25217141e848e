import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
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

const INCLUDE = ['lib/**/*.test.ts', 'components/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'];
const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Test files that change what the process shares (a mocked module, a stubbed global or variable, fake timers, a
 * spy, a value on globalThis, an environment variable set) each run with their own module graph. The others share
 * one module graph per worker, loading the server's modules once instead of once per file: a fifth less CPU over
 * the suite (432 CPU-seconds instead of 556 on PGlite), every test passing in any file order. Read from the files
 * themselves, so a file that starts mocking is isolated without anyone listing it.
 */
const SHARES_PROCESS_STATE =
  /\bvi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn)\b|\bglobalThis\b|\bprocess\.env\.\w+\s*=[^=]|\bdelete process\.env\b/;
function isolatedTestFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (
        file.endsWith('.test.ts') &&
        SHARES_PROCESS_STATE.test(readFileSync(path.join(root, file), 'utf8'))
      )
        found.push(file);
    }
  };
  for (const dir of ['lib', 'components', 'scripts', 'test']) walk(dir);
  return found;
}
const ISOLATED = isolatedTestFiles();
// `*.postgres.test.ts` needs a PostgreSQL server (separate connections, pg_terminate_backend).
const EXCLUDE = [
  ...configDefaults.exclude,
  ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.postgres.test.ts']),
];

const resolve = {
  tsconfigPaths: true,
  alias: {
    // `server-only` throws outside a React Server environment; tests run server code directly.
    'server-only': fileURLToPath(new URL('./test/server-only-stub.ts', import.meta.url)),
  },
};

const common = {
  environment: 'node',
  // A test that spawns processes or opens a second database waits its turn for CPU beside the browser suite.
  testTimeout: 90_000,
  // Set-up opens a PGlite database and often a seeded sandbox: a few seconds alone, far longer when the unit tests
  // run niced beside the browser suite on a busy machine. A hook that hangs still fails, after two minutes.
  hookTimeout: 120_000,
  // Worker threads: a third less CPU than child processes over the suite (each file's isolated module graph loads
  // faster in a thread), and CPU is what the suite is short of beside the browser tests.
  pool: 'threads',
  // Expected failures are logged by the code under test; keep the test output readable.
  env: { LOG_LEVEL: 'silent' },
} as const;

export default defineConfig({
  resolve,
  test: {
    // Vitest's default is one worker fewer than the CPUs: a single worker on a 2-core machine, where the
    // database tests (PGlite runs in the worker's own thread) leave the second core idle.
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        resolve,
        test: {
          ...common,
          name: 'shared',
          include: INCLUDE,
          exclude: [...EXCLUDE, ...ISOLATED],
          isolate: false,
        },
      },
      { resolve, test: { ...common, name: 'isolated', include: ISOLATED, exclude: EXCLUDE } },
    ],
  },
});
