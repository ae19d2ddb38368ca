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
// (outputDirectory.ts); every read goes through the file gate (fileGate.ts), inside SRC's allowed root
// (allowedRoots.ts) or OUT.
import { join, resolve } from 'node:path';
import type { KrmObject } from '../krm/resourceList.ts';
import { stringifyForOutput } from '../krm/yamlSchema.ts';
import { GENERATED_PATH_PREFIX, outputSet } from '../function/generatedPaths.ts';
import { isStateObject } from '../gitops/renderState.ts';
import { CommandError, runSubcommand, type CommandIO } from './commandIO.ts';
import type { CommandLine } from './commandLine.ts';
import { HYDRATE_COMMAND } from './commandSpecs.ts';
import { readManifestFile, statePaths } from './manifestDirectory.ts';
import { checkFactsNotDropped } from './droppedByKustomize.ts';
import {
  checkRelativePath,
  pathLengthProblem,
  readMarker,
  recoverInterruptedUpdate,
  updateOutputDirectory,
} from './outputDirectory.ts';
import {
  describeResult,
  isAppliedManifest,
  manifestText,
  pathAnnotationOf,
  renderManifests,
  withoutOrchestratorAnnotations,
} from './renderManifests.ts';
import {
  containedPath,
  decodeText,
  entryKind,
  isInside,
  readBytesInside,
  realPathOfMaybeMissing,
  rootAt,
  targetKind,
} from './fileGate.ts';
import { readInputs } from './readInputs.ts';
import { gatedEnvironment } from './allowedRoots.ts';
import { applyMountedSecrets } from './clusterSecrets.ts';
import { fluxSubstitutionFindings, withFluxSubstitutionDisabled } from '../gitops/fluxSubstitution.ts';
import { OSM_API_VERSION } from '../model/operatingSystemProfile.ts';
import { refOf } from '../krm/resultFor.ts';
import { untrustedLine } from './untrustedText.ts';
import { parseFunctionConfig, withoutSopsSettings } from '../config/operatingSystemManagerConfig.ts';
import { resolveSecretValue } from '../cluster/secretValue.ts';
import type { Environment } from '../cluster/valueSource.ts';
import { ResourceError } from '../krm/results.ts';
import type { SecretRegistry } from '../krm/redactSecrets.ts';
import { encryptManifests, type SopsSettings } from '../sops/encryptManifests.ts';
import { SopsError } from '../sops/sopsDocument.ts';

export { MARKER_FILE } from './outputDirectory.ts';
const KUSTOMIZATION_HEADER = '# Written by `osm-krm hydrate`; do not edit: the next run rewrites it.\n';
export const INPUTS_DIR = 'inputs/';

interface Options {
  src: string;
  out: string;
  config?: string;
}

export function runHydrateCommand(args: string[], io: CommandIO): number {
  return runSubcommand(
    HYDRATE_COMMAND,
    args,
    io,
    options,
    (opts, io) => hydrate(opts, io),
    () => true,
  );
}

function options(cl: CommandLine): Options {
  const config = cl.value('--config');
  return { src: cl.operands[0]!, out: cl.operands[1]!, ...(config !== undefined ? { config } : {}) };
}

function hydrate(opts: Options, io: CommandIO & { secrets: SecretRegistry }): number {
  const src = resolve(io.cwd, opts.src);
  const out = resolve(io.cwd, opts.out);
  if (targetKind(src) !== 'directory') throw new CommandError(`SRC ${opts.src} is not a directory`);
  checkSeparate(src, out, opts);

  // A run that died mid-swap is undone first: OUT is then as that run found it.
  const outExists = entryKind(out) !== 'missing';
  if (outExists) recoverInterruptedUpdate(out, opts.out);
  const previouslyOwned = outExists ? readMarker(out, opts.out) : new Map<string, string | undefined>();
  const input = readInputs(opts.src, io, {
    command: 'hydrate',
    ...(opts.config !== undefined ? { config: opts.config } : {}),
  });
  const config = applyMountedSecrets(input.config, io.env);
  checkFactsNotDropped(input, config);

  // Our own state from the last run in OUT wins over any state SRC carries (OUT is what was applied).
  let objects = input.objects;
  const outRoot = outExists ? rootAt(out, opts.out) : undefined;
  const outState =
    outRoot === undefined
      ? []
      : statePaths()
          .filter((p) => previouslyOwned.has(p) && targetKind(join(out, p)) !== 'missing')
          .flatMap((p) => readManifestFile(outRoot, p, input.budget).objects.map((o) => o.object))
          .filter(isStateObject);
  if (outState.length > 0) objects = [...objects.filter((o) => !isStateObject(o)), ...outState];

  // hydrate's output is for Flux: the OSPs it copies opt out of Flux's substitution like what it generates.
  objects = objects.map((o) => (isProfile(o) ? withFluxSubstitutionDisabled(o) : o));
  const env = gatedEnvironment(io.env, input.fileBase);
  // SOPS mode is this command's to honour (the function refuses it: it cannot encrypt what it prints).
  const sops = sopsSettings(config, env, io.secrets);
  const rendered = renderManifests(objects, config === undefined ? undefined : withoutSopsSettings(config), io, env);
  if (rendered.exitCode !== 0) {
    io.stderr(`osm-krm hydrate: nothing written to ${opts.out}\n`);
    return 1;
  }
  const gitops = parseFunctionConfig(config).gitops;
  // With syncAnnotations [flux] the function said so already.
  if (!gitops.syncAnnotations.includes('flux')) {
    for (const f of fluxSubstitutionFindings(objects.filter(isAppliedManifest)))
      io.stderr(
        `osm-krm: warning: ${untrustedLine(describeResult({ severity: 'warning', message: f.message, resourceRef: refOf(f.object) }))}\n`,
      );
  }
  const files = plannedFiles(rendered.objects, gitops.split);
  if (sops === undefined) return writeOutput(out, opts.out, files, io);
  // Every object holding a secret the run registered is encrypted before anything is written, or nothing is.
  const previous = (rel: string) =>
    previouslyOwned.has(rel) && outRoot !== undefined ? readOwnedFile(outRoot, rel) : undefined;
  let encrypted: Map<string, string>;
  try {
    encrypted = encryptManifests(files, previous, sops, io.secrets, undefined, (rel, reason) =>
      io.stderr(
        `osm-krm hydrate: note: ${opts.out}/${rel} was not read (${untrustedLine(reason)}): its Secrets are encrypted with a new data key, so its ciphertext changes\n`,
      ),
    );
  } catch (e) {
    throw e instanceof SopsError ? new CommandError(`${e.message}; nothing written to ${opts.out}`) : e;
  }
  if (io.secrets.boundReached)
    io.stderr(
      "osm-krm hydrate: note: checking some values for secrets went past the mask's bound (many secret values share a long prefix): they are encrypted as if they held one\n",
    );
  return writeOutput(out, opts.out, encrypted, io);
}

/** The one place OUT changes: all or nothing, only files hydrate wrote (outputDirectory.ts). */
function writeOutput(out: string, label: string, files: ReadonlyMap<string, string>, io: CommandIO): number {
  const r = updateOutputDirectory(out, label, files);
  for (const rel of r.leftAlone)
    io.stderr(`osm-krm hydrate: left ${label}/${rel} in place: it changed since hydrate wrote it\n`);
  io.stdout(
    `osm-krm hydrate: ${files.size} file(s) in ${label}: ${r.written} written, ${r.removed} removed, ${r.unchanged} unchanged\n`,
  );
  return 0;
}

/** The SOPS settings of the config, the seed resolved, or undefined when Secrets are written in clear. */
function sopsSettings(
  functionConfig: KrmObject | undefined,
  env: Environment,
  secrets: SecretRegistry,
): SopsSettings | undefined {
  let sops;
  try {
    sops = parseFunctionConfig(functionConfig).sops;
  } catch {
    return undefined; // the function reports the config's errors
  }
  if (sops === undefined) return undefined;
  let seed: string | undefined;
  try {
    seed = resolveSecretValue(sops.dataKeySeed, 'spec.sops.dataKeySeed', env, secrets);
  } catch (e) {
    if (e instanceof ResourceError) throw new CommandError(e.message);
    throw e;
  }
  if (seed === undefined || seed.trim().length < MIN_SEED_LENGTH)
    throw new CommandError(`spec.sops.dataKeySeed must be a secret of at least ${MIN_SEED_LENGTH} characters`);
  return { ageRecipients: sops.ageRecipients, dataKeySeed: seed.trim() };
}

const MIN_SEED_LENGTH = 32;

/** A file of the previous run, read through the gate inside OUT. */
function readOwnedFile(out: ReturnType<typeof rootAt>, rel: string): string | undefined {
  try {
    return decodeText(readBytesInside(out, containedPath(out.real, rel, out.label), rel), rel);
  } catch {
    return undefined;
  }
}

/** relative path in OUT -> content, kustomization.yaml included. */
function plannedFiles(objects: readonly KrmObject[], split: boolean): Map<string, string> {
  const files = new Map<string, string>();
  const resources: string[] = [];
  const add = (rel: string, o: KrmObject) => {
    const tooLong = pathLengthProblem(rel);
    if (tooLong !== undefined) throw new CommandError(`${describe(o)} cannot be written: its file's path ${tooLong}`);
    checkRelativePath(rel);
    if (files.has(rel)) throw new CommandError(`two resources would be written to ${rel} (${describe(o)} and another)`);
    files.set(rel, manifestText(withoutOrchestratorAnnotations(o), rel));
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
  const kustomization = (list: string[]) =>
    KUSTOMIZATION_HEADER +
    stringifyForOutput({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: list });
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
export const SPLIT_DIRECTORIES = (['management', 'worker'] as const).flatMap((set) => [
  `${GENERATED_PATH_PREFIX}${set}/`,
  `${INPUTS_DIR}${set}/`,
]);

/**
 * kpt's default file name for a resource: `[<namespace>/]<kind>_<name>.yaml`, under inputs/ (with the split, under
 * inputs/worker/ for MachineDeployments and Secrets, which machine-controller reads in the worker cluster, and
 * inputs/management/ for the rest, as the function splits what it generates).
 */
function inputPath(o: KrmObject, split: boolean): string {
  const ns = typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '' ? `${o.metadata.namespace}/` : '';
  const name = o.metadata?.name;
  if (typeof name !== 'string' || name === '')
    throw new CommandError(`a ${String(o.kind)} without metadata.name cannot be written`);
  return `${INPUTS_DIR}${split ? `${outputSet(o)}/` : ''}${ns}${String(o.kind).toLowerCase()}_${name}.yaml`;
}

function isProfile(o: KrmObject): boolean {
  return o.apiVersion === OSM_API_VERSION && o.kind === 'OperatingSystemProfile';
}

/** The object by kind, namespace and name, each cut short past 100 characters (a message never carries a whole input). */
function describe(o: KrmObject): string {
  const short = (v: unknown) => {
    const s = String(v);
    return s.length <= 100 ? s : `${s.slice(0, 60)}... (${s.length} characters)`;
  };
  const ns = o.metadata?.namespace ? `${short(o.metadata.namespace)}/` : '';
  return `${short(o.kind)} ${ns}${short(o.metadata?.name)}`;
}

function checkSeparate(src: string, out: string, opts: Options): void {
  // OUT may not exist yet: its closest existing ancestor is resolved.
  const s = realPathOfMaybeMissing(src);
  const o = realPathOfMaybeMissing(out);
  if (isInside(o, s))
    throw new CommandError(`OUT ${opts.out} must not be SRC or lie inside it (the next run would read its own output)`);
  if (isInside(s, o)) throw new CommandError(`SRC ${opts.src} must not lie inside OUT ${opts.out}`);
  if (entryKind(out) !== 'missing' && targetKind(out) !== 'directory')
    throw new CommandError(`OUT ${opts.out} exists and is not a directory`);
}
