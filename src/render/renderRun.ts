// What every MachineDeployment of a run renders from, made once where the run is planned: the config and the
// cluster facts, the profiles and the previous render state, and what the run owns for its own life (parsed
// templates, the container runtime's files, the template values checked once, Ignition's unit checks). A run shares nothing with
// another run of the same process (`diff` and `lint` render many times in one).
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { ClusterFacts } from '../cluster/clusterFacts.ts';
import type { RhelSubscriptionValues } from '../cluster/rhelSubscriptionSecrets.ts';
import type { InputItem } from '../krm/resourceList.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import type { RenderState } from '../gitops/renderState.ts';
import type { ContainerRuntimeOptions } from '../emit/containerd/registryOptions.ts';
import { emitContainerdConfigToml } from '../emit/containerd/configToml.ts';
import { emitRegistryHostFiles } from '../emit/containerd/hostsToml.ts';
import { UnitContentChecks } from '../emit/userdata/ignition/transpile.ts';
import { ARTIFACT_DEFAULTS } from '../profiles/artifactDefaults.ts';
import { osmTemplateFuncs } from '../sprig/index.ts';
import type { ProfileEntry } from '../model/profileEntry.ts';
import { TemplateCache } from './templateCache.ts';
import type { SharedRunMeter } from '../template/index.ts';
import { checkRunTemplateValues, type RunTemplateValues } from './templateData.ts';

export interface RenderRun {
  config: OsmConfig;
  facts: ClusterFacts;
  /** The run's input items: an error in a profile's templates points at the profile's item. */
  items: readonly InputItem[];
  profiles: ReadonlyMap<string, ProfileEntry>;
  previousState: RenderState;
  /** Config-supplied RHEL subscription secrets by `<namespace>/<name>`. */
  rhelSubscriptions: ReadonlyMap<string, RhelSubscriptionValues>;
  containerRuntime: ContainerRuntimeOptions;
  /** Shared by every MachineDeployment of the run, so each OSP template is parsed once. */
  templates: TemplateCache;
  /** The same for every MachineDeployment: emitted once per run. */
  containerRuntimeOutputs: ContainerRuntimeOutputs;
  /** The template data's values that are the same for every MachineDeployment. */
  templateValues: RunTemplateValues;
  /** The error for the first of those values (the getter token included) that is unsafe in a script, found once. */
  templateValuesError?: Error;
  /** Ignition's unit checks, by unit text: every MachineDeployment of a profile has the same units. */
  ignitionUnits: UnitContentChecks;
  /** Told about every token this render embeds, so no error message can carry one. */
  secrets: { add(value: string | undefined): void };
  /** Told the template data of each MachineDeployment (`osm-krm render --explain`); unset for the function. */
  onTemplateData?(md: MachineDeployment, profile: ProfileEntry, data: unknown): void;
  /** The meter the run's templates charge together with other runs' (lint's matrix, diff's sides); its own otherwise. */
  templateBudget?: SharedRunMeter;
}

export interface ContainerRuntimeOutputs {
  configToml: string;
  registryHostFiles: ReadonlyArray<{ path: string; content: string }>;
}

export type RenderRunInputs = Pick<
  RenderRun,
  | 'config'
  | 'facts'
  | 'items'
  | 'profiles'
  | 'previousState'
  | 'rhelSubscriptions'
  | 'containerRuntime'
  | 'secrets'
  | 'onTemplateData'
  | 'templateBudget'
>;

/** The run; throws what emitting the container runtime's files throws (a config error). */
export function newRenderRun(inputs: RenderRunInputs): RenderRun {
  const { config, facts, containerRuntime } = inputs;
  const templates = new TemplateCache(osmTemplateFuncs, config.templateLimits, inputs.templateBudget);
  const containerRuntimeOutputs: ContainerRuntimeOutputs = {
    configToml: emitContainerdConfigToml(containerRuntime),
    registryHostFiles: emitRegistryHostFiles(containerRuntime),
  };
  const templateValues: RunTemplateValues = {
    clusterDNS: config.clusterDNS,
    kubernetesCACert: facts.kubernetesCACert,
    hostCACert: facts.hostCACert,
    containerRuntime: config.containerRuntime,
    initialTaints: config.initialTaints,
    nodeHTTPProxy: config.nodeHTTPProxy,
    nodeNoProxy: config.nodeNoProxy,
    pauseImage: containerRuntime.sandboxImage,
    kubeletFeatureGates: config.kubeletFeatureGates,
    containerRuntimeConfig: containerRuntimeOutputs.configToml,
    serverURL: config.overrideBootstrapKubeletAPIServer || facts.cluster.server,
    artifacts: { ...ARTIFACT_DEFAULTS, ...config.artifacts },
  };
  const templateValuesError = checkRunTemplateValues(templateValues, facts.cloudInitGetterToken);
  return {
    ...inputs,
    templates,
    containerRuntimeOutputs,
    templateValues,
    ignitionUnits: new UnitContentChecks(),
    ...(templateValuesError !== undefined ? { templateValuesError } : {}),
  };
}
