#!/usr/bin/env bash
# The one test command (README and .ci/run): installs the Debian tools the suite needs, type-checks,
# builds the bundle and the container images (scripts/test-images.sh) and runs every test file with Node's test runner.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-tools.sh
npx tsc --noEmit
npm run --silent build
bash scripts/test-images.sh
mapfile -t files < <(find test functions src -name '*.test.ts' -not -path '*/node_modules/*' | sort)
exec node --import tsx --test --test-concurrency=2 "${files[@]}"
