// Template output that is not valid UTF-8 (b64dec of binary data): OSM stores the rendered files in the OSC
// through the API server, whose JSON turns each invalid byte into U+FFFD before the Secrets are made from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { findItem, runOn } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';

// 0xff, "A", 0xc3 (a truncated two-byte sequence), "B": two invalid bytes around valid text.
const BINARY = Buffer.from([0xff, 0x41, 0xc3, 0x42]).toString('base64');

function withBinaryFile(): { list: any; run: ReturnType<typeof runOn> } {
  const list = parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8'));
  for (const osp of list.items.filter((i: any) => i.kind === 'OperatingSystemProfile')) {
    osp.spec.provisioningConfig.files.push({
      path: '/opt/raw-bytes',
      permissions: 644,
      content: { inline: { data: `x{{ "${BINARY}" | b64dec }}y\n` } },
    });
  }
  return { list, run: runOn(list) };
}

const fileOf = (osc: any, path: string) =>
  osc.spec.provisioningConfig.files.find((f: any) => f.path === path).content.inline.data;

test('invalid bytes in rendered files become U+FFFD, one per byte, in the OSC and both user-data formats', () => {
  const { run } = withBinaryFile();
  assert.equal(run.exitCode, 0, run.stderr);
  for (const md of ['ubuntu-workers', 'flatcar-workers']) {
    const osc = findItem(run.items, 'OperatingSystemConfig', `${md}-kube-system-config`);
    assert.equal(fileOf(osc, '/opt/raw-bytes'), 'x\ufffdA\ufffdBy\n');
  }
  const secret = (md: string) =>
    Buffer.from(
      findItem(run.items, 'Secret', `${md}-kube-system-provisioning-config`).data['cloud-config'],
      'base64',
    ).toString('utf8');
  // cloud-init: the file is written as given.
  assert.match(secret('ubuntu-workers'), /x\ufffdA\ufffdBy/);
  // Ignition: a data URL of the file's UTF-8 bytes.
  const ignition = JSON.parse(secret('flatcar-workers'));
  const file = ignition.storage.files.find((f: any) => f.path === '/opt/raw-bytes');
  assert.equal(decodeURIComponent(file.contents.source.replace(/^data:,/, '')), 'x\ufffdA\ufffdBy\n');
});
