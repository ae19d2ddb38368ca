// A MachineDeployment's review as text for a person (`osm-krm render`), and as a tree of files (`--out DIR`):
// what each node is given, file by file and unit by unit.
import type { MachineDeploymentReview, ReviewRender } from './renderForReview.ts';
import type { NodeConfigView } from './nodeConfigView.ts';
import { untrustedLine as t } from '../cli/untrustedText.ts';

export const STAGES = ['bootstrap', 'provisioning'] as const;

export function formatReview(r: MachineDeploymentReview, explain: ReviewRender | undefined): string {
  const lines: string[] = [];
  lines.push(`# MachineDeployment ${t(r.namespace)}/${t(r.name)}`);
  lines.push(
    `profile: ${t(r.profile.namespace)}/${t(r.profile.name)} ${t(r.profile.version)} (${t(r.profile.source)})`,
  );
  lines.push(`revision: ${t(r.revision)}`);
  if (explain !== undefined) {
    lines.push('', `## config: ${t(explain.config.source)}`);
    for (const s of explain.config.settings) lines.push(`  ${t(explain.mask(s))}`);
    lines.push('', '## cluster facts');
    for (const s of explain.config.clusterFacts) lines.push(`  ${t(s)}`);
    lines.push('', '## template data (Go %#v)');
    for (const s of r.templateData) lines.push(`  ${t(s)}`);
  }
  const origins = explain !== undefined ? r.origins : undefined;
  for (const stage of STAGES) {
    lines.push('');
    formatView(stage, r[stage], origins, lines);
  }
  return lines.join('\n') + '\n';
}

/** `from: ...` of an overlay's profile's file, unit or drop-in (--explain); nothing for any other profile. */
function fromLine(lines: string[], origins: MachineDeploymentReview['origins'], key: string): void {
  if (origins !== undefined) lines.push(`  from: ${t(origins.byKey.get(key) ?? origins.base)}`);
}

/**
 * A stage's listing, appended to `lines` one line at a time: a file has as many lines as its content (never
 * spread into one call, which ran out of stack at about 100,000).
 */
function formatView(
  stage: string,
  v: NodeConfigView,
  origins: MachineDeploymentReview['origins'] | undefined,
  lines: string[] = [],
): string[] {
  lines.push(`## ${stage} (${v.format}, ${v.bytes} bytes)${v.unreadable ? `: unreadable, ${t(v.unreadable)}` : ''}`);
  for (const s of v.settings) lines.push(`setting ${t(s.key)}: ${indentBlock(s.value)}`);
  for (const f of v.files) {
    lines.push('', `file ${t(f.path)}  mode ${t(f.mode) || '(default)'}  owner ${t(f.owner) || '(default)'}`);
    fromLine(lines, origins, `${stage} file ${f.path}`);
    contentLines(lines, f.content);
  }
  for (const u of v.units) {
    lines.push('', `unit ${t(u.name)}${u.state ? `  ${u.state}` : ''}`);
    fromLine(lines, origins, `${stage} unit ${u.name}`);
    if (u.content !== '') contentLines(lines, u.content);
    for (const d of u.dropIns) {
      lines.push(`drop-in ${t(u.name)}.d/${t(d.name)}`);
      fromLine(lines, origins, `${stage} drop-in ${u.name}/${d.name}`);
      contentLines(lines, d.content);
    }
  }
  return lines;
}

function contentLines(out: string[], content: string): string[] {
  const body = content.endsWith('\n') ? content.slice(0, -1) : content;
  if (body !== '') for (const l of body.split('\n')) out.push(`  | ${t(l)}`);
  if (!content.endsWith('\n') && content !== '') out.push('  (no newline at end)');
  return out;
}

function indentBlock(text: string): string {
  return text.includes('\n') ? '\n' + contentLines([], text).join('\n') : t(text);
}

/**
 * The node's view as files: `<stage>/<absolute path>` for every file, units at `<stage>/etc/systemd/system/`
 * (where the node gets them), plus `<stage>.txt`, the listing with modes, owners and settings.
 */
export function reviewFiles(r: MachineDeploymentReview): Map<string, string> {
  const files = new Map<string, string>();
  for (const stage of STAGES) {
    const v = r[stage];
    files.set(`${stage}.txt`, formatView(stage, v, undefined).join('\n') + '\n');
    for (const f of v.files) files.set(`${stage}${nodePath(f.path)}`, f.content);
    for (const u of v.units) {
      const unitPath = `${stage}/etc/systemd/system/${safeName(u.name)}`;
      if (u.content !== '') files.set(unitPath, u.content);
      for (const d of u.dropIns) files.set(`${unitPath}.d/${safeName(d.name)}`, d.content);
    }
  }
  return files;
}

/** An absolute node path as a relative one that cannot leave the stage directory. */
export function nodePath(p: string): string {
  const parts = p.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  return '/' + (parts.length === 0 ? '(unnamed)' : parts.join('/'));
}

function safeName(name: string): string {
  return name.replaceAll('/', '_').replace(/^\.+$/, '_') || '(unnamed)';
}
