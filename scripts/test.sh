#!/usr/bin/env bash
# The one test command (README and .ci/run): installs the Debian tools the suite needs, type-checks, checks the
# formatting (scripts/format.sh --check) and lints (eslint.config.mjs), builds the bundle and the container images
# (scripts/test-images.sh) and runs every test file with Node's test runner. A formatting or lint failure does not
# stop the tests: the run reports it at the end and fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-tools.sh
npx tsc --noEmit
checks_failed=()
bash scripts/format.sh --check || checks_failed+=('formatting (npm run format fixes it)')
npx eslint --max-warnings=0 . || checks_failed+=('lint (npm run lint)')
npm run --silent build
bash scripts/test-images.sh
mapfile -t files < <(find test functions src -name '*.test.ts' -not -path '*/node_modules/*' | sort)
status=0
node --import tsx --test --test-concurrency=2 "${files[@]}" || status=$?
for c in "${checks_failed[@]}"; do echo "npm test: ${c} failed" >&2; status=1; done
exit "$status"
