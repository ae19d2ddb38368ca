// The default OperatingSystemProfiles shipped inside the function: src/profiles/osp-*.yaml, generated into
// embeddedProfiles.generated.ts by scripts/generate-embedded-profiles.mjs (a test fails when it is stale).
// A profile is parsed when a run first asks for it, and frozen through and through: every run of the process
// shares it, so none may change it for the next (`diff` and `lint` render many times in one process).
import type { KrmObject } from '../krm/resourceList.ts';
import { EMBEDDED_PROFILE_NAMES, embeddedProfileJson } from './generated/embeddedProfiles.generated.ts';

// In file order, which is the order emitted profiles are written in.
export { EMBEDDED_PROFILE_NAMES };

const parsed = new Map<string, KrmObject>();

/** The embedded profile `name` (one of EMBEDDED_PROFILE_NAMES); the same frozen object on every call. */
export function embeddedProfile(name: string): KrmObject {
  let p = parsed.get(name);
  if (p === undefined) {
    const json = embeddedProfileJson(name);
    if (json === undefined) throw new Error(`no embedded profile ${name}`);
    parsed.set(name, (p = deepFreeze(JSON.parse(json)) as KrmObject));
  }
  return p;
}

/** `v` with every object and array in it frozen (JSON values: no cycles). */
function deepFreeze(v: unknown): unknown {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** Every embedded profile, in file order. */
export function embeddedProfiles(): KrmObject[] {
  return EMBEDDED_PROFILE_NAMES.map(embeddedProfile);
}
