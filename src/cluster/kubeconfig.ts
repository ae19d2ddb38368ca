// The cluster-info kubeconfig as OSM reads it (the kubelet bootstrap kubeconfig it writes from it:
// src/render/bootstrapKubeconfig.ts).
import { parse, YAMLError } from 'yaml';
import { yamlErrorText } from '../krm/parseErrorMessage.ts';
import { ResourceError } from '../krm/results.ts';
import { createBlockYamlFastPath } from '../codec/blockYamlFastPath.ts';
import { NodeLimitReached } from '../codec/nodeLimit.ts';
import { checkFullParserSize, InputLimitError, NodeBudget } from '../krm/inputBounds.ts';

// Same options as `parse(text)`; the fast path saves the full parser's start-up cost on the common path.
let fastPath: ReturnType<typeof createBlockYamlFastPath> | undefined;

const KUBECONFIG = 'the cluster-info kubeconfig';

export interface KubeconfigCluster {
  server: string;
  certificateAuthorityData?: string; // base64, as in the file
  fields: Record<string, unknown>; // every field of the cluster entry, kept as-is
}

export function readClusterInfoKubeconfig(text: string, field: string): KubeconfigCluster {
  let doc: any;
  // A value source like any input: its nodes are bounded before either parser composes them.
  const budget = new NodeBudget();
  try {
    fastPath ??= createBlockYamlFastPath({});
    doc = fastPath(text, budget.limit)?.root;
    if (doc === undefined) {
      checkFullParserSize(text, KUBECONFIG);
      budget.countText(text, KUBECONFIG);
      doc = parse(text);
    }
  } catch (e) {
    if (e instanceof NodeLimitReached)
      throw new ResourceError(budget.exceeded(text, e.offset, KUBECONFIG).message, field);
    if (e instanceof InputLimitError) throw new ResourceError(e.message, field);
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
