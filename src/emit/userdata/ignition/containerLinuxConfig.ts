// The Container Linux Config (CLC) YAML that OSM renders before transpiling it to Ignition. We build the
// same text so that file and unit contents go through the same YAML literal blocks: that is what gives
// them exactly one trailing newline and strips the first line's indentation, as in OSM's output.
import { deduplicateSSHKeys, sprigIndent as indent, permissionString, writesMachineName, type UserDataInput } from '../input.ts';

export function renderContainerLinuxConfig(input: UserDataInput): string {
  const cfg = input.config;
  const keys = deduplicateSSHKeys(cfg.userSSHKeys);
  let s = 'passwd:';
  if (keys.length > 0) s += '\n  users:\n    - name: core\n      ssh_authorized_keys:\n        ' + keys.map((k) => `- ${k}\n        `).join('');
  s += '\nstorage:\n  files:';
  if (writesMachineName(input)) {
    s += "\n  - path: /etc/machine-name\n    mode: 0600\n    filesystem: root\n    contents:\n        inline: '<MACHINE_NAME>'\n\n";
  }
  for (const f of cfg.files ?? []) {
    const perm = permissionString(f.permissions, f.path);
    s += `\n  - path: '${f.path}'\n    mode: ${perm}\n    filesystem: root\n    contents:\n        inline: |\n${indent(10, f.content.inline!.data)}`;
  }
  s += '\nsystemd:\n  units:';
  for (const u of cfg.units ?? []) {
    s += `\n  - name: ${u.name}\n    enabled: ${u.enable === true}\n    mask: ${u.mask === true}\n`;
    if (u.content) s += `\n    contents: |\n${indent(6, u.content)}`;
    s += '\n';
    if ((u.dropIns?.length ?? 0) > 0) {
      s += '\n    dropins:' + u.dropIns!.map((d) => `\n      - name: ${d.name}\n        contents: |\n${indent(10, d.content)}`).join('');
    }
  }
  return s + '\n';
}
