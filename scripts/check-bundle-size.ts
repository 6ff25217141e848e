// `npm run check:bundle`: the gzip size (level 9) of each route's first-load JavaScript, from the build's
// diagnostics (`<dist>/diagnostics/route-bundle-stats.json`, NEXT_DIST_DIR or `.next`), against its budget.
// Prints a table, and for routes over budget the libraries that weigh most.
//
// Routes still over their budget have a ceiling in `scripts/bundle-ceilings.json`: the size they had when it was
// last written, plus CEILING_SLACK for build-to-build noise. The check exits 1 when a route passes its ceiling, or
// its budget when it has no ceiling (a new route, or one within budget), so a route can only get lighter.
// `npm run check:bundle -- --write-ceilings` lowers the ceilings to this build's sizes (after a route got lighter).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleStatsFile, CEILING_SLACK, CEILINGS_FILE, KB, kb, measureRouteBundles } from './bundle-sizes';

/** Strings that only the named library's code contains, to tell which modules a chunk carries. */
const MARKERS: Array<[string, RegExp]> = [
  ['zod', /\$ZodType|ZodError|_zod\b/],
  ['lib/custody/schemas', /Minimum amount must not exceed maximum amount|CUSTOM_SMART_CONTRACT/],
  ['viem', /viem@|InvalidAddressError|BaseError.*docsPath/],
  ['radix-ui', /data-radix|Radix|DismissableLayer/],
  ['cmdk', /cmdk-/],
  ['sonner', /data-sonner/],
  ['react-hook-form', /shouldUnregister|useFormContext/],
  ['@tanstack/react-table', /getCoreRowModel|tableFeatures/],
  ['@tanstack/react-query', /QueryClient|queryKey/],
  ['lucide-react', /lucide/],
  ['react-dom + next (framework)', /__reactContainer|react-dom|__NEXT|next-router/],
];

const distDir = process.env.NEXT_DIST_DIR || '.next';
if (!bundleStatsFile(distDir)) {
  console.error(
    `No route bundle stats in ${distDir}: build first (NEXT_DIST_DIR=${distDir} node_modules/.bin/next build).`,
  );
  process.exit(2);
}
const { rows, chunk } = measureRouteBundles(distDir);

const width = Math.max(...rows.map((r) => r.route.length), 5);
console.log(`${'route'.padEnd(width)}  gzip kB  budget kB  ceiling kB  result`);
for (const r of rows) {
  const result =
    r.gzip > r.ceiling
      ? `FAILED: over its ceiling by ${kb(r.gzip - r.ceiling)} kB`
      : r.over > 0
        ? `over budget by ${kb(r.over)} kB`
        : 'ok';
  const ceiling = r.ceiling === r.budget ? '-' : kb(r.ceiling);
  console.log(
    `${r.route.padEnd(width)}  ${kb(r.gzip).padStart(7)}  ${kb(r.budget).padStart(9)}  ${ceiling.padStart(10)}  ${result}`,
  );
}

const failing = rows.filter((r) => r.over > 0);
if (failing.length > 0) {
  console.log(
    `\n${failing.length} of ${rows.length} routes over budget. What their first load carries (module gzip sizes, each module compressed alone, so larger than its share of the chunk):`,
  );
  for (const r of failing) {
    const weights = new Map<string, number>();
    for (const c of r.chunks) {
      for (const m of chunk(c).modules) {
        const owner = MARKERS.find(([, marker]) => marker.test(m.text))?.[0] ?? 'other';
        weights.set(owner, (weights.get(owner) ?? 0) + m.gzip);
      }
    }
    const top = [...weights]
      .filter(([name, bytes]) => name !== 'other' && bytes >= KB)
      .sort((a, b) => b[1] - a[1])
      .map(([name, bytes]) => `${name} ${kb(bytes)}`)
      .concat(`the rest ${kb(weights.get('other') ?? 0)}`)
      .join(', ');
    console.log(`  ${r.route}: ${top}`);
  }
}

if (process.argv.includes('--write-ceilings')) {
  const next = Object.fromEntries(
    rows
      .filter((r) => r.over > 0)
      .sort((a, b) => a.route.localeCompare(b.route))
      // A ceiling only goes down: a route whose size barely moved keeps the one it had.
      .map((r) => [r.route, Math.min(r.ceiling, Math.ceil((r.gzip + CEILING_SLACK) / 100) * 100)]),
  );
  writeFileSync(CEILINGS_FILE, `${JSON.stringify(next, null, 2)}\n`);
  console.log(
    `\nWrote ${Object.keys(next).length} ceilings to ${path.relative(process.cwd(), CEILINGS_FILE)}.`,
  );
} else {
  const broken = rows.filter((r) => r.gzip > r.ceiling);
  console.log(
    `\n${rows.length - failing.length} of ${rows.length} routes within budget; ${broken.length} over their ceiling.`,
  );
  if (broken.length > 0) process.exitCode = 1;
}
