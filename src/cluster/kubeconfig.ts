// Kubeconfigs as OSM handles them: the cluster-info kubeconfig in, the kubelet bootstrap kubeconfig out
// (client-go clientcmd.Write layout: sorted keys, one cluster/context/user named "c").
import { parse, YAMLError } from 'yaml';
import { yamlErrorText } from '../krm/parseErrorMessage.ts';
import { ResourceError } from '../krm/results.ts';
import { createBlockYamlFastPath, type FastParse } from '../krm/blockYamlFastPath.ts';
import { isWellFormed } from '../krm/wellFormedUnicode.ts';
import { scalarText } from '../krm/yamlWriter.ts';

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
  if (
    !Array.isArray(clusters) ||
    clusters.length !== 1 ||
    typeof clusters[0]?.cluster !== 'object' ||
    clusters[0].cluster === null
  ) {
    throw new ResourceError('cluster-info kubeconfig must hold exactly one cluster', field);
  }
  const c = clusters[0].cluster as Record<string, unknown>;
  if (typeof c.server !== 'string' || c.server === '')
    throw new ResourceError('cluster-info kubeconfig has no cluster server', field);
  const out: KubeconfigCluster = { server: c.server, fields: { ...c } };
  if (typeof c['certificate-authority-data'] === 'string')
    out.certificateAuthorityData = c['certificate-authority-data'];
  return out;
}

// client-go's v1.Cluster (k8s.io/client-go/tools/clientcmd/api/v1): the fields clientcmd.Load reads, with their
// types. It reads keys case-sensitively and drops the others, so OSM's clientcmd.Write never writes them.
const CLUSTER_FIELDS: Readonly<Record<string, 'string' | 'boolean'>> = {
  server: 'string',
  'tls-server-name': 'string',
  'insecure-skip-tls-verify': 'boolean',
  'certificate-authority': 'string',
  'certificate-authority-data': 'string',
  'proxy-url': 'string',
  'disable-compression': 'boolean',
};

/**
 * The choke point of the kubeconfig YAML: every value goes through the YAML writer's scalar rule (plain when
 * every YAML 1.1 and 1.2 reader reads it back as that string, else double-quoted with everything a reader
 * would change escaped); invalid Unicode (a lone surrogate) is an error naming the field, never U+FFFD.
 */
function scalar(v: string | boolean, what: string): string {
  if (typeof v === 'string' && !isWellFormed(v))
    throw new ResourceError(
      `${what} is not valid Unicode (it holds a lone surrogate): the kubelet bootstrap kubeconfig cannot hold it`,
    );
  return scalarText(v);
}

/**
 * The kubelet bootstrap kubeconfig OSM writes: cluster renamed "c", token user "c", context "c". The cluster
 * keeps the fields client-go reads (CLUSTER_FIELDS, sorted as clientcmd.Write sorts them); one of the wrong
 * type is an error, as clientcmd.Load would fail on it.
 */
export function bootstrapKubeconfig(cluster: KubeconfigCluster, token: string, serverOverride: string): string {
  const fields: Record<string, unknown> = { ...cluster.fields };
  if (serverOverride !== '') fields.server = serverOverride;
  const clusterLines = Object.keys(fields)
    .filter((k) => Object.hasOwn(CLUSTER_FIELDS, k) && fields[k] !== undefined && fields[k] !== null)
    .sort()
    .map((k) => {
      const v = fields[k];
      const at =
        k === 'server' && serverOverride !== ''
          ? 'spec.overrideBootstrapKubeletAPIServer'
          : `the cluster's ${k} (kube-public/cluster-info's kubeconfig, or spec.cluster)`;
      if (typeof v !== CLUSTER_FIELDS[k])
        throw new ResourceError(`${at} must be a ${CLUSTER_FIELDS[k]}, as client-go reads it`);
      return `    ${k}: ${scalar(v as string | boolean, at)}\n`;
    })
    .join('');
  return (
    'apiVersion: v1\nclusters:\n- cluster:\n' +
    clusterLines +
    '  name: c\n' +
    'contexts:\n- context:\n    cluster: c\n    user: c\n  name: c\n' +
    'current-context: c\nkind: Config\npreferences: {}\n' +
    'users:\n- name: c\n  user:\n    token: ' +
    scalar(token, 'the kubelet bootstrap token') +
    '\n'
  );
}
