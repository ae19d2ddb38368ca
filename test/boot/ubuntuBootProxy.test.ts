// Boot test B: osp-ubuntu, dual-stack, every download and API call through an HTTP proxy, a containerd registry
// mirror with credentials and a host CA bundle that makes the node trust it, an image pulled through that mirror
// (test/boot/registryMirror.ts), kubelet settings from MachineDeployment annotations, and no SSH keys
// (test/boot/ubuntuScenario.ts).
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { bootScenario } from './ubuntuScenario.ts';
import { MIRROR_HOST, prepareRegistry, registryTests, REGISTRY_PASSWORD, REGISTRY_USER, type TestImage } from './registryMirror.ts';

const PROXY = 'http://127.0.0.1:3128';
const ANNOTATION = 'v1.kubelet-config.machine-controller.kubermatic.io/';
const dockerConfig = { auths: { [MIRROR_HOST]: { username: REGISTRY_USER, password: REGISTRY_PASSWORD } } };
let image: TestImage;

bootScenario({
  name: 'boot-b',
  ipFamily: 'IPv4+IPv6',
  // No SSH keys (#18): the cloud-config then has no ssh_authorized_keys, and cloud-init's ssh module must not fail.
  sshPublicKeys: [],
  // No 127.0.0.1 in no_proxy: the stand-ins are on loopback, and the proxy must carry the traffic to them.
  spec: {
    nodeHTTPProxy: PROXY,
    nodeNoProxy: '.svc,.cluster.local',
    nodeContainerdRegistryMirrors: [`docker.io=https://${MIRROR_HOST}`],
    nodeRegistryCredentialsSecret: 'kube-system/registry-credentials',
  },
  items: [{
    apiVersion: 'v1', kind: 'Secret', type: 'kubernetes.io/dockerconfigjson',
    metadata: { name: 'registry-credentials', namespace: 'kube-system', annotations: { 'config.kubernetes.io/local-config': 'true' } },
    data: { '.dockerconfigjson': Buffer.from(JSON.stringify(dockerConfig)).toString('base64') },
  }],
  // The registry CA reaches the node as the host CA bundle (setup adds it to the system's trust store).
  prepare: (dir) => {
    const registry = prepareRegistry(dir);
    image = registry.image;
    return { hostCABundle: registry.caCert };
  },
  tests: (dir) => registryTests(dir, () => image),
  annotations: { [`${ANNOTATION}MaxPods`]: '42', [`${ANNOTATION}ContainerLogMaxSize`]: '50Mi' },
  check: (pod) => {
    // The proxy carried the downloads (curl and apt) and the API calls (CONNECT).
    const proxied = pod.requests().filter((r) => r.server === 'proxy').map((r) => `${r.method} ${r.target}`);
    assert.ok(proxied.some((r) => /^GET http:\/\/127\.0\.0\.1:8080\/dl\.k8s\.io\/v1\.34\.3\/bin\/linux\/amd64\/kubelet$/.test(r)), proxied.join('\n'));
    assert.ok(proxied.some((r) => /^GET http:\/\/127\.0\.0\.1:8080\/docker\/.*containerd\.io_/.test(r)), 'apt fetched containerd.io through the proxy');
    assert.ok(proxied.includes('CONNECT 127.0.0.1:6443'));
    assert.match(pod.execOk('cat /etc/environment'), new RegExp(`^HTTPS_PROXY=${PROXY}$`, 'm'));
    assert.match(pod.execOk("tr '\\0' '\\n' </proc/$(systemctl show -p MainPID --value containerd.service)/environ"), new RegExp(`^HTTP_PROXY=${PROXY}$`, 'm'));
    // containerd: the mirror's hosts.toml, and the credentials in the configuration it loads.
    assert.match(pod.execOk('cat /etc/containerd/certs.d/docker.io/hosts.toml'), /\[host\."https:\/\/mirror\.registry\.test"\]/);
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
