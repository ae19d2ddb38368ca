// A two-stage boot exists to keep the user-data small: for every profile and cloud that both our embedded profiles
// and OSM's default OSPs render, our bootstrap is no larger than upstream's. Flatcar's Ignition is the one
// exception, by exactly what the cluster CA costs: OSM's profile fetches with `curl -k` and carries no CA, ours
// verifies the API server against it (docs/profiles.md, "What a bootstrap holds").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapSizes, clusterCACost } from '../../bench/bootstrapSizes.ts';

const rows = bootstrapSizes();
const both = rows.filter((r) => r.upstream !== undefined);

test("our bootstrap is no larger than upstream's for every profile and cloud both render (Flatcar Ignition: plus the CA)", () => {
  assert.ok(both.length >= 30, `only ${both.length} pairs rendered by both`);
  for (const r of both) {
    const upstreamHasCA = clusterCACost(r.upstreamText!) > 0;
    const allowance = r.profile === 'osp-flatcar' && !upstreamHasCA ? clusterCACost(r.text) : 0;
    assert.ok(
      r.ours <= r.upstream! + allowance,
      `${r.profile} on ${r.cloud}: ${r.ours} bytes, upstream's ${r.upstream} + ${allowance} for the CA`,
    );
  }
});

test("the CA cost is measured, not assumed: a CA entry and --cacert in every bootstrap of ours, none in upstream's Ignition", () => {
  for (const r of rows) {
    // The 2048-bit test CA: 1,180 bytes of PEM, more once indented (cloud-config) or percent-encoded (Ignition).
    const cost = clusterCACost(r.text);
    assert.ok(cost > 1180 && cost < 1500, `${r.profile} on ${r.cloud}: CA cost ${cost}`);
    // '-' stays literal in Ignition's percent-encoding.
    assert.ok(r.text.includes('--cacert'), `${r.profile} on ${r.cloud}: no --cacert`);
  }
  for (const r of both.filter((x) => x.profile === 'osp-flatcar'))
    assert.equal(clusterCACost(r.upstreamText!), 0, r.cloud);
});
