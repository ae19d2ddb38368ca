// `osm-krm generate [DIR] [--config FILE]`: the `generate` command of the Argo CD Config Management Plugin.
// Argo CD runs it in the application's directory (DIR defaults to `.`) and applies what it prints:
//   stdout  only the manifest stream (YAML documents separated by `---`): the directory's resources and the
//           generated ones, without local-config resources, the function config or orchestrator annotations
//   stderr  diagnostics; on any error stdout stays empty and the exit code is 1 (2 for wrong arguments)
// Settings: the config file (--config, or the plugin setting `config`, or the one OperatingSystemManager in
// the directory), overlaid with the Application's plugin env (ARGOCD_ENV_*) and parameters (PARAM_*); the
// cluster secrets from files in OSM_KRM_SECRETS_DIR or env vars of the sidecar, never from Git.
import { resolve } from 'node:path';
import { noConfigNotice } from '../config/operatingSystemManagerConfig.ts';
import { CommandError, runSubcommand, UsageError, type CommandIO } from './commandIO.ts';
import { applySettings, one, readPluginSettings } from './argocdParameters.ts';
import { checkNoSecretsFromGit, mountedSecretSettings, SECRETS_DIR_ENV, secretsDirectory, unmountedClusterSecrets } from './clusterSecrets.ts';
import { chooseFunctionConfig } from './functionConfigSource.ts';
import { readManifestDirectory } from './manifestDirectory.ts';
import { isAppliedManifest, renderManifests, toYamlStream, withoutOrchestratorAnnotations } from './renderManifests.ts';

export const GENERATE_USAGE = `usage: osm-krm generate [DIR] [--config FILE]

Prints the manifests for the Argo CD application in DIR (default: the working directory, where Argo CD
runs plugins): its resources and the generated OperatingSystemConfigs and Secrets, as one YAML stream.
DIR is a directory of manifests, or holds a kustomization.yaml (built with kustomize or kubectl kustomize).
  --config FILE   function config; default: the plugin setting "config", else the one
                  OperatingSystemManager object in DIR
Plugin env entries (ARGOCD_ENV_<NAME>) and parameters (PARAM_<NAME>) named after OSM's flags
(cluster-dns, namespace, cloud-init-getter-token-env, ...) override the config. Cluster secrets are read
from $OSM_KRM_SECRETS_DIR (default /var/run/secrets/osm-krm: files cloud-init-getter-token,
bootstrap-token, bootstrap-token-key) or from env vars named in the config; never from Git.
`;

const CONFIG_SETTING = 'config';

export function runArgoCDGenerateCommand(args: string[], io: CommandIO): number {
  return runSubcommand('generate', GENERATE_USAGE, args, io, parseArgs, (opts) => {
    const stream = generate(opts.dir, opts.config, io);
    if (stream === undefined) return 1;
    io.stdout(stream);
    return 0;
  });
}

function parseArgs(args: readonly string[]): { dir: string; config?: string } | 'help' {
  const positional: string[] = [];
  let config: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-h' || a === '--help') return 'help';
    if (a === '--config') {
      config = args[++i];
      if (config === undefined || config === '') throw new UsageError('--config needs a value');
    } else if (a.startsWith('--config=')) {
      config = a.slice('--config='.length);
      if (config === '') throw new UsageError('--config needs a value');
    } else if (a.startsWith('-') && a !== '-') {
      throw new UsageError(`unknown option ${a}`);
    } else {
      positional.push(a);
    }
  }
  if (positional.length > 1) throw new UsageError(`expected at most one DIR, got ${positional.length}`);
  return { dir: positional[0] ?? '.', ...(config !== undefined ? { config } : {}) };
}

/** The manifest stream, or undefined when the function reported errors (already on stderr). */
function generate(dirArg: string, configArg: string | undefined, io: CommandIO): string | undefined {
  const dir = resolve(io.cwd, dirArg);
  const settings = readPluginSettings(io.env);
  const configSetting = settings.get(CONFIG_SETTING);
  settings.delete(CONFIG_SETTING);
  const configPath = configArg ?? (configSetting === undefined ? undefined : one(configSetting));
  const configFile = configPath === undefined || configPath === '' ? undefined : resolve(dir, configPath);

  const input = readManifestDirectory(dir, io, configFile === undefined ? [] : [configFile]);
  const chosen = chooseFunctionConfig(dir, input, configFile);
  let config = applySettings(chosen.config, [...settings.values()]);
  config = applySettings(config, mountedSecretSettings(config, secretsDirectory(io.env)));
  // Without a config the function says so itself; with settings only, say it here.
  if (chosen.config === undefined && config !== undefined) io.stderr(`osm-krm: info: ${noConfigNotice()}, under the plugin settings and mounted secrets\n`);
  checkNoSecretsFromGit(config, chosen.objects, input.paths);

  const rendered = renderManifests(chosen.objects, config, { ...io, cwd: dir });
  if (rendered.exitCode !== 0) {
    const unmounted = unmountedClusterSecrets(config, secretsDirectory(io.env));
    if (unmounted.length > 0) {
      io.stderr(`osm-krm generate: note: ${secretsDirectory(io.env)} ($${SECRETS_DIR_ENV}) has no file ${unmounted.join(', ')} and the config names no source for ${unmounted.length > 1 ? 'them' : 'it'}: ` +
        'mount the cluster secrets there (examples/argocd/argocd-repo-server-patch.yaml)\n');
    }
    io.stderr('osm-krm generate: no manifests printed\n');
    return undefined;
  }
  const manifests = rendered.objects.filter(isAppliedManifest).map(withoutOrchestratorAnnotations);
  // An empty stream would make Argo CD prune the whole application.
  if (manifests.length === 0) throw new CommandError(`no manifests to print for ${dirArg}: refusing an empty stream (Argo CD would prune everything)`);
  return toYamlStream(manifests);
}
