// One file gate (issue #22), read from the code: no module of src/ or functions/ but src/cli/fileGate.ts may use
// a node:fs API that reads (contents, directory listings, metadata, link targets, real paths). The writers are
// listed with the write APIs each may use (OUT, render --out (newDirectoryTree.ts), the temporary trees of kustomize, diff --git and
// lint); writing is not reading. The modules that start a process that reads files are listed too: kustomize runs
// on a tree the gate built, git and tar make diff --git's tree (then read through the gate), the validators read
// files lint wrote.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

const GATE = 'src/cli/fileGate.ts';

/** The write APIs each writer may import from node:fs; nothing else may import node:fs at all. */
const WRITERS: Record<string, readonly string[]> = {
  'src/cli/outputDirectory.ts': ['mkdirSync', 'renameSync', 'rmdirSync', 'rmSync', 'unlinkSync', 'writeFileSync'],
  'src/cli/newDirectoryTree.ts': ['mkdirSync', 'mkdtempSync', 'renameSync', 'rmdirSync', 'rmSync', 'writeFileSync'],
  'src/cli/kustomizeBuild.ts': ['mkdirSync', 'mkdtempSync', 'rmSync', 'symlinkSync', 'writeFileSync'],
  'src/cli/diffCommand.ts': ['mkdtempSync', 'rmSync'],
  'src/lint/externalValidators.ts': ['mkdirSync', 'mkdtempSync', 'rmSync', 'writeFileSync'],
  'src/cli/writeAllSync.ts': ['writeSync'],
};

/** Modules that start processes, and why the files those read are safe (see the top). */
const SPAWNERS = ['src/cli/kustomizeBuild.ts', 'src/cli/diffCommand.ts', 'src/lint/externalValidators.ts'];

const WRITE_APIS = new Set([
  'appendFileSync',
  'chmodSync',
  'closeSync',
  'copyFileSync',
  'cpSync',
  'fsyncSync',
  'linkSync',
  'mkdirSync',
  'mkdtempSync',
  'renameSync',
  'rmdirSync',
  'rmSync',
  'symlinkSync',
  'truncateSync',
  'unlinkSync',
  'utimesSync',
  'writeFileSync',
  'writeSync',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter(
      (e) =>
        e.isFile() && /\.(ts|js|mjs|cjs)$/.test(e.name) && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts'),
    )
    .map((e) => posix.relative(REPO_ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

interface FsUse {
  /** Names imported from node:fs (or taken from it), `*` for the whole module. */
  names: string[];
  spawns: boolean;
}

const FS_MODULE = `['"](?:node:)?fs(?:/promises)?['"]`;

/** What a source text takes from node:fs, however it is spelled: import, require, getBuiltinModule, dynamic import. */
export function fsUse(text: string): FsUse {
  const names: string[] = [];
  for (const m of text.matchAll(new RegExp(`import\\s+(type\\s+)?([^;]*?)\\s+from\\s+${FS_MODULE}`, 'g'))) {
    if (m[1]) continue; // types only
    const clause = m[2]!;
    if (/\*\s+as\s+\w+/.test(clause) || /^\w+\s*(,|$)/.test(clause.trim())) names.push('*');
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces)
      for (const part of braces[1]!.split(',')) {
        const name = part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!
          .trim();
        if (name !== '' && !part.trim().startsWith('type ')) names.push(name);
      }
  }
  for (const m of text.matchAll(
    new RegExp(
      `(?:const|let|var)\\s+(\\{[^}]*\\}|\\w+)\\s*=\\s*(?:process\\.getBuiltinModule|require|await\\s+import)\\(\\s*${FS_MODULE}\\s*\\)`,
      'g',
    ),
  )) {
    const binding = m[1]!;
    if (!binding.startsWith('{')) names.push('*');
    else
      for (const part of binding.slice(1, -1).split(',')) {
        const name = part
          .trim()
          .split(/\s*:\s*/)[0]!
          .trim();
        if (name !== '') names.push(name);
      }
  }
  // A use of the module not bound above (passed around, or called inline) counts as the whole module.
  const bound =
    text.match(new RegExp(`(?:process\\.getBuiltinModule|require|import)\\(\\s*${FS_MODULE}\\s*\\)`, 'g'))?.length ?? 0;
  const counted =
    text.match(
      new RegExp(
        `(?:const|let|var)\\s+(?:\\{[^}]*\\}|\\w+)\\s*=\\s*(?:process\\.getBuiltinModule|require|await\\s+import)\\(\\s*${FS_MODULE}\\s*\\)`,
        'g',
      ),
    )?.length ?? 0;
  if (bound > counted) names.push('*');
  const spawns = /['"](?:node:)?child_process['"]/.test(text);
  return { names, spawns };
}

/** The violations of one module: fs reads outside the gate, writes outside the listed writers. */
export function violations(file: string, text: string): string[] {
  if (file === GATE) return [];
  const use = fsUse(text);
  const out: string[] = [];
  const allowed = new Set(WRITERS[file] ?? []);
  for (const name of use.names) {
    if (name === '*') out.push(`${file}: takes node:fs whole (only ${GATE} may read the file system)`);
    else if (!WRITE_APIS.has(name)) out.push(`${file}: uses node:fs ${name}, which reads (only ${GATE} may)`);
    else if (!allowed.has(name)) out.push(`${file}: uses node:fs ${name}, a write not listed for it`);
  }
  if (use.spawns && !SPAWNERS.includes(file)) out.push(`${file}: starts processes (not a listed spawner)`);
  return out;
}

const files = [...sourceFiles('src'), ...sourceFiles('functions')];
const texts = new Map(files.map((f) => [f, readFileSync(join(REPO_ROOT, f), 'utf8')]));

test('the checker sees every spelling of a read (so the test below can fail)', () => {
  const cases: Array<[string, string]> = [
    ["import { readFileSync } from 'node:fs';", 'readFileSync'],
    ["import { existsSync as e, writeFileSync } from 'fs';", 'existsSync'],
    ["import * as fs from 'node:fs';", 'whole'],
    ["import fs from 'fs';", 'whole'],
    ["import { readFile } from 'node:fs/promises';", 'readFile'],
    ["const { readSync } = process.getBuiltinModule('node:fs');", 'readSync'],
    ["const fs = require('fs');", 'whole'],
    ["x(process.getBuiltinModule('node:fs').readFileSync('/etc/passwd'));", 'whole'],
    ["const { statSync: s } = process.getBuiltinModule('node:fs');", 'statSync'],
  ];
  for (const [text, what] of cases) {
    const v = violations('src/cli/somewhere.ts', text);
    assert.ok(
      v.some((m) => m.includes(what)),
      `${text} -> ${v.join('; ')}`,
    );
  }
  assert.deepEqual(violations('src/cli/somewhere.ts', "import type { Stats } from 'node:fs';"), []);
  assert.deepEqual(
    violations('src/cli/outputDirectory.ts', "import { writeFileSync, renameSync } from 'node:fs';"),
    [],
  );
  assert.ok(violations('src/cli/outputDirectory.ts', "import { readFileSync } from 'node:fs';").length > 0);
  assert.ok(violations('src/cli/somewhere.ts', "import { spawnSync } from 'node:child_process';").length > 0);
  // The gate itself is seen reading.
  assert.ok(fsUse(texts.get(GATE)!).names.includes('openSync'));
});

test('only the file gate reads the file system; writers use only their listed write APIs', () => {
  const found = files.flatMap((f) => violations(f, texts.get(f)!));
  assert.deepEqual(found, []);
});

test('every listed writer and spawner exists and still needs its exception', () => {
  for (const [file, names] of Object.entries(WRITERS)) {
    assert.ok(texts.has(file), `${file} is listed but gone`);
    const used = new Set(fsUse(texts.get(file)!).names);
    assert.deepEqual(
      names.filter((n) => !used.has(n)),
      [],
      `${file}: listed writes it no longer uses`,
    );
  }
  for (const file of SPAWNERS) assert.ok(fsUse(texts.get(file)!).spawns, `${file} no longer starts processes`);
});
