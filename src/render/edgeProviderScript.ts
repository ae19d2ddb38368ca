// The `edge` provider's hand-run bootstrap script Secret (OSM: edge-provider-script-<md>-<ns>).
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { CLOUD_INIT_SETTINGS_NAMESPACE, cloudConfigSecretName } from './generatedResources.ts';
import { CLUSTER_CA_PATH } from './pinClusterCA.ts';

/** With `pinnedCA`, the script writes that CA first and curl verifies the API server with it instead of `-k`. */
export function edgeProviderScriptSecret(
  md: MachineDeployment,
  token: string,
  serverURL: string,
  pinnedCA?: string,
): Record<string, unknown> {
  const secret = cloudConfigSecretName(md, 'bootstrap');
  const cfg = `/etc/cloud/cloud.cfg.d/${secret}.cfg`;
  const tls = pinnedCA === undefined ? '-k' : `--cacert ${CLUSTER_CA_PATH}`;
  const writeCA =
    pinnedCA === undefined
      ? []
      : [
          `mkdir -p ${CLUSTER_CA_PATH.slice(0, CLUSTER_CA_PATH.lastIndexOf('/'))}`,
          // A quoted here-document: the PEM text is written as is, never expanded by the shell.
          `cat > ${CLUSTER_CA_PATH} <<'OSM_KRM_CLUSTER_CA'`,
          ...pinnedCA.replace(/\n$/, '').split('\n'),
          'OSM_KRM_CLUSTER_CA',
        ];
  // Unpinned, byte-for-byte what OSM writes, including the space before the newline after the redirect.
  const script = [
    'apt-get update -y',
    'apt-get install jq -y',
    ...writeCA,
    `curl -s ${tls} -v --header 'Authorization: Bearer ${token}' ${serverURL}/api/v1/namespaces/cloud-init-settings/secrets/${secret} | jq '.data["cloud-config"]' -r| base64 -d > ${cfg} `,
    `cloud-init --file ${cfg} init`,
    'systemctl enable bootstrap.service',
    'systemctl restart bootstrap.service',
    '',
  ].join('\n');
  return {
    apiVersion: 'v1',
    data: { 'fetch-bootstrap-script': Buffer.from(script, 'utf8').toString('base64') },
    kind: 'Secret',
    metadata: { name: `edge-provider-script-${md.name}-${md.namespace}`, namespace: CLOUD_INIT_SETTINGS_NAMESPACE },
    type: 'Opaque',
  };
}
