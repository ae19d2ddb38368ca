// OSM's webhook refuses a changed OSP spec under the same spec.version (and OSM would never roll nodes
// for it). Git cannot refuse an edit, so we catch it at render time against the previous render's state.
import { ResourceError } from '../krm/results.ts';
import { contentHash, type ProfileState } from './renderState.ts';

export function checkProfileImmutable(
  name: string,
  version: string,
  spec: unknown,
  previous: ProfileState | undefined,
): ProfileState {
  const current = { version, specHash: contentHash(spec) };
  if (previous && previous.version === version && previous.specHash !== current.specHash) {
    throw new ResourceError(
      `OperatingSystemProfile ${JSON.stringify(name)} changed but spec.version is still ${JSON.stringify(version)}: bump spec.version so that nodes pick up the change (OSM rejects such an update as immutable)`,
      'spec.version',
    );
  }
  return current;
}
