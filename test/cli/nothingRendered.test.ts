// A review command over a PATH that renders no MachineDeployment says so, rather than printing an empty page
// (which reads as "renders to nothing"); `bom --mirror-check`, a gate, fails then: nothing was checked, so
// nothing is proved to stay on the site.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runBomCommand } from '../../src/cli/bomCommand.ts';
import { runRenderCommand } from '../../src/cli/renderCommand.ts';
import { runCommand, tempDir } from '../review/reviewSupport.ts';
import { REPO_ROOT } from '../support/paths.ts';

function directory(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: default}\n';
// testdata/bom/air-gapped's MachineDeployment, naming a profile that is not there: an error result, nothing
// rendered for it.
function orphan(): string {
  const dir = tempDir();
  cpSync(join(REPO_ROOT, 'testdata', 'bom', 'air-gapped'), dir, { recursive: true });
  const md = join(dir, 'machinedeployment.yaml');
  writeFileSync(md, readFileSync(md, 'utf8').replace(/(k8c\.io\/operating-system-profile: ).*/, '$1osp-missing'));
  return dir;
}
const ENV = {
  PATH: process.env.PATH,
  OSM_CLOUD_INIT_GETTER_TOKEN: 'getter-token-for-tests-0123456789',
  OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
};

test('render and bom over a PATH with no MachineDeployment say so; render exits 0, bom --mirror-check 1', () => {
  const dir = directory({ 'cm.yaml': CONFIG_MAP });
  const render = runCommand(runRenderCommand, ['.'], dir);
  assert.equal(render.code, 0, render.stderr);
  assert.equal(render.stdout, 'osm-krm render: no MachineDeployment rendered from .\n');
  const bom = runCommand(runBomCommand, ['.'], dir);
  assert.equal(bom.code, 0, bom.stderr);
  assert.match(bom.stderr, /^osm-krm bom: no MachineDeployment rendered from \.$/m);
  const gate = runCommand(runBomCommand, ['.', '--mirror-check'], dir);
  assert.equal(gate.code, 1, gate.stderr);
  assert.match(gate.stderr, /^osm-krm bom: error: nothing to check: no MachineDeployment rendered from \.$/m);
});

test('when MachineDeployments were not rendered, the line counts them and points at the results', () => {
  const dir = orphan();
  const render = runCommand(runRenderCommand, ['.'], dir, ENV);
  assert.notEqual(render.code, 0);
  assert.match(render.stderr, /osp-missing/);
  assert.equal(
    render.stdout,
    'osm-krm render: no MachineDeployment rendered from . (1 not rendered: the results above say why)\n',
  );
  // A render error stays exit 2, whatever the gate would say.
  assert.equal(runCommand(runBomCommand, ['.', '--mirror-check'], dir, ENV).code, 2);
  // A run that fails before any MachineDeployment is looked at (a config it cannot read) counts it too.
  writeFileSync(
    join(dir, 'osm.yaml'),
    readFileSync(join(dir, 'osm.yaml'), 'utf8').replace(/clusterDNS: .*/, 'clusterDNS: 5'),
  );
  const early = runCommand(runRenderCommand, ['.'], dir, ENV);
  assert.notEqual(early.code, 0);
  assert.match(early.stderr, /clusterDNS/);
  assert.equal(
    early.stdout,
    'osm-krm render: no MachineDeployment rendered from . (1 not rendered: the results above say why)\n',
  );
});
