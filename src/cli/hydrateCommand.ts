// `osm-krm hydrate SRC OUT [--config FILE]`: the rendered-manifests pattern (Flux, Argo CD directory apps, CI).
// Renders SRC (a plain manifest directory or a kustomization) and writes OUT:
//   OUT/kustomization.yaml        lists every manifest below (kustomize, `kubectl apply -k`, Flux)
//   OUT/inputs/<ns>/<kind>_<name>.yaml       SRC's resources, passed through
//   OUT/osm-generated/<md-ns>/<md>/...       the generated OSCs and Secrets (the function's own paths)
//   OUT/osm-generated/state/osm-krm-state.yaml   the function's state (local-config, not listed; read back
//                                               on the next run so MachineDeployment revisions carry on)
//   OUT/.osm-krm-hydrate          the files this command wrote, with their SHA-256: the next run rewrites or
//                                 removes exactly those that still have it
// With spec.gitops.split the inputs go under inputs/{management,worker}/ and the generated objects under
// osm-generated/{management,worker}/, each of the four with its own kustomization.yaml.
// The output is for Flux: every generated object and every OSP copy opts out of post-build substitution.
// Local-config resources and the function config are not written. Running twice changes nothing; a file
// that this command did not write is never overwritten or deleted; OUT changes all or nothing
// (outputDirectory.ts); no symbolic link is followed out of SRC or OUT (containedPath.ts).
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { KrmObject } from '../krm/resourceList.ts';
import { stringifyForOutput } from '../krm/yamlSchema.ts';
import { GENERATED_PATH_PREFIX, outputSet } from '../function/generatedPaths.ts';
import { isStateObject } from '../gitops/renderState.ts';
import { CommandError, runSubcommand, UsageError, type CommandIO } from './commandIO.ts';
import { chooseFunctionConfig } from './functionConfigSource.ts';
import { isDirectory, readManifestDirectory, readManifestFile, statePaths } from './manifestDirectory.ts';
import { checkRelativePath, readMarker, recoverInterruptedUpdate, updateOutputDirectory } from './outputDirectory.ts';
import { describeResult, isAppliedManifest, pathAnnotationOf, renderManifests, withoutOrchestratorAnnotations } from './renderManifests.ts';
import { fluxSubstitutionFindings, withFluxSubstitutionDisabled } from '../gitops/fluxSubstitution.ts';
import { OSM_API_VERSION } from '../model/operatingSystemProfile.ts';
import { refOf } from '../krm/resultFor.ts';
import { untrustedLine } from './untrustedText.ts';
import { commandEnvironment } from './renderManifests.ts';
import { containedPath } from './containedPath.ts';
import { parseFunctionConfig } from '../config/operatingSystemManagerConfig.ts';
import { resolveValue } from '../cluster/valueSource.ts';
import { ResourceError } from '../krm/results.ts';
import { encryptSecretManifests, type SopsSettings } from '../sops/encryptSecretManifests.ts';
import { SopsError } from '../sops/sopsSecret.ts';

export const HYDRATE_USAGE = `usage: osm-krm hydrate SRC OUT [--config FILE]

Renders SRC and writes the result into OUT as plain manifests, one file per resource, plus a
kustomization.yaml listing them (for Flux, Argo CD, kubectl apply -k).
  SRC            a directory of manifests (every *.yaml below it), or a directory with a
                 kustomization.yaml (built with kustomize, or kubectl kustomize)
  OUT            the output directory (created if missing); it must not lie inside SRC
  --config FILE  the function config (OperatingSystemManager, or a ConfigMap of OSM flags); default:
                 the one OperatingSystemManager object found in SRC
Running it again with the same SRC changes nothing; files of resources that are gone are removed.
Only files listed in OUT/.osm-krm-hydrate (written by the previous run, unchanged since) are ever
replaced or removed. OUT changes all or nothing: on any error it stays as it was.
`;

export { MARKER_FILE } from './outputDirectory.ts';
const KUSTOMIZATION_HEADER = '# Written by `osm-krm hydrate`; do not edit: the next run rewrites it.\n';
export const INPUTS_DIR = 'inputs/';

interface Options {
  src: string;
  out: string;
  config?: string;
}

/** A number, or a promise of one in SOPS mode (age-encryption is asynchronous). */
export function runHydrateCommand(args: string[], io: CommandIO): number | Promise<number> {
  return runSubcommand('hydrate', HYDRATE_USAGE, args, io, parseArgs, (opts) => hydrate(opts, io));
}

function parseArgs(args: readonly string[]): Options | 'help' {
  const positional: string[] = [];
  let config: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-h' || a === '--help') return 'help';
    if (a === '--config') {
      config = args[++i];
      if (config === undefined) throw new UsageError('--config needs a value');
    } else if (a.startsWith('--config=')) {
      config = a.slice('--config='.length);
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a}`);
    } else {
      positional.push(a);
    }
  }
  if (positional.length !== 2) throw new UsageError(`expected SRC and OUT, got ${positional.length} argument(s)`);
  if (config === '') throw new UsageError('--config needs a value');
  return { src: positional[0]!, out: positional[1]!, ...(config !== undefined ? { config } : {}) };
}

function hydrate(opts: Options, io: CommandIO): number | Promise<number> {
  const src = resolve(io.cwd, opts.src);
  const out = resolve(io.cwd, opts.out);
  const configFile = opts.config === undefined ? undefined : resolve(io.cwd, opts.config);
  if (!isDirectory(src)) throw new CommandError(`SRC ${opts.src} is not a directory`);
  checkSeparate(src, out, opts);

  // A run that died mid-swap is undone first: OUT is then as that run found it.
  if (existsSync(out)) recoverInterruptedUpdate(out, opts.out);
  const previouslyOwned = existsSync(out) ? readMarker(out, opts.out) : new Map<string, string | undefined>();
  const input = readManifestDirectory(src, io, configFile === undefined ? [] : [configFile]);
  const chosen = chooseFunctionConfig(src, input, configFile);

  // Our own state from the last run in OUT wins over any state SRC carries (OUT is what was applied).
  let objects = chosen.objects;
  const outState = statePaths().filter((p) => previouslyOwned.has(p) && existsSync(join(out, p))).flatMap((p) => readManifestFile(out, p)).filter(isStateObject);
  if (outState.length > 0) objects = [...objects.filter((o) => !isStateObject(o)), ...outState];

  // hydrate's output is for Flux: the OSPs it copies opt out of Flux's substitution like what it generates.
  objects = objects.map((o) => (isProfile(o) ? withFluxSubstitutionDisabled(o) : o));
  const rendered = renderManifests(objects, chosen.config, io);
  if (rendered.exitCode !== 0) {
    io.stderr(`osm-krm hydrate: nothing written to ${opts.out}\n`);
    return 1;
  }
  const gitops = parseFunctionConfig(chosen.config).gitops;
  // With syncAnnotations [flux] the function said so already.
  if (!gitops.syncAnnotations.includes('flux')) {
    for (const f of fluxSubstitutionFindings(objects.filter(isAppliedManifest))) io.stderr(`osm-krm: warning: ${untrustedLine(describeResult({ severity: 'warning', message: f.message, resourceRef: refOf(f.object) }))}\n`);
  }
  const files = plannedFiles(rendered.objects, gitops.split);
  const sops = sopsSettings(chosen.config, io);
  if (sops === undefined) return writeOutput(out, opts.out, files, io);
  // SOPS mode: Secrets are encrypted before anything is written (asynchronous: age-encryption's API).
  const previous = (rel: string) => (previouslyOwned.has(rel) ? readOwnedFile(out, rel, opts.out) : undefined);
  return encryptSecretManifests(files, previous, sops).then(
    (encrypted) => writeOutput(out, opts.out, encrypted, io),
    (e) => {
      throw e instanceof SopsError ? new CommandError(e.message) : e;
    },
  );
}

/** The one place OUT changes: all or nothing, only files hydrate wrote (outputDirectory.ts). */
function writeOutput(out: string, label: string, files: ReadonlyMap<string, string>, io: CommandIO): number {
  const r = updateOutputDirectory(out, label, files);
  for (const rel of r.leftAlone) io.stderr(`osm-krm hydrate: left ${label}/${rel} in place: it changed since hydrate wrote it\n`);
  io.stdout(`osm-krm hydrate: ${files.size} file(s) in ${label}: ${r.written} written, ${r.removed} removed, ${r.unchanged} unchanged\n`);
  return 0;
}

/** The SOPS settings of the config, the seed resolved, or undefined when Secrets are written in clear. */
function sopsSettings(functionConfig: KrmObject | undefined, io: CommandIO): SopsSettings | undefined {
  const sops = parseFunctionConfig(functionConfig).sops;
  if (sops === undefined) return undefined;
  let seed: string | undefined;
  try {
    seed = resolveValue(sops.dataKeySeed, 'spec.sops.dataKeySeed', commandEnvironment(io));
  } catch (e) {
    if (e instanceof ResourceError) throw new CommandError(e.message);
    throw e;
  }
  if (seed === undefined || seed.trim().length < MIN_SEED_LENGTH) throw new CommandError(`spec.sops.dataKeySeed must be a secret of at least ${MIN_SEED_LENGTH} characters`);
  return { ageRecipients: sops.ageRecipients, dataKeySeed: seed.trim() };
}

const MIN_SEED_LENGTH = 32;

/** A file of the previous run, read without following a link out of OUT. */
function readOwnedFile(out: string, rel: string, label: string): string | undefined {
  try {
    return readFileSync(containedPath(out, rel, label), 'utf8');
  } catch {
    return undefined;
  }
}

/** relative path in OUT -> content, kustomization.yaml included. */
function plannedFiles(objects: readonly KrmObject[], split: boolean): Map<string, string> {
  const files = new Map<string, string>();
  const resources: string[] = [];
  const add = (rel: string, o: KrmObject) => {
    checkRelativePath(rel);
    if (files.has(rel)) throw new CommandError(`two resources would be written to ${rel} (${describe(o)} and another)`);
    files.set(rel, stringifyForOutput(withoutOrchestratorAnnotations(o)));
  };
  for (const o of objects) {
    const path = pathAnnotationOf(o);
    const generated = path !== undefined && path.startsWith(GENERATED_PATH_PREFIX);
    if (generated && isStateObject(o)) {
      add(path, o); // local-config: kept for the next run, not listed
      continue;
    }
    if (!isAppliedManifest(o)) continue;
    const rel = generated ? path : inputPath(o, split);
    add(rel, generated ? withFluxSubstitutionDisabled(o) : o);
    resources.push(rel);
  }
  resources.sort();
  const kustomization = (list: string[]) => KUSTOMIZATION_HEADER + stringifyForOutput({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: list });
  files.set('kustomization.yaml', kustomization(resources));
  // The management/worker split: a kustomization for each set's generated objects and inputs, so each can be a
  // Flux Kustomization of its own; the worker inputs' (the MachineDeployments) dependsOn the worker Secrets'.
  if (split) {
    for (const dir of SPLIT_DIRECTORIES) {
      const inDir = resources.filter((r) => r.startsWith(dir)).map((r) => r.slice(dir.length));
      if (inDir.length > 0) files.set(`${dir}kustomization.yaml`, kustomization(inDir));
    }
  }
  return files;
}

/** With spec.gitops.split, each of these gets a kustomization.yaml of its own. */
export const SPLIT_DIRECTORIES = (['management', 'worker'] as const).flatMap((set) => [`${GENERATED_PATH_PREFIX}${set}/`, `${INPUTS_DIR}${set}/`]);

/**
 * kpt's default file name for a resource: `[<namespace>/]<kind>_<name>.yaml`, under inputs/ (with the split, under
 * inputs/worker/ for MachineDeployments and Secrets, which machine-controller reads in the worker cluster, and
 * inputs/management/ for the rest, as the function splits what it generates).
 */
function inputPath(o: KrmObject, split: boolean): string {
  const ns = typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '' ? `${o.metadata.namespace}/` : '';
  const name = o.metadata?.name;
  if (typeof name !== 'string' || name === '') throw new CommandError(`a ${String(o.kind)} without metadata.name cannot be written`);
  return `${INPUTS_DIR}${split ? `${outputSet(o)}/` : ''}${ns}${String(o.kind).toLowerCase()}_${name}.yaml`;
}

function isProfile(o: KrmObject): boolean {
  return o.apiVersion === OSM_API_VERSION && o.kind === 'OperatingSystemProfile';
}

function describe(o: KrmObject): string {
  const ns = o.metadata?.namespace ? `${String(o.metadata.namespace)}/` : '';
  return `${String(o.kind)} ${ns}${String(o.metadata?.name)}`;
}

function checkSeparate(src: string, out: string, opts: Options): void {
  const real = (p: string) => {
    // OUT may not exist yet: resolve its closest existing ancestor.
    let q = p;
    const rest: string[] = [];
    while (!existsSync(q)) {
      rest.unshift(q.slice(dirname(q).length + 1));
      q = dirname(q);
    }
    return join(realpathSync(q), ...rest);
  };
  const s = real(src);
  const o = real(out);
  const inside = (a: string, b: string) => a === b || a.startsWith(b.endsWith(sep) ? b : b + sep);
  if (inside(o, s)) throw new CommandError(`OUT ${opts.out} must not be SRC or lie inside it (the next run would read its own output)`);
  if (inside(s, o)) throw new CommandError(`SRC ${opts.src} must not lie inside OUT ${opts.out}`);
  if (existsSync(out) && !isDirectory(out)) throw new CommandError(`OUT ${opts.out} exists and is not a directory`);
}
