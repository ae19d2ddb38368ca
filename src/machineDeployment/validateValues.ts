// Values a MachineDeployment contributes to scripts, units and cloud-config. OSM writes several of them
// unquoted (ssh keys under Ignition, rh_subscription values) or into shell commands (names), so a hostile
// value could rewrite the node's configuration. We accept exactly what Kubernetes and the formats allow
// and refuse the rest with a clear error instead of emitting a config that means something else.
import { parse } from 'yaml';
import { ResourceError } from '../krm/results.ts';
import { KUBELET_CONFIG_ANNOTATION_PREFIX } from './kubeletAnnotations.ts';
import { parseIP } from '../go/net/parseIP.ts';
import type { ParsedMachineDeployment as MachineDeployment } from './machineDeployment.ts';
import { decodeOperatingSystemSpecWithKeys } from './operatingSystemSpec.ts';
import { isPlainToken } from '../model/pyyamlPlainScalar.ts';
import { isNamespaceName, isObjectName } from '../model/kubernetesNames.ts';

const SSH_KEY =
  /^(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp(?:256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) [A-Za-z0-9+/]+={0,3}(?: [\x20-\x7e]*)?$/;
const QUANTITY = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+|Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E)?$/;
const RESOURCE_NAME = /^(?:[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/;
const PROVIDER = 'spec.template.spec.providerSpec.value';

export function validateMachineDeploymentValues(md: MachineDeployment): void {
  if (!isObjectName(md.name)) {
    throw new ResourceError(
      `metadata.name ${JSON.stringify(md.name)} is not a valid Kubernetes name (lowercase RFC 1123 subdomain)`,
      'metadata.name',
    );
  }
  if (!isNamespaceName(md.namespace)) {
    throw new ResourceError(
      `metadata.namespace ${JSON.stringify(md.namespace)} is not a valid namespace (RFC 1123 label)`,
      'metadata.namespace',
    );
  }
  (md.providerConfig.sshPublicKeys ?? []).forEach((key, i) => {
    // cloud-init quotes keys with '...'; Ignition's template writes them unquoted: allow only what a key is.
    if (key.trim() !== '' && !SSH_KEY.test(key.trim())) {
      throw new ResourceError(
        `sshPublicKeys[${i}] is not an OpenSSH public key (type, base64 blob, optional printable comment without quotes or line breaks)`,
        `${PROVIDER}.sshPublicKeys[${i}]`,
      );
    }
    if (key.includes("'") || !readsBackAsPlainString(key.trim())) {
      throw new ResourceError(
        `sshPublicKeys[${i}] must not contain quotes, " #", ": " or other YAML indicators in its comment`,
        `${PROVIDER}.sshPublicKeys[${i}]`,
      );
    }
  });
  validateNetwork(md);
  validateKubeletAnnotations(md);
  validateUnquotedSpecValues(md);
}

function validateNetwork(md: MachineDeployment): void {
  const n = md.providerConfig.network;
  if (!n) return;
  if (n.cidr) {
    const [ip, bits, ...rest] = n.cidr.split('/');
    const max = ip && ip.includes(':') ? 128 : 32;
    if (rest.length > 0 || parseIP(ip ?? '') === undefined || !/^[0-9]{1,3}$/.test(bits ?? '') || Number(bits) > max) {
      throw new ResourceError(
        `network.cidr ${JSON.stringify(n.cidr)} is not an IP prefix (address/bits)`,
        `${PROVIDER}.network.cidr`,
      );
    }
  }
  if (n.gateway && parseIP(n.gateway) === undefined)
    throw new ResourceError(
      `network.gateway ${JSON.stringify(n.gateway)} is not an IP address`,
      `${PROVIDER}.network.gateway`,
    );
  (n.dns?.servers ?? []).forEach((s, i) => {
    if (parseIP(s) === undefined)
      throw new ResourceError(
        `network.dns.servers[${i}] ${JSON.stringify(s)} is not an IP address`,
        `${PROVIDER}.network.dns.servers[${i}]`,
      );
  });
  if (n.ipFamily && !['IPv4', 'IPv6', 'IPv4+IPv6', 'IPv6+IPv4'].includes(n.ipFamily)) {
    throw new ResourceError(
      `network.ipFamily ${JSON.stringify(n.ipFamily)} must be one of IPv4, IPv6, IPv4+IPv6, IPv6+IPv4`,
      `${PROVIDER}.network.ipFamily`,
    );
  }
}

function validateKubeletAnnotations(md: MachineDeployment): void {
  for (const [key, value] of Object.entries(md.annotations)) {
    if (!key.startsWith(KUBELET_CONFIG_ANNOTATION_PREFIX)) continue;
    const setting = key.slice(key.indexOf('/') + 1);
    const field = `metadata.annotations.${key}`;
    const bad = (what: string) => new ResourceError(`${key}: ${JSON.stringify(value)} is not ${what}`, field);
    switch (setting) {
      case 'KubeReserved':
      case 'SystemReserved':
      case 'EvictionHard': {
        const sep = setting === 'EvictionHard' ? '<' : '=';
        for (const pair of value.split(',')) {
          const i = pair.indexOf(sep);
          if (pair === '' || i < 0) continue; // skipped by OSM too
          const name = pair.slice(0, i);
          const q = pair.slice(i + 1);
          const okValue =
            setting === 'EvictionHard' ? QUANTITY.test(q) || /^[0-9]+(?:\.[0-9]+)?%$/.test(q) : QUANTITY.test(q);
          if (!RESOURCE_NAME.test(name) || !okValue)
            throw bad(
              `a list of ${setting === 'EvictionHard' ? 'signal<quantity|percent' : 'resource=quantity'} pairs`,
            );
        }
        break;
      }
      case 'ContainerLogMaxSize':
        if (!QUANTITY.test(value)) throw bad('a quantity such as 100Mi');
        break;
      case 'ContainerLogMaxFiles':
        if (!/^[0-9]+$/.test(value)) throw bad('a whole number');
        break;
      default:
        break; // the typed settings (MaxPods, ...) are parsed strictly where they are read
    }
  }
}

// rh_subscription values are written unquoted into cloud-config (as OSM does): each must read back as the
// same plain YAML string, or it would change the meaning of the user-data. Checked on the decoded spec, so a
// key spelled in another case (encoding/json matches those too) is checked like the canonical one.
const RHEL_UNQUOTED_FIELDS = [
  'RHELSubscriptionManagerUser',
  'RHELSubscriptionManagerPassword',
  'RHELSatelliteServer',
  'RHELOrganizationName',
  'RHELActivationKey',
];

function validateUnquotedSpecValues(md: MachineDeployment): void {
  if (md.providerConfig.operatingSystem !== 'rhel') return;
  const { value, sourceKeys } = decodeOperatingSystemSpecWithKeys('rhel', md.providerConfig.operatingSystemSpec);
  for (const goName of RHEL_UNQUOTED_FIELDS) {
    const v = value.fields[goName];
    if (typeof v !== 'string' || v === '') continue;
    if (!readsBackAsPlainString(v)) {
      const key = sourceKeys[goName]!;
      // The value itself may be a secret: never echo it.
      throw new ResourceError(
        `operatingSystemSpec.${key} contains characters that cloud-config's unquoted rh_subscription values cannot carry (line breaks, leading or trailing spaces, ": ", " #", or YAML indicators)`,
        `${PROVIDER}.operatingSystemSpec.${key}`,
      );
    }
  }
}

function readsBackAsPlainString(v: string): boolean {
  // PyYAML (cloud-init) also breaks lines at NEL, LS and PS, and cannot load a plain `=` or `<<`.
  if (/[\n\r\t\u0085\u2028\u2029]/.test(v) || v !== v.trim() || !isPlainToken(v)) return false;
  // Fast path: letters, digits and a few inert punctuation marks, no indicator at the start, never a bool/null/number.
  if (
    /^[A-Za-z0-9_/.=+@-][A-Za-z0-9_/.=+@ -]*$/.test(v) &&
    !/^(?:y|n|yes|no|on|off|true|false|null|~|[-+.0-9][-+.0-9eE_]*)$/i.test(v)
  )
    return true;
  try {
    return parse(`k: ${v}\n`, { version: '1.1', uniqueKeys: false })?.k === v;
  } catch {
    return false;
  }
}
