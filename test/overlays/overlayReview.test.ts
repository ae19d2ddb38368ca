// Overlays in the review tools: `render --explain` says where each file came from (base, overlay, line), `diff`
// names the overlay and its base when nodes change (a new base version included), `lint` checks an overlay
// with its base across the base's clouds and places findings on the overlay's lines.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { runRenderCommand } from '../../src/cli/renderCommand.ts';
import { runDiffCommand } from '../../src/cli/diffCommand.ts';
import { runLintCommand } from '../../src/cli/lintCommand.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { embeddedProfile } from '../../src/profiles/embeddedProfiles.ts';
import { runCommand, tempDir } from '../review/reviewSupport.ts';

const EXAMPLE = join(REPO_ROOT, 'examples/overlays');
const ENV = {
  PATH: process.env.PATH,
  OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
  OSM_BOOTSTRAP_TOKEN: 'abcdef.0123456789abcdef',
};

function exampleCopy(): string {
  const dir = tempDir();
  cpSync(EXAMPLE, dir, { recursive: true });
  return dir;
}

test("render --explain: the overlay's files with the overlay, its field and line; the base's with the base", () => {
  const r = runCommand(runRenderCommand, ['--explain'], EXAMPLE, ENV);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /^profile: kube-system\/ubuntu-company v1\.0\.0\+ov-[0-9a-f]{12} \(overlay file overlay\.yaml, on osp-ubuntu v1\.0\.0 \(embedded\)\)$/m,
  );
  const lines = readFileSync(join(EXAMPLE, 'overlay.yaml'), 'utf8').split('\n');
  const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
  assert.match(
    r.stdout,
    new RegExp(
      `^file /usr/local/share/ca-certificates/company-ca\\.crt  mode 0644  owner \\(default\\)\\n  from: overlay kube-system/ubuntu-company, spec\\.files\\[0\\], added \\(overlay\\.yaml:${lineOf('- path: /usr/local/share/ca-certificates/company-ca.crt')}\\)$`,
      'm',
    ),
  );
  assert.match(
    r.stdout,
    new RegExp(
      `^file /etc/systemd/system/containerd\\.service\\.d/50-company\\.conf  mode 0644  owner \\(default\\)\\n  from: overlay kube-system/ubuntu-company, spec\\.units\\[0\\]\\.dropIns\\[0\\], added \\(overlay\\.yaml:${lineOf('- name: 50-company.conf')}\\)$`,
      'm',
    ),
  );
  assert.match(
    r.stdout,
    /^file \/etc\/sysctl\.d\/k8s\.conf  mode 0644  owner \(default\)\n  from: base osp-ubuntu v1\.0\.0$/m,
  );
  // Without --explain, no provenance lines.
  const plain = runCommand(runRenderCommand, [], EXAMPLE, ENV);
  assert.doesNotMatch(plain.stdout, /^ {2}from: /m);
});

test("diff: an overlay edit names the overlay; a new base version (an osm-krm upgrade) names the base's versions", () => {
  const base = exampleCopy();
  const head = exampleCopy();
  const overlayFile = join(head, 'overlay.yaml');
  writeFileSync(
    overlayFile,
    readFileSync(overlayFile, 'utf8').replace('vm.max_map_count = 262144', 'vm.max_map_count = 524288'),
  );
  const r = runCommand(runDiffCommand, [base, head], base, ENV);
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stdout,
    /^\* profile ubuntu-company v1\.0\.0\+ov-[0-9a-f]{12} -> ubuntu-company v1\.0\.0\+ov-[0-9a-f]{12}$/m,
  );
  assert.match(
    r.stdout,
    /^\* through overlay kube-system\/ubuntu-company \(file overlay\.yaml\), on base osp-ubuntu v1\.0\.0 \(embedded\), unchanged$/m,
  );
  assert.match(r.stdout, /^\+vm\.max_map_count = 524288$/m);

  // The embedded base moves on: the same overlay, a new base version, visible as such.
  const upgraded = exampleCopy();
  const osp = structuredClone(embeddedProfile('osp-ubuntu')) as any;
  osp.spec.version = 'v1.1.0';
  const sysctl = osp.spec.provisioningConfig.files.find((f: any) => f.path === '/etc/sysctl.d/k8s.conf');
  sysctl.content.inline.data += 'net.core.somaxconn = 4096\n';
  writeFileSync(join(upgraded, 'osp-ubuntu.yaml'), stringify(osp));
  const u = runCommand(runDiffCommand, [base, upgraded], base, ENV);
  assert.equal(u.code, 1, u.stderr);
  assert.match(
    u.stdout,
    /^\* profile ubuntu-company v1\.0\.0\+ov-[0-9a-f]{12} -> ubuntu-company v1\.1\.0\+ov-[0-9a-f]{12}$/m,
  );
  assert.match(
    u.stdout,
    /^\* through overlay kube-system\/ubuntu-company \(file overlay\.yaml\), on base osp-ubuntu v1\.0\.0 \(embedded\) -> osp-ubuntu v1\.1\.0 \(file osp-ubuntu\.yaml\)$/m,
  );
  assert.match(u.stdout, /^\+net\.core\.somaxconn = 4096$/m);
  // The overlay's own files are still there on the new base.
  const render = runCommand(runRenderCommand, [], upgraded, ENV);
  assert.match(render.stdout, /^file \/etc\/sysctl\.d\/90-company\.conf/m);
});

test("lint: the example overlay is clean across osp-ubuntu's clouds; a typo is an error at its line; a script finding is placed on the overlay's line", () => {
  const ok = runCommand(runLintCommand, [EXAMPLE], REPO_ROOT, ENV);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  const clouds = (embeddedProfile('osp-ubuntu').spec as any).supportedCloudProviders.length;
  assert.match(
    ok.stdout,
    new RegExp(`1 profile\\(s\\), ${clouds * 3 * 2} user-data config\\(s\\) rendered: 0 error\\(s\\)`),
  );

  const dir = tempDir();
  const o = parse(readFileSync(join(EXAMPLE, 'overlay.yaml'), 'utf8'));
  o.spec.files.push({
    path: '/opt/bin/company-hello',
    permissions: 755,
    content: { literal: '#!/bin/bash\nunused=1\necho hello\n' },
  });
  o.spec.files.push({ path: '/etc/sysctl.d/k8s.cnf', replace: true, content: { literal: 'x' } });
  const text = stringify(o);
  writeFileSync(join(dir, 'overlay.yaml'), text);
  const bad = runCommand(runLintCommand, ['overlay.yaml'], dir, ENV);
  assert.equal(bad.code, 1);
  const typoLine = text.split('\n').findIndex((l) => l.includes('/etc/sysctl.d/k8s.cnf')) + 1;
  assert.match(
    bad.stdout,
    new RegExp(
      `^overlay\\.yaml:${typoLine}:1: error: \\[overlay\\] file /etc/sysctl\\.d/k8s\\.cnf is to be replaced, but base osp-ubuntu v1\\.0\\.0 has no such file in provisioningConfig \\(did you mean "/etc/sysctl\\.d/k8s\\.conf"\\?\\)$`,
      'm',
    ),
  );

  o.spec.files.pop();
  const text2 = stringify(o);
  writeFileSync(join(dir, 'overlay.yaml'), text2);
  const warn = runCommand(runLintCommand, ['overlay.yaml'], dir, ENV);
  const unusedLine = text2.split('\n').findIndex((l) => l.trim() === 'unused=1') + 1;
  if (!/skipped: shellcheck/.test(warn.stdout))
    assert.match(warn.stdout, new RegExp(`^overlay\\.yaml:${unusedLine}:\\d+: warning: \\[shellcheck\\] SC2034`, 'm'));
  // The base's scripts are not the overlay's findings (the base is linted on its own).
  assert.doesNotMatch(warn.stdout, /\/opt\/bin\/setup\b/);
});
