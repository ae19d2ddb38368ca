// OSC config → cloud-config user-data, byte for byte as OSM's generator writes it: the same sections in the
// same order with the same blank lines, indentation and (lack of) quoting. Values are not escaped: OSM
// writes them as they are; every value passes through cloudConfigYaml.ts, which keeps ordinary values as
// OSM writes them and encodes the rest so that cloud-init reads back exactly the value (or refuses it).
import type { CloudInitModules } from '../../model/operatingSystemProfile.ts';
import { compareBytes } from '../../go/fmt/format.ts';
import {
  doubleQuotedAsWritten,
  fitsLiteralBlock,
  literalBlockOrRefuse,
  plainScalar,
  singleQuoted,
} from './cloudConfigYaml.ts';
import { UserDataError } from './errors.ts';
import {
  deduplicateSSHKeys,
  envelopeFiles,
  envelopeUnits,
  sprigIndent,
  writesMachineName,
  type EnvelopeFile,
  type EnvelopeUnit,
  type UserDataInput,
} from './input.ts';

const MACHINE_NAME = '<MACHINE_NAME>';

export function emitCloudInit(input: UserDataInput): string {
  const config = input.config;
  // Where the cloud's machines are named after their MachineDeployment (edge), OSM substitutes that name into its
  // template text (not into file contents).
  const machineName =
    input.cloud?.cloudInitMachineName === 'machine-deployment-name' ? input.machineDeploymentName : MACHINE_NAME;
  const namesMachine = writesMachineName(input);

  let out = '#cloud-config';
  if (namesMachine) out += `\nhostname: ${plainScalar(machineName)}`;
  out += '\n\n';
  if (input.distUpgradeOnBoot) out += 'package_upgrade: true\npackage_reboot_if_required: true\n';
  out += 'ssh_pwauth: false\n\n';
  const keys = deduplicateSSHKeys(config.userSSHKeys);
  if (keys.length > 0 || !input.omitEmptySSHKeys) out += 'ssh_authorized_keys:\n';
  for (const key of keys) out += `- ${singleQuoted(key)}\n`;

  out += 'write_files:';
  for (const file of envelopeFiles(config, true)) out += writeFilesEntry(file);
  if (namesMachine)
    out += `\n- path: /etc/machine-name\n  permissions: '0600'\n  content: |-\n        ${literalBlockOrRefuse(machineName, 'the machine name')}\n`;

  // Nothing separates this from what precedes it: with no files the line reads `write_files:coreos:`, as upstream's.
  const units = envelopeUnits(config);
  if (units.length > 0) out += 'coreos:\n  units:' + units.map(coreosUnit).join('');

  if (config.modules !== undefined && config.modules !== null) out += modules(config.modules);
  return out;
}

// `content: |-` strips the one newline the entry ends with; sprig's indent pads empty lines as well. Content
// that a literal block cannot carry goes base64-encoded (cloud-init decodes `b64`), so it arrives exactly.
function writeFilesEntry(file: EnvelopeFile): string {
  let { encoding, content } = file;
  if (!fitsLiteralBlock(content)) {
    if (encoding !== '')
      throw new UserDataError(
        `file ${JSON.stringify(file.path)}: its content (encoding ${JSON.stringify(encoding)}) cannot be written into cloud-config so that cloud-init reads it back; give it as base64 with encoding b64`,
      );
    encoding = 'b64';
    content = Buffer.from(content, 'utf8').toString('base64');
  }
  let s = `\n- path: ${singleQuoted(file.path)}\n  permissions: '${file.permissions}'`;
  if (encoding !== '') s += `\n  encoding: ${singleQuoted(encoding)}`;
  return s + `\n  content: |-\n${sprigIndent(4, content)}\n`;
}

// Flatcar's coreos-cloudinit units (osp-flatcar-cloud-init). The indentation before `command: start` is
// kept even when the unit is not enabled, leaving a whitespace-only line as upstream does.
function coreosUnit(unit: EnvelopeUnit): string {
  let s = `\n  - name: ${doubleQuotedAsWritten(unit.name)}\n    enable: ${unit.enable}\n    ${unit.enable ? 'command: start' : ''}\n    mask: ${unit.mask}\n`;
  if (unit.content !== '')
    s += `\n    content: |\n${sprigIndent(6, literalBlockOrRefuse(unit.content, `unit ${JSON.stringify(unit.name)}`))}`;
  s += '\n';
  if (unit.dropIns.length > 0) {
    s += '\n    drop_ins:';
    for (const d of unit.dropIns)
      s += `\n      - name: ${doubleQuotedAsWritten(d.name)}\n        content: |\n${sprigIndent(10, literalBlockOrRefuse(d.content, `unit ${JSON.stringify(unit.name)} drop-in ${JSON.stringify(d.name)}`))}`;
  }
  return s;
}

const sortedKeys = (m: Record<string, unknown>): string[] => Object.keys(m).sort(compareBytes);

// Fixed order; maps in Go's sorted key order; values unquoted (through plainScalar). yum_repo_dir has no
// newline after it.
function modules(m: CloudInitModules): string {
  let s = '';
  const bootcmd = m.bootcmd ?? [];
  if (bootcmd.length > 0)
    s += '\nbootcmd:' + bootcmd.map((c) => `\n- ${plainScalar(c, { flowSequence: true })}`).join('') + '\n';
  const runcmd = m.runcmd ?? [];
  if (runcmd.length > 0)
    s += '\nruncmd:' + runcmd.map((c) => `\n- ${plainScalar(c, { flowSequence: true })}`).join('') + '\n';
  const rh = m.rh_subscription ?? {};
  if (Object.keys(rh).length > 0)
    s +=
      '\nrh_subscription:' +
      sortedKeys(rh)
        .map((k) => `\n    ${plainScalar(k)}: ${plainScalar(rh[k]!)}`)
        .join('') +
      '\n';
  const repos = m.yum_repos ?? {};
  if (Object.keys(repos).length > 0) {
    s += '\nyum_repos:';
    for (const repo of sortedKeys(repos)) {
      const props = repos[repo] ?? {};
      s +=
        `\n    ${plainScalar(repo)}:` +
        sortedKeys(props)
          .map((p) => `\n       ${plainScalar(p)}: ${plainScalar(props[p]!)}`)
          .join('');
    }
    s += '\n';
  }
  if (m.yum_repo_dir) s += `\nyum_repo_dir: ${plainScalar(m.yum_repo_dir)}`;
  return s;
}
