// `npm run check:bundle`: the gzip size (level 9) of each route's first-load JavaScript, from the build's
// diagnostics (`<dist>/diagnostics/route-bundle-stats.json`, NEXT_DIST_DIR or `.next`), against its budget.
// Exits 1 when a route is over budget; prints a table, and for routes over budget the libraries that weigh most.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1000;
const DEFAULT_BUDGET = 175 * KB;
const BUDGETS: Record<string, number> = { '/sign-in': 150 * KB };

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
    return { route: r.route, gzip, budget, over: gzip - budget, chunks: r.firstLoadChunkPaths };
  })
  .sort((a, b) => b.gzip - a.gzip);

const width = Math.max(...rows.map((r) => r.route.length), 5);
console.log(`${'route'.padEnd(width)}  gzip kB  budget kB  result`);
for (const r of rows) {
  const result = r.over > 0 ? `OVER by ${kb(r.over)} kB` : 'ok';
  console.log(`${r.route.padEnd(width)}  ${kb(r.gzip).padStart(7)}  ${kb(r.budget).padStart(9)}  ${result}`);
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
  process.exitCode = 1;
}
