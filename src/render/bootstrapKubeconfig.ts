// The kubelet bootstrap kubeconfig OSM writes into each MachineDeployment's kubeconfig Secret, from the cluster
// the inputs name (src/cluster/kubeconfig.ts) and the MachineDeployment's token: client-go clientcmd.Write's
// layout, sorted keys, one cluster/context/user named "c".
import { ResourceError } from '../krm/results.ts';
import { isWellFormed } from '../codec/wellFormedUnicode.ts';
import { scalarText } from '../codec/yamlWriter.ts';
import type { KubeconfigCluster } from '../cluster/kubeconfig.ts';

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
