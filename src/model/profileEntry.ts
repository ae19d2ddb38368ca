// An OperatingSystemProfile as a run knows it, keyed by namespace/name: an input item's (validated when the
// inputs are classified) or an embedded default's (parsed and validated when a MachineDeployment first selects it).
import type { KrmObject } from '../krm/resourceList.ts';
import { ResourceError } from '../krm/results.ts';
import type { OperatingSystemProfileSpec } from './operatingSystemProfile.ts';
import { validateOperatingSystemProfile } from './validateProfile.ts';
import { embeddedProfile } from '../profiles/embeddedProfiles.ts';

export interface ProfileEntry {
  name: string;
  namespace: string;
  spec: OperatingSystemProfileSpec;
  /** metadata.annotations (osm-krm reads its own, e.g. RH_SUBSCRIPTION_ANNOTATION). */
  annotations: Readonly<Record<string, string>>;
  /** Where the profile came from, for error results. */
  origin: { itemIndex?: number; builtin?: boolean };
}

export function profileKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The input item `index` holding the OSP `o`; throws the profile's validation error. */
export function inputProfileEntry(o: KrmObject, index: number, defaultNamespace: string): ProfileEntry {
  const name = o.metadata?.name;
  if (typeof name !== 'string' || name === '') throw new ResourceError('OperatingSystemProfile has no metadata.name', 'metadata.name');
  const spec = validateOperatingSystemProfile(o);
  return { name, namespace: profileNamespace(o, defaultNamespace), spec, annotations: stringMap(o.metadata?.annotations), origin: { itemIndex: index } };
}

/** The embedded profile `name` in `namespace`, validated on first use (once per entry, so once per run). */
export function embeddedProfileEntry(name: string, namespace: string): ProfileEntry {
  let spec: OperatingSystemProfileSpec | undefined;
  return {
    name,
    namespace,
    origin: { builtin: true },
    get annotations() {
      return stringMap(embeddedProfile(name).metadata?.annotations);
    },
    get spec() {
      return (spec ??= validateOperatingSystemProfile(embeddedProfile(name)));
    },
  };
}

/** An OSP without a namespace is in the config namespace, where OSM looks for them. */
export function profileNamespace(o: KrmObject, defaultNamespace: string): string {
  return typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : defaultNamespace;
}

function stringMap(v: unknown): Record<string, string> {
  if (v === null || typeof v !== 'object') return {};
  return Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string>;
}
