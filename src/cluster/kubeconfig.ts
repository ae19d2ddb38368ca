// The cluster-info kubeconfig as OSM reads it (the kubelet bootstrap kubeconfig it writes from it:
// src/render/bootstrapKubeconfig.ts).
import { parse, YAMLError } from 'yaml';
import { yamlErrorText } from '../krm/parseErrorMessage.ts';
import { ResourceError } from '../krm/results.ts';
import { createBlockYamlFastPath, type FastParse } from '../codec/blockYamlFastPath.ts';

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
