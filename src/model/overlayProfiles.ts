// The profiles a run's overlays give: each overlay's stack (its base, the base's base...) resolved down to a
// plain profile, applied bottom-up, checked like any profile, and made a ProfileEntry of the overlay's name.
//
// The profile's version is the base's, with build metadata `ov-<12 hex>`: a SHA-256 over the base's version and
// spec and the overlay's spec (canonical JSON). Any change of the base (an osm-krm upgrade bumping an embedded
// profile, an edit of the user's OSP, a lower overlay) or of the overlay gives a new version, and the same
// inputs the same version, whatever their order.
import { ResourceError } from '../krm/results.ts';
import { canonicalJson } from '../codec/canonicalJson.ts';
import { sha256Hex } from '../go/crypto/sha256.ts';
import { newTemplate, TemplateError, type TemplateLimits } from '../template/index.ts';
import { osmTemplateFuncs } from '../sprig/index.ts';
import { OSM_API_VERSION } from './operatingSystemProfile.ts';
import type { Overlay } from './operatingSystemProfileOverlay.ts';
import { applyOverlay, originKey, type LayeredSpec, type OverlayLayer, type OverlayOrigin } from './applyOverlay.ts';
import { validateOperatingSystemProfile } from './validateProfile.ts';
import { profileKey, type OverlayStack, type ProfileEntry } from './profileEntry.ts';
import { didYouMean } from './closestName.ts';

/** How deep overlays may stack: far beyond any use, and a bound on what one run builds. */
export const MAX_OVERLAY_DEPTH = 16;

export interface InputOverlay {
  overlay: Overlay;
  itemIndex: number;
}

export interface OverlayResolution {
  /** The overlays' profiles, by namespace/name. */
  entries: Map<string, ProfileEntry>;
  /** Errors, each on an overlay's input item. */
  errors: Array<{ itemIndex: number; error: unknown }>;
  /** Overlays that did not resolve (namespace/name): their MachineDeployments are not rendered. */
  broken: Set<string>;
}

/**
 * Resolves every overlay against the plain profiles (inputs and embedded) and each other; `brokenProfiles`: input
 * profiles (namespace/name) with an error of their own.
 */
export function resolveOverlays(
  overlays: readonly InputOverlay[],
  profiles: ReadonlyMap<string, ProfileEntry>,
  brokenProfiles: ReadonlySet<string> = new Set(),
  /** The run's spec.templateLimits: an overlay's templates are parsed on them (a parse tree outgrows its text). */
  templateLimits: Partial<TemplateLimits> = {},
): OverlayResolution {
  const byKey = new Map<string, InputOverlay>();
  const out: OverlayResolution = { entries: new Map(), errors: [], broken: new Set() };
  for (const o of overlays) {
    const k = profileKey(o.overlay.namespace, o.overlay.name);
    if (byKey.has(k)) {
      out.errors.push({
        itemIndex: o.itemIndex,
        error: new ResourceError(`duplicate OperatingSystemProfileOverlay ${k}`, 'metadata.name'),
      });
      out.broken.add(k);
      continue;
    }
    const plain = profiles.get(k);
    if (plain !== undefined) {
      const what = plain.origin.builtin ? 'an embedded default profile' : 'an OperatingSystemProfile in the inputs';
      out.errors.push({
        itemIndex: o.itemIndex,
        error: new ResourceError(
          `OperatingSystemProfileOverlay ${k} has the name of ${what}: give the overlay a name of its own (MachineDeployments name it in k8c.io/operating-system-profile)`,
          'metadata.name',
        ),
      });
      out.broken.add(k);
      continue;
    }
    byKey.set(k, o);
  }
  const resolving = new Set<string>();
  const resolve = (k: string, chain: readonly string[]): ProfileEntry | undefined => {
    const done = out.entries.get(k);
    if (done !== undefined || out.broken.has(k)) return done;
    const o = byKey.get(k)!;
    const fail = (error: unknown) => {
      out.errors.push({ itemIndex: o.itemIndex, error });
      out.broken.add(k);
      return undefined;
    };
    if (resolving.has(k)) {
      // Every overlay of the cycle gets the error, each seeing the cycle from itself.
      const cycle = chain.slice(chain.indexOf(k));
      cycle.forEach((m, i) => {
        out.errors.push({
          itemIndex: byKey.get(m)!.itemIndex,
          error: new ResourceError(
            `overlays form a cycle: ${[...cycle.slice(i), ...cycle.slice(0, i), m].join(' -> ')}`,
            'spec.base',
          ),
        });
        out.broken.add(m);
      });
      return undefined;
    }
    if (chain.length >= MAX_OVERLAY_DEPTH)
      return fail(
        new ResourceError(
          `overlays stack more than ${MAX_OVERLAY_DEPTH} deep: ${[...chain, k].join(' -> ')}`,
          'spec.base',
        ),
      );
    const baseKey = profileKey(o.overlay.namespace, o.overlay.spec.base);
    let base: ProfileEntry | undefined;
    if (byKey.has(baseKey)) {
      resolving.add(k);
      base = resolve(baseKey, [...chain, k]);
      resolving.delete(k);
      if (out.broken.has(k)) return undefined; // a cycle through it, already reported
      if (base === undefined)
        return fail(new ResourceError(`its base, overlay ${baseKey}, has an error (reported on it)`, 'spec.base'));
    } else {
      base = profiles.get(baseKey);
      if (base === undefined && brokenProfiles.has(baseKey))
        return fail(
          new ResourceError(`its base, OperatingSystemProfile ${baseKey}, has an error (reported on it)`, 'spec.base'),
        );
      if (base === undefined) {
        const names = [...profiles.values(), ...[...byKey.values()].map((x) => x.overlay)]
          .filter((p) => p.namespace === o.overlay.namespace)
          .map((p) => p.name);
        const elsewhere = [...profiles.values()]
          .filter((p) => p.name === o.overlay.spec.base)
          .map((p) => JSON.stringify(p.namespace));
        return fail(
          new ResourceError(
            `base profile ${JSON.stringify(o.overlay.spec.base)} not found in namespace ${JSON.stringify(o.overlay.namespace)}${elsewhere.length > 0 ? ` (the inputs have it in namespace ${elsewhere.join(', ')}: an overlay's base is in the overlay's namespace)` : didYouMean(o.overlay.spec.base, names)}`,
            'spec.base',
          ),
        );
      }
    }
    try {
      const entry = overlayEntry(o, base, templateLimits);
      out.entries.set(k, entry);
      return entry;
    } catch (e) {
      return fail(e);
    }
  };
  for (const k of [...byKey.keys()].sort()) resolve(k, []);
  return out;
}

/** The profile `o` gives on `base`; throws an error on the overlay (or, for a template, the field that brought it). */
function overlayEntry(o: InputOverlay, base: ProfileEntry, templateLimits: Partial<TemplateLimits>): ProfileEntry {
  const baseSpec = base.spec; // validates an embedded base on first use
  const stack: Pick<OverlayStack, 'base' | 'overlays'> = base.overlay
    ? {
        base: base.overlay.base,
        overlays: [
          ...base.overlay.overlays,
          { name: o.overlay.name, namespace: o.overlay.namespace, itemIndex: o.itemIndex },
        ],
      }
    : {
        base: {
          name: base.name,
          namespace: base.namespace,
          version: baseSpec.version,
          builtin: base.origin.builtin === true,
          ...(base.origin.itemIndex !== undefined ? { itemIndex: base.origin.itemIndex } : {}),
        },
        overlays: [{ name: o.overlay.name, namespace: o.overlay.namespace, itemIndex: o.itemIndex }],
      };
  const layer: OverlayLayer = {
    overlay: o.overlay,
    itemIndex: o.itemIndex,
    depth: stack.overlays.length,
    baseLabel: `${base.name} ${baseSpec.version}`,
  };
  const version = overlayVersion(baseSpec.version, {
    baseVersion: baseSpec.version,
    base: baseSpec,
    overlay: o.overlay.spec,
  });
  const baseLayers = (cloud: string | undefined): LayeredSpec =>
    base.overlay ? base.overlay.layered(cloud) : { spec: baseSpec, origins: new Map() };
  const clouds = cloudsNamed(o, base);

  checkTemplatesParse(o, templateLimits);
  const layered = new Map<string | undefined, LayeredSpec>();
  const layeredFor = (cloud: string | undefined): LayeredSpec => {
    const key = cloud !== undefined && clouds.has(cloud) ? cloud : undefined;
    let l = layered.get(key);
    if (l === undefined) {
      const applied = applyOverlay(baseLayers(key), layer, key);
      applied.spec.version = version;
      validateResult(o, applied);
      layered.set(key, (l = applied));
    }
    return l;
  };
  const independent = layeredFor(undefined);
  // Every cloud a change is limited to is checked now, so its conflicts are found without a MachineDeployment.
  for (const cloud of [...clouds].sort())
    if ((independent.spec.supportedCloudProviders ?? []).some((c) => c.name === cloud)) layeredFor(cloud);
  return {
    name: o.overlay.name,
    namespace: o.overlay.namespace,
    spec: independent.spec,
    specFor: (cloud) => layeredFor(cloud).spec,
    annotations: base.annotations,
    origin: { itemIndex: o.itemIndex },
    overlay: { ...stack, cloudsNamed: clouds, layered: layeredFor },
  };
}

/** The clouds any overlay of the stack limits a change to: the profile differs there. */
function cloudsNamed(o: InputOverlay, base: ProfileEntry): Set<string> {
  const s = new Set(base.overlay?.cloudsNamed ?? []);
  const spec = o.overlay.spec;
  for (const x of [
    ...(spec.files ?? []),
    ...(spec.units ?? []),
    ...(spec.templates ?? []),
    ...(spec.commands?.beforeSetup ?? []),
    ...(spec.commands?.afterSetup ?? []),
  ]) {
    if (typeof x !== 'string') for (const c of x.clouds ?? []) s.add(c);
  }
  return s;
}

function overlayVersion(baseVersion: string, content: unknown): string {
  const hash = sha256Hex(canonicalJson(content)).slice(0, 12);
  return `${baseVersion}${baseVersion.includes('+') ? '.' : '+'}ov-${hash}`;
}

/**
 * The overlay's own template texts parse (alone: named templates they call are found at render time), each
 * within the template limits (the parse is metered: no text is parsed for free).
 */
function checkTemplatesParse(o: InputOverlay, limits: Partial<TemplateLimits>): void {
  const texts = [
    ...(o.overlay.spec.files ?? []).flatMap((f, i) =>
      'template' in f.content
        ? [{ name: f.path, text: f.content.template, field: `spec.files[${i}].content.template` }]
        : [],
    ),
    ...(o.overlay.spec.templates ?? []).map((t, i) => ({
      name: t.name,
      text: t.template,
      field: `spec.templates[${i}].template`,
    })),
  ];
  for (const { name, text, field } of texts) {
    try {
      newTemplate(name, { funcs: osmTemplateFuncs, limits }).parse(text);
    } catch (e) {
      if (e instanceof TemplateError) throw new ResourceError(`the template does not parse: ${e.message}`, field);
      throw e;
    }
  }
}

/** The OSP schema and checks on the result; an error inside something an overlay brought points at its field. */
function validateResult(o: InputOverlay, applied: LayeredSpec): void {
  try {
    validateOperatingSystemProfile({
      apiVersion: OSM_API_VERSION,
      kind: 'OperatingSystemProfile',
      metadata: { name: o.overlay.name, namespace: o.overlay.namespace },
      spec: applied.spec,
    });
  } catch (e) {
    if (!(e instanceof ResourceError)) throw e;
    const at = overlayOriginOf(applied, e.fieldPath);
    throw new ResourceError(
      `the profile this overlay makes is not a valid OperatingSystemProfile: ${e.message}`,
      at !== undefined && at.overlay === `${o.overlay.namespace}/${o.overlay.name}` ? at.field : 'spec.base',
    );
  }
}

/**
 * What an overlay brought at `fieldPath` of the resulting spec (spec.provisioningConfig.files[3].content...,
 * spec.bootstrapConfig.units[1].dropIns[0]..., spec.provisioningConfig.templates.NAME), or undefined (the base's).
 */
export function overlayOriginOf(layered: LayeredSpec, fieldPath: string | undefined): OverlayOrigin | undefined {
  const m =
    /^spec\.(bootstrap|provisioning)Config\.(?:supportedContainerRuntimes\[(\d+)\]\.)?(files|units|templates)(?:\[(\d+)\](?:\.dropIns\[(\d+)\])?|\.([^.[]+))/.exec(
      fieldPath ?? '',
    );
  if (m === null) return undefined;
  const config = m[1] as 'bootstrap' | 'provisioning';
  const cfg = layered.spec[`${config}Config`];
  const holder = m[2] !== undefined ? cfg?.supportedContainerRuntimes?.[Number(m[2])] : cfg;
  if (m[3] === 'files') {
    const f = holder?.files?.[Number(m[4])];
    return f === undefined ? undefined : layered.origins.get(originKey('file', config, f.path));
  }
  if (m[3] === 'templates')
    return m[6] === undefined ? undefined : layered.origins.get(originKey('template', config, m[6]));
  const u = cfg?.units?.[Number(m[4])];
  if (u === undefined) return undefined;
  const d = m[5] === undefined ? undefined : u.dropIns?.[Number(m[5])];
  return d !== undefined
    ? layered.origins.get(originKey('drop-in', config, `${u.name}/${d.name}`))
    : layered.origins.get(originKey('unit', config, u.name));
}
