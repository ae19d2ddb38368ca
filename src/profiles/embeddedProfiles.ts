// The default OperatingSystemProfiles shipped inside the function (filled in by the default-profiles work).
import type { KrmObject } from '../io/resourceList.ts';

export const EMBEDDED_PROFILES: readonly KrmObject[] = [];
