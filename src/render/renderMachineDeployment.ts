// One MachineDeployment -> the objects OSM would write for it: the OSC, the bootstrap and provisioning
// Secrets, the kubelet bootstrap kubeconfig Secret and, for `edge`, the script Secret.
import { ResourceError } from '../krm/results.ts';
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { ClusterFacts } from '../cluster/clusterFacts.ts';
import { bootstrapKubeconfig } from '../cluster/kubeconfig.ts';
import { machineDeploymentKey, type MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import type { TemplateCache } from './templateCache.ts';
import type { OSCConfig, SecretType } from '../model/operatingSystemProfile.ts';
import type { ContainerRuntimeOptions } from '../emit/containerd/registryOptions.ts';
import { emitContainerdConfigToml } from '../emit/containerd/configToml.ts';
import { emitRegistryHostFiles } from '../emit/containerd/hostsToml.ts';
import { userDataFormatFor } from '../emit/userdata/formats/index.ts';
import { parseKubeletVersion } from './kubeletVersion.ts';
import { cloudProviderSettings } from './cloudProviderSettings.ts';
import { buildTemplateData } from './templateData.ts';
import { renderOperatingSystemConfigSpec } from './renderOperatingSystemConfig.ts';
import { pinClusterCA } from './pinClusterCA.ts';
import type { ProfileEntry } from './selectOperatingSystemProfile.ts';
import { rhSubscription } from './rhelSubscription.ts';
import { decodeOperatingSystemSpec } from '../machineDeployment/operatingSystemSpec.ts';
import {
  cloudConfigSecretName, cloudConfigSecretObject, kubeletBootstrapSecretName, kubeletBootstrapSecretObject,
  operatingSystemConfigObject, rotationAnnotations,
} from './generatedResources.ts';
import { edgeProviderScriptSecret } from './edgeProviderScript.ts';
import { ARTIFACT_DEFAULTS } from '../profiles/artifactDefaults.ts';
import { checkUserDataSize } from './userDataSizeCheck.ts';
import { cloudProvider } from '../model/cloudProviders.ts';
import { checkKubeletVersionSupport } from './kubeletVersionSupport.ts';
import { bootstrapTokenSecret, deriveBootstrapToken } from '../cluster/derivedBootstrapToken.ts';

/** What an OSC holds instead of the cloud-init getter token in SOPS mode. */
export const GETTER_TOKEN_PLACEHOLDER = 'redacted-by-osm-krm-see-the-bootstrap-secret';

export interface RenderInputs {
  config: OsmConfig;
  facts: ClusterFacts;
  /** Shared by every MachineDeployment of the run, so each OSP template is parsed once. */
  templates: TemplateCache;
  containerRuntime: ContainerRuntimeOptions;
  /** The same for every MachineDeployment: emitted once per run (see `containerRuntimeOutputs`). */
  containerRuntimeOutputs: ContainerRuntimeOutputs;
  /** Told about every token this render embeds, so no error message can carry one. */
  secrets: { add(value: string | undefined): void };
  /** Told the template data of each MachineDeployment (`osm-krm render --explain`); unset for the function. */
  onTemplateData?(md: MachineDeployment, profile: ProfileEntry, data: unknown): void;
}

export interface ContainerRuntimeOutputs {
  configToml: string;
  registryHostFiles: ReadonlyArray<{ path: string; content: string }>;
}

export function containerRuntimeOutputs(options: ContainerRuntimeOptions): ContainerRuntimeOutputs {
  return { configToml: emitContainerdConfigToml(options), registryHostFiles: emitRegistryHostFiles(options) };
}

export interface RenderedMachineDeployment {
  objects: Record<string, unknown>[];
  /** Warnings and errors about what was rendered: kubelet version support, bootstrap user-data size. */
  findings: RenderFinding[];
}

export interface RenderFinding {
  severity: 'warning' | 'error';
  message: string;
  /** The MachineDeployment field the finding is about. */
  field: string;
}

export function renderMachineDeployment(md: MachineDeployment, osp: ProfileEntry, inputs: RenderInputs): RenderedMachineDeployment {
  const { config, facts } = inputs;
  const key = machineDeploymentKey(md);
  let token = facts.bootstrapTokenFor(key);
  let tokenSecret: Record<string, unknown> | undefined;
  if (token === undefined && facts.bootstrapTokenKey !== undefined) {
    const derived = deriveBootstrapToken(facts.bootstrapTokenKey, key);
    token = derived.token;
    tokenSecret = bootstrapTokenSecret(derived, key, config.cluster.bootstrapTokenExpiration);
  }
  inputs.secrets.add(token);
  if (token === undefined) {
    throw new ResourceError(
      `missing cluster fact: no kubelet bootstrap token for ${key}; set spec.cluster.bootstrapToken or spec.cluster.bootstrapTokenKey, or add a kube-system bootstrap token Secret labelled machinedeployment.k8s.io/name=${key}`,
      'metadata.name',
    );
  }
  const kubeconfig = bootstrapKubeconfig(facts.cluster, token, config.overrideBootstrapKubeletAPIServer);
  const serverURL = config.overrideBootstrapKubeletAPIServer || facts.cluster.server;

  const kubelet = parseKubeletVersion(md.kubeletVersion);
  const findings: RenderFinding[] = [];
  const versionFinding = checkKubeletVersionSupport(kubelet, { name: osp.name, builtin: osp.origin.builtin === true });
  if (versionFinding) findings.push(versionFinding);
  const cloud = cloudProviderSettings(md.providerConfig, kubelet, config.externalCloudProvider);
  const crOptions = inputs.containerRuntime;
  const renderSpec = (getterToken: string) => {
    const data = buildTemplateData({
      md,
      kubelet,
      cloud,
      clusterDNS: config.clusterDNS,
      kubernetesCACert: facts.kubernetesCACert,
      hostCACert: facts.hostCACert,
      containerRuntime: config.containerRuntime,
      initialTaints: config.initialTaints,
      nodeHTTPProxy: config.nodeHTTPProxy,
      nodeNoProxy: config.nodeNoProxy,
      pauseImage: crOptions.sandboxImage,
      kubeletFeatureGates: config.kubeletFeatureGates,
      containerRuntimeConfig: inputs.containerRuntimeOutputs.configToml,
      bootstrapKubeconfig: kubeconfig,
      token: getterToken,
      serverURL,
      provisioningSecretName: cloudConfigSecretName(md, 'provisioning'),
      bootstrapKubeconfigSecretName: kubeletBootstrapSecretName(md),
      artifacts: { ...ARTIFACT_DEFAULTS, ...config.artifacts },
    });
    if (getterToken === facts.cloudInitGetterToken) inputs.onTemplateData?.(md, osp, data);

    const rendered = renderOperatingSystemConfigSpec(osp.spec, md, {
      templates: inputs.templates,
      containerRuntime: config.containerRuntime,
      data,
      registryHostFiles: inputs.containerRuntimeOutputs.registryHostFiles,
      ...(md.providerConfig.operatingSystem === 'rhel' ? { rhSubscription: rhSubscription(md, osp.annotations) } : {}),
    });
    return config.pinClusterCA ? pinClusterCA(rendered, serverURL, facts.apiServerCACert) : rendered;
  };
  const spec = renderSpec(facts.cloudInitGetterToken);
  // With SOPS (hydrate) the Secrets are encrypted but the OSC cannot be (Flux decrypts only Secrets): its
  // files are rendered with a placeholder for the getter token. Nothing reads an OSC in a GitOps setup.
  const oscSpec = config.sops === undefined ? spec : renderSpec(GETTER_TOKEN_PLACEHOLDER);

  const annotations = rotationAnnotations(md, osp.spec.version);
  const format = userDataFormatFor({ provisioningUtility: spec.provisioningUtility, osName: spec.osName, ignitionSpec: config.ignitionSpec });
  const userData = (cfg: OSCConfig, type: SecretType): string => {
    const input = {
      config: cfg,
      osName: spec.osName,
      cloudProviderName: spec.cloudProvider.name,
      secretType: type,
      distUpgradeOnBoot: distUpgradeOnBoot(md),
      machineDeploymentName: md.name,
      omitEmptySSHKeys: true,
    };
    return format.emit(input);
  };
  const bootstrapUserData = userData(spec.bootstrapConfig, 'bootstrap');
  const sizeFinding = checkUserDataSize(spec.cloudProvider.name, Buffer.byteLength(bootstrapUserData, 'utf8'));
  if (sizeFinding) findings.push({ ...sizeFinding, field: 'spec.template.spec.providerSpec.value.cloudProvider' });
  const objects: Record<string, unknown>[] = [
    operatingSystemConfigObject(md, config.namespace, annotations, oscSpec),
    cloudConfigSecretObject(md, 'bootstrap', annotations, bootstrapUserData),
    cloudConfigSecretObject(md, 'provisioning', annotations, userData(spec.provisioningConfig, 'provisioning')),
    kubeletBootstrapSecretObject(md, kubeconfig),
  ];
  if (tokenSecret !== undefined) objects.push(tokenSecret);
  if (cloudProvider(spec.cloudProvider.name)?.edgeScriptSecret) objects.push(edgeProviderScriptSecret(md, facts.cloudInitGetterToken, serverURL, config.pinClusterCA ? facts.apiServerCACert : undefined));
  return { objects, findings };
}

// OSM decodes the common {distUpgradeOnBoot} from every OS's spec, with encoding/json's key matching.
function distUpgradeOnBoot(md: MachineDeployment): boolean {
  return decodeOperatingSystemSpec('ubuntu', md.providerConfig.operatingSystemSpec).fields.DistUpgradeOnBoot === true;
}
