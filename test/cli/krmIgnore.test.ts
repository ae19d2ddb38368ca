// `.krmignore` as kpt reads it: our walk and kpt's (`kpt fn source`, kpt 1.0.0-beta.56 on PATH) pick the same
// manifest files from generated trees and ignore files (fast-check, fixed seed): patterns anchored or not, with
// `*`, `?`, classes, trailing `/`, `!` accepts, comments, files at several depths, subpackages (a Kptfile) with
// ignore files of their own. Dot-files are left out of the comparison (kpt reads them; osm-krm skips them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { listManifestFiles } from '../../src/cli/manifestDirectory.ts';
import { rootAt } from '../../src/cli/fileGate.ts';
import { globMatch, parseKrmIgnore } from '../../src/cli/krmIgnore.ts';
import { tempDir } from '../gitops/support.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 2026);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);

test("patterns: gitignore's subset as kyaml/go-gitignore match it", () => {
  const m = parseKrmIgnore('# comment\n  ign/  \n*.json\n/top.yaml\nsub/x.yaml\n!keep.json\n\\#hash.yaml\n[ab]?.yml\n');
  const cases: Array<[string, boolean, boolean]> = [
    ['ign', true, true],
    ['ign', false, false],
    ['a/ign', true, true],
    ['x.json', false, true],
    ['d/keep.json', false, false],
    ['top.yaml', false, true],
    ['d/top.yaml', false, false],
    ['sub/x.yaml', false, true],
    ['a/b/sub/x.yaml', false, true],
    ['#hash.yaml', false, true],
    ['a1.yml', false, true],
    ['c1.yml', false, false],
    ['a12.yml', false, false],
  ];
  for (const [path, dir, ignored] of cases) assert.equal(m.ignores(path, dir), ignored, `${path} (dir: ${dir})`);
  assert.equal(globMatch('a*', 'a/b'), false);
  assert.equal(globMatch('[^a]', 'b'), true);
  assert.equal(globMatch('[', 'x'), false); // malformed: matches nothing
});

const NAMES = ['a.yaml', 'b.yml', 'c.yaml', 'd.json', 'x.yaml'];
const DIRS = ['', 'sub', 'sub/deep', 'ign', 'pkg', 'pkg/inner'];
const PATTERNS = [
  '*.json',
  'ign/',
  'ign',
  '/a.yaml',
  'a.yaml',
  'sub/',
  '/sub',
  'deep/',
  'sub/c.yaml',
  'c.yaml',
  '!sub/deep/x.yaml',
  '!x.yaml',
  '?.yml',
  '[ab].yaml',
  '*',
  '!*.yaml',
  'inner/',
  '# sub/',
  'pkg/',
  '/pkg/inner/',
];

const arbTree = fc.record({
  files: fc.uniqueArray(
    fc.tuple(fc.constantFrom(...DIRS), fc.constantFrom(...NAMES)).map(([d, n]) => (d === '' ? n : `${d}/${n}`)),
    { minLength: 1, maxLength: 12 },
  ),
  top: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 4 }),
  subpackage: fc.boolean(),
  inner: fc.array(fc.constantFrom(...PATTERNS), { maxLength: 3 }),
});

function kptFiles(dir: string): string[] {
  const r = spawnSync('kpt', ['fn', 'source', dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const paths: string[] = [];
  for (const doc of parseAllDocuments(r.stdout)) {
    for (const item of ((doc.toJS() as any)?.items ?? []) as any[]) {
      const p = item.metadata?.annotations?.['internal.config.kubernetes.io/path'];
      if (typeof p === 'string' && /\.ya?ml$/.test(p) && !p.split('/').some((s: string) => s.startsWith('.')))
        paths.push(p);
    }
  }
  return [...new Set(paths)].sort();
}

const hasKpt = spawnSync('kpt', ['version']).status === 0;

test(
  'our walk and kpt read the same files under .krmignore',
  { skip: !hasKpt && 'kpt is not installed', timeout: 600_000 },
  () => {
    fc.assert(
      fc.property(arbTree, ({ files, top, subpackage, inner }) => {
        const dir = tempDir('osm-krm-krmignore-');
        writeFileSync(join(dir, 'Kptfile'), 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: top\n');
        files.forEach((f, i) => {
          mkdirSync(dirname(join(dir, f)), { recursive: true });
          writeFileSync(join(dir, f), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n`);
        });
        writeFileSync(join(dir, '.krmignore'), top.join('\n') + '\n');
        if (subpackage) {
          mkdirSync(join(dir, 'pkg'), { recursive: true });
          writeFileSync(join(dir, 'pkg', 'Kptfile'), 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n');
          writeFileSync(join(dir, 'pkg', '.krmignore'), inner.join('\n') + '\n');
        }
        const ours = listManifestFiles(rootAt(dir, dir), '').sort();
        assert.deepEqual(ours, kptFiles(dir), JSON.stringify({ files, top, subpackage, inner }));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  },
);
