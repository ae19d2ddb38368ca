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
  minify: true,
  // CommonJS dependencies (yaml) require Node built-ins; give the ESM bundle a require for them.
  banner: { js: "import { createRequire as __osmCreateRequire } from 'node:module'; const require = __osmCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
chmodSync('dist/osm-krm.mjs', 0o755);
