// The bill of materials for people (text) and for programs (json). Input text (URLs, package names, reasons)
// is printed escaped like every review output; secrets are masked by the io the command prints through.
import type { BomItem, BomLocation, MachineDeploymentBom } from './billOfMaterials.ts';
import type { ItemVerdict } from './mirrorCheck.ts';
import { untrustedLine as t } from '../cli/untrustedText.ts';

export interface CheckedBom {
  bom: MachineDeploymentBom;
  /** Per item (same index), with --mirror-check. */
  verdicts?: ItemVerdict[];
}

const HEADINGS: Record<BomItem['kind'], string> = {
  download: 'downloads',
  repository: 'package repositories',
  package: 'packages',
  image: 'container images',
  api: 'API server',
  unresolved: 'unresolved (computed on the node: mirror what they become, or pin them)',
  'node-local': 'on the node itself (its own services and files: nothing to mirror)',
};

export function formatBomText(checked: readonly CheckedBom[], allArch: readonly string[]): string {
  const out: string[] = [];
  for (const { bom, verdicts } of checked) {
    if (out.length > 0) out.push('');
    out.push(`# MachineDeployment ${t(bom.namespace)}/${t(bom.name)}`);
    out.push(`profile: ${t(bom.profile.name)} ${t(bom.profile.version)} (${t(bom.profile.source)})`);
    out.push(`os: ${t(bom.os.name)} ${t(bom.os.version)}, arch: ${allArch.join(', ')}`);
    if (bom.server !== undefined) out.push(`API server: ${t(bom.server)}`);
    let kind: string | undefined;
    bom.items.forEach((item, k) => {
      if (item.kind !== kind) {
        kind = item.kind;
        out.push('', `## ${HEADINGS[item.kind]}`);
      }
      const v = verdicts?.[k];
      const archs = item.arch.length === allArch.length ? '' : `  [${item.arch.join(', ')}]`;
      const head =
        item.kind === 'package'
          ? `${item.name}${item.version ? ` ${item.version}` : ''} (${item.manager})`
          : item.kind === 'api'
            ? `${item.method} ${item.name}`
            : item.name;
      out.push(
        `${t(head)}${archs}${v ? `  -> ${v.verdict === 'leaves' ? 'LEAVES THE SITE' : v.verdict === 'unknown' ? 'CANNOT TELL' : v.verdict === 'image-sources' ? 'node image sources' : v.verdict === 'node' ? 'on the node' : 'site'}` : ''}`,
      );
      if (item.checksum) out.push(`  checksum: ${t(item.checksum)}`);
      if (item.purpose) out.push(`  purpose: ${t(item.purpose)}`);
      if (item.detail) out.push(`  ${t(item.detail)}`);
      if (item.sources) out.push(`  from: ${t(item.sources.join(' or '))}`);
      if (item.hosts) out.push(`  hosts: ${t(item.hosts.map((h) => `${h.url} (${h.role})`).join(', then '))}`);
      if (item.authenticated) out.push('  with credentials (not shown)');
      for (const r of item.reasons ?? []) out.push(`  why: ${t(r)}`);
      for (const l of item.locations) out.push(`  at: ${t(locationText(l))}`);
      if (v && item.kind !== 'package') out.push(`  check: ${t(v.note)}`);
    });
    out.push('', `summary: ${summary(bom.items)}`);
  }
  return `${out.join('\n')}\n`;
}

export function locationText(l: BomLocation): string {
  const where = l.line > 0 ? `${l.stage} ${l.path}:${l.line}` : `${l.stage} ${l.path}`;
  return l.profile ? `${where} (${l.profile.file}:${l.profile.line})` : where;
}

export function summary(items: readonly BomItem[]): string {
  const count = (k: BomItem['kind']) => items.filter((i) => i.kind === k).length;
  return `${count('download')} downloads, ${count('repository')} repositories, ${count('package')} packages, ${count('image')} images, ${count('api')} API calls, ${count('unresolved')} unresolved`;
}

export function formatBomJson(checked: readonly CheckedBom[]): string {
  const machineDeployments = checked.map(({ bom, verdicts }) => ({
    ...bom,
    items: bom.items.map((item, k) => (verdicts ? { ...item, mirrorCheck: verdicts[k] } : item)),
  }));
  return `${JSON.stringify({ machineDeployments }, null, 2)}\n`;
}
