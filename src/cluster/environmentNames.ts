// Which environment variables a config may name in `{env: NAME}`. A config comes from Git, where a pull request
// can change it, while osm-krm runs next to credentials that are not the repository's (the Argo CD sidecar's, a CI
// runner's); a name the config chose would copy any of them into the output. So a config names only variables set
// for osm-krm: the OSM_ prefix (not OSM_KRM_, osm-krm's own settings), the Application's plugin env (Argo CD passes
// `spec.source.plugin.env` NAME as ARGOCD_ENV_NAME; whoever writes the Application sets it) and the names whoever
// runs osm-krm lists in $OSM_KRM_ENV_NAMES (never read from Git).

export const ENV_NAMES_ENV = 'OSM_KRM_ENV_NAMES';

const ALLOWED_PREFIXES = ['OSM_', 'ARGOCD_ENV_'] as const;
const OWN_SETTINGS_PREFIX = 'OSM_KRM_';

/** The names $OSM_KRM_ENV_NAMES lists: separated by commas, colons or white space. */
export function listedEnvNames(listed: string | undefined): ReadonlySet<string> {
  return new Set((listed ?? '').split(/[\s,:]+/).filter((n) => n !== ''));
}

/** Whether a config may read the variable NAME, given $OSM_KRM_ENV_NAMES' value. */
export function envNameAllowed(name: string, listed: string | undefined): boolean {
  if (listedEnvNames(listed).has(name)) return true;
  if (name.startsWith(OWN_SETTINGS_PREFIX)) return false;
  return ALLOWED_PREFIXES.some((p) => name.startsWith(p) && name.length > p.length);
}

/** Why NAME may not be read, and how to allow it (no value: the variable is not read). */
export function envNameRefusal(name: string): string {
  return (
    `a config reads only variables set for osm-krm: names starting with ${ALLOWED_PREFIXES.join(' or ')} ` +
    `(not ${OWN_SETTINGS_PREFIX}), or listed in $${ENV_NAMES_ENV} where osm-krm runs (the CI job, the Argo CD ` +
    `sidecar), so that a change to the repository cannot copy another variable of that process into the output` +
    (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)
      ? `; rename the variable (e.g. OSM_${name.replace(/^OSM_(KRM_)?/, '')}) or add ${name} to $${ENV_NAMES_ENV}`
      : '')
  );
}
