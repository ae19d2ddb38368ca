// Conformance with upstream OSM's reconciler goldens: every present golden OSC and Secret must come out
// byte-identical after the same YAML marshalling (sigs.k8s.io/yaml, emulated by test/support/goYaml.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { marshalLikeSigsYaml } from '../support/goYaml.ts';
import { findItem, runOn, withoutPathAnnotations } from '../support/runInProcess.ts';
import { lineDiff } from '../support/lineDiff.ts';
import { RECONCILER_CASES, goldenPath, hasGolden, resourceListFor } from './upstreamReconcilerCases.ts';

/** The golden objects carry `resourceVersion: "1"` from the fake client; ours have none. */
function asStored(obj: any): any {
  const copy = withoutPathAnnotations(obj);
  copy.metadata.resourceVersion = '1';
  return copy;
}

function decodedUserData(secretYaml: string): string {
  return Buffer.from(parse(secretYaml).data['cloud-config'], 'base64').toString('utf8');
}

for (const c of RECONCILER_CASES) {
  const present = [c.goldens.osc, c.goldens.bootstrap, c.goldens.provisioning].filter(hasGolden);
  if (present.length === 0) continue; // no expected output upstream for this case (see README)
  test(`reconciler golden: ${c.name}`, () => {
    const run = runOn(resourceListFor(c, { pinClusterCA: false }));
    assert.equal(run.exitCode, 0, `function failed: ${run.stderr}`);
    const oscName = `${c.mdName}-kube-system-config`;
    const checks: Array<[string, any, boolean]> = [
      [c.goldens.osc, findItem(run.items, 'OperatingSystemConfig', oscName), false],
      [c.goldens.bootstrap, findItem(run.items, 'Secret', `${c.mdName}-kube-system-bootstrap-config`), true],
      [c.goldens.provisioning, findItem(run.items, 'Secret', `${c.mdName}-kube-system-provisioning-config`), true],
    ];
    for (const [golden, obj, isSecret] of checks) {
      if (!hasGolden(golden)) continue;
      assert.ok(obj, `no object generated for ${golden}`);
      const expected = readFileSync(goldenPath(golden), 'utf8');
      const actual = marshalLikeSigsYaml(asStored(obj));
      if (actual !== expected) {
        const detail = isSecret
          ? lineDiff(decodedUserData(expected), decodedUserData(actual))
          : lineDiff(expected, actual);
        assert.fail(`${golden} differs:\n${detail}`);
      }
    }
  });
}
