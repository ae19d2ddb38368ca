// The function follows the KRM functions catalog conventions: functions/<name>/metadata.yaml and a README with
// mdtogo sections; `kpt fn doc` (docker run IMAGE --help) prints the help; every example has a README.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';
import { parseFunctionConfig } from '../../src/config/operatingSystemManagerConfig.ts';
import { EXAMPLE_IMAGE, EXAMPLES, runOk, toolEnv } from './support.ts';

const FN = join(REPO_ROOT, 'functions', 'osm-krm');
const readme = readFileSync(join(FN, 'README.md'), 'utf8');
const metadata = parse(readFileSync(join(FN, 'metadata.yaml'), 'utf8'));

function mdtogo(section: 'Short' | 'Long' | 'Examples'): string {
  const m = new RegExp(`<!--mdtogo:${section}-->\\n([\\s\\S]*?)<!--mdtogo-->`).exec(readme);
  assert.ok(m, `README lacks a closed <!--mdtogo:${section}--> section`);
  return m[1]!.trim();
}

test('metadata.yaml has the catalog fields, and its paths exist', () => {
  for (const k of ['image', 'description', 'tags', 'sourceURL', 'examplePackageURLs', 'license'])
    assert.ok(metadata[k], `metadata.yaml lacks ${k}`);
  assert.ok(metadata.tags.includes('mutator'));
  assert.equal(metadata.image, EXAMPLE_IMAGE.split(':')[0]);
  for (const p of [metadata.sourceURL, ...metadata.examplePackageURLs])
    assert.ok(existsSync(join(REPO_ROOT, p)), `${p} does not exist`);
});

test('README: the catalog sections in order, mdtogo markers, Short is the metadata description', () => {
  const headings = readme
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((l) => /^#{1,3} /.test(l));
  assert.deepEqual(headings, ['# osm-krm', '## Overview', '## Usage', '### FunctionConfig', '## Examples']);
  assert.equal(mdtogo('Short'), metadata.description);
  assert.ok(mdtogo('Long').length > 0);
  // Every example path the Examples section uses exists.
  for (const p of mdtogo('Examples').match(/examples\/[\w./-]+/g) ?? [])
    assert.ok(existsSync(join(REPO_ROOT, p)), `${p} does not exist`);
});

test('the documented FunctionConfig is a valid config', () => {
  const yaml = /### FunctionConfig[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
  const config = parseFunctionConfig(parse(yaml));
  assert.deepEqual(config.clusterDNS, ['10.96.0.10']);
  assert.deepEqual(config.cluster.cloudInitGetterToken, { env: 'OSM_CLOUD_INIT_GETTER_TOKEN' });
  assert.deepEqual(config.gitops.syncAnnotations, ['argocd']);
  assert.deepEqual(
    parseFunctionConfig({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      data: { 'cluster-dns': '10.96.0.10', 'cloud-init-getter-token-env': 'OSM_CLOUD_INIT_GETTER_TOKEN' },
    }).clusterDNS,
    ['10.96.0.10'],
  );
});

test('kpt fn doc --image prints the help (podman run --rm IMAGE --help, the real image)', () => {
  const r = runOk('kpt', ['fn', 'doc', '--image', EXAMPLE_IMAGE], { env: toolEnv({ KPT_FN_RUNTIME: 'podman' }) });
  assert.match(r.stdout, /^osm-krm: /);
  for (const cmd of ['osm-krm < resourcelist.yaml', 'osm-krm hydrate SRC OUT', 'osm-krm generate'])
    assert.ok(r.stdout.includes(cmd), `help lacks ${cmd}`);
});

test('every example has a README', () => {
  for (const e of ['kpt', 'kustomize', 'argocd', 'flux'])
    assert.ok(existsSync(join(EXAMPLES, e, 'README.md')), `examples/${e}/README.md`);
});
