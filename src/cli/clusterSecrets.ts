// Where `osm-krm generate` (Argo CD) takes the cluster's secrets from: a mounted Secret or the sidecar's
// environment, never the Git repository it renders. The cloud-init-getter token, the bootstrap token and the
// bootstrap token key default to files in OSM_KRM_SECRETS_DIR (a Kubernetes Secret mounted into the plugin
// sidecar), and so do the RHEL subscription secrets (files named like their flags); a config or a manifest
// that carries one of them in Git is refused.
import { isAbsolute, join } from 'node:path';
import {
  CONFIG_API_VERSION,
  CONFIG_KIND,
  RHEL_SUBSCRIPTION_SECRET_FIELDS,
  rhelSubscriptionFlag,
} from '../config/operatingSystemManagerConfig.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { GENERATED_PATH_PREFIX } from '../function/generatedPaths.ts';
import { applySettings, type PluginSetting } from './argocdParameters.ts';
import { CommandError } from './commandIO.ts';
import { targetKind } from './fileGate.ts';

const existsSync = (p: string) => targetKind(p) !== 'missing';

export const SECRETS_DIR_ENV = 'OSM_KRM_SECRETS_DIR';
export const DEFAULT_SECRETS_DIR = '/var/run/secrets/osm-krm';

/** File name in the secrets directory, typed config field, OSM-flag-style name. */
const CLUSTER_SECRETS = [
  { file: 'cloud-init-getter-token', field: 'cloudInitGetterToken' },
  { file: 'bootstrap-token', field: 'bootstrapToken' },
  { file: 'bootstrap-token-key', field: 'bootstrapTokenKey' },
] as const;

/** RHEL subscription secrets: file `rhel-subscription-manager-password` etc., for every RHEL MachineDeployment. */
const RHEL_SECRETS = RHEL_SUBSCRIPTION_SECRET_FIELDS.map((field) => ({ file: rhelSubscriptionFlag(field), field }));

export function secretsDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const d = env[SECRETS_DIR_ENV];
  return d === undefined || d === '' ? DEFAULT_SECRETS_DIR : d;
}

/** Settings naming the mounted secret files that exist and that the config does not already source. */
export function mountedSecretSettings(config: KrmObject | undefined, dir: string): PluginSetting[] {
  const out: PluginSetting[] = [];
  for (const s of CLUSTER_SECRETS) {
    const path = join(dir, s.file);
    if (hasSource(config, s.field, s.file) || !existsSync(path)) continue;
    out.push({ name: `${s.file}-file`, value: path, source: SECRETS_DIR_ENV });
  }
  for (const s of RHEL_SECRETS) {
    const path = join(dir, s.file);
    if (hasRhelSource(config, s.field, s.file) || !existsSync(path)) continue;
    out.push({ name: `${s.file}-file`, value: path, source: SECRETS_DIR_ENV });
  }
  return out;
}

/**
 * The config with the mounted secret files it does not already source (generate, and render, diff and hydrate
 * the same way: one rule, so a config that works under Argo CD works in the review workflow).
 */
export function applyMountedSecrets(
  config: KrmObject | undefined,
  env: Readonly<Record<string, string | undefined>>,
): KrmObject | undefined {
  return applySettings(config, mountedSecretSettings(config, secretsDirectory(env)));
}

/**
 * The cluster secrets that neither the config sources nor the secrets directory holds: after a failed render,
 * the likely reason (the Secret not mounted, or mounted elsewhere).
 */
export function unmountedClusterSecrets(config: KrmObject | undefined, dir: string): string[] {
  const missing = (s: (typeof CLUSTER_SECRETS)[number]) =>
    !hasSource(config, s.field, s.file) && !existsSync(join(dir, s.file));
  const [getter, token, key] = CLUSTER_SECRETS;
  return [
    ...(missing(getter) ? [getter.file] : []),
    ...(missing(token) && missing(key) ? [`${token.file} (or ${key.file})`] : []),
  ];
}

function hasSource(config: KrmObject | undefined, field: string, flag: string): boolean {
  if (config === undefined) return false;
  if (isTyped(config)) return (config.spec as any)?.cluster?.[field] !== undefined;
  const data = (config.data as Record<string, unknown> | undefined) ?? {};
  return data[`${flag}-env`] !== undefined || data[`${flag}-file`] !== undefined;
}

function hasRhelSource(config: KrmObject | undefined, field: string, flag: string): boolean {
  if (config === undefined) return false;
  if (isTyped(config)) return (config.spec as any)?.rhelSubscription?.all?.[field] !== undefined;
  const data = (config.data as Record<string, unknown> | undefined) ?? {};
  return data[`${flag}-env`] !== undefined || data[`${flag}-file`] !== undefined;
}

/** Refuses cluster secrets that would come from Git: inline in the config, a relative file, a Secret manifest. */
export function checkNoSecretsFromGit(
  config: KrmObject | undefined,
  objects: readonly KrmObject[],
  paths: ReadonlyMap<KrmObject, string>,
): void {
  const advice = `take it from a file mounted into the plugin sidecar (${SECRETS_DIR_ENV}, default ${DEFAULT_SECRETS_DIR}) or from the sidecar's environment`;
  if (config !== undefined && isTyped(config)) {
    for (const s of CLUSTER_SECRETS) {
      const v = (config.spec as any)?.cluster?.[s.field];
      if (typeof v === 'string' || (v !== null && typeof v === 'object' && v.value !== undefined)) {
        throw new CommandError(`spec.cluster.${s.field} is given inline, i.e. from Git; ${advice}`);
      }
      if (typeof v?.file === 'string' && !isAbsolute(v.file)) {
        throw new CommandError(
          `spec.cluster.${s.field}.file ${JSON.stringify(v.file)} is relative, i.e. a file in Git; ${advice}`,
        );
      }
    }
    const rhel = (config.spec as any)?.rhelSubscription ?? {};
    const entries: Array<[string, any]> = [
      ['all', rhel.all],
      ...Object.entries(rhel.machineDeployments ?? {}).map(([k, v]) => [`machineDeployments.${k}`, v] as [string, any]),
    ];
    for (const [at, entry] of entries) {
      for (const [field, src] of Object.entries(entry ?? {}) as Array<[string, any]>) {
        const where = `spec.rhelSubscription.${at}.${field}`;
        if (src?.secretKeyRef !== undefined)
          throw new CommandError(`${where}.secretKeyRef names a Secret in the app directory, i.e. in Git; ${advice}`);
        if (typeof src?.file === 'string' && !isAbsolute(src.file))
          throw new CommandError(
            `${where}.file ${JSON.stringify(src.file)} is relative, i.e. a file in Git; ${advice}`,
          );
      }
    }
  } else if (config !== undefined) {
    const data = (config.data as Record<string, unknown> | undefined) ?? {};
    for (const s of [...CLUSTER_SECRETS, ...RHEL_SECRETS]) {
      const f = data[`${s.file}-file`];
      if (typeof f === 'string' && !isAbsolute(f.trim()))
        throw new CommandError(`${s.file}-file ${JSON.stringify(f)} is relative, i.e. a file in Git; ${advice}`);
    }
  }
  for (const o of objects) {
    if (o.apiVersion !== 'v1' || o.kind !== 'Secret') continue;
    const path = paths.get(o);
    if (path !== undefined && path.startsWith(GENERATED_PATH_PREFIX)) continue; // our own output, regenerated
    const ns = o.metadata?.namespace;
    const name = o.metadata?.name;
    const isGetterToken = ns === 'cloud-init-settings' && name === 'cloud-init-getter-token';
    if (isGetterToken || (o as { type?: unknown }).type === 'bootstrap.kubernetes.io/token') {
      throw new CommandError(
        `Secret ${String(ns ?? '')}/${String(name)}${path ? ` (${path})` : ''} puts a cluster secret in Git; ${advice}`,
      );
    }
  }
}

function isTyped(config: KrmObject): boolean {
  return config.apiVersion === CONFIG_API_VERSION && config.kind === CONFIG_KIND;
}
