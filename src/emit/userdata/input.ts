// What a user-data emitter needs: one half of an OSC and where it goes. No MachineDeployment in sight.
import type { OSCConfig, SecretType } from '../../model/operatingSystemProfile.ts';

export interface UserDataInput {
  config: OSCConfig;
  osName: string;
  cloudProviderName: string;
  secretType: SecretType;
  distUpgradeOnBoot: boolean;
  /** Replaces <MACHINE_NAME> for the `edge` provider, whose machines are named after their MachineDeployment. */
  machineDeploymentName: string;
}

export interface EnvelopeFile {
  path: string;
  permissions: string;
  encoding: string;
  content: string;
}

/** OSM's permission string: `%v` of the number, "0"-prefixed when it has exactly three characters. */
export function permissionString(p: number | undefined): string {
  const s = String(p ?? 0);
  return s.length === 3 ? '0' + s : s;
}

/** SSH keys trimmed, empty ones dropped, first occurrence kept. */
export function deduplicateSSHKeys(keys: readonly string[] | undefined): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const k of keys ?? []) {
    const t = k.trim();
    if (t === '' || seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  return out;
}

/** sprig's indent: every line padded, empty ones included. */
export function indent(n: number, s: string): string {
  const pad = ' '.repeat(n);
  return pad + s.split('\n').join('\n' + pad);
}

/** machine-controller writes the machine's name there; for `edge` OSM already puts the MachineDeployment's. */
export function machineNamePlaceholder(input: UserDataInput): string {
  return input.cloudProviderName === 'edge' ? input.machineDeploymentName : '<MACHINE_NAME>';
}

export function writesMachineName(input: UserDataInput): boolean {
  // Never on AWS: kube-proxy needs the hostname to be the private DNS name.
  return input.secretType === 'bootstrap' && input.cloudProviderName !== 'aws';
}
