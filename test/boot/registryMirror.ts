// The registry mirror of a boot scenario, exercised by a real image pull: a tiny image the test builds (one layer,
// its config, an OCI manifest; digests computed here) served by the registry stand-in (standins/registry.mjs) on
// the pod's loopback over TLS from a registry CA that the node trusts through the function's hostCABundle, and
// pulled on the booted node through containerd's CRI plugin (standins/cri-pull.mjs, the call `crictl pull` makes)
// by its docker.io name: so our config.toml (config_path, the registry credentials), our hosts.toml and the proxy
// environment are what decide where it comes from.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from '../support/paths.ts';
import { makeCA, REGISTRY_NAMES, SERVER_IMAGE, shOk, type Pod } from './bootNode.ts';

export const MIRROR_HOST = REGISTRY_NAMES[0]!;
const OTHER_HOST = REGISTRY_NAMES[1]!;
export const REGISTRY_USER = 'boot-user';
export const REGISTRY_PASSWORD = 'boot-registry-password';
const REPOSITORY = 'library/osm-krm-boot-test';
const TAG = '1.0';
const IMAGE = `docker.io/${REPOSITORY}:${TAG}`;

const digest = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

export interface TestImage {
  manifest: string;
  config: string;
  layer: string;
}

/**
 * Writes DIR/registry (TLS from a new registry CA, credentials, the image) and DIR/node-tools (the CRI client and
 * the function image's Node.js to run it). Returns the registry CA (for hostCABundle) and the image's digests.
 */
export function prepareRegistry(dir: string): { caCert: string; image: TestImage } {
  const root = join(dir, 'registry');
  mkdirSync(join(root, 'blobs'), { recursive: true });
  const ca = makeCA(dir, 'registry', REGISTRY_NAMES.map((n) => `DNS:${n}`).join(','));
  writeFileSync(join(root, 'tls.crt'), ca.cert);
  writeFileSync(join(root, 'tls.key'), ca.key);
  writeFileSync(join(root, 'credentials'), `${REGISTRY_USER}:${REGISTRY_PASSWORD}`);
  const blob = (b: Buffer) => {
    writeFileSync(join(root, 'blobs', digest(b).slice('sha256:'.length)), b);
    return { digest: digest(b), size: b.length };
  };
  // One layer: a file, as a tar made by tar with fixed owner and time.
  const content = join(dir, 'image-layer');
  mkdirSync(content);
  writeFileSync(join(content, 'osm-krm-boot-test.txt'), 'pulled through the registry mirror\n');
  const tar = Buffer.from(
    shOk('bash', [
      '-c',
      `tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C ${JSON.stringify(content)} -c osm-krm-boot-test.txt | base64 -w0`,
    ]),
    'base64',
  );
  const layer = blob(gzipSync(tar));
  const config = blob(
    Buffer.from(
      JSON.stringify({
        architecture: 'amd64',
        os: 'linux',
        config: {},
        rootfs: { type: 'layers', diff_ids: [digest(tar)] },
      }),
    ),
  );
  const manifestType = 'application/vnd.oci.image.manifest.v1+json';
  const manifest = blob(
    Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: manifestType,
        config: { mediaType: 'application/vnd.oci.image.config.v1+json', ...config },
        layers: [{ mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', ...layer }],
      }),
    ),
  );
  writeFileSync(
    join(root, 'index.json'),
    JSON.stringify({ [`${REPOSITORY}:${TAG}`]: { digest: manifest.digest, mediaType: manifestType } }),
  );
  const tools = join(dir, 'node-tools');
  mkdirSync(tools);
  copyFileSync(join(REPO_ROOT, 'test', 'boot', 'standins', 'cri-pull.mjs'), join(tools, 'cri-pull.mjs'));
  shOk('bash', [
    '-c',
    `podman run --rm --network none --entrypoint cat ${SERVER_IMAGE} /usr/local/bin/node > ${JSON.stringify(join(tools, 'node'))} && chmod 0755 ${JSON.stringify(join(tools, 'node'))}`,
  ]);
  return { caCert: ca.caCert, image: { manifest: manifest.digest, config: config.digest, layer: layer.digest } };
}

/** `crictl pull IMAGE` on the node: {status, stdout, stderr}. */
function criPull(pod: Pod, image: string) {
  return pod.exec(`timeout 120 /opt/osm-krm-test/node /opt/osm-krm-test/cri-pull.mjs ${image}`);
}

const registryRequests = (pod: Pod) => pod.requests().filter((r) => r.server === 'registry');

/** The tests: registered by the scenario after the boot test, in this order. */
export function registryTests(
  dir: () => string,
  image: () => TestImage,
): Array<{ name: string; run: (pod: Pod) => void }> {
  return [
    {
      name: 'containerd pulls a docker.io image from the registry mirror with the configured credentials (CRI pull)',
      run: (pod) => {
        // The node resolves the registry names as DNS would.
        pod.execOk(`echo '127.0.0.1 ${REGISTRY_NAMES.join(' ')}' >>/etc/hosts`);
        const r = criPull(pod, IMAGE);
        assert.equal(r.status, 0, r.stderr);
        // The CRI's image reference is the image ID: the digest of the config the test made.
        assert.equal(r.stdout.trim(), image().config);
        assert.match(pod.execOk(`ctr -n k8s.io images ls name==${IMAGE}`), new RegExp(`${image().manifest}`));
        // From the mirror (containerd marks a mirror request with ns=docker.io), with the credentials, after the
        // anonymous first request was challenged; manifest, config and layer served.
        const requests = registryRequests(pod);
        assert.ok(requests.length > 0, 'the mirror saw no request');
        assert.deepEqual(
          requests.filter((q) => q.host !== MIRROR_HOST),
          [],
        );
        assert.deepEqual(
          requests.filter((q) => q.status === 200 || q.auth !== 'none').filter((q) => q.auth !== 'right'),
          [],
          'only the configured credentials',
        );
        assert.ok(
          requests.some((q) => q.auth === 'none' && q.status === 401),
          JSON.stringify(requests),
        );
        const served = requests.filter((q) => q.status === 200).map((q) => q.path);
        assert.ok(
          served.every((p) => p.endsWith('?ns=docker.io')),
          served.join('\n'),
        );
        for (const d of [image().config, image().layer])
          assert.ok(
            served.includes(`/v2/${REPOSITORY}/blobs/${d}?ns=docker.io`),
            `${d} not served:\n${served.join('\n')}`,
          );
        assert.ok(
          served.some((p) => p.startsWith(`/v2/${REPOSITORY}/manifests/`)),
          served.join('\n'),
        );
        // Through the proxy containerd was given.
        assert.ok(
          pod
            .requests()
            .some((q) => q.server === 'proxy' && q.method === 'CONNECT' && q.target === `${MIRROR_HOST}:443`),
          'containerd bypassed the proxy',
        );
      },
    },
    {
      name: 'a wrong registry password, or a registry without a mirror entry, fails the pull',
      run: (pod) => {
        pod.execOk(`ctr -n k8s.io images rm ${IMAGE}`);
        const credentials = join(dir(), 'registry', 'credentials');
        let seen = registryRequests(pod).length;
        try {
          // The mirror now wants another password: the node's credentials are refused, and nothing is served.
          writeFileSync(credentials, `${REGISTRY_USER}:another-password`);
          const wrong = criPull(pod, IMAGE);
          assert.equal(wrong.status, 1, wrong.stdout);
          assert.match(
            wrong.stderr,
            /https:\/\/mirror\.registry\.test\/v2\/library\/osm-krm-boot-test\/manifests\/1\.0\?ns=docker\.io: 401 Unauthorized/,
          );
          const refused = registryRequests(pod).slice(seen);
          assert.ok(
            refused.some((q) => q.auth === 'wrong'),
            JSON.stringify(refused),
          );
          assert.deepEqual(
            refused.filter((q) => q.status !== 401),
            [],
          );
          assert.equal(pod.exec(`ctr -n k8s.io images ls -q name==${IMAGE}`).stdout.trim(), '');
        } finally {
          writeFileSync(credentials, `${REGISTRY_USER}:${REGISTRY_PASSWORD}`);
        }
        // Another registry, with no hosts.toml and no credentials of ours: contacted directly, never given the
        // mirror's credentials.
        seen = registryRequests(pod).length;
        const other = criPull(pod, `${OTHER_HOST}/${REPOSITORY}:${TAG}`);
        assert.equal(other.status, 1, other.stdout);
        assert.match(other.stderr, /no basic auth credentials/);
        const direct = registryRequests(pod).slice(seen);
        assert.ok(direct.length > 0, 'the pull did not reach the registry');
        assert.deepEqual(
          direct.filter(
            (q) => q.host !== OTHER_HOST || q.auth !== 'none' || q.status !== 401 || q.path.includes('ns='),
          ),
          [],
        );
      },
    },
  ];
}
