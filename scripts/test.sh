#!/usr/bin/env bash
# npm test: lint, type-check, unit and contract tests, production build, its bundle sizes, end-to-end tests in Chromium.
# The unit tests, lint and the type-check run beside the build and the end-to-end tests.
# With TEST_DATABASE_URL (a PostgreSQL server): also the database tests on PostgreSQL and two console
# instances sharing one database (playwright.multi.config.ts), and the journeys' console keeps its data in a
# database of its own there (playwright.config.ts), as a deployment does.
# Ends with one line "N passed, M failed" over unit and end-to-end tests (a failed lint, type-check or bundle-size check counts as one failure).
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
reports=$(mktemp -d)
passed=0
failed=0
status=0
failed_steps=()

count_playwright() { # file
  if [ -f "$1" ]; then
    read -r p f < <(node -e 'const s=require(process.argv[1]).stats;console.log(s.expected + s.flaky, s.unexpected)' "$1")
    passed=$((passed + p)); failed=$((failed + f))
  else
    failed=$((failed + 1))
  fi
}

count_vitest() { # file
  [ -f "$1" ] || { failed=$((failed + 1)); return; }
  read -r p f < <(node -e 'const r=require(process.argv[1]);console.log(r.numPassedTests, r.numFailedTests + (r.numRuntimeErrorTestSuites||0) + (r.success||r.numFailedTests>0?0:1))' "$1")
  passed=$((passed + p)); failed=$((failed + f))
}

# The unit and database tests run beside the rest at a lower priority: the end-to-end tests leave part of the
# machine idle while they wait on the browser and the server, and the unit tests take that share. Their output
# is printed once they end.
(
  echo "== unit and contract tests (vitest, PGlite)"
  # Without TEST_DATABASE_URL here, so the database tests run on PGlite whatever the environment says. With a
  # PostgreSQL server, the insider's randomized search (test/insider-search.ts) runs its full 200 sequences there,
  # below, in a fraction of the time, and a first 20 here: PGlite takes some 1.3 s of CPU a sequence.
  search=()
  [ -n "${TEST_DATABASE_URL:-}" ] && search=(INDEPENDENCE_SEQUENCES="${INDEPENDENCE_SEQUENCES:-20}")
  env -u TEST_DATABASE_URL "${search[@]}" nice -n 10 node_modules/.bin/vitest run --reporter=default --reporter=json \
    --outputFile="$reports/vitest.json" || echo fail >> "$reports/vitest.status"
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    echo "== database tests against PostgreSQL"
    nice -n 10 node_modules/.bin/vitest run --reporter=default --reporter=json --outputFile="$reports/vitest-pg.json" \
      lib/server/audit.test.ts lib/server/users.test.ts lib/server/approvals lib/server/webhooks.test.ts \
      lib/server/webhooks.integration.test.ts lib/sandbox \
      lib/server/events.postgres.test.ts lib/db/connection.postgres.test.ts || echo fail >> "$reports/vitest.status"
  fi
) > "$reports/vitest.log" 2>&1 &
unit=$!

# Lint and the type-check run beside the build and the end-to-end tests (neither needs the other's output), at
# the unit tests' lower priority: the build, which the end-to-end tests wait for, goes first. Their output is
# printed, and their failures counted, once they end.
(
  renice -n 10 -p "$BASHPID" > /dev/null
  echo "== lint (biome, layer rules, unused exports, import cycles)"
  node_modules/.bin/biome check . && node scripts/check-layers.mjs && node_modules/.bin/knip --include exports,files \
    && node_modules/.bin/madge --circular --extensions ts,tsx --ts-config tsconfig.json lib app components \
    || echo lint >> "$reports/static.failed"
  echo "== type-check (tsc --noEmit)"
  node_modules/.bin/tsc --noEmit -p tsconfig.check.json || echo type-check >> "$reports/static.failed"
) > "$reports/static.log" 2>&1 &
static=$!

echo "== production build"
if node_modules/.bin/next build; then
  echo "== first-load JavaScript per route against its budget and ceiling (npm run check:bundle)"
  if ! node_modules/.bin/tsx scripts/check-bundle-size.ts; then failed=$((failed + 1)); status=1; failed_steps+=("bundle size"); fi
  echo "== end-to-end tests (Playwright, Chromium)"
  PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" node_modules/.bin/playwright test --project=journeys \
    --reporter=list,json || status=1
  count_playwright "$reports/playwright.json"
  # The journeys that change what the whole console does run one at a time on a console of their own (its own
  # port and data), beside the two-instance journeys: each of the two keeps one core busy. That console keeps its
  # data in the embedded PGlite, the default, whichever database the journeys above used.
  PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright-wide.json" E2E_PORT=3200 E2E_DATABASE=embedded \
    node_modules/.bin/playwright test \
    --project=console-wide --no-deps --reporter=list,json > "$reports/wide.log" 2>&1 &
  wide=$!
  if [ -n "${TEST_DATABASE_URL:-}" ]; then
    echo "== two console instances on one PostgreSQL (Playwright, same build)"
    PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright-multi.json" node_modules/.bin/playwright test \
      --config playwright.multi.config.ts --reporter=list,json || status=1
    count_playwright "$reports/playwright-multi.json"
  fi
  echo "== journeys that change the whole console (@console-wide, one at a time, beside the above)"
  wait "$wide" || status=1
  cat "$reports/wide.log"
  count_playwright "$reports/playwright-wide.json"
else
  echo "build failed"; failed=$((failed + 1)); status=1; failed_steps+=("production build")
fi

echo "== lint and type-check (beside the build)"
wait "$static"
cat "$reports/static.log"
if [ -f "$reports/static.failed" ]; then
  while read -r step; do failed=$((failed + 1)); status=1; failed_steps+=("$step"); done < "$reports/static.failed"
fi

echo "== unit and database tests (started first, beside the rest)"
wait "$unit"
cat "$reports/vitest.log"
[ -f "$reports/vitest.status" ] && status=1
count_vitest "$reports/vitest.json"
[ -n "${TEST_DATABASE_URL:-}" ] && count_vitest "$reports/vitest-pg.json"

[ "$failed" -gt 0 ] && status=1
node scripts/failures.mjs "$reports/playwright.json" "$reports/playwright-wide.json" "$reports/playwright-multi.json" \
  "$reports/vitest.json" "$reports/vitest-pg.json" || true
[ ${#failed_steps[@]} -gt 0 ] && echo "== failed steps: ${failed_steps[*]} (their output is above)"
echo "$passed passed, $failed failed"
exit "$status"
