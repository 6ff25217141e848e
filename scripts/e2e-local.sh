#!/usr/bin/env bash
# Build and run some end-to-end specs, one run at a time on this machine: scripts/e2e-local.sh e2e/foo.spec.ts
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
exec flock /tmp/custody-console-e2e.lock bash -c 'node_modules/.bin/next build >/tmp/custody-console-build.log 2>&1 || { tail -40 /tmp/custody-console-build.log; exit 1; }; node_modules/.bin/playwright test --reporter=line "$@"' _ "$@"
