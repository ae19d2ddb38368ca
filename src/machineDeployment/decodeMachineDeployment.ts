// A MachineDeployment item as a run reads it, in one step: decoded (machineDeployment.ts), its values checked
// (validateValues.ts), the kubelet configuration its annotations give read (kubeletAnnotations.ts), and OSM's
// webhook default for the profile annotation applied when the config enables it. What a render asks of it later
// is decided here once, from values that cannot fail to decode: its cloud's descriptor and the profile it names.
import { ResourceError } from '../krm/results.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import {
  OSP_ANNOTATION,
  OSP_NAMESPACE_ANNOTATION,
  parseMachineDeployment,
  type MachineDeployment,
  type ProfileReference,
} from './machineDeployment.ts';
import { cloudProvider } from '../model/cloudProviders.ts';
import { profileKey } from '../model/profileEntry.ts';
import { validateMachineDeploymentValues } from './validateValues.ts';
import { defaultProfileName } from './defaultProfileAnnotation.ts';
import { kubeletSettingsFromAnnotations } from './kubeletAnnotations.ts';

/**
 * The MachineDeployment `o` holds, and whether it is ours to render (it names a profile, or gets OSM's default
 * with `defaultAnnotation`); throws the first error in it. `namespace`: the config's, where a profile named
 * without OSP_NAMESPACE_ANNOTATION is.
 */
export function decodeMachineDeployment(
  o: KrmObject,
  namespace: string,
  defaultAnnotation: boolean,
): { md: MachineDeployment; annotated: boolean } {
  const parsed = parseMachineDeployment(o);
  validateMachineDeploymentValues(parsed);
  const md: MachineDeployment = {
    ...parsed,
    kubelet: kubeletSettingsFromAnnotations(parsed.annotations),
    cloud: cloudProvider(parsed.providerConfig.cloudProvider),
    profile: profileReference(parsed.annotations, namespace),
  };
  if ((md.annotations[OSP_ANNOTATION] ?? '') !== '') return { md, annotated: true };
  if (!defaultAnnotation) return { md, annotated: false };
  const fallback = defaultProfileName(md);
  if (fallback === undefined) {
    throw new ResourceError(
      `failed to populate OSP annotation for machinedeployment with unsupported Operating System ${md.providerConfig.operatingSystem}`,
      'spec.template.spec.providerSpec.value.operatingSystem',
    );
  }
  // Like OSM's webhook, the default becomes part of the annotations (and so of the annotations hash).
  md.annotations = { ...md.annotations, [OSP_ANNOTATION]: fallback };
  md.profile = profileReference(md.annotations, namespace);
  return { md, annotated: true };
}

function profileReference(annotations: Record<string, string>, defaultNamespace: string): ProfileReference {
  const name = annotations[OSP_ANNOTATION] ?? '';
  const namespace = annotations[OSP_NAMESPACE_ANNOTATION] || defaultNamespace;
  return { namespace, name, key: profileKey(namespace, name) };
}
