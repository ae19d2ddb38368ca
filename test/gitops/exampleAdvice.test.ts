// The examples follow the project's own advice: every fetch from the API server verifies the cluster CA
// (no `curl -k`, no curl relying on the node's system CAs), no stale comments, one function image name.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT } from '../support/paths.ts';
import { EXAMPLE_IMAGE, EXAMPLES, objectsInFiles, snapshot } from './support.ts';

/** Every OperatingSystemProfile of the examples (their inputs, not the generated output). */
function exampleProfiles(): Array<{ where: string; osp: any }> {
  const out: Array<{ where: string; osp: any }> = [];
  for (const rel of snapshot(EXAMPLES).keys()) {
    if (!/\.ya?ml$/.test(rel) || rel.includes('osm-generated/') || rel.includes('.expected/')) continue;
    for (const doc of objectsInFiles(EXAMPLES, (r) => r === rel)) {
      for (const o of doc?.kind === 'ResourceList' ? doc.items : [doc]) {
        if (o?.kind === 'OperatingSystemProfile') out.push({ where: `${rel} ${o.metadata.name}`, osp: o });
      }
    }
  }
  return out;
}

/** The shell lines of a profile's files that run curl towards the API server, with continuation lines joined. */
function apiServerCurls(osp: any): string[] {
  const texts: string[] = [];
  for (const half of ['bootstrapConfig', 'provisioningConfig']) {
    const cfg = osp.spec[half] ?? {};
    for (const f of cfg.files ?? []) texts.push(f.content?.inline?.data ?? '');
    for (const rt of cfg.supportedContainerRuntimes ?? [])
      for (const f of rt.files ?? []) texts.push(f.content?.inline?.data ?? '');
    texts.push(...Object.values<string>(cfg.templates ?? {}));
  }
  return texts
    .flatMap((t) => t.replace(/\\\n/g, ' ').split('\n'))
    .filter((l) => /\bcurl\b/.test(l) && l.includes('.ServerURL'));
}

test('every example profile fetches from the API server with the cluster CA verified', () => {
  const profiles = exampleProfiles();
  assert.ok(profiles.length >= 6, profiles.map((p) => p.where).join(', '));
  for (const { where, osp } of profiles) {
    const curls = apiServerCurls(osp);
    if (osp.spec.bootstrapConfig) assert.ok(curls.length > 0, `${where}: no fetch from the API server found`);
    for (const line of curls) {
      assert.doesNotMatch(line, /\s(-[a-zA-Z]*k[a-zA-Z]*|--insecure)\s/, `${where}: ${line}`);
      const ca = /--cacert\s+(\S+)/.exec(line);
      assert.ok(ca, `${where}: curl without --cacert: ${line}`);
      // The CA file is written by the same config: a file entry, or the script itself.
      const written = JSON.stringify(osp.spec.bootstrapConfig).includes(ca[1]!.replace(/^["']|["']$/g, ''));
      assert.ok(written, `${where}: nothing writes ${ca[1]}`);
    }
  }
});

test('the examples name one function image and carry no stale comments', () => {
  const files = [...snapshot(EXAMPLES)].filter(([rel]) => !rel.includes('osm-generated/'));
  files.push(
    ['README.md', readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')],
    ['Dockerfile', readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8')],
  );
  for (const [rel, text] of files) {
    for (const m of text.matchAll(/[a-z0-9.-]+(?:\/[a-z0-9._-]+)+:v?\d+\.\d+\.\d+/g)) {
      if (m[0].includes('argocd-cmp')) continue; // the Argo CD sidecar image, another image on purpose
      if (!m[0].includes('osm-krm')) continue;
      assert.equal(m[0], EXAMPLE_IMAGE, `${rel}: ${m[0]}`);
    }
    assert.doesNotMatch(text, /not embedded yet/, rel);
  }
});
