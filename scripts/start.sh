#!/usr/bin/env bash
# npm start: build, then serve the console (sandbox mode unless CUSTODY_API_URL is set).
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
node_modules/.bin/next build
exec node_modules/.bin/next start -p "${PORT:-3000}"
