// The bill of materials over lint's matrix, for our six default profiles and upstream OSM's: read through a
// second reader (lint's shell reader) every curl and wget of every rendered script is an item of the bill at its
// line, none dropped; what stays unresolved is counted and named (issue #27's closing numbers); every download
// of our profiles is verified, and every item placed on a profile line that fetches.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_ROOT, UPSTREAM_OSM } from '../support/paths.ts';
import { matrixBoms } from './bomMatrix.ts';

const OURS = join(REPO_ROOT, 'src', 'profiles');
const UPSTREAM = join(UPSTREAM_OSM, 'deploy', 'osps', 'default');
const files = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(dir, f));

const SANDBOX = 'image: containerd\'s default sandbox ("pause") image';

for (const [label, dir] of [
  ['our', OURS],
  ['upstream', UPSTREAM],
] as const) {
  test(
    `${label} default profiles: every fetch in every script is in the bill; the unresolved items counted`,
    { timeout: 600_000 },
    (t) => {
      const counts: string[] = [];
      for (const file of files(dir)) {
        const boms = matrixBoms(file);
        assert.ok(boms.length > 0, file);
        const unresolved = new Map<string, number>();
        for (const { scenario, bom, fetchCommands } of boms) {
          // curl --help (a feature probe) and a package named curl or wget in an install list fetch nothing.
          const fetching = fetchCommands.filter((c) => !/^(?:if )?(?:curl|wget)(?: --help all)?$/.test(c.text));
          const dropped = fetching.filter(
            (c) =>
              !bom.items.some((i) =>
                i.locations.some((l) => l.stage === c.stage && l.path === c.path && l.line === c.line),
              ),
          );
          assert.deepEqual(dropped, [], `${scenario}: fetches missing from the bill`);
          for (const i of bom.items.filter((x) => x.kind === 'unresolved'))
            unresolved.set(i.name, (unresolved.get(i.name) ?? 0) + 1);
          assert.ok(bom.items.some((i) => i.kind === 'download') && bom.items.some((i) => i.kind === 'api'), scenario);
        }
        // The one thing no profile names: the sandbox image containerd picks when the config names none.
        assert.deepEqual([...unresolved.keys()], [SANDBOX], file);
        counts.push(
          `${file.split('/').pop()}: ${boms.length} MachineDeployments, ${[...unresolved.values()].reduce((a, b) => a + b, 0)} unresolved (${[...unresolved.keys()].join('; ')})`,
        );
      }
      t.diagnostic(counts.join('\n'));
    },
  );
}

test(
  'our profiles: every download is verified (published SHA-256, or a signing key checked by fingerprint) and placed on the OSP line that fetches it',
  { timeout: 600_000 },
  () => {
    for (const file of files(OURS)) {
      const lines = readFileSync(file, 'utf8').split('\n');
      for (const { scenario, bom } of matrixBoms(file).slice(0, 2)) {
        for (const item of bom.items.filter((i) => i.kind === 'download')) {
          assert.ok(
            item.checksum !== undefined ||
              /^the checksum of /.test(item.purpose ?? '') ||
              item.purpose === 'a signing key',
            `${scenario}: ${item.name}`,
          );
          for (const l of item.locations) {
            assert.ok(l.profile !== undefined, `${scenario}: ${item.name} has no profile line`);
            assert.match(
              lines[l.profile.line - 1]!,
              /\bcurl\b/,
              `${scenario}: ${item.name} at ${file}:${l.profile.line}`,
            );
          }
        }
      }
    }
  },
);
