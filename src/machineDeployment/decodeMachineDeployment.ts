// A MachineDeployment item as a run reads it, in one step: decoded (machineDeployment.ts), its values checked
// (validateValues.ts), the kubelet configuration its annotations give read (kubeletAnnotations.ts), and OSM's
// webhook default for the profile annotation applied when the config enables it.
import { ResourceError } from '../krm/results.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { OSP_ANNOTATION, parseMachineDeployment, type MachineDeployment } from './machineDeployment.ts';
import { validateMachineDeploymentValues } from './validateValues.ts';
import { defaultProfileName } from './defaultProfileAnnotation.ts';
import { kubeletSettingsFromAnnotations } from './kubeletAnnotations.ts';

/**
 * The MachineDeployment `o` holds, and whether it is ours to render (it names a profile, or gets OSM's default
 * with `defaultAnnotation`); throws the first error in it.
 */
export function decodeMachineDeployment(
  o: KrmObject,
  defaultAnnotation: boolean,
): { md: MachineDeployment; annotated: boolean } {
  const parsed = parseMachineDeployment(o);
  validateMachineDeploymentValues(parsed);
  const md: MachineDeployment = { ...parsed, kubelet: kubeletSettingsFromAnnotations(parsed.annotations) };
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
  return { md, annotated: true };
}
