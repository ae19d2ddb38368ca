// The input items osm-krm reads, each decoded by its kind in one place: an OperatingSystemProfile (a profile
// entry, profileEntry.ts), an OperatingSystemProfileOverlay (operatingSystemProfileOverlay.ts) and a
// MachineDeployment (src/machineDeployment/decodeMachineDeployment.ts). Metadata that is not valid Unicode is
// refused for all three.
import type { KrmObject } from '../krm/resourceList.ts';
import { ResourceError } from '../krm/results.ts';
import { isLocalConfig, LOCAL_CONFIG_ANNOTATION } from '../krm/localConfig.ts';
import { illFormedPath } from '../codec/wellFormedUnicode.ts';
import { MD_API_VERSION, type MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { decodeMachineDeployment } from '../machineDeployment/decodeMachineDeployment.ts';
import { OSM_API_VERSION } from './operatingSystemProfile.ts';
import { inputProfileEntry, type ProfileEntry } from './profileEntry.ts';
import { isOverlayObject, OVERLAY_KIND, parseOverlay, type Overlay } from './operatingSystemProfileOverlay.ts';

export type DecodedInputItem =
  | { kind: 'profile'; entry: ProfileEntry }
  | { kind: 'overlay'; overlay: Overlay }
  | { kind: 'machineDeployment'; md: MachineDeployment; annotated: boolean }
  | { kind: 'other' };

/**
 * Input item `index`, `o`, decoded; throws its first error. `namespace` is the config's (where a profile without
 * one is), `defaultAnnotation` the config's switch for OSM's default profile annotation.
 */
export function decodeInputItem(
  o: KrmObject,
  index: number,
  namespace: string,
  defaultAnnotation: boolean,
): DecodedInputItem {
  if (o.apiVersion === OSM_API_VERSION && o.kind === 'OperatingSystemProfile') {
    checkMetadataUnicode(o);
    return { kind: 'profile', entry: inputProfileEntry(o, index, namespace) };
  }
  if (isOverlayObject(o)) {
    checkMetadataUnicode(o);
    const overlay = parseOverlay(o, namespace);
    // No cluster knows this kind: every route must leave it out of what it applies.
    if (!isLocalConfig(o))
      throw new ResourceError(
        `an ${OVERLAY_KIND} is read by osm-krm only, and no cluster has its kind: annotate it ${LOCAL_CONFIG_ANNOTATION}: "true" so that kustomize, kpt, generate and hydrate leave it out of what is applied`,
        `metadata.annotations`,
      );
    return { kind: 'overlay', overlay };
  }
  if (o.apiVersion === MD_API_VERSION && o.kind === 'MachineDeployment') {
    checkMetadataUnicode(o);
    return { kind: 'machineDeployment', ...decodeMachineDeployment(o, defaultAnnotation) };
  }
  return { kind: 'other' };
}

/** An input whose metadata we copy or hash (an OSP, a MachineDeployment): invalid Unicode there is an error naming it. */
function checkMetadataUnicode(o: { metadata?: unknown }): void {
  const path = illFormedPath(o.metadata, 'metadata');
  if (path !== undefined)
    throw new ResourceError(
      `${path} is not valid Unicode (a lone surrogate, e.g. from a "\\ud800" escape): UTF-8 has no bytes for it, so it cannot be written or hashed as given`,
      path,
    );
}
