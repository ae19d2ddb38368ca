// Builds the shipped function: one file, dist/osm-krm.cjs, plus an optional V8 code cache beside it.
//
// Start-up is most of a KRM function's run, so the file is laid out for it (figures in README.md, Benchmark):
// - the program is split into sections, each loaded when first used: esbuild splits the ESM sources at every
//   dynamic import() (a command other than the function itself) and at the code two
//   entries share, and each chunk becomes a CommonJS function `(require, module, exports)`. The embedded
//   profiles are a data section, read when a run first selects one (embeddedProfilesAsData below). A plain
//   render loads the function's sections only: no review tool, no other command, no SOPS;
// - the file is a small CommonJS loader (Node's ESM loader costs ~10 ms more at start-up) followed by one
//   function, `sections`, whose body is a comment holding every section: V8 skips a comment far faster than it
//   scans a string literal, and the loader gets the text back with sections.toString(), a slice of the source
//   Node has already read (no second read, no copy; a `*/` in the code is rewritten away, withoutCommentClose);
// - a section's exports are plain properties set when its code has run (withDataExports), not esbuild's getters;
// - Node reads the whole file at every start, used or not (about 1.7 fresh pages per KiB, the main cost here), so
//   the embedded profiles are stored as their distinct lines (PROFILE_LINES);
// - each code section is compiled with its own V8 code cache, read from dist/osm-krm.cache (an index line, then
//   each section's cache) when the cache was made by the same Node.js, which skips parsing and compiling it
//   again (Node 20 has no built-in compile cache). Without a cache, or with one V8 rejects, a section compiles
//   as usual. The caches are written by training runs: the function on examples/basic (cloud-init and
//   Ignition), `generate` on the Argo CD example and `hydrate` on the Flux example.
//
// OSM_KRM_CODE_CACHE_OUT=DIR makes the loader write the cache of every section it compiled into DIR (the build's
// training runs); OSM_KRM_CODE_CACHE_REPORT=1 makes it print, on exit, whether V8 accepted each section's cache.
import { build, transform } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import ts from 'typescript';
import { generate, profileFiles, profileJsonTexts } from './generate-embedded-profiles.mjs';

const OUT = 'dist/osm-krm.cjs';
const CACHE = 'dist/osm-krm.cache';
// `*/` would end the comment; a code section holding it stores it as `*\x01/` and the loader restores it.
const CLOSE_ESCAPE = '*\x01/';
const MAIN = 'main.js';
const PROFILES_DATA = 'osm-krm:data/embedded-profiles';
// The profiles share most of their lines: the data section holds each distinct line once (PROFILE_LINES, split at
// LINE_SEPARATOR) and each profile as the list of its lines' numbers (base 36, comma-separated), which the loader
// joins back with `\n` (the JSON escape the lines were split at). A third of the bytes Node reads at every start.
const PROFILE_LINES = 'osm-krm:data/embedded-profile-lines';
const LINE_SEPARATOR = '\x01';

// The bundle reads the embedded profiles from a data section instead of from string constants in the program:
// a run that selects none (its own OSPs) neither compiles nor deserializes them. The module keeps its exports
// and its behaviour; the texts are the generator's own (and the generated module is checked current by a test).
function embeddedProfilesAsData(texts) {
  return {
    name: 'embedded-profiles-as-data',
    setup(b) {
      b.onLoad({ filter: /src\/profiles\/generated\/embeddedProfiles\.generated\.ts$/ }, () => ({
        loader: 'js',
        contents: [
          `export const EMBEDDED_PROFILE_NAMES = Object.freeze(${JSON.stringify(Object.keys(texts))});`,
          `let texts;`,
          `export function embeddedProfileJson(name) {`,
          `  texts ??= require(${JSON.stringify(PROFILES_DATA)});`,
          `  return Object.hasOwn(texts, name) ? texts[name] : undefined;`,
          `}`,
        ].join('\n'),
      }));
    },
  };
}

/**
 * The section's text with no `*\/` in it, said without the escape the loader would have to undo (a copy of the
 * whole section at every start, and V8 flattening it again): inside a string or an untagged template literal, `*\/`
 * becomes `*\\/` (the same string); where it ends a regular expression, an empty group goes before the closing
 * slash (`/#.*(?:)/`, the same matches); inside a regular expression's character class `/` becomes `\\/` (the same
 * class). Undefined when a `*\/` sits anywhere else (a comment of an unminified build): the section is escaped.
 */
export function withoutCommentClose(text) {
  if (!text.includes('*/')) return text;
  const file = ts.createSourceFile('section.js', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = []; // [offset of the `/`, its replacement], in text order
  let covered = 0;
  const visit = (node) => {
    const k = node.kind;
    const literal =
      k === ts.SyntaxKind.StringLiteral ||
      k === ts.SyntaxKind.RegularExpressionLiteral ||
      k === ts.SyntaxKind.NoSubstitutionTemplateLiteral ||
      k === ts.SyntaxKind.TemplateHead ||
      k === ts.SyntaxKind.TemplateMiddle ||
      k === ts.SyntaxKind.TemplateTail;
    if (!literal) return ts.forEachChild(node, visit);
    const start = node.getStart(file);
    const source = text.slice(start, node.end);
    if (!source.includes('*/')) return;
    const template = k !== ts.SyntaxKind.StringLiteral && k !== ts.SyntaxKind.RegularExpressionLiteral;
    // A tagged template sees its raw text, which `\/` would change.
    const tagged = template && ts.findAncestor(node, (n) => n.kind === ts.SyntaxKind.TaggedTemplateExpression);
    if (tagged) return;
    const closing = k === ts.SyntaxKind.RegularExpressionLiteral ? source.lastIndexOf('/') : -1;
    for (let i = source.indexOf('*/'); i >= 0; i = source.indexOf('*/', i + 1)) {
      edits.push([start + i + 1, i + 1 === closing ? '(?:)/' : '\\/']);
      covered++;
    }
  };
  visit(file);
  if (covered !== text.split('*/').length - 1) return undefined;
  let out = '';
  let at = 0;
  for (const [offset, replacement] of edits) {
    out += text.slice(at, offset) + replacement;
    at = offset + 1;
  }
  out += text.slice(at);
  if (out.includes('*/')) return undefined;
  new Script(out); // still a program (a rewrite that broke one would fail here, not at a user's start)
  return out;
}

/**
 * The section's exports as data properties of module.exports, set when the section's code has run, instead of
 * esbuild's live bindings: a getter per export on an object whose properties are getters again (__export, then
 * __toCommonJS), so each use of another section's function is two getter calls, and loading a section makes two
 * closures per export. A plain value is the same binding for a name bound once: a function, a class or a variable
 * that nothing assigns again (checked syntactically, conservatively: any assignment to the name anywhere, shadowed
 * or not, keeps its getter). The sections that require each other in a circle (`cyclic`) keep their getters, as
 * a section's exports are read before its code has run only there. Undefined when the text is not esbuild's
 * CommonJS shape (the section is kept as it is).
 */
export function withDataExports(cjs, cyclic = false) {
  if (cyclic) return undefined;
  const file = ts.createSourceFile('section.js', cjs, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const isModuleExports = (n) =>
    ts.isPropertyAccessExpression(n) &&
    ts.isIdentifier(n.expression) &&
    n.expression.text === 'module' &&
    n.name.text === 'exports';
  // `module.exports = __toCommonJS(ns)`, and `__export(ns, { name: () => local, ... })` before it.
  let namespace;
  for (const st of file.statements) {
    const e = ts.isExpressionStatement(st) ? st.expression : undefined;
    if (e && ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken && isModuleExports(e.left))
      if (ts.isCallExpression(e.right) && e.right.arguments.length === 1 && ts.isIdentifier(e.right.arguments[0]))
        namespace = e.right.arguments[0].text;
  }
  if (namespace === undefined) return undefined;
  let table;
  for (const st of file.statements) {
    const e = ts.isExpressionStatement(st) ? st.expression : undefined;
    if (e && ts.isCallExpression(e) && e.arguments.length === 2) {
      const [ns, object] = e.arguments;
      if (ts.isIdentifier(ns) && ns.text === namespace && ts.isObjectLiteralExpression(object)) table = object;
    }
  }
  if (table === undefined) return undefined;
  const declared = new Set();
  for (const st of file.statements) {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) declared.add(st.name.text);
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) declared.add(d.name.text);
  }
  const assigned = new Set();
  const targets = (n) => {
    if (ts.isIdentifier(n)) assigned.add(n.text);
    else ts.forEachChild(n, targets);
  };
  const visit = (n) => {
    if (
      ts.isBinaryExpression(n) &&
      n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
      n.operatorToken.kind <= ts.SyntaxKind.LastAssignment
    )
      targets(n.left);
    if (
      (ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) &&
      (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)
    )
      targets(n.operand);
    if ((ts.isForOfStatement(n) || ts.isForInStatement(n)) && !ts.isVariableDeclarationList(n.initializer))
      targets(n.initializer);
    ts.forEachChild(n, visit);
  };
  visit(file);
  const kept = [];
  const data = [];
  for (const p of table.properties) {
    const key = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) ? p.name.text : undefined;
    const f = ts.isPropertyAssignment(p) ? p.initializer : undefined;
    const local =
      f && ts.isArrowFunction(f) && f.parameters.length === 0 && ts.isIdentifier(f.body) ? f.body.text : undefined;
    if (key !== undefined && local !== undefined && declared.has(local) && !assigned.has(local))
      data.push(`module.exports[${JSON.stringify(key)}]=${local};`);
    else kept.push(p.getText(file));
  }
  if (data.length === 0) return cjs;
  return cjs.slice(0, table.getStart(file)) + `{${kept.join(',')}}` + cjs.slice(table.end) + '\n' + data.join('');
}

/** The sections that require one another in a circle (statically, `require("./name")`). */
function cyclicSections(texts) {
  const edges = new Map();
  for (const [name, text] of texts)
    edges.set(
      name,
      [...text.matchAll(/\brequire\("\.\/([^"]+)"\)/g)].map((m) => m[1]).filter((n) => texts.has(n)),
    );
  const cyclic = new Set();
  for (const start of texts.keys()) {
    const seen = new Set();
    const stack = [...edges.get(start)];
    while (stack.length > 0) {
      const n = stack.pop();
      if (n === start) cyclic.add(start);
      if (seen.has(n)) continue;
      seen.add(n);
      stack.push(...edges.get(n));
    }
  }
  return cyclic;
}

/** The sections: every chunk esbuild makes, as a CommonJS function's text, then the data sections. */
async function sections(minify) {
  const files = profileFiles();
  if (readFileSync('src/profiles/generated/embeddedProfiles.generated.ts', 'utf8') !== generate(files)) {
    throw new Error(
      'src/profiles/generated/embeddedProfiles.generated.ts is stale: run node scripts/generate-embedded-profiles.mjs',
    );
  }
  const texts = profileJsonTexts(files);
  const result = await build({
    entryPoints: { main: 'functions/osm-krm/main.ts' },
    outdir: 'dist/sections',
    write: false,
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    legalComments: 'none',
    minify,
    chunkNames: '[name]-[hash]',
    external: ['osm-krm:*'],
    plugins: [embeddedProfilesAsData(texts)],
    logLevel: 'warning',
  });
  const out = [];
  const cjsTexts = new Map();
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    // import() becomes the loader's require (a Promise of it), so the loader finds the section.
    const cjs = (
      await transform(file.text, {
        format: 'cjs',
        platform: 'node',
        target: 'node20',
        minify,
        legalComments: 'none',
        supported: { 'dynamic-import': false },
      })
    ).code;
    cjsTexts.set(name, cjs.replace(/^#!.*\n/, ''));
  }
  const cyclic = cyclicSections(cjsTexts);
  for (const [name, cjs] of cjsTexts) {
    const exported = withDataExports(cjs, cyclic.has(name)) ?? cjs;
    // Strict, as the ESM sources it was built from are (and as the tests run them): a Script's function is
    // sloppy unless it says so, and sloppy code silently ignores a write to a frozen object, makes a global of an
    // undeclared name and passes the global object as `this`.
    const code = `(function (require, module, exports) {"use strict";${exported}\n})`;
    new Script(code); // still a program
    out.push({ name, kind: 'code', text: withoutCommentClose(code) ?? code });
  }
  out.sort((a, b) => (a.name === MAIN ? -1 : b.name === MAIN ? 1 : a.name < b.name ? -1 : 1));
  const lines = new Map();
  for (const [name, text] of Object.entries(texts)) {
    if (text.includes(LINE_SEPARATOR)) throw new Error(`embedded profile ${name} contains the line separator`);
    const numbers = text.split('\\n').map((line) => {
      if (!lines.has(line)) lines.set(line, lines.size);
      return lines.get(line).toString(36);
    });
    out.push({ name: `${PROFILES_DATA}/${name}`, kind: 'data', text: numbers.join(',') });
  }
  out.push({ name: PROFILE_LINES, kind: 'data', text: [...lines.keys()].join(LINE_SEPARATOR) });
  for (const s of out) {
    if (!/^[\x00-\x7f]*$/.test(s.text)) throw new Error(`section ${s.name} is not ASCII, which the loader reads it as`);
    if (s.text.includes(CLOSE_ESCAPE)) throw new Error(`section ${s.name} contains the escape sequence for */`);
    if (s.kind === 'data' && s.text.includes('*/')) throw new Error(`data section ${s.name} contains */`);
  }
  return out;
}

const PREFIX = 'function sections() {/*\n';

/** The loader and the `sections` function holding every section; the table gives each one's place in it. */
function layout(list) {
  let body = PREFIX;
  const table = {};
  for (const s of list) {
    const escaped = s.text.includes('*/');
    const text = escaped ? s.text.replaceAll('*/', CLOSE_ESCAPE) : s.text;
    table[s.name] = escaped ? [body.length, body.length + text.length, 1] : [body.length, body.length + text.length];
    body += text + '\n';
  }
  body += '*/}\n';
  const loader = `#!/usr/bin/env node
// osm-krm, built by scripts/build.mjs: the bundled program is in the comment of the function at the end of this file.
'use strict';
const { Script } = require('node:vm');
const fs = require('node:fs');
// Each section's [start, end] in sections.toString() (and 1 when it stores */ escaped).
const SECTIONS = ${JSON.stringify(table)};
const source = sections.toString();
const cachePath = __filename.replace(/\\.cjs$/, '') + '.cache';
let cacheFd, cacheIndex, cacheBase;
try {
  cacheFd = fs.openSync(cachePath, 'r');
  const head = Buffer.allocUnsafe(8192);
  const n = fs.readSync(cacheFd, head, 0, head.length, 0);
  const eol = head.indexOf(10);
  if (eol > 0 && eol < n) {
    cacheIndex = JSON.parse(head.latin1Slice(0, eol));
    cacheBase = eol + 1;
  }
} catch {}
const loaded = new Map();
const scripts = new Map();
function text(name) {
  const at = SECTIONS[name];
  const t = source.slice(at[0], at[1]);
  return at[2] === 1 ? t.replaceAll(${JSON.stringify(CLOSE_ESCAPE)}, '*/') : t;
}
// One buffer for every section's cache, as large as the largest: V8 reads a cache while it compiles the section
// and keeps no reference to it, and memory touched once is not paid for again (a fresh page costs more than
// copying it here).
let cacheBuffer;
function cachedData(name) {
  const at = cacheIndex !== undefined && Object.hasOwn(cacheIndex, name) ? cacheIndex[name] : undefined;
  if (at === undefined) return undefined;
  try {
    if (cacheBuffer === undefined) {
      let largest = 0;
      for (const key of Object.keys(cacheIndex)) largest = Math.max(largest, cacheIndex[key][1]);
      cacheBuffer = Buffer.allocUnsafe(largest);
    }
    const data = cacheBuffer.subarray(0, at[1]);
    return fs.readSync(cacheFd, data, 0, at[1], cacheBase + at[0]) === at[1] ? data : undefined;
  } catch {
    return undefined;
  }
}
function load(name) {
  const done = loaded.get(name);
  if (done !== undefined) return done.exports;
  const m = { exports: {} };
  if (name === ${JSON.stringify(PROFILES_DATA)}) {
    // Each profile's text is joined from its lines when first read (a run reads the one it selects).
    let lines;
    const texts = Object.create(null);
    for (const key of Object.keys(SECTIONS)) {
      if (!key.startsWith(name + '/')) continue;
      let t;
      Object.defineProperty(texts, key.slice(name.length + 1), {
        enumerable: true,
        get() {
          lines ??= text(${JSON.stringify(PROFILE_LINES)}).split(${JSON.stringify(LINE_SEPARATOR)});
          return (t ??= text(key).split(',').map((n) => lines[parseInt(n, 36)]).join('\\\\n'));
        },
      });
    }
    m.exports = texts;
    loaded.set(name, m);
    return texts;
  }
  if (!Object.hasOwn(SECTIONS, name)) throw new Error('osm-krm: no section ' + name);
  const script = new Script(text(name), { filename: __filename, cachedData: cachedData(name) });
  scripts.set(name, script);
  loaded.set(name, m);
  script.runInThisContext()(sectionRequire, m, m.exports);
  return m.exports;
}
function sectionRequire(id) {
  if (id.startsWith('./')) return load(id.slice(2));
  if (id.startsWith('osm-krm:')) return load(id);
  return require(id);
}
const cacheOut = process.env.OSM_KRM_CODE_CACHE_OUT;
if (cacheOut) process.once('exit', () => { for (const [name, s] of scripts) fs.writeFileSync(cacheOut + '/' + name, s.createCachedData()); });
if (process.env.OSM_KRM_CODE_CACHE_REPORT) {
  process.once('exit', () => {
    const report = {};
    for (const [name, s] of scripts) report[name] = cacheIndex !== undefined && Object.hasOwn(cacheIndex, name) ? (s.cachedDataRejected ? 'rejected' : 'accepted') : 'none';
    fs.writeSync(2, JSON.stringify({ codeCache: report }) + '\\n');
  });
}
load(${JSON.stringify(MAIN)});
`;
  return loader + body;
}

/** Runs the built function once per training input; returns each section's cache (the first run that compiled it wins). */
function train() {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-build-'));
  const secrets = join(dir, 'secrets');
  mkdirSync(secrets);
  // The example's stand-in tokens (examples/*/README.md): training renders, it never talks to a cluster.
  const env = {
    ...process.env,
    OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
    OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
    OSM_KRM_SECRETS_DIR: secrets,
  };
  writeFileSync(join(secrets, 'cloud-init-getter-token'), env.OSM_CLOUD_INIT_GETTER_TOKEN);
  writeFileSync(join(secrets, 'bootstrap-token'), env.OSM_BOOTSTRAP_TOKEN);
  const runs = [
    { args: [], input: readFileSync('examples/basic/resourcelist.yaml'), cwd: '.' },
    { args: ['generate'], cwd: 'examples/argocd/app' },
    { args: ['hydrate', 'examples/flux/source', join(dir, 'hydrated')], cwd: '.' },
  ];
  const caches = new Map();
  try {
    runs.forEach((run, i) => {
      const out = join(dir, `run-${i}`);
      mkdirSync(out);
      const r = spawnSync(process.execPath, [join(process.cwd(), OUT), ...run.args], {
        cwd: run.cwd,
        input: run.input ?? '',
        env: { ...env, OSM_KRM_CODE_CACHE_OUT: out },
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      if (r.status !== 0) throw new Error(`training run osm-krm ${run.args.join(' ')} failed: ${r.stderr}`);
      for (const name of readdirSync(out).sort())
        if (!caches.has(name)) caches.set(name, readFileSync(join(out, name)));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return caches;
}

/** dist/osm-krm.cache: one line of JSON (each section's [offset, length] after it), then the caches. */
function cacheFile(caches) {
  const index = {};
  let at = 0;
  for (const [name, data] of caches) {
    index[name] = [at, data.length];
    at += data.length;
  }
  return Buffer.concat([Buffer.from(JSON.stringify(index) + '\n', 'latin1'), ...caches.values()]);
}

/** The sections of a built file, by name, as the loader reads them (for tests and benchmarks). */
export function bundleSections(file) {
  const text = readFileSync(file, 'latin1');
  const table = JSON.parse(/^const SECTIONS = (.*);$/m.exec(text)[1]);
  const start = text.indexOf('\n' + PREFIX) + 1;
  const out = new Map();
  for (const [name, [from, to, escaped]] of Object.entries(table)) {
    const t = text.slice(start + from, start + to);
    out.set(name, escaped === 1 ? t.replaceAll(CLOSE_ESCAPE, '*/') : t);
  }
  return out;
}

/** The caches in a cache file, by section name. */
export function bundleCaches(file) {
  const data = readFileSync(file);
  const eol = data.indexOf(10);
  const index = JSON.parse(data.latin1Slice(0, eol));
  return new Map(
    Object.entries(index).map(([name, [at, length]]) => [name, data.subarray(eol + 1 + at, eol + 1 + at + length)]),
  );
}

async function main() {
  const list = await sections(process.env.OSM_KRM_BUILD_MINIFY !== '0');
  mkdirSync('dist', { recursive: true });
  writeFileSync(OUT, layout(list));
  chmodSync(OUT, 0o755);
  rmSync(CACHE, { force: true });
  writeFileSync(CACHE, cacheFile(train()));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
