// Builds the shipped function: one file, dist/osm-krm.cjs, plus an optional V8 code cache beside it.
//
// Start-up is most of a KRM function's run, so the file is laid out for it (figures in README.md, Benchmark):
// - esbuild bundles the program (sources are ESM) into one CommonJS program;
// - the file is a small CommonJS loader, because Node's ESM loader costs ~10 ms more at start-up;
// - the program sits in a comment at the end of the file: V8 skips a comment far faster than it scans a
//   600 KB string literal, and the loader reads it back from its own file;
// - the loader compiles it with V8's code cache (dist/osm-krm.cache) when the cache was made by the same
//   Node.js, which skips parsing and compiling it again (Node 20 has no built-in compile cache). Without a
//   cache, or with one V8 rejects, the program compiles as usual. The cache is written by one run on
//   examples/basic (cloud-init and Ignition).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const OUT = 'dist/osm-krm.cjs';
const CACHE = 'dist/osm-krm.cache';
const MARKER = '\n/* osm-krm program\n';
// `*/` would end the comment; it is stored as `*\x01/` and restored by the loader.
const CLOSE_ESCAPE = '*\x01/';

const bundle = await build({
  entryPoints: ['functions/osm-krm/main.ts'],
  write: false,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  legalComments: 'none',
  minify: process.env.OSM_KRM_BUILD_MINIFY !== '0',
  logLevel: 'warning',
});
const program = `(function (require, module, exports) {${bundle.outputFiles[0].text.replace(/^#!.*\n/, '')}\n})`;
if (program.includes(CLOSE_ESCAPE)) throw new Error('the program contains the escape sequence for */');
if (!/^[\x00-\x7f]*$/.test(program)) throw new Error('the program is not ASCII, which the loader reads it as');

const loader = `#!/usr/bin/env node
// osm-krm, built by scripts/build.mjs: the bundled program is in the comment at the end of this file.
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');
const text = readFileSync(__filename, 'latin1'); // ASCII (esbuild escapes the rest), so latin1 is exact and cheaper
// The marker is the first one after this loader (whose own copy above is escaped): a forward search stops
// there, where a backward one would scan the whole program.
const program = text.slice(text.indexOf(${JSON.stringify(MARKER)}) + ${MARKER.length}, text.lastIndexOf('*/')).replaceAll(${JSON.stringify(CLOSE_ESCAPE)}, '*/');
const cachePath = __filename.replace(/\\.cjs$/, '') + '.cache';
let cachedData;
try { cachedData = readFileSync(cachePath); } catch {}
const script = new Script(program, { filename: __filename, cachedData });
const out = process.env.OSM_KRM_CODE_CACHE_OUT;
if (out) process.once('exit', () => writeFileSync(out, script.createCachedData()));
const programModule = { exports: {} };
script.runInThisContext()(require, programModule, programModule.exports);
`;

mkdirSync('dist', { recursive: true });
writeFileSync(OUT, `${loader}${MARKER}${program.replaceAll('*/', CLOSE_ESCAPE)}\n*/\n`);
chmodSync(OUT, 0o755);

rmSync(CACHE, { force: true });
const train = spawnSync(process.execPath, [OUT], {
  input: readFileSync('examples/basic/resourcelist.yaml'),
  env: { ...process.env, OSM_KRM_CODE_CACHE_OUT: CACHE },
  stdio: ['pipe', 'ignore', 'pipe'],
});
if (train.status !== 0) throw new Error(`training run for the code cache failed: ${train.stderr}`);
