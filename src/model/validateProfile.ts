// Validation of an input OperatingSystemProfile: our JSON Schema of the CRD, plus OSM's webhook rule.
import { validate } from './generated/validateOperatingSystemProfile.generated.js';
import { schemaError } from '../krm/schemaError.ts';
import { ResourceError } from '../krm/results.ts';
import type { OperatingSystemProfileSpec, OSPConfig } from './operatingSystemProfile.ts';
import { isSafeValue } from './scriptValues.ts';

// systemd's unit name alphabet (unit_name_is_valid); drop-ins are file names in the unit's .d directory.
export const UNIT_NAME = /^[A-Za-z0-9:_.\\@-]{1,255}$/;

export function validateOperatingSystemProfile(obj: unknown): OperatingSystemProfileSpec {
  if (!validate(obj)) throw schemaError('OperatingSystemProfile', validate.errors);
  const spec = (obj as { spec: OperatingSystemProfileSpec }).spec;
  if (spec.osName !== 'flatcar') {
    for (const half of ['bootstrapConfig', 'provisioningConfig'] as const) {
      if ((spec[half].units?.length ?? 0) > 0) {
        throw new ResourceError(
          `OperatingSystemProfile for ${spec.osName} does not support units`,
          `spec.${half}.units`,
        );
      }
    }
  }
  for (const half of ['bootstrapConfig', 'provisioningConfig'] as const) checkNamesAndPaths(spec[half], `spec.${half}`);
  return spec;
}

const MAX_PATH_BYTES = 4096;
const MAX_NAME_BYTES = 255;

/** What Linux can write (PATH_MAX, NAME_MAX); a path is a key of every map of files besides. */
export function checkPathLength(path: string, field: string): void {
  if (Buffer.byteLength(path) > MAX_PATH_BYTES || path.split('/').some((n) => Buffer.byteLength(n) > MAX_NAME_BYTES))
    throw new ResourceError(
      `a file path may have at most ${MAX_PATH_BYTES.toLocaleString('en-US')} bytes, and ${MAX_NAME_BYTES} in each name (Linux writes no longer one)`,
      field,
    );
}

// Paths and unit names go into cloud-config, the Container Linux Config and systemd as they are.
function checkNamesAndPaths(cfg: OSPConfig | undefined, at: string): void {
  const files = [
    ...(cfg?.files ?? []).map((f, i) => [f, `${at}.files[${i}]`] as const),
    ...(cfg?.supportedContainerRuntimes ?? []).flatMap((r, j) =>
      (r.files ?? []).map((f, i) => [f, `${at}.supportedContainerRuntimes[${j}].files[${i}]`] as const),
    ),
  ];
  for (const [file, field] of files) {
    if (typeof file.path !== 'string' || !file.path.startsWith('/') || !isSafeValue(file.path, 'line')) {
      throw new ResourceError(
        'a file path must be absolute and one line without control characters (no line break of any kind)',
        `${field}.path`,
      );
    }
    checkPathLength(file.path, `${field}.path`);
  }
  (cfg?.units ?? []).forEach((unit, i) => {
    if (!UNIT_NAME.test(unit.name))
      throw new ResourceError(
        'a unit name may only contain letters, digits and : _ . \\ @ - (at most 255: systemd refuses longer)',
        `${at}.units[${i}].name`,
      );
    (unit.dropIns ?? []).forEach((d, j) => {
      if (!UNIT_NAME.test(d.name))
        throw new ResourceError(
          'a drop-in name may only contain letters, digits and : _ . \\ @ - (at most 255: systemd refuses longer)',
          `${at}.units[${i}].dropIns[${j}].name`,
        );
    });
  });
}
