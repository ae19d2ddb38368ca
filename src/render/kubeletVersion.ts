// The MachineDeployment's kubelet version as OSM normalises it: Masterminds/semver NewVersion (lenient:
// "1.31" is 1.31.0, a leading "v" is accepted), printed without "v", then "v" prefixed: "v1.31.0".
import { ResourceError } from '../krm/results.ts';

const LOOSE =
  /^v?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export interface KubeletVersion {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
  /** "vX.Y.Z[-pre][+meta]" */
  text: string;
}

export function parseKubeletVersion(raw: string, field = 'spec.template.spec.versions.kubelet'): KubeletVersion {
  const m = LOOSE.exec(raw);
  const invalid = () =>
    new ResourceError(`invalid kubelet version: ${JSON.stringify(raw)} is not a semantic version`, field);
  if (!m) throw invalid();
  // Numeric pre-release identifiers must not have leading zeros (semver 2.0.0).
  if (m[4] && m[4].split('.').some((p) => /^0[0-9]+$/.test(p))) throw invalid();
  const nums = [m[1], m[2] ?? '0', m[3] ?? '0'].map((s) => {
    if (s!.length > 1 && s!.startsWith('0')) throw invalid();
    return Number(s);
  });
  const [major, minor, patch] = nums as [number, number, number];
  const prerelease = m[4] ?? '';
  const text = `v${major}.${minor}.${patch}` + (prerelease ? `-${prerelease}` : '') + (m[5] ? `+${m[5]}` : '');
  return { major, minor, patch, prerelease, text };
}

/** `>= 1.29` as Masterminds evaluates it (a pre-release never satisfies a constraint without one). */
export function atLeast(v: KubeletVersion, major: number, minor: number): boolean {
  if (v.prerelease) return false;
  return v.major > major || (v.major === major && v.minor >= minor);
}
