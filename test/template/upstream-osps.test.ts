// Every template of upstream's default OSPs (files and named templates, bootstrap and provisioning,
// including the containerd runtime's) renders exactly as Go does, OSM's way (named templates first,
// their output re-parsed as define blocks), for realistic template data in many variants.
//
// The first test checks the test data itself: with upstream's test inputs, Go's rendering reproduces
// upstream's golden OSCs file for file, so the data and the two-phase rendering are OSM's.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMismatch } from './harness.ts';
import { dataVariants, goldenCases, goldenFiles } from './osp/osmTemplateData.ts';
import { loadOspFiles, ospTemplates } from './osp/ospTemplates.ts';
import { compareJobs, renderWithGo, type Job } from './osp/renderOsp.ts';
import { ourEngine } from './ourEngine.ts';

const osps = loadOspFiles();

test('all six default OSPs are found', () => {
  assert.deepEqual(osps.map((o) => o.name).sort(), [
    'osp-amzn2',
    'osp-flatcar',
    'osp-flatcar-cloud-init',
    'osp-rhel',
    'osp-rockylinux',
    'osp-ubuntu',
  ]);
});

for (const g of goldenCases()) {
  test(`with upstream's test inputs, Go and our engine reproduce ${g.golden}`, async () => {
    const osp = osps.find((o) => o.name === g.osp);
    assert.ok(osp, g.osp);
    const jobs: Job[] = ospTemplates(osp).map((ct) => ({ label: g.golden, ct, data: g.data }));
    const go = await renderWithGo(jobs);
    const goFiles = jobs.flatMap((j, i) => j.ct.files.map((f, k) => ({ path: f.path, ...go.files[i]![k]! })));
    // hosts.toml files are appended by OSM itself, not rendered from the OSP.
    const want = goldenFiles(g.golden).filter((f) => !f.path.startsWith('/etc/containerd/certs.d/'));
    assert.deepEqual(
      goFiles.map((f) => f.path),
      want.map((f) => f.path),
    );
    want.forEach((w, i) => {
      assert.equal(goFiles[i]!.error, null, `${w.path}: Go failed`);
      assert.equal(
        goFiles[i]!.output,
        w.data,
        `${w.path}: the Go oracle with this test data does not reproduce the golden`,
      );
    });
    const { mismatches } = await compareJobs(jobs, ourEngine);
    if (mismatches.length > 0) assert.fail(mismatches.map((m) => `[${m.label}]\n${formatMismatch(m)}`).join('\n\n'));
  });
}

test('every default OSP template renders as in Go, for every data variant', async (t) => {
  const variants = dataVariants();
  const jobs: Job[] = osps.flatMap((o) =>
    ospTemplates(o).flatMap((ct) => variants.map((v) => ({ label: v.label, ct, data: v.data }))),
  );
  const { mismatches, total, goErrors } = await compareJobs(jobs, ourEngine);
  t.diagnostic(`${jobs.length} OSP configs × variants, ${total} template renders compared`);
  assert.ok(total > 1000, `only ${total} renders`);
  assert.deepEqual(goErrors, [], 'the default OSPs should render without errors in Go');
  if (mismatches.length > 0) {
    // One line per failing (template, variant) would be long; show each distinct failure once.
    const seen = new Set<string>();
    const shown = mismatches.filter((m) => {
      const key = `${m.kase.name}\0${m.reason}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    assert.fail(
      `${mismatches.length} of ${total} renders differ from Go (${shown.length} distinct):\n\n` +
        shown.map((m) => `[${m.label}]\n${formatMismatch(m)}`).join('\n\n'),
    );
  }
});
