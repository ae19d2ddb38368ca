// OSC config -> cloud-config user-data, laid out byte for byte like OSM's generator: the same sections in
// the same order with the same blank lines, indentation and (lack of) quoting.
import type { CloudInitModules, Unit } from '../../model/operatingSystemProfile.ts';
import { compareBytes } from '../../template/goFormat.ts';
import { deduplicateSSHKeys, indent, machineNamePlaceholder, permissionString, writesMachineName, type UserDataInput } from './input.ts';

export function emitCloudInit(input: UserDataInput): string {
  const cfg = input.config;
  const name = machineNamePlaceholder(input);
  let out = '#cloud-config';
  if (writesMachineName(input)) out += `\nhostname: ${name}`;
  out += '\n\n';
  if (input.distUpgradeOnBoot) out += 'package_upgrade: true\npackage_reboot_if_required: true\n';
  out += 'ssh_pwauth: false\n\nssh_authorized_keys:\n';
  for (const key of deduplicateSSHKeys(cfg.userSSHKeys)) out += `- '${key}'\n`;
  out += 'write_files:';
  for (const file of cfg.files ?? []) {
    const inline = file.content.inline!;
    const encoding = inline.encoding ?? '';
    const content = encoding === 'b64' ? Buffer.from(inline.data, 'utf8').toString('base64') : inline.data;
    out += `\n- path: '${file.path}'\n  permissions: '${permissionString(file.permissions)}'`;
    if (encoding !== '') out += `\n  encoding: '${encoding}'`;
    out += `\n  content: |-\n${indent(4, content)}\n`;
  }
  if (writesMachineName(input)) {
    out += `\n- path: /etc/machine-name\n  permissions: '0600'\n  content: |-\n        ${name}\n`;
  }
  if ((cfg.units?.length ?? 0) > 0) out += 'coreos:\n  units:' + cfg.units!.map(unitSection).join('');
  if (cfg.modules !== undefined && cfg.modules !== null) out += modulesSection(cfg.modules);
  return out;
}

// Flatcar's coreos-cloudinit units (osp-flatcar-cloud-init).
function unitSection(u: Unit): string {
  const enable = u.enable === true;
  let s = `\n  - name: "${u.name}"\n    enable: ${enable}\n    ${enable ? 'command: start' : ''}\n    mask: ${u.mask === true}\n`;
  if (u.content) s += `\n    content: |\n${indent(6, u.content)}`;
  s += '\n';
  if ((u.dropIns?.length ?? 0) > 0) {
    s += '\n    drop_ins:' + u.dropIns!.map((d) => `\n      - name: "${d.name}"\n        content: |\n${indent(10, d.content)}`).join('');
  }
  return s;
}

const sortedKeys = (m: Record<string, unknown>) => Object.keys(m).sort(compareBytes);

// Values are written unquoted, exactly as OSM does.
function modulesSection(m: CloudInitModules): string {
  let s = '';
  if ((m.bootcmd?.length ?? 0) > 0) s += '\nbootcmd:' + m.bootcmd!.map((c) => `\n- ${c}`).join('') + '\n';
  if ((m.runcmd?.length ?? 0) > 0) s += '\nruncmd:' + m.runcmd!.map((c) => `\n- ${c}`).join('') + '\n';
  const rh = m.rh_subscription;
  if (rh && Object.keys(rh).length > 0) s += '\nrh_subscription:' + sortedKeys(rh).map((k) => `\n    ${k}: ${rh[k]}`).join('') + '\n';
  const repos = m.yum_repos;
  if (repos && Object.keys(repos).length > 0) {
    s += '\nyum_repos:' + sortedKeys(repos).map((k) => `\n    ${k}:` + sortedKeys(repos[k] ?? {}).map((p) => `\n       ${p}: ${repos[k]![p]}`).join('')).join('') + '\n';
  }
  if (m.yum_repo_dir) s += `\nyum_repo_dir: ${m.yum_repo_dir}`;
  return s;
}
