// `npm run bench`: figures, not tests. Each figure prints its own block; add new ones to FIGURES.
// With DATABASE_URL set, the database-bound figures run on PGlite and again on that PostgreSQL server (each run in
// a database of its own, dropped afterwards). BENCH_ONLY=word,word runs the figures whose name contains a word.
import { approvalPipelineBench } from './approval-pipeline';
import { bundlesBench } from './bundles';
import { freshPostgresDatabase } from './postgres';
import { readPathBench } from './read-path';
import { distDir } from './server';
import { startupBench } from './startup';
import { transactionsViewBench } from './transactions-view';
import { upstreamCallsBench } from './upstream-calls';

type Figure = () => Promise<Record<string, number | string>>;

const postgresUrl = process.env.DATABASE_URL;
// Every figure chooses its database explicitly; PGlite unless a figure says otherwise.
delete process.env.DATABASE_URL;

/** Runs a figure with DATABASE_URL pointing at a new database on the PostgreSQL server. */
function onPostgres(figure: Figure): Figure {
  return async () => {
    const database = await freshPostgresDatabase(postgresUrl!);
    process.env.DATABASE_URL = database.url;
    try {
      return await figure();
    } finally {
      delete process.env.DATABASE_URL;
      await database.drop();
    }
  };
}

const FIGURES: Array<[string, Figure]> = [
  [
    'approval pipeline, PGlite (200 requests approved concurrently against the sandbox)',
    approvalPipelineBench,
  ],
  ...(postgresUrl
    ? ([['approval pipeline, PostgreSQL', onPostgres(approvalPipelineBench)]] as Array<[string, Figure]>)
    : []),
  [
    'upstream calls (custody requests per page and per withdrawal request, sandbox in-process)',
    upstreamCallsBench,
  ],
  [`client JavaScript, first load per route (gzip, build in ${distDir})`, bundlesBench],
  [`start-up, PGlite (next start, build in ${distDir})`, startupBench],
  [`read path, PGlite (console JSON routes vs the sandbox's own, build in ${distDir})`, readPathBench],
  ...(postgresUrl ? ([['read path, PostgreSQL', onPostgres(readPathBench)]] as Array<[string, Figure]>) : []),
  [
    `lighthouse, mobile (overview, transactions, approvals; build in ${distDir})`,
    // Loaded when it runs: Lighthouse is the bench's own package (bench/package.json), not the project's.
    async () => (await import('./lighthouse')).lighthouseBench(),
  ],
  [`transactions view, PGlite (50,000 rows, Chromium, build in ${distDir})`, transactionsViewBench],
];

const only = process.env.BENCH_ONLY?.split(',').filter(Boolean);
for (const [name, run] of FIGURES) {
  if (only && !only.some((word) => name.toLowerCase().includes(word.toLowerCase()))) continue;
  const started = performance.now();
  try {
    const figure = await run();
    console.log(`\n${name}`);
    for (const [key, value] of Object.entries(figure)) console.log(`  ${key.padEnd(40)} ${value}`);
    console.log(`  ${'(bench seconds)'.padEnd(40)} ${((performance.now() - started) / 1000).toFixed(1)}`);
  } catch (error) {
    console.error(`\n${name}: failed`, error);
    process.exitCode = 1;
  }
}
process.exit();
