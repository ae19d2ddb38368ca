// spec.pinClusterCA: OSM's profiles fetch Secrets from the API server with `curl -k`; with pinning on (the default)
// those commands verify the server against the cluster CA. Proven with curl itself against local TLS servers:
// the pinned command fetches from the real API server and refuses an impostor that `curl -k` accepts. Off
// reproduces OSM (the conformance goldens run with it off).
import { before, after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { CLUSTER_CA_PATH, pinCurlCommands } from '../../src/render/pinClusterCA.ts';
import { findItem, runOn } from '../support/runInProcess.ts';
import { UPSTREAM_OSM } from '../support/paths.ts';
import { RECONCILER_CASES, resourceListFor } from '../conformance/upstreamReconcilerCases.ts';

const run = promisify(execFile);
const URL = 'https://10.0.0.1:6443';
const CACERT = `--cacert ${CLUSTER_CA_PATH}`;

describe('pinCurlCommands', () => {
  const cases: Array<[string, string, string]> = [
    [
      "upstream's fetch line",
      `curl -s -k -v --header 'Authorization: Bearer t'\t${URL}/api/v1/namespaces/cloud-init-settings/secrets/s | jq '.data["cloud-config"]' -r| base64 -d > /f`,
      `curl -s ${CACERT} -v --header 'Authorization: Bearer t'\t${URL}/api/v1/namespaces/cloud-init-settings/secrets/s | jq '.data["cloud-config"]' -r| base64 -d > /f`,
    ],
    ['--insecure', `curl --insecure -fsS "${URL}/api/v1/x"`, `curl ${CACERT} -fsS "${URL}/api/v1/x"`],
    ['k in a bundle', `curl -fsk ${URL}/x`, `curl ${CACERT} -fs ${URL}/x`],
    [
      'bundle ending in an option that takes the next word',
      `curl -skLo out ${URL}/x`,
      `curl ${CACERT} -sLo out ${URL}/x`,
    ],
    ['k as the argument of -H is not the flag', `curl -Hk ${URL}/x`, `curl -Hk ${URL}/x`],
    ['command substitution', `t=$(curl -sk ${URL}/x)`, `t=$(curl ${CACERT} -s ${URL}/x)`],
    [
      'after if and an assignment',
      `if HOME=/ curl -k ${URL}/x; then :; fi`,
      `if HOME=/ curl ${CACERT} ${URL}/x; then :; fi`,
    ],
    ['continuation lines', `curl \\\n  -k \\\n  ${URL}/x`, `curl \\\n  ${CACERT} \\\n  ${URL}/x`],
    [
      'only the command towards the API server',
      `curl -k ${URL}/x; curl -k https://mirror.example/y`,
      `curl ${CACERT} ${URL}/x; curl -k https://mirror.example/y`,
    ],
    ['another host', 'curl -k https://mirror.example/y', 'curl -k https://mirror.example/y'],
    ['a longer port is another server', `curl -k ${URL}0/x`, `curl -k ${URL}0/x`],
    ['curl as an argument', `echo curl -k ${URL}/x`, `echo curl -k ${URL}/x`],
    ['quoted -k is data', `curl --data '-k' ${URL}/x`, `curl --data '-k' ${URL}/x`],
    ['comment', `# curl -k ${URL}/x`, `# curl -k ${URL}/x`],
    ['after --', `curl -s -- -k ${URL}/x`, `curl -s -- -k ${URL}/x`],
  ];
  for (const [name, input, expected] of cases) {
    test(name, () => assert.equal(pinCurlCommands(input, URL).text, expected));
  }
  test('counts commands, not flags', () => {
    assert.equal(pinCurlCommands(`curl -k --insecure ${URL}/a\ncurl -k ${URL}/b\n`, URL).pinned, 2);
    assert.equal(pinCurlCommands(`curl -k ${URL}/a`, '').pinned, 0);
  });
});

function oscFiles(osc: any): Map<string, string> {
  const files = new Map<string, string>();
  for (const half of ['bootstrapConfig', 'provisioningConfig']) {
    for (const f of osc.spec[half].files ?? []) files.set(`${half} ${f.path}`, f.content.inline.data);
  }
  return files;
}

test('upstream reconciler cases: pinned output is OSM output with `-k` -> `--cacert` and the CA file added, nothing else', () => {
  let pinnedFiles = 0;
  for (const c of RECONCILER_CASES) {
    const off = runOn(resourceListFor(c, { pinClusterCA: false }));
    const on = runOn(resourceListFor(c, { pinClusterCA: true }));
    assert.equal(off.exitCode, 0, off.stderr);
    assert.equal(on.exitCode, 0, on.stderr);
    const name = `${c.mdName}-kube-system-config`;
    const offFiles = oscFiles(findItem(off.items, 'OperatingSystemConfig', name));
    const onFiles = oscFiles(findItem(on.items, 'OperatingSystemConfig', name));
    const clusterCA = Buffer.from(
      parse(readFileSync(join(UPSTREAM_OSM, '_extracted/pkg/controllers/osc/cluster-info-kubeconfig.yaml'), 'utf8'))
        .clusters[0].cluster['certificate-authority-data'],
      'base64',
    ).toString('utf8');
    for (const [key, text] of onFiles) {
      if (key.endsWith(` ${CLUSTER_CA_PATH}`)) continue;
      assert.equal(text.split(CACERT).join('-k'), offFiles.get(key), `${c.name}: ${key}`);
      if (text.includes(CACERT)) pinnedFiles++;
    }
    for (const half of ['bootstrapConfig', 'provisioningConfig']) {
      const fetches = [...onFiles].some(([k, t]) => k.startsWith(half) && t.includes(CACERT));
      assert.equal(
        onFiles.has(`${half} ${CLUSTER_CA_PATH}`),
        fetches,
        `${c.name}: CA file in ${half} exactly when it fetches`,
      );
      if (fetches) assert.equal(onFiles.get(`${half} ${CLUSTER_CA_PATH}`), clusterCA);
    }
    assert.equal(onFiles.size - offFiles.size, [...onFiles.keys()].filter((k) => k.endsWith(CLUSTER_CA_PATH)).length);
  }
  assert.ok(pinnedFiles > 0, 'no upstream case fetches from the API server');
});

const facts = parse(
  readFileSync(join(import.meta.dirname, '../../testdata/render/cases/_facts.yaml'), 'utf8'),
) as unknown[];

function upstreamProfile(name: string): any {
  const osp = parse(readFileSync(join(UPSTREAM_OSM, 'deploy/osps/default', `${name}.yaml`), 'utf8'));
  osp.metadata.namespace = 'kube-system';
  return osp;
}

function machineDeployment(osp: any, cloud: string): any {
  const os = osp.spec.osName;
  const osSpec = os === 'flatcar' ? { provisioningUtility: osp.spec.provisioningUtility ?? 'ignition' } : {};
  return {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: {
      name: `${osp.metadata.name}-${cloud}`,
      namespace: 'kube-system',
      annotations: { 'k8c.io/operating-system-profile': osp.metadata.name },
    },
    spec: {
      template: {
        spec: {
          providerSpec: {
            value: { cloudProvider: cloud, cloudProviderSpec: {}, operatingSystem: os, operatingSystemSpec: osSpec },
          },
          versions: { kubelet: '1.35.2' },
        },
      },
    },
  };
}

function render(items: unknown[], spec: Record<string, unknown>) {
  return runOn({
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [...items, ...facts],
    functionConfig: {
      apiVersion: 'osm-krm.dev/v1alpha1',
      kind: 'OperatingSystemManager',
      metadata: { name: 'osm' },
      spec: {
        externalCloudProvider: true,
        ...spec,
        cluster: { bootstrapToken: 'abcdef.0123456789abcdef', ...(spec.cluster as object) },
      },
    },
  });
}

test('every upstream default OSP: no curl towards the API server keeps -k, and each config that fetches writes the CA', () => {
  const server = 'https://api.fixture.example:6443';
  for (const file of readdirSync(join(UPSTREAM_OSM, 'deploy/osps/default')).sort()) {
    const osp = upstreamProfile(file.replace(/\.yaml$/, ''));
    const r = render([osp, machineDeployment(osp, osp.spec.supportedCloudProviders[0].name)], {});
    assert.equal(r.exitCode, 0, r.stderr);
    const osc = r.items.find((i: any) => i.kind === 'OperatingSystemConfig');
    let fetching = 0;
    for (const half of ['bootstrapConfig', 'provisioningConfig']) {
      const files: any[] = osc.spec[half].files ?? [];
      const lines = files
        .flatMap((f) => f.content.inline.data.split('\n'))
        .filter((l: string) => /\bcurl\b/.test(l) && l.includes(server));
      for (const l of lines) assert.doesNotMatch(l, /\s(-k|--insecure)\s/, `${file} ${half}: ${l}`);
      const pinned = lines.filter((l: string) => l.includes(CACERT)).length;
      fetching += pinned;
      const ca = files.find((f) => f.path === CLUSTER_CA_PATH);
      assert.equal(ca !== undefined, pinned > 0, `${file} ${half}`);
      if (ca)
        assert.equal(
          ca.content.inline.data,
          readFileSync(join(import.meta.dirname, '../../testdata/profiles/cases/test-ca.pem'), 'utf8'),
        );
    }
    assert.ok(fetching >= 1, `${file}: expected at least one fetch from the API server`);
  }
});

test('config: pin-cluster-ca in the flag ConfigMap; a CA that is not PEM is refused', () => {
  const osp = upstreamProfile('osp-ubuntu');
  const md = machineDeployment(osp, 'aws');
  const flagConfig = (pin: string) =>
    runOn(
      {
        apiVersion: 'config.kubernetes.io/v1',
        kind: 'ResourceList',
        items: [osp, md, ...facts],
        functionConfig: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'osm' },
          data: { 'external-cloud-provider': 'true', 'bootstrap-token-env': 'OSM_T', 'pin-cluster-ca': pin },
        },
      },
      {
        env: (n) => (n === 'OSM_T' ? 'abcdef.0123456789abcdef' : undefined),
        readFile: () => {
          throw new Error('no files');
        },
      },
    );
  const off = flagConfig('false');
  assert.equal(off.exitCode, 0, off.stderr);
  assert.ok(!JSON.stringify(off.items).includes(CLUSTER_CA_PATH));
  assert.ok(JSON.stringify(flagConfig('true').items).includes(CLUSTER_CA_PATH));
  assert.equal(flagConfig('maybe').exitCode, 1);

  // Any CA input must be PEM certificates, pinned or not (test/render/caInputs.test.ts has every input).
  const notPem = { caCert: 'not a certificate' };
  for (const pinClusterCA of [true, false]) {
    const refused = render([osp, md], { cluster: notPem, pinClusterCA });
    assert.equal(refused.exitCode, 1);
    assert.equal(refused.items.filter((i: any) => i.kind === 'OperatingSystemConfig').length, 0);
    const result = refused.results.find((r: any) => r.severity === 'error');
    assert.match(result.message, /spec\.cluster\.caCert is not PEM/);
    assert.equal(result.field.path, 'spec.cluster.caCert');
  }
});

// Real TLS: a CA and an API server certificate signed by it, and an impostor with its own CA for the same address.
describe('curl against local TLS servers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'osm-krm-pin-'));
  const token = 'getter-token-for-tls-test';
  const fetched = '#cloud-config\nfetched: true\n';
  const servers: Server[] = [];
  let apiServer = '';
  let impostor = '';

  function openssl(...args: string[]): void {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  }
  function certificateAuthority(name: string): void {
    openssl(
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      `${name}-ca.key`,
      '-out',
      `${name}-ca.crt`,
      '-days',
      '2',
      '-subj',
      `/CN=${name}-ca`,
    );
    openssl(
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
      '-subj',
      '/CN=kube-apiserver',
    );
    openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${name}-ca.crt`,
      '-CAkey',
      `${name}-ca.key`,
      '-CAcreateserial',
      '-out',
      `${name}.crt`,
      '-days',
      '2',
      '-extfile',
      'san.cnf',
    );
  }
  async function listen(name: string): Promise<string> {
    const server = createServer(
      { key: readFileSync(join(dir, `${name}.key`)), cert: readFileSync(join(dir, `${name}.crt`)) },
      (req, res) => {
        const ok =
          req.headers.authorization === `Bearer ${token}` &&
          req.url?.startsWith('/api/v1/namespaces/cloud-init-settings/secrets/');
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ok ? { data: { 'cloud-config': Buffer.from(fetched).toString('base64') } } : {}));
      },
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  before(async () => {
    writeFileSync(join(dir, 'san.cnf'), 'subjectAltName=IP:127.0.0.1\n');
    certificateAuthority('real');
    certificateAuthority('impostor');
    apiServer = await listen('real');
    impostor = await listen('impostor');
  });
  after(() => servers.forEach((s) => s.close()));

  function bootstrapConfig(pin: boolean): any {
    const osp = upstreamProfile('osp-ubuntu');
    const r = render([osp, machineDeployment(osp, 'aws')], {
      pinClusterCA: pin,
      cluster: {
        server: apiServer,
        caCert: readFileSync(join(dir, 'real-ca.crt'), 'utf8'),
        cloudInitGetterToken: token,
      },
    });
    assert.equal(r.exitCode, 0, r.stderr);
    const secret = r.items.find((i: any) => i.kind === 'Secret' && i.metadata.name.endsWith('-bootstrap-config'));
    return parse(Buffer.from(secret.data['cloud-config'], 'base64').toString('utf8'));
  }

  /** Runs the bootstrap script's fetch line as the node would, with the node's /etc under a scratch root. */
  async function fetchAs(userData: any, server: string): Promise<{ ok: boolean; content: string; stderr: string }> {
    const root = mkdtempSync(join(dir, 'node-'));
    const file = (path: string) => userData.write_files.find((f: any) => f.path === path);
    const decode = (f: any) => (f.encoding === 'b64' ? Buffer.from(f.content, 'base64').toString('utf8') : f.content);
    const ca = file(CLUSTER_CA_PATH);
    if (ca) {
      mkdirSync(join(root, 'etc/osm-krm'), { recursive: true });
      writeFileSync(join(root, CLUSTER_CA_PATH), decode(ca));
    }
    mkdirSync(join(root, 'etc/cloud/cloud.cfg.d'), { recursive: true });
    const line = decode(file('/opt/bin/bootstrap'))
      .split('\n')
      .find((l: string) => l.includes('/api/v1/namespaces/cloud-init-settings/secrets/'));
    assert.ok(line, 'no fetch line in /opt/bin/bootstrap');
    const command = line.trim().split(apiServer).join(server).split(' /etc/').join(` ${root}/etc/`);
    const out = line.match(/> (\/etc\/\S+)/)![1]!;
    try {
      const r = await run('bash', ['-o', 'pipefail', '-c', command]);
      return { ok: true, content: readFileSync(join(root, out), 'utf8'), stderr: r.stderr };
    } catch (e: any) {
      return { ok: false, content: readFileSync(join(root, out), 'utf8'), stderr: String(e.stderr) };
    }
  }

  test('pinned: the API server is verified and the config fetched', async () => {
    const r = await fetchAs(bootstrapConfig(true), apiServer);
    assert.ok(r.ok, r.stderr);
    assert.equal(r.content, fetched);
  });

  test('pinned: an impostor for the same address is refused', async () => {
    const r = await fetchAs(bootstrapConfig(true), impostor);
    assert.equal(r.ok, false);
    assert.match(r.stderr, /SSL certificate problem|unable to get local issuer certificate/);
    assert.equal(r.content, '');
  });

  test("OSM's `curl -k` (pinning off) hands the impostor's config to the node", async () => {
    const userData = bootstrapConfig(false);
    assert.equal(
      userData.write_files.some((f: any) => f.path === CLUSTER_CA_PATH),
      false,
    );
    const r = await fetchAs(userData, impostor);
    assert.ok(r.ok, r.stderr);
    assert.equal(r.content, fetched);
  });

  test('edge script: writes the CA and fetches with it; refuses the impostor', async () => {
    const osp = upstreamProfile('osp-ubuntu');
    const md = machineDeployment(osp, 'edge');
    const caCert = readFileSync(join(dir, 'real-ca.crt'), 'utf8');
    const script = (pin: boolean) => {
      const r = render([osp, md], {
        pinClusterCA: pin,
        cluster: { server: apiServer, caCert, cloudInitGetterToken: token },
      });
      assert.equal(r.exitCode, 0, r.stderr);
      return Buffer.from(
        findItem(r.items, 'Secret', `edge-provider-script-${md.metadata.name}-kube-system`).data[
          'fetch-bootstrap-script'
        ],
        'base64',
      ).toString('utf8');
    };
    assert.match(script(false), /^apt-get update -y\napt-get install jq -y\ncurl -s -k -v --header/);
    const pinned = script(true);
    execFileSync('shellcheck', ['--shell=bash', '--severity=warning', '-'], { input: pinned });
    const bin = mkdtempSync(join(dir, 'bin-'));
    for (const tool of ['apt-get', 'cloud-init', 'systemctl'])
      writeFileSync(join(bin, tool), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    for (const [server, expectOk] of [
      [apiServer, true],
      [impostor, false],
    ] as const) {
      const root = mkdtempSync(join(dir, 'edge-'));
      mkdirSync(join(root, 'etc/cloud/cloud.cfg.d'), { recursive: true });
      const text = pinned.split(apiServer).join(server).split('/etc/').join(`${root}/etc/`);
      const r = await run('bash', ['-e', '-o', 'pipefail', '-c', text], {
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      }).then(
        () => true,
        () => false,
      );
      assert.equal(r, expectOk, server);
      assert.equal(readFileSync(join(root, CLUSTER_CA_PATH), 'utf8'), caCert);
      const cfg = readdirSync(join(root, 'etc/cloud/cloud.cfg.d'))[0]!;
      assert.equal(readFileSync(join(root, 'etc/cloud/cloud.cfg.d', cfg), 'utf8'), expectOk ? fetched : '');
    }
  });
});
