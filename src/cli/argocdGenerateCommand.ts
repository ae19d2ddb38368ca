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
import { CommandError, runSubcommand, type CommandIO } from './commandIO.ts';
import type { CommandLine } from './commandLine.ts';
import { GENERATE_COMMAND } from './commandSpecs.ts';
import { applySettings, one, readPluginSettings } from './argocdParameters.ts';
import {
  applyMountedSecrets,
  checkNoSecretsFromGit,
  SECRETS_DIR_ENV,
  secretsDirectory,
  unmountedClusterSecrets,
} from './clusterSecrets.ts';
import { readInputs } from './readInputs.ts';
import { gatedEnvironment } from './allowedRoots.ts';
import { checkFactsNotDropped } from './droppedByKustomize.ts';
import { staleCommittedState } from './committedState.ts';
import { untrustedLine } from './untrustedText.ts';
import { isAppliedManifest, renderManifests, toYamlStream, withoutOrchestratorAnnotations } from './renderManifests.ts';

const CONFIG_SETTING = 'config';

export function runArgoCDGenerateCommand(args: string[], io: CommandIO): number {
  return runSubcommand(GENERATE_COMMAND, args, io, options, (opts, io) => {
    const stream = generate(opts.dir, opts.config, io);
    if (stream === undefined) return 1;
    io.stdout(stream);
    return 0;
  });
}

function options(cl: CommandLine): { dir: string; config?: string } {
  const config = cl.value('--config');
  return { dir: cl.operands[0] ?? '.', ...(config !== undefined ? { config } : {}) };
}

/** The manifest stream, or undefined when the function reported errors (already on stderr). */
function generate(dirArg: string, configArg: string | undefined, io: CommandIO): string | undefined {
  const dir = resolve(io.cwd, dirArg);
  const settings = readPluginSettings(io.env);
  const configSetting = settings.get(CONFIG_SETTING);
  settings.delete(CONFIG_SETTING);
  const configPath = configArg ?? (configSetting === undefined ? undefined : one(configSetting));
  const configFile = configPath === undefined || configPath === '' ? undefined : resolve(dir, configPath);

  // The `config` setting comes from the Application (often in Git itself): it may only name a file of the repository.
  const fromSetting = configArg === undefined && configFile !== undefined;
  const input = readInputs(dirArg, io, {
    command: 'generate',
    argoCD: true,
    ...(configFile !== undefined ? { config: configFile, configShown: configPath, configInsideRoot: fromSetting } : {}),
  });
  let config = applySettings(input.config, [...settings.values()]);
  config = applyMountedSecrets(config, io.env);
  // Without a config the function says so itself; with settings only, say it here.
  if (input.config === undefined && config !== undefined)
    io.stderr(`osm-krm: info: ${noConfigNotice()}, under the plugin settings and mounted secrets\n`);
  checkNoSecretsFromGit(config, input.objects, input.paths);
  checkFactsNotDropped(input, config);

  const rendered = renderManifests(
    input.objects,
    config,
    { ...io, cwd: dir },
    gatedEnvironment(io.env, input.fileBase),
  );
  if (rendered.exitCode !== 0) {
    const unmounted = unmountedClusterSecrets(config, secretsDirectory(io.env));
    if (unmounted.length > 0) {
      io.stderr(
        `osm-krm generate: note: ${secretsDirectory(io.env)} ($${SECRETS_DIR_ENV}) has no file ${unmounted.join(', ')} and the config names no source for ${unmounted.length > 1 ? 'them' : 'it'}: ` +
          'mount the cluster secrets there (examples/argocd/argocd-repo-server-patch.yaml)\n',
      );
    }
    io.stderr('osm-krm generate: no manifests printed\n');
    return undefined;
  }
  for (const s of staleCommittedState(input.objects, rendered.objects, 'Argo CD'))
    io.stderr(`osm-krm: warning: ${untrustedLine(`MachineDeployment ${s.machineDeployment}: ${s.message}`)}\n`);
  const manifests = rendered.objects.filter(isAppliedManifest).map(withoutOrchestratorAnnotations);
  // An empty stream would make Argo CD prune the whole application.
  if (manifests.length === 0)
    throw new CommandError(
      `no manifests to print for ${dirArg}: refusing an empty stream (Argo CD would prune everything)`,
    );
  return toYamlStream(manifests);
}
