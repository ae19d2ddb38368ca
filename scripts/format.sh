#!/usr/bin/env bash
# Formats the code with Prettier (.prettierrc.json, .prettierignore): `bash scripts/format.sh` (npm run format)
# rewrites the files, `bash scripts/format.sh --check` (what npm test runs) lists the ones that are not formatted.
# Only code: YAML, Markdown and JSON keep their bytes (examples and goldens are compared byte for byte).
# No --cache: the cache would remember a file as formatted after one pass, and Prettier is not always stable
# after one (a long method chain can be laid out again on the second pass), so writing takes two passes.
set -euo pipefail
cd "$(dirname "$0")/.."
files=('src/**/*.{ts,mjs}' 'functions/**/*.{ts,mjs}' 'test/**/*.{ts,mjs}' 'bench/**/*.{ts,mjs}' 'scripts/**/*.{ts,mjs}'
  eslint.config.mjs)
if [[ "${1:-}" == --check ]]; then exec npx prettier --check --log-level warn "${files[@]}"; fi
npx prettier --write --log-level warn "${files[@]}"
npx prettier --write --log-level warn "${files[@]}"
