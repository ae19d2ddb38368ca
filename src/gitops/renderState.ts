// What osm-krm remembers between renders, in Git, next to its output: a local-config ConfigMap
// (never applied) holding, per MachineDeployment, the revision it computed and the hash of the template it
// was computed for, and per OperatingSystemProfile the spec.version and a hash of its spec.
// kpt and `osm-krm hydrate` feed it back on the next render; kustomize and Argo CD read it from Git.
// A profile's entry is also what its immutability is checked against (nextProfileStates).
import { sha256Hex } from '../go/crypto/sha256.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { ResourceError } from '../krm/results.ts';
import { canonicalJson } from '../codec/canonicalJson.ts';
import { countJsonValues, JsonValueLimitReached, LONG_KEY } from '../codec/jsonValueCount.ts';

export const STATE_NAME = 'osm-krm-state';
export const STATE_PATH = 'osm-generated/state/osm-krm-state.yaml';

export interface MachineDeploymentState {
  revision: string;
  templateHash: string;
  /** The MachineDeployment itself was output as a generated copy (config-supplied RHEL subscription secrets). */
  generated?: true;
}

export interface ProfileState {
  version: string;
  specHash: string;
}

export interface RenderState {
  machineDeployments: Map<string, MachineDeploymentState>;
  profiles: Map<string, ProfileState>;
}

// ConfigMap keys allow [-._a-zA-Z0-9]; a namespace never contains '.', so "<ns>.<name>" is unambiguous.
export const stateKey = (namespace: string, name: string) => `${namespace}.${name}`;

export function emptyState(): RenderState {
  return { machineDeployments: new Map(), profiles: new Map() };
}

/** The state is recognised by what it is, wherever it comes from (kpt and hydrate give a path, kustomize none). */
export function isStateObject(o: KrmObject): boolean {
  return o.apiVersion === 'v1' && o.kind === 'ConfigMap' && o.metadata?.name === STATE_NAME;
}

const HASH = /^sha256:[0-9a-f]{64}$/;

/** How many keys the top-level object of a valid JSON text spells out (repeated ones counted each time). */
function topLevelKeys(json: string): number {
  let depth = 0;
  let keys = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      let j = i + 1;
      while (json[j] !== '"') j += json[j] === '\\' ? 2 : 1;
      let k = j + 1;
      while (/\s/.test(json[k] ?? '')) k++;
      if (depth === 1 && json[k] === ':') keys++;
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys;
}

/**
 * The JSON values an entry may hold: its object and the keys and values of a revision, a templateHash and a
 * generated flag (4 + 3 for a profile's version and specHash). Counted before JSON.parse, so an entry costs its
 * parse a few values whatever its length (31 million `{}` in one entry took 59 s and 3 GB).
 */
export const MAX_STATE_ENTRY_VALUES = 7;

/**
 * Reads the previous state. It is input like any other (a pull request can edit it), and a wrong entry would
 * give nodes a revision machine-controller never uses, so anything unexpected is an error naming the entry.
 */
export function readState(o: KrmObject): RenderState {
  const state = emptyState();
  const data = (o as { data?: unknown }).data ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new ResourceError("the state's data must be a map", 'data');
  for (const [key, raw] of Object.entries(data)) {
    const fail = (why: string) => new ResourceError(`state entry data.${key} ${why}`, `data.${key}`);
    const kind = key.startsWith('md.') ? 'md' : key.startsWith('osp.') ? 'osp' : undefined;
    if (kind === undefined) throw fail('is not a state entry (md.<namespace>.<name> or osp.<namespace>/<name>)');
    if (typeof raw !== 'string') throw fail('must be a string of JSON');
    let v: unknown;
    try {
      countJsonValues(raw, MAX_STATE_ENTRY_VALUES);
      v = JSON.parse(raw);
    } catch (e) {
      if (e instanceof JsonValueLimitReached && e.of === 'key') throw fail(`holds ${LONG_KEY}`);
      if (e instanceof JsonValueLimitReached)
        throw fail(
          `holds more than ${MAX_STATE_ENTRY_VALUES} JSON values: an entry is one object of a revision, a templateHash and a generated flag, or of a version and a specHash`,
        );
      throw fail('is not JSON');
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw fail('must be a JSON object');
    // JSON.parse keeps the last of two equal keys, where a reader of the file sees the first: refused, as the
    // YAML reader refuses them (which costs about 1.25 ms an entry: too much for 10,000 of them).
    if (topLevelKeys(raw) !== Object.keys(v).length) throw fail('repeats a key');
    const e = v as Record<string, unknown>;
    if (kind === 'md') {
      const revision = e.revision;
      if (typeof revision !== 'string' || !/^[1-9][0-9]*$/.test(revision) || !Number.isSafeInteger(Number(revision)))
        throw fail('has no valid revision: the revision must be a positive integer');
      if (typeof e.templateHash !== 'string' || !HASH.test(e.templateHash))
        throw fail('has no valid hash: templateHash must be sha256:<64 hex digits>');
      if (e.generated !== undefined && typeof e.generated !== 'boolean')
        throw fail('has a generated flag that is not a boolean');
      state.machineDeployments.set(key.slice(3), {
        revision,
        templateHash: e.templateHash,
        ...(e.generated === true ? { generated: true as const } : {}),
      });
    } else {
      if (typeof e.version !== 'string') throw fail('has no version (a string)');
      if (typeof e.specHash !== 'string' || !HASH.test(e.specHash))
        throw fail('has no valid hash: specHash must be sha256:<64 hex digits>');
      state.profiles.set(key.slice(4), { version: e.version, specHash: e.specHash });
    }
  }
  return state;
}

export function stateObject(namespace: string, state: RenderState): Record<string, unknown> {
  const data: Record<string, string> = {};
  const put = (prefix: string, m: Map<string, object>) => {
    for (const k of [...m.keys()].sort()) data[`${prefix}${k}`] = JSON.stringify(m.get(k));
  };
  put('md.', state.machineDeployments);
  put('osp.', state.profiles);
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: STATE_NAME,
      namespace,
      annotations: { 'config.kubernetes.io/local-config': 'true' },
    },
    data,
  };
}

/** sha256 over a canonical JSON form (sorted keys), so formatting and key order in Git never matter. */
export function contentHash(value: unknown): string {
  return 'sha256:' + sha256Hex(canonicalJson(value));
}

/**
 * The next state's profile entries, checked against the previous state: OSM's webhook refuses a changed OSP
 * spec under the same spec.version (and OSM would never roll nodes for it); Git cannot refuse an edit, so such
 * a profile gets an error here instead of an entry.
 */
export function nextProfileStates(
  next: RenderState,
  previous: RenderState,
  profiles: Iterable<readonly [key: string, profile: { name: string; spec: { version: string } }]>,
): Array<{ key: string; error: ResourceError }> {
  const errors: Array<{ key: string; error: ResourceError }> = [];
  for (const [key, { name, spec }] of profiles) {
    const current = { version: spec.version, specHash: contentHash(spec) };
    const before = previous.profiles.get(key);
    if (before && before.version === spec.version && before.specHash !== current.specHash) {
      const error = new ResourceError(
        `OperatingSystemProfile ${JSON.stringify(name)} changed but spec.version is still ${JSON.stringify(spec.version)}: bump spec.version so that nodes pick up the change (OSM rejects such an update as immutable)`,
        'spec.version',
      );
      errors.push({ key, error });
    } else next.profiles.set(key, current);
  }
  return errors;
}

/** A MachineDeployment whose committed state entry is older than its template (or missing from a committed state). */
export interface StaleStateEntry {
  key: string;
  /** The revision the committed state records (undefined: no entry). */
  committed?: string;
  /** The revision this render gives, which the state must record before the template changes again. */
  revision: string;
}

/**
 * Where a state that is committed by hand (kustomize, Argo CD) lags behind the templates rendered now: each
 * MachineDeployment whose revision this render moved, or which the state does not know. Unless the state is
 * updated, the next change of that template computes this revision again, which machine-controller will
 * already have used (it counts every applied template change: pkg/controller/machinedeployment/sync.go).
 * `tracked`: whether a MachineDeployment's revision comes from the state (none pinned in Git).
 */
export function staleStateEntries(
  committed: RenderState,
  next: RenderState,
  tracked: (key: string) => boolean,
): StaleStateEntry[] {
  const out: StaleStateEntry[] = [];
  for (const [key, now] of [...next.machineDeployments].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!tracked(key)) continue;
    const before = committed.machineDeployments.get(key);
    if (before === undefined) out.push({ key, revision: now.revision });
    else if (before.templateHash !== now.templateHash)
      out.push({ key, committed: before.revision, revision: now.revision });
  }
  return out;
}

/** What to tell the user about a stale entry (the MachineDeployment is named by where this is said). */
export function staleStateMessage(e: StaleStateEntry, where: string): string {
  const recorded =
    e.committed === undefined
      ? 'has no entry for this MachineDeployment'
      : `records revision ${e.committed} for another spec.template`;
  return (
    `the committed render state (${STATE_PATH}) ${recorded}: this render gives revision ${e.revision}, and ${where} never writes the state back; ` +
    `commit the state this render computes with this change, or the next change of spec.template gives revision ${e.revision} again, which machine-controller will already have used`
  );
}
