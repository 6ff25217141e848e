// The gzip size (level 9) of each route's first-load JavaScript, from a build's diagnostics
// (`<dist>/diagnostics/route-bundle-stats.json`), with its budget and its ceiling (`bundle-ceilings.json`). Read by
// `npm run check:bundle` (scripts/check-bundle-size.ts) and by `npm run bench`.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const KB = 1000;
const DEFAULT_BUDGET = 175 * KB;
const BUDGETS: Record<string, number> = { '/sign-in': 150 * KB };
export const CEILING_SLACK = 2 * KB;
export const CEILINGS_FILE = path.join(import.meta.dirname, 'bundle-ceilings.json');

interface RouteStats {
  route: string;
  firstLoadChunkPaths: string[];
}

export interface ChunkSize {
  gzip: number;
  /** Turbopack chunks list `moduleId, factory` pairs; each factory gzipped on its own, for the attribution. */
  modules: Array<{ text: string; gzip: number }>;
}

export interface RouteBundle {
  route: string;
  gzip: number;
  budget: number;
  /** Bytes over the budget (negative when within). */
  over: number;
  /** The route's ceiling, or its budget when it has none. */
  ceiling: number;
  chunks: string[];
}

/** The stats file of a build, or null when there is no build there. */
export function bundleStatsFile(distDir: string): string | null {
  const file = path.join(distDir, 'diagnostics', 'route-bundle-stats.json');
  return existsSync(file) ? file : null;
}

/** Every route of the build in `distDir`, heaviest first, and the chunk sizes behind them. */
export function measureRouteBundles(distDir: string): {
  rows: RouteBundle[];
  chunk: (file: string) => ChunkSize;
} {
  const statsFile = bundleStatsFile(distDir);
  if (!statsFile) throw new Error(`No build in ${distDir}`);
  const routes = JSON.parse(readFileSync(statsFile, 'utf8')) as RouteStats[];
  const ceilings: Record<string, number> = existsSync(CEILINGS_FILE)
    ? JSON.parse(readFileSync(CEILINGS_FILE, 'utf8'))
    : {};

  /** The chunk's file: paths in the stats name `.next/...` whatever the build directory is. */
  function chunkFile(chunk: string): string {
    if (existsSync(chunk)) return chunk;
    return path.join(distDir, chunk.replace(/^\.next[\\/]/, ''));
  }

  const gzipCache = new Map<string, ChunkSize>();
  function chunk(file: string): ChunkSize {
    let entry = gzipCache.get(file);
    if (!entry) {
      const text = readFileSync(chunkFile(file));
      const modules = text
        .toString('utf8')
        .split(/,(?=\d+,(?:\([\w$,]*\)|[\w$]+)=>)/)
        .map((part) => ({ text: part, gzip: gzipSync(part, { level: 9 }).length }));
      entry = { gzip: gzipSync(text, { level: 9 }).length, modules };
      gzipCache.set(file, entry);
    }
    return entry;
  }

  const rows = routes
    .map((r) => {
      const budget = BUDGETS[r.route] ?? DEFAULT_BUDGET;
      const gzip = r.firstLoadChunkPaths.reduce((sum, c) => sum + chunk(c).gzip, 0);
      const ceiling = ceilings[r.route] ?? budget;
      return { route: r.route, gzip, budget, over: gzip - budget, ceiling, chunks: r.firstLoadChunkPaths };
    })
    .sort((a, b) => b.gzip - a.gzip);
  return { rows, chunk };
}

export const kb = (bytes: number) => (bytes / KB).toFixed(1);
