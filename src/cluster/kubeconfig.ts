// The cluster-info kubeconfig as OSM reads it (the kubelet bootstrap kubeconfig it writes from it:
// src/render/bootstrapKubeconfig.ts), read as every YAML of the inputs is (src/krm/inputYaml.ts).
import { InputLimitError } from '../krm/inputBounds.ts';
import { MalformedYamlError, readYamlInsideValue } from '../krm/inputYaml.ts';
import { ResourceError } from '../krm/results.ts';

export interface KubeconfigCluster {
  server: string;
  certificateAuthorityData?: string; // base64, as in the file
  fields: Record<string, unknown>; // every field of the cluster entry, kept as-is
}

/** Bounds of its own, a seventy-fifth of a run's: kube-public/cluster-info's kubeconfig holds a few dozen nodes. */
const KUBECONFIG_BOUNDS = { nodes: 20_000, layout: 40_000, scope: 'in a kubeconfig' };

export function readClusterInfoKubeconfig(text: string, field: string): KubeconfigCluster {
  let doc: any;
  try {
    doc = readYamlInsideValue(text, 'the cluster-info kubeconfig', KUBECONFIG_BOUNDS);
  } catch (e) {
    // A kubeconfig may hold credentials: the reader's messages name a place, never the text.
    if (e instanceof MalformedYamlError)
      throw new ResourceError(`cluster-info kubeconfig is not valid YAML${e.where}`, field);
    if (e instanceof InputLimitError) throw new ResourceError(e.message, field);
    throw e;
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
