#!/usr/bin/env bash
# Formats the code with Prettier (.prettierrc.json, .prettierignore): `bash scripts/format.sh` (npm run format)
# rewrites the files, `bash scripts/format.sh --check` (what npm test runs) lists the ones that are not formatted.
# Only code: YAML, Markdown and JSON keep their bytes (examples and goldens are compared byte for byte).
set -euo pipefail
cd "$(dirname "$0")/.."
mode=--write
if [[ "${1:-}" == --check ]]; then mode=--check; fi
exec npx prettier "$mode" --cache --log-level warn \
  'src/**/*.{ts,mjs}' 'functions/**/*.{ts,mjs}' 'test/**/*.{ts,mjs}' 'bench/**/*.{ts,mjs}' 'scripts/**/*.{ts,mjs}' \
  eslint.config.mjs
