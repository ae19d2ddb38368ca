// Kubeconfigs as OSM handles them: the cluster-info kubeconfig in, the kubelet bootstrap kubeconfig out
// (client-go clientcmd.Write layout: sorted keys, one cluster/context/user named "c").
import { parse, YAMLError } from 'yaml';
import { yamlErrorText } from '../krm/parseErrorMessage.ts';
import { ResourceError } from '../krm/results.ts';
import { createBlockYamlFastPath, type FastParse } from '../krm/blockYamlFastPath.ts';

// Same options as `parse(text)`; the fast path saves the full parser's start-up cost on the common path.
let fastPath: ((text: string) => FastParse | undefined) | undefined;

export interface KubeconfigCluster {
  server: string;
  certificateAuthorityData?: string; // base64, as in the file
  fields: Record<string, unknown>; // every field of the cluster entry, kept as-is
}

export function readClusterInfoKubeconfig(text: string, field: string): KubeconfigCluster {
  let doc: any;
  try {
    fastPath ??= createBlockYamlFastPath({});
    doc = fastPath(text)?.root ?? parse(text);
  } catch (e) {
    // A kubeconfig may hold credentials: never the parser's message, which quotes the text at the error.
    const where = e instanceof YAMLError ? yamlErrorText(e, text) : 'unreadable';
    throw new ResourceError(`cluster-info kubeconfig is not valid YAML at ${where}`, field);
  }
  const clusters = doc?.clusters;
  if (!Array.isArray(clusters) || clusters.length !== 1 || typeof clusters[0]?.cluster !== 'object' || clusters[0].cluster === null) {
    throw new ResourceError('cluster-info kubeconfig must hold exactly one cluster', field);
  }
  const c = clusters[0].cluster as Record<string, unknown>;
  if (typeof c.server !== 'string' || c.server === '') throw new ResourceError('cluster-info kubeconfig has no cluster server', field);
  const out: KubeconfigCluster = { server: c.server, fields: { ...c } };
  if (typeof c['certificate-authority-data'] === 'string') out.certificateAuthorityData = c['certificate-authority-data'];
  return out;
}

const NEEDS_QUOTES = /^(?:|~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|[-+]?[0-9][0-9_.eE+-]*|\.[0-9].*|[-+]?\.(?:inf|Inf|INF|nan|NaN|NAN))$/;
const PLAIN_SAFE = /^[A-Za-z0-9_./+=@][A-Za-z0-9_./:+=@-]*$/;

function scalar(v: unknown): string {
  if (typeof v === 'boolean' || typeof v === 'number') return String(v);
  const s = String(v);
  if (PLAIN_SAFE.test(s) && !NEEDS_QUOTES.test(s) && !s.includes(': ')) return s;
  return JSON.stringify(s);
}

/** The kubelet bootstrap kubeconfig OSM writes: cluster renamed "c", token user "c", context "c". */
export function bootstrapKubeconfig(cluster: KubeconfigCluster, token: string, serverOverride: string): string {
  const fields: Record<string, unknown> = { ...cluster.fields };
  if (serverOverride !== '') fields.server = serverOverride;
  const clusterLines = Object.keys(fields)
    .filter((k) => fields[k] !== undefined && fields[k] !== null && typeof fields[k] !== 'object')
    .sort()
    .map((k) => `    ${k}: ${scalar(fields[k])}\n`)
    .join('');
  return (
    'apiVersion: v1\nclusters:\n- cluster:\n' + clusterLines + '  name: c\n' +
    'contexts:\n- context:\n    cluster: c\n    user: c\n  name: c\n' +
    'current-context: c\nkind: Config\npreferences: {}\n' +
    'users:\n- name: c\n  user:\n    token: ' + scalar(token) + '\n'
  );
}
