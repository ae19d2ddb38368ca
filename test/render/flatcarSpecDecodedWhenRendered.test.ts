// A flatcar MachineDeployment's operatingSystemSpec is decoded (for its provisioning utility) only when osm-krm
// renders it, once its profile is found: a spec that does not decode is no error for a MachineDeployment
// osm-krm leaves alone, and a missing profile is said first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { parseResourceList } from '../../src/krm/resourceList.ts';
import { processResourceList } from '../../src/function/processResourceList.ts';
import { REPO_ROOT } from '../support/paths.ts';

const ENV: Record<string, string> = {
  OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
  OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
};

/** examples/basic with its flatcar MachineDeployment's spec made undecodable, and its annotations replaced. */
function runWithBrokenFlatcarSpec(annotations: Record<string, string>) {
  const list = parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
  const md = list.items.find((i: any) => i.kind === 'MachineDeployment' && i.metadata.name === 'flatcar-workers');
  md.spec.template.spec.providerSpec.value.operatingSystemSpec = 'not an object';
  md.metadata.annotations = annotations;
  const out = processResourceList(parseResourceList(stringify(list)), {
    env: (name: string) => ENV[name],
    readFile: (path: string) => {
      throw new Error(`no file is read here: ${path}`);
    },
  });
  return out.results.filter((r) => r.resourceRef?.name === 'flatcar-workers');
}

test('an unannotated flatcar MachineDeployment whose spec does not decode gets the warning, not an error', () => {
  const results = runWithBrokenFlatcarSpec({});
  assert.deepEqual(
    results.map((r) => r.severity),
    ['warning'],
  );
  assert.match(results[0]!.message, /no k8c\.io\/operating-system-profile annotation/);
});

test('a flatcar MachineDeployment naming a missing profile is told the profile is missing', () => {
  const results = runWithBrokenFlatcarSpec({ 'k8c.io/operating-system-profile': 'no-such-profile' });
  assert.equal(results.length, 1);
  assert.equal(results[0]!.severity, 'error');
  assert.match(results[0]!.message, /OperatingSystemProfile "no-such-profile" not found/);
});

test('a rendered flatcar MachineDeployment whose spec does not decode gets the decoding error on its field', () => {
  const results = runWithBrokenFlatcarSpec({ 'k8c.io/operating-system-profile': 'example-flatcar' });
  assert.equal(results.length, 1);
  assert.equal(results[0]!.severity, 'error');
  assert.match(results[0]!.message, /cannot unmarshal string into Go value of type/);
});
