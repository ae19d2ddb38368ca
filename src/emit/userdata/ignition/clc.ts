// The Container Linux Config (CLC) YAML that OSM renders before transpiling it to Ignition, character for
// character. Contents go into YAML literal blocks and names and keys into plain scalars without any
// escaping, so everything OSM's Ignition output shows of that trip (one trailing newline, the first line's
// indentation stripped from every line, `#` comments cut off keys) comes from parsing this very text.
import {
  deduplicateSSHKeys,
  envelopeFiles,
  envelopeUnits,
  sprigIndent,
  writesMachineName,
  type UserDataInput,
} from '../input.ts';
import { checkClcContent, checkClcName, type ClcExpectation } from './clcValues.ts';

/** The CLC text, and what parsing it must give back; values that would break out of it refused (clcValues.ts). */
export function containerLinuxConfig(input: UserDataInput): { text: string; expected: ClcExpectation } {
  const config = input.config;
  const keys = deduplicateSSHKeys(config.userSSHKeys);
  const files = envelopeFiles(config, false);
  const units = envelopeUnits(config);
  keys.forEach((key, i) => checkClcName(key, `SSH key ${i + 1}`));
  for (const file of envelopeFiles(config, false)) {
    checkClcName(file.path, `file path ${JSON.stringify(file.path)}`);
    checkClcContent(file.content, `file ${JSON.stringify(file.path)}`);
  }
  for (const unit of units) {
    checkClcName(unit.name, `unit name ${JSON.stringify(unit.name)}`);
    checkClcContent(unit.content, `unit ${JSON.stringify(unit.name)}`);
    for (const d of unit.dropIns) {
      checkClcName(d.name, `drop-in name ${JSON.stringify(d.name)}`);
      checkClcContent(d.content, `unit ${JSON.stringify(unit.name)} drop-in ${JSON.stringify(d.name)}`);
    }
  }
  const machineNameFile = input.secretType === 'bootstrap' && writesMachineName(input);
  return {
    text: renderContainerLinuxConfig(input),
    expected: {
      keys,
      filePaths: [...(machineNameFile ? ['/etc/machine-name'] : []), ...files.map((f) => f.path)],
      units,
    },
  };
}

/** The CLC text exactly as OSM's template writes it, values unchecked. */
export function renderContainerLinuxConfig(input: UserDataInput): string {
  const config = input.config;
  const keys = deduplicateSSHKeys(config.userSSHKeys);

  let s = 'passwd:';
  if (keys.length > 0) {
    s += '\n  users:\n    - name: core\n      ssh_authorized_keys:\n        ';
    for (const key of keys) s += `- ${key}\n        `;
  }

  s += '\nstorage:\n  files:';
  if (input.secretType === 'bootstrap') {
    // On AWS the template still leaves a blank line behind.
    s += writesMachineName(input)
      ? "\n  - path: /etc/machine-name\n    mode: 0600\n    filesystem: root\n    contents:\n        inline: '<MACHINE_NAME>'\n\n"
      : '\n';
  }
  for (const file of envelopeFiles(config, false)) {
    s += `\n  - path: '${file.path}'\n    mode: ${file.permissions}\n    filesystem: root\n    contents:\n        inline: |\n${sprigIndent(10, file.content)}`;
  }

  s += '\nsystemd:\n  units:';
  for (const unit of envelopeUnits(config)) {
    s += `\n  - name: ${unit.name}\n    enabled: ${unit.enable}\n    mask: ${unit.mask}\n`;
    if (unit.content !== '') s += `\n    contents: |\n${sprigIndent(6, unit.content)}`;
    s += '\n';
    if (unit.dropIns.length > 0) {
      s += '\n    dropins:';
      for (const d of unit.dropIns)
        s += `\n      - name: ${d.name}\n        contents: |\n${sprigIndent(10, d.content)}`;
    }
  }
  return s + '\n';
}
