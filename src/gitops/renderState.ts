// What osm-krm remembers between renders, in Git, next to its output: a local-config ConfigMap
// (never applied) holding, per MachineDeployment, the revision it computed and the hash of the template it
// was computed for, and per OperatingSystemProfile the spec.version and a hash of its spec.
// kpt and `osm-krm hydrate` feed it back on the next render; kustomize and Argo CD read it from Git.
import { sha256Hex } from '../go/crypto/sha256.ts';
import type { KrmObject } from '../krm/resourceList.ts';

export const STATE_NAME = 'osm-krm-state';
export const STATE_PATH = 'osm-generated/state/osm-krm-state.yaml';

export interface MachineDeploymentState {
  revision: string;
  templateHash: string;
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

export function isStateObject(o: KrmObject): boolean {
  return o.apiVersion === 'v1' && o.kind === 'ConfigMap' && o.metadata?.name === STATE_NAME;
}

/** Read the previous state; unreadable entries are ignored (state is advisory, never a reason to fail). */
export function readState(o: KrmObject | undefined): RenderState {
  const state = emptyState();
  const data = (o as { data?: Record<string, unknown> } | undefined)?.data ?? {};
  for (const [key, raw] of Object.entries(data)) {
    if (typeof raw !== 'string') continue;
    let v: any;
    try {
      v = JSON.parse(raw);
    } catch {
      continue;
    }
    if (key.startsWith('md.') && typeof v?.revision === 'string' && typeof v?.templateHash === 'string') {
      state.machineDeployments.set(key.slice(3), { revision: v.revision, templateHash: v.templateHash });
    } else if (key.startsWith('osp.') && typeof v?.version === 'string' && typeof v?.specHash === 'string') {
      state.profiles.set(key.slice(4), { version: v.version, specHash: v.specHash });
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

function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return '[' + v.map(canonicalJson).join(',') + ']';
  const o = v as Record<string, unknown>;
  return '{' + Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => JSON.stringify(k) + ':' + canonicalJson(o[k])).join(',') + '}';
}
