// `npm run bench`: figures, not tests. Each figure prints its own block; add new ones to FIGURES.
import { approvalPipelineBench } from './approval-pipeline';
import { upstreamCallsBench } from './upstream-calls';

const FIGURES: Array<[string, () => Promise<Record<string, number | string>>]> = [
  ['approval pipeline (200 requests approved concurrently against the sandbox)', approvalPipelineBench],
  [
    'upstream calls (custody requests per page and per withdrawal request, sandbox in-process)',
    upstreamCallsBench,
  ],
];

for (const [name, run] of FIGURES) {
  const started = performance.now();
  try {
    const figure = await run();
    console.log(`\n${name}`);
    for (const [key, value] of Object.entries(figure)) console.log(`  ${key.padEnd(34)} ${value}`);
    console.log(`  ${'(bench seconds)'.padEnd(34)} ${((performance.now() - started) / 1000).toFixed(1)}`);
  } catch (error) {
    console.error(`\n${name}: failed`, error);
    process.exitCode = 1;
  }
}
process.exit();
