// kustomize's and kpt's marker for resources that configure the pipeline and are never applied.
import type { KrmObject } from './resourceList.ts';

export const LOCAL_CONFIG_ANNOTATION = 'config.kubernetes.io/local-config';

/** kustomize's rule: anything but "false" makes a resource local-config (never applied). */
export function isLocalConfig(o: KrmObject): boolean {
  const v = o.metadata?.annotations?.[LOCAL_CONFIG_ANNOTATION];
  return v !== undefined && v !== 'false';
}
