// Settings that only some routes can honour. The function prints its output (to kpt, kustomize, Argo CD's
// `generate`, a terminal): a setting that asks for something else is refused on this route, naming the setting
// and the route that honours it, never ignored.
import { ResourceError } from '../krm/results.ts';
import { sopsSettingField } from '../config/operatingSystemManagerConfig.ts';

/** SOPS mode is `osm-krm hydrate`'s: it encrypts the files it writes. Here the Secrets would be printed in clear. */
export function unhonouredSopsSetting(
  functionConfig: Parameters<typeof sopsSettingField>[0],
): ResourceError | undefined {
  const field = sopsSettingField(functionConfig);
  if (field === undefined) return undefined;
  return new ResourceError(
    `${field}: SOPS encryption is done by \`osm-krm hydrate\` (Flux), which encrypts the files it writes; on this route (the KRM function under kpt or kustomize, or on stdin, or \`osm-krm generate\` for Argo CD) the output is printed as it is, so its Secrets and the OperatingSystemConfig would hold the tokens in clear. Render with \`osm-krm hydrate SRC OUT\`, or remove ${field} from this config`,
    field,
  );
}
