// The bill of materials proven complete by booting (issue #27): every request the booted node made to the
// stand-ins (test/boot/standins/servers.mjs logs each one: the artifact mirror, the API server) is an item of
// `osm-krm bom` for its MachineDeployment and architecture, and every item the bill says the node fetches was
// requested. Downloads and API calls match by URL (and method), a package repository by every request below
// its URL. What the stand-ins cannot see is said: packages from the node image's own sources (a local archive
// in the image, no network), the node's own services, and containerd's default sandbox image (the kubelet
// stand-in starts no pod).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';
import { shOk, type Pod } from './bootNode.ts';

interface Item {
  kind: string;
  name: string;
  method?: string;
  arch: string[];
  reasons?: string[];
}

const MIRROR = 'http://127.0.0.1:8080';
const API = 'https://127.0.0.1:6443';

/** The bill of materials of `md` for amd64 nodes, from the bundle, for the ResourceList the scenario rendered. */
export function billOfMaterials(resourceList: string, md: string, env: Record<string, string> = {}): Item[] {
  const out = JSON.parse(
    shOk(
      process.execPath,
      [join(REPO_ROOT, 'dist', 'osm-krm.cjs'), 'bom', resourceList, '--md', md, '--arch', 'amd64', '--format', 'json'],
      { env: { ...process.env, ...env } },
    ),
  );
  assert.equal(out.machineDeployments.length, 1);
  return out.machineDeployments[0].items;
}

/** The node's requests so far (URL and method) against the bill: nothing fetched that it lacks, nothing in it not fetched. */
export function assertRequestsMatchBill(pod: Pod, items: readonly Item[]): void {
  const requests = pod.requests().flatMap((r): Array<{ method: string; url: string }> => {
    if (r.server === 'mirror') return [{ method: r.method, url: `${MIRROR}${r.path}` }];
    if (r.server === 'api') return [{ method: r.method, url: `${API}${r.path}` }];
    return []; // the proxy forwards to the mirror and the API server, which log the request themselves
  });
  const exact = items.filter((i) => i.kind === 'download' || i.kind === 'api');
  const repositories = items.filter((i) => i.kind === 'repository');
  const matches = (i: Item, q: { method: string; url: string }) =>
    i.kind === 'repository'
      ? q.url.startsWith(`${i.name.replace(/\/$/, '')}/`)
      : q.url === i.name && q.method === (i.method ?? 'GET');
  const unbilled = requests.filter(
    (q) => !exact.some((i) => matches(i, q)) && !repositories.some((i) => matches(i, q)),
  );
  assert.deepEqual(unbilled, [], 'the node fetched what the bill of materials lacks');
  const unfetched = [...exact, ...repositories]
    .filter((i) => !requests.some((q) => matches(i, q)))
    .map((i) => `${i.kind} ${i.method ?? ''} ${i.name}`);
  assert.deepEqual(unfetched, [], 'the bill of materials lists what the node never fetched');
  // The one item the bill cannot resolve for this profile: the sandbox image containerd picks itself.
  assert.deepEqual(
    items.filter((i) => i.kind === 'unresolved').map((i) => i.name),
    ['image: containerd\'s default sandbox ("pause") image'],
  );
  assert.ok(exact.length >= 10 && repositories.length === 1, JSON.stringify(items.map((i) => i.name)));
}
