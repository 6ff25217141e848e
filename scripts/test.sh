#!/usr/bin/env bash
# npm test: lint, type-check, unit and contract tests, production build, end-to-end tests in Chromium.
# Ends with one line "N passed, M failed" over unit and end-to-end tests (a failed lint or type-check counts as one failure).
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
reports=$(mktemp -d)
passed=0
failed=0
status=0

count_vitest() { # file
  [ -f "$1" ] || { failed=$((failed + 1)); return; }
  read -r p f < <(node -e 'const r=require(process.argv[1]);console.log(r.numPassedTests, r.numFailedTests + (r.numRuntimeErrorTestSuites||0) + (r.success||r.numFailedTests>0?0:1))' "$1")
  passed=$((passed + p)); failed=$((failed + f))
}

echo "== lint (biome)"
if ! node_modules/.bin/biome check .; then failed=$((failed + 1)); status=1; fi

echo "== type-check (tsc --noEmit)"
if ! node_modules/.bin/tsc --noEmit; then failed=$((failed + 1)); status=1; fi

echo "== unit and contract tests (vitest, PGlite)"
node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile="$reports/vitest.json" || status=1
count_vitest "$reports/vitest.json"

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "== database tests against PostgreSQL"
  node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile="$reports/vitest-pg.json" \
    lib/server/audit.test.ts lib/server/users.test.ts lib/server/approvals lib/server/webhooks.test.ts \
    lib/server/webhooks.integration.test.ts lib/sandbox || status=1
  count_vitest "$reports/vitest-pg.json"
fi

echo "== production build"
if node_modules/.bin/next build; then
  echo "== end-to-end tests (Playwright, Chromium)"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" node_modules/.bin/playwright test --reporter=list,json || status=1
  if [ -f "$reports/playwright.json" ]; then
    read -r p f < <(node -e 'const s=require(process.argv[1]).stats;console.log(s.expected + s.flaky, s.unexpected)' "$reports/playwright.json")
    passed=$((passed + p)); failed=$((failed + f))
  else
    failed=$((failed + 1))
  fi
else
  echo "build failed"; failed=$((failed + 1)); status=1
fi

[ "$failed" -gt 0 ] && status=1
echo "$passed passed, $failed failed"
exit "$status"
