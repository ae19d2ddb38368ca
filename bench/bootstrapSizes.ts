// Bootstrap user-data bytes per default profile and cloud: ours against upstream OSM's default OSP for the same
// MachineDeployment (kubelet 1.34, IPv4, one SSH key, a 2048-bit cluster CA and a service-account-sized getter
// token). Upstream's is rendered as OSM would (`pinClusterCA: false`). The bootstrap is what the cloud receives.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runFunction } from '../src/cli/runFunction.ts';
import { embeddedProfiles } from '../src/profiles/embeddedProfiles.ts';
import { checkUserDataSize } from '../src/render/userDataSizeCheck.ts';
import { cloudProvider } from '../src/model/cloudProviders.ts';

const ROOT = join(import.meta.dirname, '..');
const UPSTREAM_OSPS = join(ROOT, '..', 'shared', 'upstream', 'osm', 'deploy', 'osps', 'default');
const CA = readFileSync(join(ROOT, 'testdata/profiles/cases/test-ca.pem'), 'utf8');
// As long as a real RS256 service-account token.
const TOKEN = `eyJhbGciOiJSUzI1NiIsImtpZCI6ImJlbmNoIn0.${'e'.repeat(560)}.${'S'.repeat(342)}`;

export interface BootstrapSize {
  profile: string;
  cloud: string;
  ours: number;
  upstream?: number;
  /** The bootstrap user-data itself, ours and upstream's. */
  text: string;
  upstreamText?: string;
}

function machineDeployment(profile: string, os: string, utility: string, cloud: string): unknown {
  const osSpec =
    os === 'flatcar'
      ? { provisioningUtility: utility }
      : os === 'rhel'
        ? { rhelSubscriptionManagerUser: 'u', rhelSubscriptionManagerPassword: 'p', attachSubscription: true }
        : {};
  return {
    apiVersion: 'cluster.k8s.io/v1alpha1',
    kind: 'MachineDeployment',
    metadata: {
      name: `${profile}-${cloud}`,
      namespace: 'kube-system',
      annotations: { 'k8c.io/operating-system-profile': profile, 'machinedeployment.clusters.k8s.io/revision': '1' },
    },
    spec: {
      template: {
        spec: {
          providerSpec: {
            value: {
              sshPublicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOsmKrmProfileMatrixKey0000000000000000000 bench'],
              cloudProvider: cloud,
              cloudProviderSpec: {},
              operatingSystem: os,
              operatingSystemSpec: osSpec,
            },
          },
          versions: { kubelet: '1.34.3' },
        },
      },
    },
  };
}

/** Bootstrap user-data per MachineDeployment name. */
export function bootstrapTexts(items: unknown[], pinClusterCA: boolean): Map<string, string> {
  const kubeconfig = `apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster:\n    server: https://api.bench.example:6443\n    certificate-authority-data: ${Buffer.from(CA).toString('base64')}\n`;
  const local = { 'config.kubernetes.io/local-config': 'true' };
  const list = {
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items: [
      ...items,
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
        stringData: { token: TOKEN },
      },
    ],
    functionConfig: {
      apiVersion: 'osm-krm.dev/v1alpha1',
      kind: 'OperatingSystemManager',
      metadata: { name: 'osm' },
      spec: { clusterDNS: ['10.96.0.10'], pinClusterCA, cluster: { bootstrapToken: 'abcdef.0123456789abcdef' } },
    },
  };
  let stdout = '';
  const code = runFunction(stringify(list, { lineWidth: 0 }), {
    stdout: (s) => (stdout += s),
    stderr: () => {},
    env: {
      env: () => undefined,
      readFile: () => {
        throw new Error('no files');
      },
    },
  });
  if (code !== 0) throw new Error(`render failed: ${stdout.slice(-2000)}`);
  const texts = new Map<string, string>();
  for (const item of (parse(stdout) as { items: any[] }).items) {
    const name: string = item.metadata?.name ?? '';
    if (item.kind === 'Secret' && name.endsWith('-kube-system-bootstrap-config')) {
      texts.set(
        name.slice(0, -'-kube-system-bootstrap-config'.length),
        Buffer.from(item.data['cloud-config'], 'base64').toString('utf8'),
      );
    }
  }
  return texts;
}

export function bootstrapSizes(): BootstrapSize[] {
  const upstream = new Map<string, any>(
    readdirSync(UPSTREAM_OSPS).map((f) => {
      const osp = parse(readFileSync(join(UPSTREAM_OSPS, f), 'utf8'));
      osp.metadata.namespace = 'kube-system';
      return [osp.metadata.name, osp];
    }),
  );
  const pairs = embeddedProfiles().flatMap((p: any) =>
    p.spec.supportedCloudProviders.map((c: any) => ({ p, cloud: c.name as string })),
  );
  const mds = pairs.map(({ p, cloud }) =>
    machineDeployment(p.metadata.name, p.spec.osName, p.spec.provisioningUtility, cloud),
  );
  const ours = bootstrapTexts(mds, true);
  const upstreamPairs = pairs.filter(({ p, cloud }) =>
    upstream.get(p.metadata.name)?.spec.supportedCloudProviders.some((c: any) => c.name === cloud),
  );
  const theirs = bootstrapTexts(
    [
      ...upstream.values(),
      ...upstreamPairs.map(({ p, cloud }) =>
        machineDeployment(p.metadata.name, p.spec.osName, p.spec.provisioningUtility, cloud),
      ),
    ],
    false,
  );
  return pairs.map(({ p, cloud }) => {
    const key = `${p.metadata.name}-${cloud}`;
    const text = ours.get(key)!;
    const upstreamText = theirs.get(key);
    return {
      profile: p.metadata.name,
      cloud,
      ours: Buffer.byteLength(text),
      text,
      ...(upstreamText === undefined ? {} : { upstream: Buffer.byteLength(upstreamText), upstreamText }),
    };
  });
}

const CA_PATH = '/etc/kubernetes/pki/ca.crt';
const CACERT_ARGUMENT = ` --cacert ${CA_PATH}`;

/**
 * Bytes of a bootstrap of ours that are there only because it verifies the API server (OSM's profiles fetch with
 * `curl -k` and carry no CA): the CA's file entry and the `--cacert` argument, each as the user-data encodes it.
 */
export function clusterCACost(text: string): number {
  if (text.startsWith('{')) {
    // Ignition 2.3.0 JSON: the file object (with the comma that separates it) and the percent-encoded argument.
    const at = text.indexOf(`"path":"${CA_PATH}"`);
    if (at < 0) return 0;
    const start = text.lastIndexOf('{', at);
    const end = text.indexOf('}', text.indexOf('"mode":', at)) + 1;
    const entry = JSON.parse(text.slice(start, end));
    if (entry.path !== CA_PATH) throw new Error('unexpected Ignition layout around the CA file');
    return (
      end - start + 1 + count(text, encodeURIComponent(CACERT_ARGUMENT)) * encodeURIComponent(CACERT_ARGUMENT).length
    );
  }
  // cloud-config: the write_files entry, up to the next entry or top-level key.
  const match = new RegExp(`^- path: '${CA_PATH.replaceAll('.', '\\.')}'\n(?:(?: .*)?\n)*`, 'm').exec(text);
  return (match ? Buffer.byteLength(match[0]) : 0) + count(text, CACERT_ARGUMENT) * CACERT_ARGUMENT.length;
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

export function bootstrapSizeTable(rows: BootstrapSize[]): string[] {
  const out = [
    '| profile | cloud | ours (bytes) | of which the cluster CA | upstream (bytes) | ours − upstream | limit |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const limit = cloudProvider(r.cloud)?.userDataLimit;
    const finding = checkUserDataSize(cloudProvider(r.cloud), r.ours);
    out.push(
      `| ${r.profile} | ${r.cloud} | ${r.ours} | ${clusterCACost(r.text)} | ${r.upstream ?? '–'} | ${r.upstream === undefined ? '–' : r.ours - r.upstream} | ${limit ? `${limit.bytes}${limit.documented ? '' : ' (default)'}` : '–'}${finding ? ` ${finding.severity}` : ''} |`,
    );
  }
  return out;
}

if (process.argv[1] === import.meta.filename)
  for (const line of bootstrapSizeTable(bootstrapSizes())) console.log(line);
