// `osm-krm bom`: the command over a directory as a user has it (testdata/bom/air-gapped: osp-ubuntu on vSphere,
// every artifact and the sandbox image on the site's mirrors): --mirror-check says what leaves the site and
// fails then, secrets never print in any format, the SPDX document has SPDX 2.3's shape and the same bytes every
// time, the help comes from the command's table.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runBomCommand } from '../../src/cli/bomCommand.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { runCommand, tempDir } from '../review/reviewSupport.ts';

const FIXTURE = join(REPO_ROOT, 'testdata', 'bom', 'air-gapped');
const GETTER = 'getter-token-for-bom-tests-0123456789';
const BOOTSTRAP = 'abcdef.0123456789abcdef';
const ENV = { PATH: process.env.PATH, OSM_CLOUD_INIT_GETTER_TOKEN: GETTER, OSM_BOOTSTRAP_TOKEN: BOOTSTRAP };

function fixture(edit?: (config: string) => string): string {
  const dir = tempDir();
  cpSync(FIXTURE, dir, { recursive: true });
  if (edit) writeFileSync(join(dir, 'osm.yaml'), edit(readFileSync(join(dir, 'osm.yaml'), 'utf8')));
  return dir;
}

test('--mirror-check: everything on the site mirrors passes; upstream artifact hosts and the default sandbox image fail, each named', () => {
  const ok = runCommand(runBomCommand, ['.', '--arch', 'amd64', '--mirror-check'], fixture(), ENV);
  assert.equal(ok.code, 0, ok.stderr + ok.stdout);
  assert.doesNotMatch(ok.stdout, /LEAVES THE SITE|CANNOT TELL/);
  assert.match(ok.stdout, /^registry\.site\.example\/pause:3\.10 {2}-> site$/m);
  assert.match(ok.stdout, /^summary: 11 downloads, 1 repositories, 21 packages, 1 images, 3 API calls, 0 unresolved$/m);
  // The upstream defaults for the Kubernetes binaries, and no pause image named.
  const dir = fixture((c) => c.replace(/^ {4}kubernetes: .*\n/m, '').replace(/^ {2}pauseImage: .*\n/m, ''));
  const bad = runCommand(runBomCommand, ['.', '--arch', 'amd64', '--mirror-check'], dir, ENV);
  assert.equal(bad.code, 1, bad.stderr);
  assert.match(
    bad.stdout,
    /^https:\/\/dl\.k8s\.io\/v1\.34\.3\/bin\/linux\/amd64\/kubelet {2}-> LEAVES THE SITE\n(?: {2}.*\n)*? {2}check: dl\.k8s\.io is none of the config's mirrors$/m,
  );
  assert.match(bad.stdout, /^image: containerd's default sandbox \("pause"\) image {2}-> CANNOT TELL$/m);
  assert.equal((bad.stdout.match(/LEAVES THE SITE/g) ?? []).length, 6, 'kubelet, kubeadm, kubectl and their checksums');
  assert.match(bad.stderr, /7 item\(s\) leave the site or cannot be told/);
  // --site adds a host the config does not name.
  const site = runCommand(
    runBomCommand,
    ['.', '--arch', 'amd64', '--mirror-check', '--site', 'dl.k8s.io'],
    fixture((c) => c.replace(/^ {4}kubernetes: .*\n/m, '')),
    ENV,
  );
  assert.equal(site.code, 0, site.stdout);
});

test('secrets never print: tokens, a password in a mirror URL, in text, json and spdx', () => {
  const dir = fixture((c) =>
    c.replace(
      'https://mirror.site.example/docker',
      'https://bom-user:s3cret-mirror-password@mirror.site.example/docker',
    ),
  );
  for (const format of ['text', 'json', 'spdx']) {
    const r = runCommand(runBomCommand, ['.', '--format', format, '--mirror-check'], dir, ENV);
    assert.equal(r.code, 0, r.stderr);
    for (const secret of [GETTER, BOOTSTRAP, '0123456789abcdef', 's3cret-mirror-password'])
      assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), `${format}: ${secret}`);
    assert.match(r.stdout, /bom-user:<masked>@mirror\.site\.example\/docker/);
  }
});

test('--format spdx: an SPDX 2.3 document, the same bytes every run, created from SOURCE_DATE_EPOCH', () => {
  const dir = fixture();
  const a = runCommand(runBomCommand, ['.', '--format', 'spdx'], dir, ENV);
  const b = runCommand(runBomCommand, ['.', '--format', 'spdx'], dir, ENV);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  const doc = JSON.parse(a.stdout);
  // SPDX 2.3 (spec.spdx.org/v2.3, JSON schema spdx-spec support/2.3 schemas/spdx-schema.json): the document's
  // required fields and each package's, IDs of the form SPDXRef-[idstring], relationships between known IDs.
  assert.equal(doc.spdxVersion, 'SPDX-2.3');
  assert.equal(doc.dataLicense, 'CC0-1.0');
  assert.equal(doc.SPDXID, 'SPDXRef-DOCUMENT');
  assert.equal(typeof doc.name, 'string');
  assert.match(doc.documentNamespace, /^https:\/\/[^\s#]+$/);
  assert.equal(doc.creationInfo.created, '1970-01-01T00:00:00Z');
  assert.deepEqual(doc.creationInfo.creators, ['Tool: osm-krm-0.1.0']);
  const ids = new Set<string>(['SPDXRef-DOCUMENT']);
  const purposes = [
    'OTHER',
    'INSTALL',
    'ARCHIVE',
    'FIRMWARE',
    'APPLICATION',
    'FRAMEWORK',
    'LIBRARY',
    'CONTAINER',
    'SOURCE',
    'DEVICE',
    'OPERATING_SYSTEM',
    'FILE',
  ];
  for (const p of doc.packages) {
    assert.match(p.SPDXID, /^SPDXRef-[A-Za-z0-9.-]+$/);
    assert.ok(!ids.has(p.SPDXID), p.SPDXID);
    ids.add(p.SPDXID);
    assert.equal(typeof p.name, 'string');
    assert.ok(
      p.downloadLocation === 'NOASSERTION' || /^(https?|file):\/\//.test(p.downloadLocation),
      p.downloadLocation,
    );
    assert.equal(p.filesAnalyzed, false);
    assert.ok(purposes.includes(p.primaryPackagePurpose), p.primaryPackagePurpose);
    assert.deepEqual(
      Object.keys(p).filter(
        (k) =>
          ![
            'SPDXID',
            'name',
            'versionInfo',
            'downloadLocation',
            'filesAnalyzed',
            'primaryPackagePurpose',
            'comment',
          ].includes(k),
      ),
      [],
    );
  }
  for (const r of doc.relationships) {
    assert.ok(ids.has(r.spdxElementId) && ids.has(r.relatedSpdxElement), JSON.stringify(r));
    assert.ok(['DESCRIBES', 'DEPENDS_ON'].includes(r.relationshipType));
  }
  assert.equal(doc.relationships.filter((r: any) => r.relationshipType === 'DESCRIBES').length, 1);
  assert.ok(
    doc.packages.some(
      (p: any) => p.downloadLocation === 'https://mirror.site.example/dl.k8s.io/v1.34.3/bin/linux/arm64/kubelet',
    ),
  );
  const dated = runCommand(runBomCommand, ['.', '--format', 'spdx'], dir, { ...ENV, SOURCE_DATE_EPOCH: '1796083200' });
  assert.equal(JSON.parse(dated.stdout).creationInfo.created, '2026-12-01T00:00:00Z');
});

test('json: per item its kind, architectures and where the profile fetches it; --md picks, and a wrong name is an error', () => {
  const dir = fixture();
  const r = runCommand(runBomCommand, ['.', '--format', 'json', '--md', 'kube-system/workers'], dir, ENV);
  const { machineDeployments } = JSON.parse(r.stdout);
  assert.equal(machineDeployments.length, 1);
  const kubelet = machineDeployments[0].items.filter((i: any) => /\/kubelet$/.test(i.name));
  assert.deepEqual(
    kubelet.map((i: any) => [i.name.split('/').slice(-2).join('/'), i.arch]),
    [
      ['amd64/kubelet', ['amd64']],
      ['arm64/kubelet', ['arm64']],
    ],
  );
  assert.equal(kubelet[0].checksum, `sha256, published at ${kubelet[0].name}.sha256`);
  assert.deepEqual(
    kubelet[0].locations.map((l: any) => `${l.stage} ${l.path}`),
    ['provisioning /opt/bin/install-kubernetes-binaries'],
  );
  const wrong = runCommand(runBomCommand, ['.', '--md', 'worker'], dir, ENV);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /no MachineDeployment named "worker"; did you mean "workers"\?/);
  const help = runCommand(runBomCommand, ['--help'], dir, ENV);
  assert.match(help.stdout, /--mirror-check/);
  assert.match(help.stdout, /--format text\|json\|spdx/);
});
