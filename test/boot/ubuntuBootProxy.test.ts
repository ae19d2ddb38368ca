// Boot test B: osp-ubuntu, dual-stack, in a pod where only the HTTP proxy reaches the stand-ins (every direct
// connection to them is refused), a containerd registry mirror with credentials and a host CA bundle that makes
// the node trust it, an image pulled through that mirror (test/boot/registryMirror.ts), kubelet settings from
// MachineDeployment annotations, no SSH keys (test/boot/ubuntuScenario.ts), and a second node of the scenario that
// loses power at five points of its setup (test/boot/powerCuts.ts).
import assert from 'node:assert/strict';
import { lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { bootScenario, KUBELET } from './ubuntuScenario.ts';
import {
  MIRROR_HOST,
  prepareRegistry,
  registryTests,
  REGISTRY_PASSWORD,
  REGISTRY_USER,
  type TestImage,
} from './registryMirror.ts';

const PROXY = 'http://127.0.0.1:3128';
const NO_PROXY = '.svc,.cluster.local';
// Every proxy variable, both cases, as each process on the node must see it.
const PROXY_ENVIRONMENT = {
  HTTP_PROXY: PROXY,
  http_proxy: PROXY,
  HTTPS_PROXY: PROXY,
  https_proxy: PROXY,
  NO_PROXY,
  no_proxy: NO_PROXY,
};
const ANNOTATION = 'v1.kubelet-config.machine-controller.kubermatic.io/';
const dockerConfig = { auths: { [MIRROR_HOST]: { username: REGISTRY_USER, password: REGISTRY_PASSWORD } } };
let image: TestImage;
const KUBE_DIR = `opt/bin/kubernetes-v${KUBELET}`;

/** Whether `unit` is enabled for multi-user.target: the link itself (its absolute target resolves here, not in the node). */
function wants(root: string, unit: string): boolean {
  try {
    return lstatSync(join(root, 'etc/systemd/system/multi-user.target.wants', unit)).isSymbolicLink();
  } catch {
    return false;
  }
}

bootScenario({
  name: 'boot-b',
  ipFamily: 'IPv4+IPv6',
  // No SSH keys (#18): the cloud-config then has no ssh_authorized_keys, and cloud-init's ssh module must not fail.
  sshPublicKeys: [],
  // No 127.0.0.1 in no_proxy: the stand-ins are on loopback, and the proxy must carry the traffic to them.
  spec: {
    nodeHTTPProxy: PROXY,
    nodeNoProxy: NO_PROXY,
    nodeContainerdRegistryMirrors: [`docker.io=https://${MIRROR_HOST}`],
    nodeRegistryCredentialsSecret: 'kube-system/registry-credentials',
  },
  items: [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/dockerconfigjson',
      metadata: {
        name: 'registry-credentials',
        namespace: 'kube-system',
        annotations: { 'config.kubernetes.io/local-config': 'true' },
      },
      data: { '.dockerconfigjson': Buffer.from(JSON.stringify(dockerConfig)).toString('base64') },
    },
  ],
  // The registry CA reaches the node as the host CA bundle (setup adds it to the system's trust store).
  prepare: (dir) => {
    const registry = prepareRegistry(dir);
    image = registry.image;
    return { hostCABundle: registry.caCert };
  },
  tests: (dir) => registryTests(dir, () => image),
  annotations: { [`${ANNOTATION}MaxPods`]: '42', [`${ANNOTATION}ContainerLogMaxSize`]: '50Mi' },
  proxyOnly: true,
  // In the order setup reaches them; each check makes sure the cut is where it says.
  powerCuts: [
    {
      where:
        "in the bootstrap's hand-over, after cloud-init wrote the provisioning files, before setup.service is enabled",
      hold: 'systemctl enable setup.service',
      check: (root) =>
        !statSync(join(root, 'etc/systemd/system/setup.service'), { throwIfNoEntry: false })
          ? 'setup.service is not written yet'
          : wants(root, 'setup.service')
            ? 'setup.service is enabled already'
            : undefined,
    },
    {
      where: 'right after the proxy settings were merged into /etc/environment (setup applying the sysctls)',
      hold: 'sysctl --system',
      check: (root) =>
        !/^HTTPS_PROXY=/m.test(readFileSync(join(root, 'etc/environment'), 'utf8'))
          ? 'no proxy in /etc/environment yet'
          : /^Package: containerd\.io$/m.test(readFileSync(join(root, 'var/lib/dpkg/status'), 'utf8'))
            ? 'containerd.io is installed already'
            : undefined,
    },
    {
      where: 'while dpkg configures containerd.io (recorded as half-configured)',
      hold: 'dpkg containerd.io postinst: *',
      check: (root) => {
        const updates = join(root, 'var/lib/dpkg/updates');
        const journal = readdirSync(updates)
          .map((f) => readFileSync(join(updates, f), 'utf8'))
          .join('\n');
        return /^Package: containerd\.io\n(?:.+\n)*?Status: \S+ \S+ half-configured$/m.test(journal)
          ? undefined
          : `dpkg's journal does not hold containerd.io half-configured:\n${journal}`;
      },
    },
    {
      where: "in the middle of the kubelet's download",
      stall: `/dl.k8s.io/v${KUBELET}/bin/linux/amd64/kubelet`,
      check: (root) => {
        const partial = readdirSync(join(root, KUBE_DIR)).filter((f) => f.startsWith('kubelet') && f !== 'kubelet');
        return partial.some((f) => statSync(join(root, KUBE_DIR, f)).size > 0)
          ? undefined
          : `no partial download in /${KUBE_DIR}: ${partial.join(', ') || 'nothing'}`;
      },
    },
    {
      where: 'at the end of setup, as it enables the kubelet',
      hold: 'systemctl enable --now kubelet.service',
      check: (root) =>
        !wants(root, 'setup.service')
          ? 'setup.service is not enabled'
          : !statSync(join(root, 'etc/kubernetes/bootstrap-kubelet.conf'), { throwIfNoEntry: false })
            ? "the kubelet's bootstrap kubeconfig is not there yet"
            : undefined,
    },
  ],
  check: (pod) => {
    // Only the proxy reaches the stand-ins.
    const direct = pod.exec(`curl --noproxy '*' -sS -m 10 -o /dev/null http://127.0.0.1:8080/`);
    assert.equal(direct.status, 7, direct.stderr);
    assert.match(direct.stderr, /Failed to connect to 127\.0\.0\.1 port 8080/);
    // Every proxy variable, upper and lower case, in /etc/environment and in containerd's and the kubelet's
    // process environments (#28: a proxy.env without its last newline lost no_proxy on the way).
    const environments = {
      '/etc/environment': pod.execOk('cat /etc/environment'),
      containerd: pod.execOk("tr '\\0' '\\n' </proc/$(systemctl show -p MainPID --value containerd.service)/environ"),
      kubelet: pod.execOk("tr '\\0' '\\n' </proc/$(systemctl show -p MainPID --value kubelet.service)/environ"),
    };
    for (const [where, text] of Object.entries(environments)) {
      const seen = Object.fromEntries(
        Object.keys(PROXY_ENVIRONMENT).map((k) => [k, new RegExp(`^${k}=(.*)$`, 'm').exec(text)?.[1]]),
      );
      assert.deepEqual(seen, PROXY_ENVIRONMENT, where);
    }
    // The proxy carried the downloads (curl and apt) and the API calls (CONNECT).
    const proxied = pod
      .requests()
      .filter((r) => r.server === 'proxy')
      .map((r) => `${r.method} ${r.target}`);
    assert.ok(
      proxied.some((r) =>
        /^GET http:\/\/127\.0\.0\.1:8080\/dl\.k8s\.io\/v1\.34\.3\/bin\/linux\/amd64\/kubelet$/.test(r),
      ),
      proxied.join('\n'),
    );
    assert.ok(
      proxied.some((r) => /^GET http:\/\/127\.0\.0\.1:8080\/docker\/.*containerd\.io_/.test(r)),
      'apt fetched containerd.io through the proxy',
    );
    assert.ok(proxied.includes('CONNECT 127.0.0.1:6443'));
    // containerd: the mirror's hosts.toml, and the credentials in the configuration it loads.
    assert.match(
      pod.execOk('cat /etc/containerd/certs.d/docker.io/hosts.toml'),
      /\[host\."https:\/\/mirror\.registry\.test"\]/,
    );
    const dump = pod.execOk('containerd config dump');
    assert.match(dump, new RegExp(`username = ['"]${REGISTRY_USER}['"]`));
    assert.equal(pod.execOk("stat -c '%a' /etc/containerd/config.toml").trim(), '600');
    // The kubelet got the annotations' settings.
    const report = JSON.parse(pod.execOk('cat /run/kubelet-standin/report.json'));
    assert.equal(report.config.maxPods, 42);
    assert.equal(report.config.containerLogMaxSize, '50Mi');
    assert.deepEqual(parse(pod.execOk('cat /etc/kubernetes/kubelet.conf')).maxPods, 42);
    assert.ok(report.argv.includes('--node-ip=10.250.0.2,fd00:250::2'), report.argv.join(' '));
  },
});
