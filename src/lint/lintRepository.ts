// `osm-krm lint`'s checks on the repository around the profiles: what will stop nodes from joining weeks from
// now although every byte renders today.
// - flux-substitution: an OperatingSystemProfile or MachineDeployment that Flux's post-build substitution would
//   rewrite (src/gitops/fluxSubstitution.ts), where the PATHs show Flux applies them: a config with
//   `syncAnnotations: [flux]`, a Flux Kustomization, or hydrate's output (its `.osm-krm-hydrate` list).
// - bootstrap-token-expiration: a fixed spec.cluster.bootstrapTokenExpiration that has passed (error) or passes
//   within 7 days (warning), and committed bootstrap token Secrets whose newest token for a MachineDeployment
//   has expired (error: nothing rendered since, so new nodes cannot join).
// - env-name: a config's `{env: NAME}` that osm-krm will not read (src/cluster/environmentNames.ts) unless the
//   environment where it renders lists NAME in $OSM_KRM_ENV_NAMES: a warning, as lint cannot see that environment.
import type { KrmObject } from '../krm/resourceList.ts';
import { isLocalConfig } from '../krm/localConfig.ts';
import { CONFIG_API_VERSION, CONFIG_KIND } from '../config/operatingSystemManagerConfig.ts';
import { fluxSubstitutionFindings } from '../gitops/fluxSubstitution.ts';
import { EXPIRATION_WARNING_SECONDS, duration } from '../cluster/bootstrapTokenLifetime.ts';
import { parseRfc3339Seconds, type RenderTime } from '../cluster/renderTime.ts';
import { BOOTSTRAP_TOKEN_LABEL } from '../cluster/clusterFacts.ts';
import type { LintFinding } from './lintProfile.ts';
import { envNameAllowed, envNameRefusal, ENV_NAMES_ENV } from '../cluster/environmentNames.ts';

export interface RepositoryObject {
  object: KrmObject;
  file: string;
  /** The file's text and the document's index in it, to place a finding on a line. */
  text: string;
  documentIndex: number;
}

export interface RepositoryContext {
  /** The time findings are judged at (SOURCE_DATE_EPOCH or the clock); undefined: expirations are not judged. */
  time?: RenderTime;
  /** A PATH holds hydrate's output (its `.osm-krm-hydrate` list). */
  hydrateOutput: boolean;
  /** $OSM_KRM_ENV_NAMES where lint runs. */
  listedEnvNames?: string;
}

export function lintRepository(objects: readonly RepositoryObject[], context: RepositoryContext): LintFinding[] {
  return [
    ...fluxFindings(objects, context),
    ...expirationFindings(objects, context),
    ...envNameFindings(objects, context),
  ];
}

const isConfig = (o: KrmObject) => o.apiVersion === CONFIG_API_VERSION && o.kind === CONFIG_KIND;
const isFluxKustomization = (o: KrmObject) =>
  typeof o.apiVersion === 'string' &&
  o.apiVersion.startsWith('kustomize.toolkit.fluxcd.io/') &&
  o.kind === 'Kustomization';

function fluxFindings(objects: readonly RepositoryObject[], context: RepositoryContext): LintFinding[] {
  const forFlux =
    context.hydrateOutput ||
    objects.some(
      ({ object: o }) =>
        isFluxKustomization(o) || (isConfig(o) && ((o.spec as any)?.gitops?.syncAnnotations ?? []).includes('flux')),
    );
  if (!forFlux) return [];
  const applied = objects.filter(({ object: o }) => !isLocalConfig(o));
  const where = new Map<KrmObject, RepositoryObject>(applied.map((r) => [r.object, r]));
  return fluxSubstitutionFindings(applied.map((r) => r.object)).map((f) => {
    const r = where.get(f.object)!;
    return {
      severity: 'warning',
      check: 'flux-substitution',
      message: f.message,
      ...place(r, /\$[{$]/),
      scenarios: [],
    };
  });
}

function expirationFindings(objects: readonly RepositoryObject[], context: RepositoryContext): LintFinding[] {
  const now = context.time;
  if (now === undefined) return [];
  const out: LintFinding[] = [];
  for (const r of objects) {
    const fixed = isConfig(r.object) ? (r.object.spec as any)?.cluster?.bootstrapTokenExpiration : undefined;
    const at = typeof fixed === 'string' ? parseRfc3339Seconds(fixed) : undefined;
    if (at === undefined) continue;
    const base = { check: 'bootstrap-token-expiration', ...place(r, /bootstrapTokenExpiration/), scenarios: [] };
    if (at <= now.seconds)
      out.push({
        ...base,
        severity: 'error',
        message: `spec.cluster.bootstrapTokenExpiration ${fixed} has passed (time from ${now.source}): nodes cannot join with the derived tokens; set a later date, or better spec.cluster.bootstrapTokenRotation`,
      });
    else if (at - now.seconds <= EXPIRATION_WARNING_SECONDS)
      out.push({
        ...base,
        severity: 'warning',
        message: `spec.cluster.bootstrapTokenExpiration ${fixed} passes in ${duration(at - now.seconds)} (time from ${now.source}): after that nodes cannot join with the derived tokens; set a later date, or better spec.cluster.bootstrapTokenRotation`,
      });
  }
  // Committed token Secrets: per MachineDeployment, the newest one's expiration.
  const newest = new Map<string, { r: RepositoryObject; at: number; text: string }>();
  for (const r of objects) {
    const o = r.object as KrmObject & { type?: unknown };
    if (o.apiVersion !== 'v1' || o.kind !== 'Secret' || o.type !== 'bootstrap.kubernetes.io/token') continue;
    const text = secretValue(o, 'expiration');
    const at = text === undefined ? undefined : parseRfc3339Seconds(text);
    if (text === undefined || at === undefined) continue;
    const md = String(o.metadata?.labels?.[BOOTSTRAP_TOKEN_LABEL] ?? o.metadata?.name ?? '');
    const seen = newest.get(md);
    if (seen === undefined || at > seen.at) newest.set(md, { r, at, text });
  }
  for (const [md, { r, at, text }] of newest) {
    if (at > now.seconds) continue;
    out.push({
      severity: 'error',
      check: 'bootstrap-token-expiration',
      ...place(r, /expiration/),
      scenarios: [],
      message: `the newest bootstrap token Secret for ${md} expired at ${text} (time from ${now.source}): nodes of that MachineDeployment cannot join until osm-krm renders again and the result is applied`,
    });
  }
  return out;
}

function envNameFindings(objects: readonly RepositoryObject[], context: RepositoryContext): LintFinding[] {
  const out: LintFinding[] = [];
  for (const r of objects) {
    if (!isConfig(r.object)) continue;
    for (const { path, name } of envSources(r.object.spec, 'spec')) {
      if (envNameAllowed(name, context.listedEnvNames)) continue;
      out.push({
        severity: 'warning',
        check: 'env-name',
        ...place(r, new RegExp(`env:\\s*["']?${name.replace(/[^A-Za-z0-9_]/g, '.')}`)),
        scenarios: [],
        message: `${path} names environment variable ${JSON.stringify(name)}, which osm-krm will not read unless $${ENV_NAMES_ENV} lists it where osm-krm renders: ${envNameRefusal(name)}`,
      });
    }
  }
  return out;
}

/** Every `{env: NAME}` under a config's spec, with its field path. */
function* envSources(value: unknown, path: string): Generator<{ path: string; name: string }> {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) yield* envSources(v, `${path}[${i}]`);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    if (k === 'env' && typeof v === 'string') yield { path: `${path}.env`, name: v };
    else yield* envSources(v, `${path}.${k}`);
  }
}

function secretValue(o: KrmObject, key: string): string | undefined {
  const sd = (o.stringData as Record<string, unknown> | undefined)?.[key];
  if (typeof sd === 'string') return sd;
  const d = (o.data as Record<string, unknown> | undefined)?.[key];
  return typeof d === 'string' ? Buffer.from(d, 'base64').toString('utf8') : undefined;
}

/** The file, and the line of the first match within the object's document (a hint; none when not found). */
function place(r: RepositoryObject, pattern: RegExp): { file: string; line?: number } {
  // Documents with content, in order, as [start, end) offsets: what parseManifests counted.
  const bounds: Array<[number, number]> = [];
  let start = 0;
  const separator = /^---[^\n]*(?:\n|$)/gm;
  const push = (end: number) => {
    if (/^[^#\s]/m.test(r.text.slice(start, end))) bounds.push([start, end]);
  };
  for (let m = separator.exec(r.text); m !== null; m = separator.exec(r.text)) {
    push(m.index);
    start = m.index + m[0].length;
  }
  push(r.text.length);
  const doc = bounds[r.documentIndex];
  if (doc === undefined) return { file: r.file };
  const m = pattern.exec(r.text.slice(doc[0], doc[1]));
  return m === null ? { file: r.file } : { file: r.file, line: r.text.slice(0, doc[0] + m.index).split('\n').length };
}
