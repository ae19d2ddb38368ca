// An OperatingSystemProfile as a run knows it, keyed by namespace/name: an input item's (validated when the
// inputs are classified), an embedded default's (parsed and validated when a MachineDeployment first selects it)
// or the one an overlay makes (src/model/overlayProfiles.ts).
import type { KrmObject } from '../krm/resourceList.ts';
import { ResourceError } from '../krm/results.ts';
import type { OperatingSystemProfileSpec } from './operatingSystemProfile.ts';
import { validateOperatingSystemProfile } from './validateProfile.ts';
import { embeddedProfile } from '../profiles/embeddedProfiles.ts';
import { isNamespaceName, isObjectName } from './kubernetesNames.ts';
import type { LayeredSpec } from './applyOverlay.ts';

export interface ProfileEntry {
  name: string;
  namespace: string;
  spec: OperatingSystemProfileSpec;
  /** The spec a MachineDeployment on `cloud` renders with: an overlay's profile's for that cloud, `spec` otherwise. */
  specFor(cloud: string): OperatingSystemProfileSpec;
  /** metadata.annotations (osm-krm reads its own, e.g. RH_SUBSCRIPTION_ANNOTATION). */
  annotations: Readonly<Record<string, string>>;
  /** Where the profile came from, for error results (an overlay's profile: the overlay's item). */
  origin: { itemIndex?: number; builtin?: boolean };
  /** Set for the profile an OperatingSystemProfileOverlay makes (src/model/overlayProfiles.ts). */
  overlay?: OverlayStack;
}

/** An overlay's profile: the plain profile at the bottom, the overlays on it (bottom first), what each brought. */
export interface OverlayStack {
  base: { name: string; namespace: string; version: string; builtin: boolean; itemIndex?: number };
  overlays: ReadonlyArray<{ name: string; namespace: string; itemIndex: number }>;
  /** The clouds some overlay of the stack limits a change to (the spec differs there). */
  cloudsNamed: ReadonlySet<string>;
  /** The spec for a MachineDeployment on `cloud` (undefined: what every cloud gets), with what overlays brought. */
  layered(cloud: string | undefined): LayeredSpec;
}

export function profileKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The input item `index` holding the OSP `o`; throws the profile's validation error. */
export function inputProfileEntry(o: KrmObject, index: number, defaultNamespace: string): ProfileEntry {
  const name = o.metadata?.name;
  if (typeof name !== 'string' || name === '')
    throw new ResourceError('OperatingSystemProfile has no metadata.name', 'metadata.name');
  // MachineDeployments, the render state and the generated objects refer to a profile by its name.
  if (!isObjectName(name))
    throw new ResourceError(
      'metadata.name is not a valid Kubernetes name (lowercase RFC 1123 subdomain)',
      'metadata.name',
    );
  const namespace = profileNamespace(o, defaultNamespace);
  if (!isNamespaceName(namespace))
    throw new ResourceError('metadata.namespace is not a valid namespace (RFC 1123 label)', 'metadata.namespace');
  const spec = validateOperatingSystemProfile(o);
  return {
    name,
    namespace,
    spec,
    specFor: () => spec,
    annotations: stringMap(o.metadata?.annotations),
    origin: { itemIndex: index },
  };
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
    specFor() {
      return this.spec;
    },
  };
}

/** An OSP without a namespace is in the config namespace, where OSM looks for them. */
export function profileNamespace(o: KrmObject, defaultNamespace: string): string {
  return typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== ''
    ? o.metadata.namespace
    : defaultNamespace;
}

function stringMap(v: unknown): Record<string, string> {
  if (v === null || typeof v !== 'object') return {};
  return Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')) as Record<string, string>;
}
