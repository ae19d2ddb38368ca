// The default OperatingSystemProfiles shipped inside the function: src/profiles/osp-*.yaml, generated into
// embeddedProfiles.generated.ts by scripts/generate-embedded-profiles.mjs (a test fails when it is stale).
// A profile is parsed when a run first asks for it.
import type { KrmObject } from '../krm/resourceList.ts';
import { EMBEDDED_PROFILE_NAMES, embeddedProfileJson } from './generated/embeddedProfiles.generated.ts';

// In file order, which is the order emitted profiles are written in.
export { EMBEDDED_PROFILE_NAMES };

const parsed = new Map<string, KrmObject>();

/** The embedded profile `name` (one of EMBEDDED_PROFILE_NAMES); the same object on every call. */
export function embeddedProfile(name: string): KrmObject {
  let p = parsed.get(name);
  if (p === undefined) {
    const json = embeddedProfileJson(name);
    if (json === undefined) throw new Error(`no embedded profile ${name}`);
    parsed.set(name, (p = JSON.parse(json) as KrmObject));
  }
  return p;
}

/** Every embedded profile, in file order. */
export function embeddedProfiles(): KrmObject[] {
  return EMBEDDED_PROFILE_NAMES.map(embeddedProfile);
}
