// Bundles the function into one ESM file (dist/osm-krm.mjs) so it starts without module resolution.
import { build } from 'esbuild';
import { chmodSync } from 'node:fs';

await build({
  entryPoints: ['functions/osm-krm/main.ts'],
  outfile: 'dist/osm-krm.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
});
chmodSync('dist/osm-krm.mjs', 0o755);
