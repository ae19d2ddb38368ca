// Running the KRM function in-process on objects read from disk, and turning its output into plain
// manifests: what `hydrate` writes and `generate` prints.
import { CONFIG_API_VERSION, CONFIG_KIND } from '../config/operatingSystemManagerConfig.ts';
import type { Environment } from '../cluster/valueSource.ts';
import { parseResourceList, type KrmObject } from '../krm/resourceList.ts';
import { stringifyForOutput } from '../krm/yamlSchema.ts';
import { NodeBudget } from '../krm/inputBounds.ts';
import type { Result } from '../krm/results.ts';
import { runFunction } from './runFunction.ts';
import { isLocalConfig } from '../krm/localConfig.ts';

export { isLocalConfig };
import { CommandError, type CommandIO } from './commandIO.ts';
import { illFormedPath, InvalidUnicodeError, invalidUnicodeMessage } from '../codec/wellFormedUnicode.ts';
import { untrustedLine } from './untrustedText.ts';

export interface RenderOutput {
  exitCode: number;
  /** Every output item: the inputs passed through and the generated resources, orchestrator annotations kept. */
  objects: KrmObject[];
  results: Result[];
}

const ERRORS_ONLY: ReadonlySet<string> = new Set(['error']);

/** Runs the function; error results are printed on stderr by the function, warnings and infos here. */
export function renderManifests(
  objects: readonly KrmObject[],
  functionConfig: KrmObject | undefined,
  io: CommandIO,
  env: Environment,
): RenderOutput {
  const list: Record<string, unknown> = { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', items: objects };
  if (functionConfig !== undefined) list.functionConfig = functionConfig;
  let stdout = '';
  // The objects were counted as they were read (readInputs.ts): their text and the output are not counted again.
  const exitCode = runFunction(
    stringifyForOutput(list),
    { stdout: (s) => (stdout += s), stderr: io.stderr, env, ...(io.secrets ? { secrets: io.secrets } : {}) },
    ERRORS_ONLY,
    NodeBudget.countedAlready(),
  );
  // Read back once: its items and its results.
  const output = parseResourceList(stdout, NodeBudget.countedAlready());
  const results = (Array.isArray(output.results) ? output.results : []) as Result[];
  for (const r of results) {
    if (r.severity !== 'error') io.stderr(`osm-krm: ${r.severity}: ${untrustedLine(describeResult(r))}\n`);
  }
  return { exitCode, objects: output.items.map((i) => i.object), results };
}

export function describeResult(r: Result): string {
  const ref = r.resourceRef
    ? `${r.resourceRef.kind} ${r.resourceRef.namespace ? `${r.resourceRef.namespace}/` : ''}${r.resourceRef.name}`
    : '';
  const where = [ref, r.file ? `(${r.file.path})` : ''].filter(Boolean).join(' ');
  return where ? `${where}: ${r.message}` : r.message;
}

export function isOsmConfig(o: KrmObject): boolean {
  return o.apiVersion === CONFIG_API_VERSION && o.kind === CONFIG_KIND;
}

/** What gets applied: no local-config resources, no function config. */
export function isAppliedManifest(o: KrmObject): boolean {
  return !isLocalConfig(o) && !isOsmConfig(o);
}

const LEGACY_ORCHESTRATOR_ANNOTATIONS = new Set([
  'config.kubernetes.io/path',
  'config.kubernetes.io/index',
  'config.k8s.io/id',
]);

/** Drops the annotations kpt/kustomize use while a function runs (and strip when they write files). */
export function withoutOrchestratorAnnotations(o: KrmObject): KrmObject {
  const annotations = o.metadata?.annotations;
  if (annotations === undefined || annotations === null) return o;
  const kept = Object.fromEntries(
    Object.entries(annotations).filter(
      ([k]) => !k.startsWith('internal.config.kubernetes.io/') && !LEGACY_ORCHESTRATOR_ANNOTATIONS.has(k),
    ),
  );
  const metadata: Record<string, unknown> = { ...o.metadata };
  if (Object.keys(kept).length > 0) metadata.annotations = kept;
  else delete metadata.annotations;
  return { ...o, metadata };
}

/** The path annotation kpt would write the object to, if any. */
export function pathAnnotationOf(o: KrmObject): string | undefined {
  const a = o.metadata?.annotations ?? {};
  const p = a['internal.config.kubernetes.io/path'] ?? a['config.kubernetes.io/path'];
  return typeof p === 'string' ? p : undefined;
}

/** One YAML document per object, `---` between them (YAML 1.1-safe scalars, block style). */
export function toYamlStream(objects: readonly KrmObject[]): string {
  return objects.map((o) => manifestText(o)).join('---\n');
}

/** An object as the manifest text we write; a string that is not valid Unicode is an error naming where. */
export function manifestText(o: KrmObject, file?: string): string {
  try {
    return stringifyForOutput(o);
  } catch (e) {
    if (!(e instanceof InvalidUnicodeError)) throw e;
    const ns = typeof o.metadata?.namespace === 'string' ? `${o.metadata.namespace}/` : '';
    throw new CommandError(
      invalidUnicodeMessage(
        `${String(o.kind)} ${ns}${String(o.metadata?.name)}${file ? ` (${file})` : ''}`,
        illFormedPath(o),
      ),
    );
  }
}
