// Prints the tests that failed, from Playwright and Vitest JSON reports, one line each with the first line of
// the error: npm test prints this just before its closing count, so the end of a long log says what failed.
// Usage: node scripts/failures.mjs <report.json> ...
import { existsSync, readFileSync } from 'node:fs';

const firstLine = (text) =>
  String(text ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes in the reporters' messages
    .replace(/\u001b\[[0-9;]*m/g, '')
    .split('\n')
    .map((line) => line.trim())
    .find(Boolean)
    ?.slice(0, 300) ?? '';

function playwright(report, out) {
  const walk = (suite, path) => {
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const last = test.results?.at(-1);
        out.push(
          `${[...path, spec.title].filter(Boolean).join(' › ')} (${spec.file}:${spec.line}): ${firstLine(last?.error?.message)}`,
        );
      }
    }
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  for (const error of report.errors ?? []) out.push(`Playwright: ${firstLine(error.message)}`);
}

// Vitest 4.1 reports a test or hook that ran past its timeout with the message of its placeholder error.
const vitestMessage = (text) => {
  const line = firstLine(text);
  return line === 'Error: STACK_TRACE_ERROR' ? 'timed out (Vitest reports it as STACK_TRACE_ERROR)' : line;
};

function vitest(report, out) {
  for (const file of report.testResults ?? []) {
    const failedTests = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      out.push(
        `${file.name.replace(`${process.cwd()}/`, '')} › ${test.fullName}: ${vitestMessage(test.failureMessages?.[0])}`,
      );
    }
    if (failedTests.length === 0 && file.status === 'failed') {
      out.push(`${file.name.replace(`${process.cwd()}/`, '')}: ${vitestMessage(file.message)}`);
    }
  }
}

const out = [];
for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  if ('testResults' in report) vitest(report, out);
  else playwright(report, out);
}
if (out.length > 0) {
  console.log(`== failed (${out.length})`);
  for (const line of out) console.log(`  ${line}`);
}
