// `npm run check:bundle`: the gzip size (level 9) of each route's first-load JavaScript, from the build's
// diagnostics (`<dist>/diagnostics/route-bundle-stats.json`, NEXT_DIST_DIR or `.next`), against its budget.
// Prints a table, and for routes over budget the libraries that weigh most.
//
// Routes still over their budget have a ceiling in `scripts/bundle-ceilings.json`: the size they had when it was
// last written, plus CEILING_SLACK for build-to-build noise. The check exits 1 when a route passes its ceiling, or
// its budget when it has no ceiling (a new route, or one within budget), so a route can only get lighter.
// `npm run check:bundle -- --write-ceilings` writes the file from this build (after a route got lighter).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1000;
const DEFAULT_BUDGET = 175 * KB;
const BUDGETS: Record<string, number> = { '/sign-in': 150 * KB };
const CEILING_SLACK = 2 * KB;
const CEILINGS_FILE = path.join(import.meta.dirname, 'bundle-ceilings.json');
const ceilings: Record<string, number> = existsSync(CEILINGS_FILE)
  ? JSON.parse(readFileSync(CEILINGS_FILE, 'utf8'))
  : {};

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

interface RouteStats {
  route: string;
  firstLoadChunkPaths: string[];
}

const distDir = process.env.NEXT_DIST_DIR || '.next';
const statsFile = path.join(distDir, 'diagnostics', 'route-bundle-stats.json');
if (!existsSync(statsFile)) {
  console.error(`No ${statsFile}: build first (NEXT_DIST_DIR=${distDir} node_modules/.bin/next build).`);
  process.exit(2);
}
const routes = JSON.parse(readFileSync(statsFile, 'utf8')) as RouteStats[];

/** The chunk's file: paths in the stats name `.next/...` whatever the build directory is. */
function chunkFile(chunk: string): string {
  if (existsSync(chunk)) return chunk;
  return path.join(distDir, chunk.replace(/^\.next[\\/]/, ''));
}

const gzipCache = new Map<string, { gzip: number; modules: Array<{ text: string; gzip: number }> }>();
function chunk(file: string) {
  let entry = gzipCache.get(file);
  if (!entry) {
    const text = readFileSync(chunkFile(file));
    // Turbopack chunks list `moduleId, factory` pairs; each factory is counted on its own for the attribution.
    const modules = text
      .toString('utf8')
      .split(/,(?=\d+,(?:\([\w$,]*\)|[\w$]+)=>)/)
      .map((part) => ({ text: part, gzip: gzipSync(part, { level: 9 }).length }));
    entry = { gzip: gzipSync(text, { level: 9 }).length, modules };
    gzipCache.set(file, entry);
  }
  return entry;
}

const kb = (bytes: number) => (bytes / KB).toFixed(1);
const rows = routes
  .map((r) => {
    const budget = BUDGETS[r.route] ?? DEFAULT_BUDGET;
    const gzip = r.firstLoadChunkPaths.reduce((sum, c) => sum + chunk(c).gzip, 0);
    const ceiling = ceilings[r.route] ?? budget;
    return { route: r.route, gzip, budget, over: gzip - budget, ceiling, chunks: r.firstLoadChunkPaths };
  })
  .sort((a, b) => b.gzip - a.gzip);

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
      .map((r) => [r.route, Math.ceil((r.gzip + CEILING_SLACK) / 100) * 100]),
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
