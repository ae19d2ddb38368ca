// Boot test scenarios: an osp-ubuntu node (Debian bookworm standing in for Ubuntu 24.04, see docs/profiles.md
// "Boot tests") booted from our bootstrap user-data with systemd in a podman pod, everything it downloads served on
// the pod's loopback by stand-ins (test/boot/bootNode.ts). Asserts the node ends up as a Kubernetes node would:
// files, containerd with our config, swap off, the kubelet started with our flags and config; a reboot changes
// nothing. Each *.test.ts in this directory runs one scenario (so two boot at once under the test runner).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';
import { tempDir } from '../gitops/support.ts';
import { machineDeployment } from '../profiles/support/profileRuns.ts';
import { assertRequestsMatchBill, billOfMaterials } from './bomCheck.ts';
import {
  BOOT_IMAGE,
  makeAptRepo,
  makeCA,
  makeSigningKey,
  publish,
  shOk,
  startPod,
  tarGz,
  waitFor,
  type Pod,
} from './bootNode.ts';
import { differences, nodeFiles, PowerCuts, type NodeFiles, type PowerCut } from './powerCuts.ts';

export const KUBELET = '1.34.3';
const CRICTL = 'v1.34.0';
const CNI = 'v1.9.1';
const DOCKER_FINGERPRINT = '9DC858229FC7DD38854AE2D88D81803C0EBFCD88';
const MIRROR = 'http://127.0.0.1:8080';
const SERVER = 'https://127.0.0.1:6443';
const GETTER_TOKEN = 'boot-test-getter-token.0123456789abcdef';
const BOOTSTRAP_TOKEN = 'abcdef.0123456789abcdef';
const BOOT_TIMEOUT = 900_000;

interface Rendered {
  bootstrap: Buffer;
  provisioning: any;
  osc: any;
  secrets: Record<string, Record<string, string>>;
  /** The kube-system bootstrap token Secrets the render emitted (the API server stand-in authenticates with them). */
  tokens: any[];
}

/**
 * osp-ubuntu as embedded, except Docker's key fingerprint: the test's repository is signed with a test key (nobody
 * but Docker can sign with Docker's). Everything else the node runs is the profile's.
 */
function testProfile(fingerprint: string): string {
  const text = readFileSync(join(REPO_ROOT, 'src', 'profiles', 'osp-ubuntu.yaml'), 'utf8');
  assert.equal(text.split(DOCKER_FINGERPRINT).length, 2, 'the fingerprint appears once');
  return text.replace(DOCKER_FINGERPRINT, fingerprint);
}

function render(
  dir: string,
  caCert: string,
  fingerprint: string,
  md: Record<string, unknown>,
  spec: Record<string, unknown> = {},
  extraItems: unknown[] = [],
  env: Record<string, string> = {},
): Rendered {
  const kubeconfig = `apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster:\n    server: ${SERVER}\n    certificate-authority-data: ${Buffer.from(caCert).toString('base64')}\n`;
  const local = { 'config.kubernetes.io/local-config': 'true' };
  const items = [
    parse(testProfile(fingerprint)),
    md,
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cluster-info', namespace: 'kube-public', annotations: local },
      data: { kubeconfig },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'cloud-init-getter-token', namespace: 'cloud-init-settings', annotations: local },
      stringData: { token: GETTER_TOKEN },
    },
    ...extraItems,
  ];
  const config = {
    apiVersion: 'osm-krm.dev/v1alpha1',
    kind: 'OperatingSystemManager',
    metadata: { name: 'osm' },
    spec: {
      clusterDNS: ['10.96.0.10'],
      cluster: { bootstrapToken: BOOTSTRAP_TOKEN },
      artifacts: {
        kubernetes: `${MIRROR}/dl.k8s.io`,
        cni: `${MIRROR}/cni`,
        crictl: `${MIRROR}/cri-tools`,
        containerdAptRepo: `${MIRROR}/docker`,
      },
      ...spec,
    },
  };
  const input = join(dir, 'resourcelist.json');
  writeFileSync(
    input,
    JSON.stringify({ apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items, functionConfig: config }),
  );
  const out = parse(
    shOk(process.execPath, [join(REPO_ROOT, 'dist', 'osm-krm.cjs')], {
      input: readFileSync(input),
      env: { ...process.env, ...env },
    }),
  );
  const errors = (out.results ?? []).filter((r: any) => r.severity === 'error');
  assert.deepEqual(errors, []);
  const secrets: Record<string, Record<string, string>> = {};
  for (const o of out.items)
    if (o.kind === 'Secret' && o.metadata.namespace === 'cloud-init-settings') secrets[o.metadata.name] = o.data;
  const mdName = (md as any).metadata.name;
  const bootstrap = out.items.find((o: any) => o.metadata.name === `${mdName}-kube-system-bootstrap-config`);
  const provisioning = out.items.find((o: any) => o.metadata.name === `${mdName}-kube-system-provisioning-config`);
  const osc = out.items.find((o: any) => o.kind === 'OperatingSystemConfig');
  const tokens = out.items.filter((o: any) => o.type === 'bootstrap.kubernetes.io/token');
  // A fixed token (the default config's) has no Secret in the output: the cluster would hold one without expiry.
  if (tokens.length === 0) {
    const [id, secret] = BOOTSTRAP_TOKEN.split('.');
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    tokens.push({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'bootstrap.kubernetes.io/token',
      metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
      data: { 'token-id': b64(id!), 'token-secret': b64(secret!), 'usage-bootstrap-authentication': b64('true') },
    });
  }
  return { bootstrap: Buffer.from(bootstrap.data['cloud-config'], 'base64'), provisioning, osc, secrets, tokens };
}

/** The files the mirror serves: kubelet (stand-in), kubeadm, kubectl, CNI plugins, crictl, and a signed containerd.io repository. */
function buildMirror(dir: string, gnupg: string): void {
  const mirror = join(dir, 'mirror');
  const kube = `dl.k8s.io/v${KUBELET}/bin/linux/amd64`;
  const kubelet = readFileSync(join(REPO_ROOT, 'test', 'boot', 'standins', 'kubelet.py'), 'utf8').replaceAll(
    '@VERSION@',
    KUBELET,
  );
  publish(mirror, `${kube}/kubelet`, kubelet);
  for (const tool of ['kubeadm', 'kubectl'])
    publish(mirror, `${kube}/${tool}`, `#!/bin/sh\necho "${tool} stand-in (osm-krm boot test) v${KUBELET}"\n`);
  // The CNI plugins: Debian's build of the same project (containernetworking-plugins, which podman brings).
  publish(mirror, `cni/${CNI}/cni-plugins-linux-amd64-${CNI}.tgz`, tarGz({}, '/usr/lib/cni'));
  publish(
    mirror,
    `cri-tools/${CRICTL}/crictl-${CRICTL}-linux-amd64.tar.gz`,
    tarGz({
      crictl: `#!/bin/sh\n[ "$1" = --version ] && echo "crictl version ${CRICTL}" && exit 0\necho "crictl stand-in (osm-krm boot test)" >&2\nexit 1\n`,
    }),
  );
  // containerd.io 2.2 (Debian's containerd 2.1 renamed, built into the boot image) in a repository like Docker's.
  const debs = join(dir, 'debs');
  mkdirSync(debs);
  shOk('bash', [
    '-c',
    `podman run --rm --network none --entrypoint cat ${BOOT_IMAGE} /usr/local/share/osm-krm-test/containerd.io_2.2.0_amd64.deb > ${debs}/containerd.io_2.2.0_amd64.deb`,
  ]);
  makeAptRepo(
    join(mirror, 'docker'),
    'bookworm',
    readdirSync(debs).map((f) => join(debs, f)),
    gnupg,
  );
}

export interface Scenario {
  /** The MachineDeployment's name; the pod is osm-krm-<name>-<pid>. */
  name: string;
  ipFamily: 'IPv4' | 'IPv4+IPv6';
  /** Extra functionConfig spec (proxy, registries...). */
  spec?: Record<string, unknown>;
  annotations?: Record<string, string>;
  /** The MachineDeployment's keys; default one key. [] boots a node whose cloud-config has no ssh_authorized_keys. */
  sshPublicKeys?: string[];
  /** Extra input items (e.g. a registry credentials Secret). */
  items?: unknown[];
  /** The profile the MachineDeployment names (default osp-ubuntu, the test's copy). */
  profile?: string;
  /** Called with the scenario's directory before rendering: more input items (e.g. an overlay with a CA made there). */
  prepareItems?: (dir: string) => unknown[];
  /** Also the impostor and wrong-checksum checks (one scenario is enough). */
  negativeChecks?: boolean;
  /** Scenario-specific checks on the booted node. */
  check?: (pod: Pod, files: Map<string, { mode: number; content: Buffer }>) => void;
  /** Called with the scenario's directory before rendering (before the pod starts): more functionConfig spec. */
  prepare?: (dir: string) => Record<string, unknown>;
  /** Environment of the render (e.g. SOURCE_DATE_EPOCH for a bootstrap token rotation). */
  renderEnv?: Record<string, string>;
  /** Scenario-specific tests on the booted node, run after the boot test, before the reboot. */
  tests?: (dir: () => string) => Array<{ name: string; run: (pod: Pod) => void }>;
  /** The pod refuses every direct connection to the stand-ins: only the proxy reaches them (bootNode.ts). */
  proxyOnly?: boolean;
  /**
   * Power cuts, in the order setup reaches them (powerCuts.ts): a second node of the scenario loses power at each
   * and boots again; the last boot must end up with every file as the clean node has it.
   */
  powerCuts?: PowerCut[];
}

/** A scenario made ready to boot: its directory (stand-ins' files, mirror), the NoCloud seed, what was rendered. */
export interface PreparedNode {
  dir: string;
  seed: string;
  rendered: Rendered;
  /** The Machine's name, which machine-controller puts in for <MACHINE_NAME>. */
  machine: string;
  /** What machine-controller hands the cloud: the Secret's bytes with the Machine's name put in for <MACHINE_NAME>. */
  userData: (secret: Buffer) => Buffer;
}

export function prepareNode(scenario: Scenario): PreparedNode {
  const machine = `${scenario.name}-7d9f4-x2kq`;
  const userData = (secret: Buffer) =>
    Buffer.from(secret.toString('utf8').replaceAll('<MACHINE_NAME>', machine), 'utf8');
  const dir = tempDir('osm-krm-boot-');
  const ca = makeCA(dir, 'cluster');
  const impostor = makeCA(dir, 'impostor');
  const gnupg = join(dir, 'gnupg');
  const key = makeSigningKey(gnupg);
  buildMirror(dir, gnupg);
  writeFileSync(join(dir, 'mirror', 'docker', 'gpg'), key.publicKey);
  const md = machineDeployment({
    profile: scenario.profile ?? 'osp-ubuntu',
    osName: 'ubuntu',
    cloud: 'baremetal',
    kubelet: KUBELET,
    ipFamily: scenario.ipFamily,
    name: scenario.name,
    annotations: scenario.annotations,
    ...(scenario.sshPublicKeys ? { sshPublicKeys: scenario.sshPublicKeys } : {}),
  });
  const rendered = render(
    dir,
    ca.caCert,
    key.fingerprint,
    md,
    { ...scenario.spec, ...scenario.prepare?.(dir) },
    [...(scenario.items ?? []), ...(scenario.prepareItems?.(dir) ?? [])],
    scenario.renderEnv,
  );
  writeFileSync(join(dir, 'api.crt'), ca.cert);
  writeFileSync(join(dir, 'api.key'), ca.key);
  writeFileSync(join(dir, 'impostor.crt'), impostor.cert);
  writeFileSync(join(dir, 'impostor.key'), impostor.key);
  writeFileSync(join(dir, 'token'), GETTER_TOKEN);
  writeFileSync(join(dir, 'secrets.json'), JSON.stringify(rendered.secrets));
  writeFileSync(join(dir, 'bootstrap-tokens.json'), JSON.stringify(rendered.tokens));
  shOk('chmod', ['-R', 'a+rX', dir]);
  const seed = join(dir, 'seed');
  mkdirSync(seed);
  writeFileSync(join(seed, 'meta-data'), `instance-id: ${machine}\nlocal-hostname: ${machine}\n`);
  writeFileSync(join(seed, 'user-data'), userData(rendered.bootstrap));
  return { dir, seed, rendered, machine, userData };
}

export function bootScenario(scenario: Scenario): void {
  let node: PreparedNode;
  let dir: string;
  let pod: Pod;
  let rendered: Rendered;
  let MACHINE: string;
  let userData: (secret: Buffer) => Buffer;

  // With power cuts: the node that loses power, and the clean node's files.
  let cuts: PowerCuts | undefined;
  let cutPod: Pod | undefined;
  let clean: NodeFiles | undefined;

  before(() => {
    node = prepareNode(scenario);
    ({ dir, rendered, machine: MACHINE, userData } = node);
    pod = startPod(scenario.name, dir, node.seed, { proxyOnly: scenario.proxyOnly });
    if (scenario.powerCuts !== undefined) {
      cuts = new PowerCuts(join(dir, 'control'), scenario.powerCuts);
      // Not osm-krm-<scenario>-…: a test process of another tree removes those it does not know as its own.
      cutPod = startPod(scenario.name, dir, node.seed, {
        name: `cut-${scenario.name}`,
        proxyOnly: scenario.proxyOnly,
        control: cuts.control,
      });
    }
  });

  after(() => {
    pod?.remove();
    cutPod?.remove();
  });

  /** The files a cloud-config writes (YAML 1.1, as cloud-init reads it): path -> {mode, content}. */
  function cloudConfigFiles(text: string): Map<string, { mode: number; content: Buffer }> {
    const doc = parse(text, { version: '1.1' }) as {
      write_files?: Array<{ path: string; permissions: string; encoding?: string; content?: string }>;
    };
    return new Map(
      (doc.write_files ?? []).map((f) => [
        f.path,
        {
          mode: parseInt(f.permissions, 8),
          content: Buffer.from(String(f.content ?? ''), f.encoding === 'b64' ? 'base64' : 'utf8'),
        },
      ]),
    );
  }

  /** Every file the node was given: the bootstrap user-data's, then the provisioning config's (which wins). */
  function deliveredFiles(): Map<string, { mode: number; content: Buffer }> {
    const provisioning = Buffer.from(rendered.provisioning.data['cloud-config'], 'base64').toString('utf8');
    return new Map([
      ...cloudConfigFiles(userData(rendered.bootstrap).toString('utf8')),
      ...cloudConfigFiles(provisioning),
    ]);
  }

  // Units a container cannot run, with why: the host kernel's settings are not the container's to change.
  const FAILS_IN_A_CONTAINER = new Set([
    'systemd-sysctl.service', // /proc/sys is read-only
    'run-rpc_pipefs.mount', // nfs-common's rpc_pipefs needs the host kernel's sunrpc mount
  ]);

  /**
   * Gives up early on a node that will not get there: setup failing again and again, or nothing left to run
   * (no job queued) without a kubelet.
   */
  function failFast(node: Pod): () => void {
    let idle = 0;
    return () => {
      const alive = node.exec('true');
      if (alive.status !== 0) throw new Error(`the node does not run: ${alive.stderr}`);
      const [state = '', jobs = '', failures = '', kubelet = ''] = node
        .exec(
          [
            'systemctl is-system-running',
            'systemctl list-jobs --no-legend --no-pager | wc -l',
            'journalctl -u setup.service --no-pager -o cat | grep -c "^supervise: attempt"',
            'systemctl is-active kubelet.service',
          ].join('; '),
        )
        .stdout.trim()
        .split('\n');
      const journal = () =>
        node.exec('journalctl -u bootstrap.service -u setup.service --no-pager -o cat | tail -n 40').stdout;
      if (Number(failures) >= 3) throw new Error(`setup failed ${failures} times; its journal ends:\n${journal()}`);
      idle = /^(running|degraded)$/.test(state) && jobs === '0' && kubelet !== 'active' ? idle + 1 : 0;
      if (idle >= 3)
        throw new Error(
          `nothing left to run and no kubelet (bootstrap ${node.exec('systemctl is-enabled bootstrap.service').stdout.trim()}, setup ${node.exec('systemctl is-enabled setup.service').stdout.trim()}); journal:\n${journal()}`,
        );
    };
  }

  function failedUnits(node: Pod): string[] {
    return node
      .execOk('systemctl list-units --failed --plain --no-legend --no-pager | cut -d" " -f1')
      .split('\n')
      .filter(Boolean)
      .filter((u) => !FAILS_IN_A_CONTAINER.has(u));
  }

  /**
   * The node as a booted Kubernetes node: checked after the first boot, after a reboot and after the boot that
   * follows a power cut. `onPoll` runs while the node boots.
   */
  function assertNodeIsUp(node: Pod = pod, onPoll?: () => void): void {
    waitFor(
      node,
      'systemctl is-active kubelet.service containerd.service; test -s /run/kubelet-standin/report.json && echo report',
      /^active\nactive\nreport\n?$/,
      BOOT_TIMEOUT,
      onPoll,
    );
    assert.deepEqual(failedUnits(node), []);
    // `degraded` only for the units listed above.
    assert.match(node.exec('systemctl is-system-running').stdout.trim(), /^(running|degraded)$/);
    // Swap off.
    assert.equal(node.execOk('tail -n +2 /proc/swaps'), '');
    // The kubelet, as systemd started it: our unit's flags (variables expanded) and our KubeletConfiguration.
    const report = JSON.parse(node.execOk('cat /run/kubelet-standin/report.json'));
    const files = deliveredFiles();
    const unit = files.get('/etc/systemd/system/kubelet.service')!.content.toString('utf8');
    const execStart = /^ExecStart=\/opt\/bin\/kubelet \\\n([\s\S]*?)\n\n/m
      .exec(unit)![1]!
      .split('\\\n')
      .map((l) => l.trim());
    const env = Object.fromEntries(
      node
        .execOk('cat /etc/kubernetes/nodeip.conf')
        .trim()
        .split('\n')
        .map((l) => l.split('=', 2) as [string, string]),
    );
    assert.equal(env.KUBELET_NODE_IP, scenario.ipFamily === 'IPv4' ? '10.250.0.2' : '10.250.0.2,fd00:250::2');
    assert.deepEqual(
      report.argv,
      execStart.map((a) => a.replace(/\$\{(\w+)\}/g, (_m, k: string) => env[k] ?? '')),
    );
    assert.deepEqual(report.config, parse(files.get('/etc/kubernetes/kubelet.conf')!.content.toString('utf8')));
    assert.equal(node.execOk('systemctl show -p MainPID --value kubelet.service').trim(), String(report.pid));
  }

  test('the node boots from the bootstrap user-data to a running kubelet', () => {
    // The node that loses power goes through its cuts meanwhile.
    assertNodeIsUp(pod, () => cutPod !== undefined && cuts?.advance(cutPod));
    if (cuts !== undefined) clean = nodeFiles(pod);
    // cloud-init received exactly the Secret's bytes (the Machine's name put in, as machine-controller does), and
    // no stage reported an error.
    const seeded = Buffer.from(pod.execOk('base64 -w0 /var/lib/cloud/seed/nocloud/user-data'), 'base64');
    assert.ok(seeded.equals(userData(rendered.bootstrap)));
    assert.equal(seeded.toString('utf8').replaceAll(MACHINE, '<MACHINE_NAME>'), rendered.bootstrap.toString('utf8'));
    assert.equal(pod.execOk('hostname').trim(), MACHINE);
    const status = JSON.parse(pod.execOk('cat /run/cloud-init/status.json')).v1;
    for (const [stage, s] of Object.entries<any>(status))
      if (s && typeof s === 'object' && 'errors' in s) assert.deepEqual(s.errors, [], `cloud-init ${stage}`);
    // Every file of the OSC, as the user-data delivered it: content, mode, owner root.
    const files = deliveredFiles();
    const oscPaths = [
      ...rendered.osc.spec.bootstrapConfig.files,
      ...rendered.osc.spec.provisioningConfig.files,
      ...(rendered.osc.spec.provisioningConfig.supportedContainerRuntimes ?? []).flatMap((r: any) => r.files),
    ].map((f: any) => f.path);
    assert.deepEqual(
      oscPaths.filter((p: string) => !files.has(p)),
      [],
    );
    for (const [path, f] of files) {
      const [mode, owner] = pod.execOk(`stat -c '%a %U:%G' ${path}`).trim().split(' ');
      assert.equal(parseInt(mode!, 8), f.mode, `${path} mode`);
      assert.equal(owner, 'root:root', `${path} owner`);
      const content = Buffer.from(pod.execOk(`base64 -w0 ${path}`), 'base64');
      assert.ok(content.equals(f.content), `${path} content differs`);
    }
    // gpg was not in the image (test/boot/image/build-root.sh): setup installed it from the image's archive before
    // install-container-runtime checked the Docker key's fingerprint with it.
    const setupInstall = pod
      .execOk('cat /var/log/apt/history.log')
      .split('\n\n')
      .find((e) => /^Commandline: apt-get .* install -y ca-certificates /m.test(e));
    assert.match(setupInstall ?? '', /^Install: .*\bgpg:amd64 \(/m);
    assert.equal(pod.exec('test -s /etc/apt/keyrings/docker.asc').status, 0);
    // The real containerd (2.x, from the test's Docker-like repository) running our config.
    assert.match(pod.execOk("dpkg-query -W -f='${Version}' containerd.io"), /^2\.2\.0-osmkrmtest/);
    assert.match(pod.execOk('ctr version'), /Server:\s+Version:\s+2\./);
    assert.match(pod.execOk('ctr plugins ls'), /io\.containerd\.grpc\.v1\s+cri\s+.*ok/);
    const dump = pod.execOk('containerd config dump');
    assert.match(dump, /^version = 3$/m);
    assert.match(dump, /config_path = '\/etc\/containerd\/certs\.d'|config_path = "\/etc\/containerd\/certs\.d"/);
    // The kubelet's TLS bootstrap: its bootstrap token accepted (test/boot/standins/servers.mjs checks it).
    const bootstrapRequests = pod.requests().filter((r) => r.server === 'api' && r.bearer === 'bootstrap-token');
    assert.deepEqual(
      bootstrapRequests.map((r) => [r.method, r.status]),
      [['POST', 201]],
    );
    // The API server stand-in saw both Secrets fetched with the getter token, never another token.
    const api = pod.requests().filter((r) => r.server === 'api' && r.bearer !== 'bootstrap-token');
    assert.ok(
      api.every((r) => r.bearer === 'getter' && r.status === 200),
      JSON.stringify(api),
    );
    assert.deepEqual([...new Set(api.map((r) => r.path.split('/').pop()))].sort(), [
      `${scenario.name}-kube-system-provisioning-config`,
      `kube-system-${scenario.name}-kubelet-bootstrap-config`,
    ]);
    scenario.check?.(pod, files);
    // Everything the node fetched, and nothing else, is in `osm-krm bom` (issue #27; test/boot/bomCheck.ts).
    assertRequestsMatchBill(pod, billOfMaterials(join(dir, 'resourcelist.json'), scenario.name, scenario.renderEnv));
  });

  if (scenario.negativeChecks) {
    test('the bootstrap refuses an API server whose certificate the cluster CA did not sign', () => {
      const r = pod.exec(
        `timeout 120 /opt/bin/osm-fetch-secret https://127.0.0.1:6444 ${scenario.name}-kube-system-provisioning-config cloud-config /tmp/impostor.cfg`,
      );
      assert.notEqual(r.status, 0);
      assert.match(
        r.stderr,
        /SSL certificate problem|certificate verify failed|unable to get local issuer certificate/,
      );
      assert.equal(pod.exec('test -e /tmp/impostor.cfg').status, 1);
      assert.equal(pod.requests().filter((x) => x.server === 'impostor').length, 0, 'the token went to the impostor');
    });

    test('a download that does not match its published checksum stops the install with a clear message', () => {
      const kubeadm = join(dir, 'mirror', 'dl.k8s.io', `v${KUBELET}`, 'bin', 'linux', 'amd64', 'kubeadm');
      const good = readFileSync(kubeadm);
      try {
        writeFileSync(kubeadm, '#!/bin/sh\necho tampered\n');
        pod.execOk(`rm /opt/bin/kubernetes-v${KUBELET}/kubeadm`);
        const r = pod.exec('/opt/bin/install-kubernetes-binaries');
        assert.equal(r.status, 1);
        assert.match(
          r.stderr,
          new RegExp(
            `install-kubernetes-binaries: ${MIRROR}/dl\\.k8s\\.io/v${KUBELET}/bin/linux/amd64/kubeadm failed to download or does not match [0-9a-f]{64}`,
          ),
        );
        assert.equal(pod.exec(`test -e /opt/bin/kubernetes-v${KUBELET}/kubeadm`).status, 1);
      } finally {
        writeFileSync(kubeadm, good);
      }
      pod.execOk('/opt/bin/install-kubernetes-binaries');
    });
  }

  for (const t of scenario.tests?.(() => dir) ?? []) test(t.name, () => t.run(pod));

  const powerCuts = scenario.powerCuts ?? [];
  powerCuts.forEach((cut, i) => {
    test(`power cut ${i + 1} of ${powerCuts.length}, ${cut.where}: the node gets there, past the cut before, and loses power`, () => {
      assert.ok(cutPod !== undefined && cuts !== undefined);
      cuts.cut(cutPod, i, BOOT_TIMEOUT, failFast(cutPod));
    });
  });
  if (powerCuts.length > 0) {
    test(`after ${powerCuts.length} power cuts, the next boot finishes, every file as on the clean node`, () => {
      assert.ok(cutPod !== undefined && clean !== undefined, 'no clean node to compare with');
      assertNodeIsUp(cutPod, failFast(cutPod));
      assert.deepEqual(differences(clean, cutPod), []);
      cutPod.remove();
      cutPod = undefined;
    });
  }

  test('a reboot changes nothing and fails nothing', () => {
    const before = pod.execOk(
      `cd / && sha256sum $(find /etc/kubernetes /etc/containerd /opt/bin /etc/systemd/system -xdev -type f | sort) 2>/dev/null`,
    );
    const apiCalls = pod.requests().filter((r) => r.server === 'api').length;
    shOk('podman', ['restart', '-t', '10', pod.node]);
    assertNodeIsUp();
    assert.equal(
      pod.execOk(
        `cd / && sha256sum $(find /etc/kubernetes /etc/containerd /opt/bin /etc/systemd/system -xdev -type f | sort) 2>/dev/null`,
      ),
      before,
    );
    // Neither bootstrap nor setup ran again: no new request to the API server.
    assert.equal(pod.requests().filter((r) => r.server === 'api').length, apiCalls);
    assert.equal(
      pod.execOk('systemctl is-enabled setup.service bootstrap.service || true').trim(),
      'disabled\ndisabled',
    );
  });
}
