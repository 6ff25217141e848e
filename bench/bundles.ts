// Client JavaScript figure: each route's first-load JavaScript (gzip, level 9) of the build in NEXT_DIST_DIR (or
// `.next`) beside its budget, as `npm run check:bundle` measures it (scripts/bundle-sizes.ts).
import { bundleStatsFile, kb, measureRouteBundles } from '../scripts/bundle-sizes';
import { distDir } from './server';

export async function bundlesBench(): Promise<Record<string, number | string>> {
  if (!bundleStatsFile(distDir)) return { skipped: `no build in ${distDir}: run \`next build\` first` };
  const { rows } = measureRouteBundles(distDir);
  const within = rows.filter((r) => r.over <= 0).length;
  const figure: Record<string, number | string> = {
    'routes within budget': `${within} of ${rows.length}`,
  };
  for (const r of rows) {
    const verdict = r.over > 0 ? `not met by ${kb(r.over)}` : 'met';
    figure[`${r.route}, kB`] = `${kb(r.gzip)} (budget ${kb(r.budget)}: ${verdict})`;
  }
  return figure;
}
