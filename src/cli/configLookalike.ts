// Objects that look like an osm-krm config without being one: a mistyped kind or apiVersion, or a ConfigMap
// of OSM flag names that is not the config in use. Taken for a plain manifest, such a file would leave the
// run on defaults without a word (and be applied to the cluster), so a directory holding one is an error.
import { CONFIG_API_VERSION, CONFIG_KIND, FLAG_NAMES } from '../config/operatingSystemManagerConfig.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { OVERLAY_API_VERSION, OVERLAY_KIND } from '../model/operatingSystemProfileOverlay.ts';

export interface Lookalike {
  field: string;
  why: string;
}

const CONFIG_GROUP = CONFIG_API_VERSION.split('/')[0]!;
const NORMALISED_KIND = normalise(CONFIG_KIND);
// `namespace` is too common a ConfigMap key to mark one as ours.
const DISTINCTIVE_FLAGS = new Set(FLAG_NAMES.filter((f) => f !== 'namespace'));

/** Why `o` looks like a config it is not, or undefined (a real config, or clearly something else). */
export function configLookalike(o: KrmObject): Lookalike | undefined {
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  if (kind === CONFIG_KIND && apiVersion === CONFIG_API_VERSION) return undefined;
  if (kind === OVERLAY_KIND && apiVersion === OVERLAY_API_VERSION) return undefined; // an input, not a config
  if (kind === CONFIG_KIND)
    return { field: 'apiVersion', why: `apiVersion ${JSON.stringify(apiVersion)} is not ${CONFIG_API_VERSION}` };
  const expected = `expected ${CONFIG_KIND} (${CONFIG_API_VERSION})`;
  if (apiVersion.split('/')[0] === CONFIG_GROUP)
    return {
      field: 'kind',
      why: `kind ${JSON.stringify(kind)} is not a kind of ${CONFIG_GROUP}: ${expected}, or ${OVERLAY_KIND}`,
    };
  if (editDistanceAtMost(normalise(kind), NORMALISED_KIND, 3))
    return { field: 'kind', why: `kind ${JSON.stringify(kind)} is close to ${CONFIG_KIND} but not it: ${expected}` };
  if (apiVersion === 'v1' && kind === 'ConfigMap') {
    const data = (o as { data?: unknown }).data;
    const keys =
      data !== null && typeof data === 'object'
        ? Object.keys(data).filter((k) => DISTINCTIVE_FLAGS.has(k.replace(/^-+/, '')))
        : [];
    if (keys.length > 0) {
      return {
        field: `data.${keys[0]}`,
        why: `looks like an osm-krm config (OSM flag keys ${keys.slice(0, 4).join(', ')}) but is not the config in use: name it as the config (--config FILE; in Argo CD the plugin setting "config"), or rename those keys`,
      };
    }
  }
  return undefined;
}

function normalise(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Levenshtein distance <= max, with an early exit (kinds are short). */
function editDistanceAtMost(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > max) return false;
    prev = row;
  }
  return prev[b.length]! <= max;
}
