// The `edge` provider's hand-run bootstrap script Secret (OSM: edge-provider-script-<md>-<ns>).
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import { CLOUD_INIT_SETTINGS_NAMESPACE, cloudConfigSecretName } from './generatedResources.ts';

export function edgeProviderScriptSecret(md: MachineDeployment, token: string, serverURL: string): Record<string, unknown> {
  const secret = cloudConfigSecretName(md, 'bootstrap');
  const cfg = `/etc/cloud/cloud.cfg.d/${secret}.cfg`;
  // Byte-for-byte what OSM writes, including the space before the newline after the redirect.
  const script = [
    'apt-get update -y',
    'apt-get install jq -y',
    `curl -s -k -v --header 'Authorization: Bearer ${token}' ${serverURL}/api/v1/namespaces/cloud-init-settings/secrets/${secret} | jq '.data["cloud-config"]' -r| base64 -d > ${cfg} `,
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
