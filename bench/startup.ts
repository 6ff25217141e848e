// Start-up figure: time from `next start` to the first answer of /api/health (503 while the runtime boots), to a
// static file, and to ready (health 200), on an empty data directory and on an existing one. Medians of the runs.
import { rmSync } from 'node:fs';
import { buildMissing, median, startServer } from './server';

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);

export async function startupBench(): Promise<Record<string, number | string>> {
  const missing = buildMissing();
  if (missing) return { skipped: missing };
  const rows: Record<'empty' | 'existing', { first: number[]; stat: number[]; ready: number[] }> = {
    empty: { first: [], stat: [], ready: [] },
    existing: { first: [], stat: [], ready: [] },
  };
  let existingDir: string | undefined;
  try {
    for (let i = 0; i < RUNS; i++) {
      const fresh = await startServer();
      await fresh.stop();
      if (existingDir) rmSync(existingDir, { recursive: true, force: true });
      existingDir = fresh.dataDir;
      rows.empty.first.push(fresh.firstAnswerMs);
      rows.empty.stat.push(fresh.staticMs);
      rows.empty.ready.push(fresh.readyMs);
      const again = await startServer({ dataDir: existingDir });
      await again.stop();
      rows.existing.first.push(again.firstAnswerMs);
      rows.existing.stat.push(again.staticMs);
      rows.existing.ready.push(again.readyMs);
    }
  } finally {
    if (existingDir) rmSync(existingDir, { recursive: true, force: true });
  }
  const ms = (values: number[]) => Math.round(median(values));
  return {
    runs: RUNS,
    'empty dir: first health answer ms': ms(rows.empty.first),
    'empty dir: static file ms': ms(rows.empty.stat),
    'empty dir: ready ms': ms(rows.empty.ready),
    'existing dir: first health answer ms': ms(rows.existing.first),
    'existing dir: static file ms': ms(rows.existing.stat),
    'existing dir: ready ms': ms(rows.existing.ready),
    'budget (existing dir ready)': `1500 ms: ${ms(rows.existing.ready) <= 1500 ? 'met' : 'NOT met'}`,
  };
}
