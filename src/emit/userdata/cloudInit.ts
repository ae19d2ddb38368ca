// OSC config → cloud-config user-data, byte for byte as OSM's generator writes it: the same sections in the
// same order with the same blank lines, indentation and (lack of) quoting. Values are not escaped: OSM
// writes them as they are, so the output is only as well-formed as its input, exactly like upstream's.
import type { CloudInitModules } from '../../model/operatingSystemProfile.ts';
import { compareBytes } from '../../template/goFormat.ts';
import {
  deduplicateSSHKeys, envelopeFiles, envelopeUnits, sprigIndent, writesMachineName,
  type EnvelopeFile, type EnvelopeUnit, type UserDataInput,
} from './input.ts';

const MACHINE_NAME = '<MACHINE_NAME>';

export function emitCloudInit(input: UserDataInput): string {
  const config = input.config;
  // For `edge` OSM substitutes the MachineDeployment's name into its template text (not into file contents).
  const machineName = input.cloudProviderName === 'edge' ? input.machineDeploymentName : MACHINE_NAME;
  const namesMachine = writesMachineName(input);

  let out = '#cloud-config';
  if (namesMachine) out += `\nhostname: ${machineName}`;
  out += '\n\n';
  if (input.distUpgradeOnBoot) out += 'package_upgrade: true\npackage_reboot_if_required: true\n';
  out += 'ssh_pwauth: false\n\n';
  const keys = deduplicateSSHKeys(config.userSSHKeys);
  if (keys.length > 0 || !input.omitEmptySSHKeys) out += 'ssh_authorized_keys:\n';
  for (const key of keys) out += `- '${key}'\n`;

  out += 'write_files:';
  for (const file of envelopeFiles(config, true)) out += writeFilesEntry(file);
  if (namesMachine) out += `\n- path: /etc/machine-name\n  permissions: '0600'\n  content: |-\n        ${machineName}\n`;

  // Nothing separates this from what precedes it: with no files the line reads `write_files:coreos:`, as upstream's.
  const units = envelopeUnits(config);
  if (units.length > 0) out += 'coreos:\n  units:' + units.map(coreosUnit).join('');

  if (config.modules !== undefined && config.modules !== null) out += modules(config.modules);
  return out;
}

// `content: |-` strips the one newline the entry ends with; sprig's indent pads empty lines as well.
function writeFilesEntry(file: EnvelopeFile): string {
  let s = `\n- path: '${file.path}'\n  permissions: '${file.permissions}'`;
  if (file.encoding !== '') s += `\n  encoding: '${file.encoding}'`;
  return s + `\n  content: |-\n${sprigIndent(4, file.content)}\n`;
}

// Flatcar's coreos-cloudinit units (osp-flatcar-cloud-init). The indentation before `command: start` is
// kept even when the unit is not enabled, leaving a whitespace-only line as upstream does.
function coreosUnit(unit: EnvelopeUnit): string {
  let s = `\n  - name: "${unit.name}"\n    enable: ${unit.enable}\n    ${unit.enable ? 'command: start' : ''}\n    mask: ${unit.mask}\n`;
  if (unit.content !== '') s += `\n    content: |\n${sprigIndent(6, unit.content)}`;
  s += '\n';
  if (unit.dropIns.length > 0) {
    s += '\n    drop_ins:';
    for (const d of unit.dropIns) s += `\n      - name: "${d.name}"\n        content: |\n${sprigIndent(10, d.content)}`;
  }
  return s;
}

const sortedKeys = (m: Record<string, unknown>): string[] => Object.keys(m).sort(compareBytes);

// Fixed order; maps in Go's sorted key order; values unquoted. yum_repo_dir has no newline after it.
function modules(m: CloudInitModules): string {
  let s = '';
  const bootcmd = m.bootcmd ?? [];
  if (bootcmd.length > 0) s += '\nbootcmd:' + bootcmd.map((c) => `\n- ${c}`).join('') + '\n';
  const runcmd = m.runcmd ?? [];
  if (runcmd.length > 0) s += '\nruncmd:' + runcmd.map((c) => `\n- ${c}`).join('') + '\n';
  const rh = m.rh_subscription ?? {};
  if (Object.keys(rh).length > 0) s += '\nrh_subscription:' + sortedKeys(rh).map((k) => `\n    ${k}: ${rh[k]}`).join('') + '\n';
  const repos = m.yum_repos ?? {};
  if (Object.keys(repos).length > 0) {
    s += '\nyum_repos:';
    for (const repo of sortedKeys(repos)) {
      const props = repos[repo] ?? {};
      s += `\n    ${repo}:` + sortedKeys(props).map((p) => `\n       ${p}: ${props[p]}`).join('');
    }
    s += '\n';
  }
  if (m.yum_repo_dir) s += `\nyum_repo_dir: ${m.yum_repo_dir}`;
  return s;
}
