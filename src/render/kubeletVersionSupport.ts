// Is the MachineDeployment's kubelet version one that machine-controller and the profile support? OSM renders
// any version without a word; we render too, with a warning that says which range applies.
import type { KubeletVersion } from './kubeletVersion.ts';

export interface MinorRange {
  /** Lowest and highest supported 1.x minor. */
  min: number;
  max: number;
}

/** machine-controller's docs/compatibility-matrix.md at the commit in ../shared/upstream/mc (Kubernetes 1.33–1.36). */
export const MACHINE_CONTROLLER_KUBERNETES: MinorRange = { min: 33, max: 36 };

/** What our embedded profiles are written and tested for (crictl v1.33.0–v1.36.0, test/profiles/matrix.test.ts). */
export const EMBEDDED_PROFILE_KUBERNETES: MinorRange = { min: 33, max: 36 };

export interface KubeletVersionFinding {
  severity: 'warning';
  message: string;
  field: string;
}

const text = (r: MinorRange): string => `1.${r.min}–1.${r.max}`;
const inside = (v: KubeletVersion, r: MinorRange): boolean => v.major === 1 && v.minor >= r.min && v.minor <= r.max;

/** A warning when the version is outside machine-controller's range or, for an embedded profile, the profile's. */
export function checkKubeletVersionSupport(
  v: KubeletVersion,
  profile: { name: string; builtin: boolean },
): KubeletVersionFinding | undefined {
  const outsideMC = !inside(v, MACHINE_CONTROLLER_KUBERNETES);
  const outsideProfile = profile.builtin && !inside(v, EMBEDDED_PROFILE_KUBERNETES);
  if (!outsideMC && !outsideProfile) return undefined;
  const ranges = [
    ...(outsideMC ? [`machine-controller supports Kubernetes ${text(MACHINE_CONTROLLER_KUBERNETES)}`] : []),
    ...(outsideProfile
      ? [`the embedded profile ${profile.name} is made for ${text(EMBEDDED_PROFILE_KUBERNETES)}`]
      : []),
  ];
  return {
    severity: 'warning',
    message: `kubelet ${v.text} is outside the supported range: ${ranges.join(' and ')}; the config is rendered, but nodes may not join`,
    field: 'spec.template.spec.versions.kubelet',
  };
}
