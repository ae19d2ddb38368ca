// Validation of an input OperatingSystemProfile: our JSON Schema of the CRD, plus OSM's webhook rule.
import { validate } from './generated/validateOperatingSystemProfile.generated.js';
import { schemaError } from '../krm/schemaError.ts';
import { ResourceError } from '../krm/results.ts';
import type { OperatingSystemProfileSpec } from './operatingSystemProfile.ts';

export function validateOperatingSystemProfile(obj: unknown): OperatingSystemProfileSpec {
  if (!validate(obj)) throw schemaError('OperatingSystemProfile', validate.errors);
  const spec = (obj as { spec: OperatingSystemProfileSpec }).spec;
  if (spec.osName !== 'flatcar') {
    for (const half of ['bootstrapConfig', 'provisioningConfig'] as const) {
      if ((spec[half].units?.length ?? 0) > 0) {
        throw new ResourceError(`OperatingSystemProfile for ${spec.osName} does not support units`, `spec.${half}.units`);
      }
    }
  }
  return spec;
}
