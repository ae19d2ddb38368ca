// The layers of docs/architecture.md, read from the code: every import of src/ and functions/ goes to its own
// layer or one below, no module imports itself back through others, and src/go/ imports nothing else of ours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';
import { LAYERS, layerOf } from './layerTable.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name) && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => posix.relative(REPO_ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

// Static imports and re-exports (`import type` included: a type is a dependency too) and dynamic import().
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;

function importsOf(file: string): string[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[2]!;
    if (!spec.startsWith('.')) continue; // node: builtins and packages
    out.push(posix.normalize(posix.join(posix.dirname(file), spec)));
  }
  return out;
}

const files = [...sourceFiles('src'), ...sourceFiles('functions')];
const graph = new Map(files.map((f) => [f, importsOf(f)]));

test('every module of src/ and functions/ is in a layer', () => {
  assert.deepEqual(
    files.filter((f) => layerOf(f) < 0),
    [],
  );
});

test('the import reader sees the imports (a known edge of each kind is found)', () => {
  assert.ok(graph.get('src/template/exec.ts')!.includes('src/template/ast.ts'));
  assert.ok(graph.get('functions/osm-krm/main.ts')!.includes('src/cli/runFunction.ts'));
  assert.ok([...graph.values()].flat().length > 300);
});

test('every import resolves to a file that exists', () => {
  const known = new Set(files);
  const missing: string[] = [];
  for (const [from, targets] of graph) {
    for (const t of targets) if (!known.has(t) && !t.endsWith('.json')) missing.push(`${from} -> ${t}`);
  }
  assert.deepEqual(missing, []);
});

test('imports only go down: no module imports a layer above its own', () => {
  const upward: string[] = [];
  for (const [from, targets] of graph) {
    for (const t of targets) {
      if (layerOf(t) > layerOf(from))
        upward.push(`${from} (${LAYERS[layerOf(from)]![0]}) -> ${t} (${LAYERS[layerOf(t)]![0]})`);
    }
  }
  assert.deepEqual(upward, []);
});

test('src/go/ imports nothing of ours outside src/go/', () => {
  const out: string[] = [];
  for (const [from, targets] of graph) {
    if (from.startsWith('src/go/')) for (const t of targets) if (!t.startsWith('src/go/')) out.push(`${from} -> ${t}`);
  }
  assert.deepEqual(out, []);
});

test('no import cycles', () => {
  // Tarjan's strongly connected components; a component of more than one module (or a self-import) is a cycle.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  assert.deepEqual(cycles, []);
});

test('generated modules sit apart, in generated/ folders, and only there', () => {
  const all = readdirSync(join(REPO_ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => posix.relative(REPO_ROOT, join(e.parentPath, e.name)));
  const generated = all.filter((f) => f.includes('.generated.'));
  assert.ok(generated.length >= 3);
  assert.deepEqual(
    generated.filter((f) => posix.basename(posix.dirname(f)) !== 'generated'),
    [],
  );
  assert.deepEqual(
    all.filter((f) => f.includes('/generated/') && !f.includes('.generated.')),
    [],
  );
});
