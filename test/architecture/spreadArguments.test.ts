// No array as long as an input is spread into a call's arguments, read from the code. A spread passes every
// element as an argument on the stack, and V8 runs out of stack at about 100,000: a profile file of 160,000
// lines made `osm-krm render` end in "internal error: Maximum call stack size exceeded" (formatReview.ts spread
// each file's lines into one push), a script with a stray `)` before 200,000 commands did the same to `bom`
// (shellSyntax.ts), 150,000 `curl -k` lines to `lint`. Appending is a loop; the spreads left are listed here
// with what bounds them, and a new one fails until it is a loop or listed with its bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from '../support/paths.ts';

/** file: the spread expressions allowed in it, each with what bounds its length. */
const BOUNDED: Record<string, Record<string, string>> = {
  'src/cli/commandLine.ts': {
    'rows.map(([left]) => left.length)': "a command's help rows: its own option list",
    "tail.map((t) => `  ${' '.repeat(width)}${t}`)": "one help row's wrapped lines",
  },
  'src/cli/configLookalike.ts': { row: 'one row of the edit distance to the fixed kind name (its length + 1)' },
  'src/cli/fileGate.ts': {
    "relative(inRoot, t)\n          .split(sep)\n          .filter((p) => p !== '')":
      "a link's target: at most PATH_MAX",
    "target.split('/')": "a link's target: at most PATH_MAX",
  },
  'src/go/encoding/json/decode.ts': { 'cps.slice(i, i + 4096)': '4,096 code points at a time' },
  'src/go/reflect/func.ts': { args: "a template call's arguments: parse-tree items, each charged to the meter" },
  'src/go/regexp/regexp.ts': { 'perl.items': 'a Perl class (\\d, \\s, \\w): fixed ranges' },
  'src/krm/schemaError.ts': {
    'members.filter((e) => branchOf(e) === typed[0])': "one schema error's members: the schema's branches",
  },
  'src/render/renderGeneratedObjects.ts': { tokenSecrets: "one MachineDeployment's bootstrap token Secrets" },
  'src/sprig/index.ts': { xs: "a template call's arguments: parse-tree items, each charged to the meter" },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|cts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => posix.relative(REPO_ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** Every `f(...x)` and `new F(...x)` in a text: the spread expression's text. */
function spreadArguments(name: string, text: string): string[] {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isSpreadElement(n) && (ts.isCallExpression(n.parent) || ts.isNewExpression(n.parent)))
      found.push(n.expression.getText(source));
    ts.forEachChild(n, visit);
  };
  visit(source);
  return found;
}

const FILES = [...sourceFiles('src'), ...sourceFiles('functions')];

test('no call spreads an array whose length an input sets: the spreads left are bounded, each says by what', () => {
  const unlisted: string[] = [];
  const seen = new Set<string>();
  for (const f of FILES) {
    for (const e of spreadArguments(f, readFileSync(join(REPO_ROOT, f), 'utf8'))) {
      if (BOUNDED[f]?.[e] === undefined) unlisted.push(`${f}: ...${e}`);
      else seen.add(`${f}\u0000${e}`);
    }
  }
  assert.deepEqual(unlisted, [], 'append in a loop, or list the spread with what bounds it');
  // The list holds nothing that is gone (it would let a new spread of the same text in).
  const stale = Object.entries(BOUNDED).flatMap(([f, es]) =>
    Object.keys(es)
      .filter((e) => !seen.has(`${f}\u0000${e}`))
      .map((e) => `${f}: ...${e}`),
  );
  assert.deepEqual(stale, []);
});

test('the check sees a spread argument', () => {
  assert.deepEqual(spreadArguments('x.ts', 'a.push(...b); new C(...d); [...e]; f({ ...g });'), ['b', 'd']);
});
