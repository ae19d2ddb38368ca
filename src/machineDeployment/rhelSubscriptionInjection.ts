// Config-supplied RHEL subscription secrets go into the MachineDeployment the cluster gets (machine-controller
// reads them from operatingSystemSpec to unregister a deleted machine) and into the one rendering sees, never
// into the user's file. The copy is a generated resource (osm-generated/<ns>/<md>/); its source is
// - replaced by it when the source has no file to be written back to (kustomize, plain stdin);
// - kept byte for byte when it has one (kpt writes every output item back to its file; generate and hydrate
//   read plain directories the same way), and must then be local-config so only the copy is ever applied.
import { ResourceError } from '../krm/results.ts';
import { fileOf } from '../krm/resultFor.ts';
import { RHEL_SUBSCRIPTION_SECRET_FIELDS } from '../config/operatingSystemManagerConfig.ts';
import type { RhelSubscriptionValues } from '../cluster/rhelSubscriptionSecrets.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { LOCAL_CONFIG_ANNOTATION, isLocalConfig } from '../krm/localConfig.ts';
import { clusterVisible, type MachineDeployment } from './machineDeployment.ts';
import { validateMachineDeploymentValues } from './validateValues.ts';
import { isSecretSpecKey } from './operatingSystemSpec.ts';

const OS_SPEC = 'spec.template.spec.providerSpec.value.operatingSystemSpec';

export interface InjectedMachineDeployment {
  /** What rendering sees: the MachineDeployment as it will be in the cluster. */
  md: MachineDeployment;
  /** The MachineDeployment to output (and apply). */
  object: Record<string, any>;
  /** The source stays in the output, unchanged (it is written back to its file). */
  keepSource: boolean;
}

export function injectRhelSubscription(
  source: KrmObject,
  md: MachineDeployment,
  values: RhelSubscriptionValues,
): InjectedMachineDeployment {
  const spec = (source.spec as any)?.template?.spec?.providerSpec?.value?.operatingSystemSpec;
  const raw: Record<string, unknown> = spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? spec : {};
  // encoding/json matches keys as Go folds them, so OSM and machine-controller would read any such spelling.
  const isSecretKey = isSecretSpecKey;
  const inline = Object.keys(raw).filter((k) => isSecretKey(k) && raw[k] !== '' && raw[k] !== null);
  if (inline.length > 0) {
    throw new ResourceError(
      `operatingSystemSpec.${inline.join(', operatingSystemSpec.')} given inline while spec.rhelSubscription supplies this MachineDeployment's subscription secrets: remove ${inline.length > 1 ? 'them' : 'it'} from the MachineDeployment, or give it an empty entry under spec.rhelSubscription.machineDeployments to keep the inline values`,
      `${OS_SPEC}.${inline[0]}`,
    );
  }
  const file = fileOf(source).file;
  const keepSource = file !== undefined;
  if (keepSource && !isLocalConfig(source)) {
    throw new ResourceError(
      `spec.rhelSubscription supplies this MachineDeployment's subscription secrets, so the MachineDeployment to apply is generated (under osm-generated/${md.namespace}/${md.name}/) and its source ${file.path} is kept without them: mark the source config.kubernetes.io/local-config: "true" so it is never applied`,
      `metadata.annotations.${LOCAL_CONFIG_ANNOTATION}`,
    );
  }
  const object = structuredClone(source) as Record<string, any>;
  const annotations: Record<string, string> = { ...(object.metadata?.annotations ?? {}) };
  delete annotations[LOCAL_CONFIG_ANNOTATION];
  // Replacing its source, the copy is the source mutated (kustomize keeps tracking it by its id annotations);
  // beside a kept source it is a resource of its own.
  object.metadata = { ...object.metadata, annotations: keepSource ? clusterVisible(annotations) : annotations };
  if (Object.keys(object.metadata.annotations).length === 0) delete object.metadata.annotations;
  const nextSpec: Record<string, unknown> = Object.fromEntries(Object.entries(raw).filter(([k]) => !isSecretKey(k)));
  for (const f of RHEL_SUBSCRIPTION_SECRET_FIELDS) if (values[f] !== undefined) nextSpec[f] = values[f];
  object.spec.template.spec.providerSpec.value.operatingSystemSpec = nextSpec;

  const mdAnnotations = { ...md.annotations };
  delete mdAnnotations[LOCAL_CONFIG_ANNOTATION];
  const injected: MachineDeployment = {
    ...md,
    annotations: mdAnnotations,
    providerConfig: { ...md.providerConfig, operatingSystemSpec: nextSpec },
  };
  try {
    validateMachineDeploymentValues(injected);
  } catch (e) {
    if (e instanceof ResourceError)
      throw new ResourceError(`${e.message} (the value comes from spec.rhelSubscription)`, e.fieldPath);
    throw e;
  }
  return { md: injected, object, keepSource };
}
