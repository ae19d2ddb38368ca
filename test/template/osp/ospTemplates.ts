// Extracts the Go templates of an OSP the way OSM renders them (osm.md §2.7), as oracle/engine cases:
// per config (bootstrap, provisioning), the named templates are executed first, on their own; their
// outputs are then wrapped as `{{- define "name" }}` blocks and parsed after each file's template.

import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OracleCase } from '../oracle/oracle.ts';

export const upstreamOsm = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/upstream/osm');
export const defaultOspDir = join(upstreamOsm, 'deploy/osps/default');

interface OspFile {
  path: string;
  content?: { inline?: { data?: string } };
}
interface OspConfig {
  templates?: Record<string, string>;
  files?: OspFile[];
  supportedContainerRuntimes?: { name: string; files?: OspFile[]; templates?: Record<string, string> }[];
}

export interface ConfigTemplates {
  osp: string;
  config: 'bootstrapConfig' | 'provisioningConfig';
  /** Named templates (runtime's first, the config's own winning on a clash), in a fixed order. */
  named: { name: string; text: string }[];
  /** File templates, config files first, then the containerd runtime's. */
  files: { path: string; text: string }[];
}

export function loadOspFiles(dir = defaultOspDir): { name: string; spec: Record<string, OspConfig> }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => {
      const doc = parse(readFileSync(join(dir, f), 'utf8')) as {
        metadata: { name: string };
        spec: Record<string, OspConfig>;
      };
      return { name: doc.metadata.name, spec: doc.spec };
    });
}

export function ospTemplates(
  osp: { name: string; spec: Record<string, OspConfig> },
  runtime = 'containerd',
): ConfigTemplates[] {
  const out: ConfigTemplates[] = [];
  for (const config of ['bootstrapConfig', 'provisioningConfig'] as const) {
    const c = osp.spec[config] ?? {};
    const rt = (c.supportedContainerRuntimes ?? []).find((r) => r.name === runtime);
    const named = new Map<string, string>();
    for (const [k, v] of Object.entries(rt?.templates ?? {})) named.set(k, v);
    for (const [k, v] of Object.entries(c.templates ?? {})) named.set(k, v);
    const files = [...(c.files ?? []), ...(rt?.files ?? [])].map((f) => ({
      path: f.path,
      text: f.content?.inline?.data ?? '',
    }));
    out.push({ osp: osp.name, config, named: [...named].map(([name, text]) => ({ name, text })), files });
  }
  return out;
}

/** OSM's wrapping of a pre-rendered named template: the output is parsed again as template source. */
export function defineBlock(name: string, output: string): string {
  return `\n{{- define "${name}" }}\n${output}\n{{- end }}`;
}

/** Phase 1: each named template executed on its own (template name = the template's name). */
export function namedCases(ct: ConfigTemplates, data: unknown): OracleCase[] {
  return ct.named.map((n) => ({ name: n.name, template: n.text, data, funcs: 'osm' }));
}

/** Phase 2: each file (template name = the file path) with the define blocks built from phase-1 outputs. */
export function fileCases(ct: ConfigTemplates, data: unknown, namedOutputs: readonly string[]): OracleCase[] {
  const defines = ct.named.map((n, i) => defineBlock(n.name, namedOutputs[i]!));
  return ct.files.map((f) => ({ name: f.path, template: f.text, data, funcs: 'osm', defines }));
}
