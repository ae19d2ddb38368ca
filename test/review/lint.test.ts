// `osm-krm lint`: our default profiles lint clean, upstream's show their known findings, and findings in
// scripts are placed on the OSP file's line that produced them.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse, stringify } from 'yaml';
import { runLintCommand } from '../../src/cli/lintCommand.ts';
import { REPO_ROOT, UPSTREAM_OSM } from '../support/paths.ts';
import { runCommand, tempDir } from './reviewSupport.ts';

const UPSTREAM_UBUNTU = join(UPSTREAM_OSM, 'deploy/osps/default/osp-ubuntu.yaml');

test('our six default profiles lint clean with every validator run', { timeout: 600_000 }, () => {
  const r = runCommand(runLintCommand, ['src/profiles', '--format', 'json'], REPO_ROOT);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.findings, [], r.stdout);
  assert.equal(r.code, 0);
  assert.ok(report.rendered >= 100, `rendered ${report.rendered}`);
  // Everything that can run here ran; the one format no tool validates (osp-flatcar-cloud-init's) is said so.
  assert.deepEqual(report.skipped, [
    'coreos-cloudinit configs: no validator for coreos-cloudinit is available; rendered and decoded only',
  ]);
});

test("upstream's osp-ubuntu: curl -k towards the API server is an error on its line", { timeout: 300_000 }, () => {
  const r = runCommand(runLintCommand, [UPSTREAM_UBUNTU, '--format', 'json'], REPO_ROOT);
  assert.equal(r.code, 1);
  const lines = readFileSync(UPSTREAM_UBUNTU, 'utf8').split('\n');
  const expected = lines.flatMap((l, i) =>
    l.includes('curl') && l.includes(' -k ') && l.includes('ServerURL') ? [['error', i + 1]] : [],
  );
  assert.equal(expected.length, 2, 'the provisioning config and the kubelet bootstrap kubeconfig');
  const report = JSON.parse(r.stdout);
  const insecure = report.findings.filter((f: any) => f.check === 'curl-insecure');
  assert.deepEqual(
    insecure.map((f: any) => [f.severity, f.line]),
    expected,
  );
});

test(
  'a shellcheck finding points at the OSP line of the script line, through template actions',
  { timeout: 300_000 },
  () => {
    const example = (
      parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8')) as any
    ).items.find((i: any) => i.metadata?.name === 'example-ubuntu');
    example.spec.provisioningConfig.files.push({
      path: '/opt/bin/lint-me',
      permissions: 755,
      content: {
        inline: {
          encoding: 'b64',
          data: '#!/bin/bash\n{{- if .ExternalCloudProvider }}\necho external\n{{- end }}\nfor f in $(ls /etc); do echo "$f"; done\nrm -rf $UNSET_DIRECTORY/\n',
        },
      },
    });
    const dir = tempDir();
    const text = stringify(example, { lineWidth: 0, blockQuote: 'literal' });
    writeFileSync(join(dir, 'osp.yaml'), text);
    const fileLines = text.split('\n');
    const lsLine = fileLines.findIndex((l) => l.includes('for f in $(ls /etc)')) + 1;
    const rmLine = fileLines.findIndex((l) => l.includes('rm -rf $UNSET_DIRECTORY')) + 1;
    assert.ok(lsLine > 0 && rmLine > lsLine);
    const r = runCommand(runLintCommand, ['osp.yaml', '--format', 'json'], dir);
    const findings = JSON.parse(r.stdout).findings.filter((f: any) => f.check === 'shellcheck');
    assert.ok(
      findings.some((f: any) => f.file === 'osp.yaml' && f.line === lsLine && /SC2045/.test(f.message)),
      JSON.stringify(findings),
    );
    assert.ok(
      findings.some((f: any) => f.line === rmLine && /SC2115/.test(f.message)),
      JSON.stringify(findings),
    );
    const gh = runCommand(runLintCommand, ['osp.yaml', '--format', 'github'], dir);
    assert.match(
      gh.stdout,
      new RegExp(
        `^::(error|warning) file=osp\\.yaml,line=${lsLine},col=\\d+,title=osm-krm lint \\(shellcheck\\)::SC2045`,
        'm',
      ),
    );
  },
);

test('systemd-analyze verify: an unknown key in a unit is reported on its OSP line', { timeout: 300_000 }, () => {
  const example = (parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8')) as any).items.find(
    (i: any) => i.metadata?.name === 'example-ubuntu',
  );
  example.spec.provisioningConfig.files.push({
    path: '/etc/systemd/system/lint-me.service',
    permissions: 644,
    content: {
      inline: {
        data: '[Unit]\nDescription=lint me\n[Service]\nType=oneshot\nExecStart=/bin/true\nRestartSecs=5\n[Install]\nWantedBy=multi-user.target\n',
      },
    },
  });
  const dir = tempDir();
  const text = stringify(example, { lineWidth: 0, blockQuote: 'literal' });
  writeFileSync(join(dir, 'osp.yaml'), text);
  const line = text.split('\n').findIndex((l) => l.includes('RestartSecs=5')) + 1;
  const r = runCommand(runLintCommand, ['osp.yaml', '--format', 'json'], dir);
  const findings = JSON.parse(r.stdout).findings.filter((f: any) => f.check === 'systemd-analyze verify');
  assert.deepEqual(
    findings.map((f: any) => [f.line, f.message]),
    [[line, "Unknown key 'RestartSecs' in section [Service], ignoring."]],
  );
});

test("a template error is placed on the OSP file at the template's line and column", { timeout: 300_000 }, () => {
  const example = (parse(readFileSync(join(REPO_ROOT, 'examples/basic/resourcelist.yaml'), 'utf8')) as any).items.find(
    (i: any) => i.metadata?.name === 'example-ubuntu',
  );
  example.spec.provisioningConfig.files.push({
    path: '/opt/bin/broken',
    permissions: 755,
    content: { inline: { data: '#!/bin/bash\necho one\necho {{ .KubeVersion \necho three\n' } },
  });
  const dir = tempDir();
  const text = stringify(example, { lineWidth: 0, blockQuote: 'literal' });
  writeFileSync(join(dir, 'osp.yaml'), text);
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('echo {{ .KubeVersion')) + 1;
  const r = runCommand(runLintCommand, ['osp.yaml', '--format', 'json'], dir);
  assert.equal(r.code, 1);
  const render = JSON.parse(r.stdout).findings.filter((f: any) => f.check === 'render' && f.severity === 'error');
  assert.ok(render.length > 0, r.stdout);
  // Go reports an unclosed action where the template ends: on the next line, or that one.
  for (const f of render) {
    assert.equal(f.file, 'osp.yaml');
    assert.ok(f.line >= line && f.line <= line + 2, `${f.line} vs ${line}: ${f.message}`);
    assert.ok(f.column >= 1);
  }
});

test('usage errors exit 2; a path without profiles is an error', () => {
  assert.equal(runCommand(runLintCommand, [], REPO_ROOT).code, 2);
  assert.equal(runCommand(runLintCommand, ['x', '--format', 'xml'], REPO_ROOT).code, 2);
  const dir = tempDir();
  writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [cm.yaml]\n');
  writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n');
  const r = runCommand(runLintCommand, ['.'], dir);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /no OperatingSystemProfile/);
});
