// kustomize 4.x never hands local-config resources (cluster-info, token Secrets, the state) to transformers;
// v5 does. Both mark every item with kustomize.config.k8s.io/id, so inputs from kustomize that hold no
// local-config resource at all are what kustomize 4 leaves: a missing cluster fact then says so.
import type { InputItem, KrmObject } from '../krm/resourceList.ts';

const KUSTOMIZE_ID = 'kustomize.config.k8s.io/id';

/** An item kustomize handed over (it marks each with its id). */
export function isFromKustomize(o: KrmObject): boolean {
  return o.metadata?.annotations?.[KUSTOMIZE_ID] !== undefined;
}

export function kustomize4Hint(items: readonly InputItem[]): string | undefined {
  const annotations = items.map((i) => i.object.metadata?.annotations ?? {});
  if (annotations.length === 0 || !annotations.every((a) => a[KUSTOMIZE_ID] !== undefined)) return undefined;
  if (
    annotations.some(
      (a) => a['config.kubernetes.io/local-config'] !== undefined && a['config.kubernetes.io/local-config'] !== 'false',
    )
  )
    return undefined;
  return (
    'the inputs come from kustomize and hold no local-config resource: kustomize 4.x drops local-config resources ' +
    '(cluster-info, token Secrets, the state) before transformers run; use kustomize v5 (kubectl kustomize, or ' +
    'standalone kustomize v5), or give the cluster facts in the config'
  );
}
