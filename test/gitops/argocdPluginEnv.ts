// The environment argocd-cmp-server gives a sidecar plugin's `generate`, modelled step by step on Argo CD's source
// (argoproj/argo-cd v3.5.1 and the commits named below), for a given Argo CD version:
//  1. reposerver/repository/repository.go newEnv: the build env ARGOCD_APP_* (Env.Environ drops an entry whose
//     name and value are both empty), then getPluginEnvs adds KUBE_VERSION and KUBE_API_VERSIONS;
//  2. getPluginParamEnvs: each plugin env entry becomes ARGOCD_ENV_<NAME>=<value> (since v2.4, PR 9548; before,
//     <NAME>), its value run through Env.Envsubst = os.Expand over the build env, with `$$` kept as `$`;
//     parameters (since v2.6, PR 9216) become ARGOCD_APP_PARAMETERS=<json.Marshal of the list: null when the
//     Application has none> and PARAM_<NAME>[_<i>|_<KEY>];
//  3. util/cmp/stream.go toEnvEntry: "NAME=VALUE" split with SplitN(2) since v2.4 (PR 8793); v2.2 and v2.3 used
//     Split and dropped any entry whose value held `=` (issue 8792);
//  4. cmpserver/plugin/plugin.go environ: drops entries without a name, and before v3.0 (PR 22096) entries with
//     an empty value; the command's env is the sidecar's os.Environ() followed by these (Go's exec keeps the last
//     value of a name).
import { expandLikeGo } from './goOracles.ts';

export interface ArgoCDVersion {
  major: number;
  minor: number;
}

export const ARGOCD_LATEST: ArgoCDVersion = { major: 3, minor: 5 };

const atLeast = (v: ArgoCDVersion, major: number, minor: number) =>
  v.major > major || (v.major === major && v.minor >= minor);
const escapedName = (name: string) => name.toUpperCase().replace(/[^A-Z0-9_]/g, '_');

export interface PluginApplication {
  metadata: { name: string };
  spec: {
    project: string;
    destination: { namespace?: string };
    source: {
      repoURL: string;
      path: string;
      targetRevision: string;
      plugin: {
        name?: string;
        env?: Array<{ name: string; value: string }>;
        parameters?: Array<{ name: string; string?: string; array?: string[]; map?: Record<string, string> }>;
      };
    };
  };
}

/** The environment `generate` runs with, for `app` under Argo CD `version`, in a sidecar whose own env is `sidecar`. */
export function argocdPluginEnv(
  app: PluginApplication,
  sidecar: Record<string, string>,
  version: ArgoCDVersion = ARGOCD_LATEST,
): Record<string, string> {
  const src = app.spec.source;
  const revision = '0123456789abcdef0123456789abcdef01234567';
  const build: Array<[string, string]> = [
    ['ARGOCD_APP_NAME', app.metadata.name],
    ['ARGOCD_APP_NAMESPACE', app.spec.destination.namespace ?? ''],
    ['ARGOCD_APP_PROJECT_NAME', app.spec.project],
    ['ARGOCD_APP_REVISION', revision],
    ['ARGOCD_APP_REVISION_SHORT', revision.slice(0, 7)],
    ['ARGOCD_APP_REVISION_SHORT_8', revision.slice(0, 8)],
    ['ARGOCD_APP_SOURCE_REPO_URL', src.repoURL],
    ['ARGOCD_APP_SOURCE_PATH', src.path],
    ['ARGOCD_APP_SOURCE_TARGET_REVISION', src.targetRevision],
  ];
  const lines = build.filter(([n, v]) => n !== '' || v !== '').map(([n, v]) => `${n}=${v}`);
  lines.push(
    'KUBE_VERSION=1.34.2',
    'KUBE_API_VERSIONS=v1,apps/v1,cluster.k8s.io/v1alpha1,operatingsystemmanager.k8c.io/v1alpha1',
  );
  const buildValues = new Map(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  const prefix = atLeast(version, 2, 4) ? 'ARGOCD_ENV_' : '';
  const entries = src.plugin.env ?? [];
  const expanded = expandLikeGo(
    entries.map((e) => e.value),
    buildValues,
  );
  entries.forEach((e, i) => lines.push(`${prefix}${e.name}=${expanded[i]}`));
  if (atLeast(version, 2, 6)) {
    const params = src.plugin.parameters;
    lines.push(`ARGOCD_APP_PARAMETERS=${params === undefined ? 'null' : JSON.stringify(params)}`);
    for (const p of params ?? []) {
      const base = `PARAM_${escapedName(p.name)}`;
      if (p.string !== undefined) lines.push(`${base}=${p.string}`);
      for (const [k, v] of Object.entries(p.map ?? {})) lines.push(`${base}_${escapedName(k)}=${v}`);
      (p.array ?? []).forEach((v, i) => lines.push(`${base}_${i}=${v}`));
    }
  }
  const env: Record<string, string> = { ...sidecar };
  for (const line of lines) {
    const parts = atLeast(version, 2, 4) ? splitN(line) : line.split('=');
    if (parts.length !== 2) continue; // v2.2/v2.3: a value holding `=`
    const [name, value] = parts as [string, string];
    if (name === '' || (value === '' && !atLeast(version, 3, 0))) continue;
    env[name] = value;
  }
  return env;
}

function splitN(line: string): string[] {
  const i = line.indexOf('=');
  return i < 0 ? [line] : [line.slice(0, i), line.slice(i + 1)];
}
