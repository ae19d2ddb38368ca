// One MachineDeployment -> the objects OSM would write for it: the OSC, the bootstrap and provisioning
// Secrets, the kubelet bootstrap kubeconfig Secret and, for `edge`, the script Secret.
import { bootstrapKubeconfig } from './bootstrapKubeconfig.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import type { OSCConfig, SecretType } from '../model/operatingSystemProfile.ts';
import { userDataFormatFor } from '../emit/userdata/formats/index.ts';
import { parseKubeletVersion } from './kubeletVersion.ts';
import { cloudProviderSettings } from './cloudProviderSettings.ts';
import { buildTemplateData } from './templateData.ts';
import { renderOperatingSystemConfigSpec } from './renderOperatingSystemConfig.ts';
import { pinClusterCA } from './pinClusterCA.ts';
import type { ProfileEntry } from '../model/profileEntry.ts';
import { rhSubscription } from './rhelSubscription.ts';
import { decodeOperatingSystemSpec } from '../machineDeployment/operatingSystemSpec.ts';
import {
  cloudConfigSecretName,
  cloudConfigSecretObject,
  kubeletBootstrapSecretName,
  kubeletBootstrapSecretObject,
  operatingSystemConfigObject,
  rotationAnnotations,
} from './generatedResources.ts';
import { edgeProviderScriptSecret } from './edgeProviderScript.ts';
import type { RenderRun } from './renderRun.ts';
import { checkUserDataSize } from './userDataSizeCheck.ts';
import { checkKubeletVersionSupport } from './kubeletVersionSupport.ts';
import { kubeletBootstrapToken } from '../cluster/kubeletBootstrapToken.ts';

export interface GeneratedObjects {
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

export function renderGeneratedObjects(md: MachineDeployment, osp: ProfileEntry, run: RenderRun): GeneratedObjects {
  const { config, facts } = run;
  const { token, secrets: tokenSecrets } = kubeletBootstrapToken(md.key, facts, config);
  run.secrets.add(token);
  run.secrets.add(token.slice(token.indexOf('.') + 1));
  // The previous window's token is a secret too (it can still join nodes).
  for (const s of tokenSecrets)
    run.secrets.add(Buffer.from(String((s.data as Record<string, string>)['token-secret']), 'base64').toString('utf8'));
  const kubeconfig = bootstrapKubeconfig(facts.cluster, token, config.overrideBootstrapKubeletAPIServer);
  const { serverURL } = run.templateValues;

  const kubelet = parseKubeletVersion(md.kubeletVersion);
  const findings: RenderFinding[] = [];
  // An overlay on an embedded profile keeps the embedded profile's Kubernetes range.
  const versionFinding = checkKubeletVersionSupport(
    kubelet,
    osp.overlay?.base.builtin
      ? { name: osp.overlay.base.name, builtin: true }
      : { name: osp.name, builtin: osp.origin.builtin === true },
  );
  if (versionFinding) findings.push(versionFinding);
  const cloud = cloudProviderSettings(md, kubelet, config.externalCloudProvider);
  const renderSpec = (getterToken: string) => {
    const data = buildTemplateData({
      ...run.templateValues,
      md,
      kubelet,
      cloud,
      bootstrapKubeconfig: kubeconfig,
      token: getterToken,
      provisioningSecretName: cloudConfigSecretName(md, 'provisioning'),
      bootstrapKubeconfigSecretName: kubeletBootstrapSecretName(md),
      ...(run.templateValuesError !== undefined ? { runValuesError: run.templateValuesError } : {}),
    });
    run.onTemplateData?.(md, osp, data);

    const rendered = renderOperatingSystemConfigSpec(osp.specFor(md.providerConfig.cloudProvider), md, {
      templates: run.templates,
      rendered: { bytes: 0 },
      containerRuntime: config.containerRuntime,
      data,
      registryHostFiles: run.containerRuntimeOutputs.registryHostFiles,
      ...(md.providerConfig.operatingSystem === 'rhel' ? { rhSubscription: rhSubscription(md, osp.annotations) } : {}),
    });
    return config.pinClusterCA ? pinClusterCA(rendered, serverURL, facts.apiServerCACert) : rendered;
  };
  const spec = renderSpec(facts.cloudInitGetterToken);

  const annotations = rotationAnnotations(md, osp.spec.version);
  const format = userDataFormatFor({
    provisioningUtility: spec.provisioningUtility,
    osName: spec.osName,
    ignitionSpec: config.ignitionSpec,
  });
  const userData = (cfg: OSCConfig, type: SecretType): string => {
    const input = {
      config: cfg,
      osName: spec.osName,
      cloud: md.cloud,
      secretType: type,
      distUpgradeOnBoot: distUpgradeOnBoot(md),
      machineDeploymentName: md.name,
      omitEmptySSHKeys: true,
    };
    return format.emit(input, run.ignitionUnits);
  };
  const bootstrapUserData = userData(spec.bootstrapConfig, 'bootstrap');
  const sizeFinding = checkUserDataSize(md.cloud, Buffer.byteLength(bootstrapUserData, 'utf8'));
  if (sizeFinding) findings.push({ ...sizeFinding, field: 'spec.template.spec.providerSpec.value.cloudProvider' });
  const objects: Record<string, unknown>[] = [
    operatingSystemConfigObject(md, config.namespace, annotations, spec),
    cloudConfigSecretObject(md, 'bootstrap', annotations, bootstrapUserData),
    cloudConfigSecretObject(md, 'provisioning', annotations, userData(spec.provisioningConfig, 'provisioning')),
    kubeletBootstrapSecretObject(md, kubeconfig),
  ];
  objects.push(...tokenSecrets);
  if (md.cloud?.edgeScriptSecret)
    objects.push(
      edgeProviderScriptSecret(
        md,
        facts.cloudInitGetterToken,
        serverURL,
        config.pinClusterCA ? facts.apiServerCACert : undefined,
      ),
    );
  return { objects, findings };
}

// OSM decodes the common {distUpgradeOnBoot} from every OS's spec, with encoding/json's key matching.
function distUpgradeOnBoot(md: MachineDeployment): boolean {
  return decodeOperatingSystemSpec('ubuntu', md.providerConfig.operatingSystemSpec).fields.DistUpgradeOnBoot === true;
}
