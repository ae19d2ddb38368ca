// RHEL subscription secrets from the config (spec.rhelSubscription): resolved once per run for every rendered
// RHEL MachineDeployment they apply to, from the environment, files or local-config Secrets among the inputs.
import { ResourceError } from '../krm/results.ts';
import {
  RHEL_SUBSCRIPTION_SECRET_FIELDS,
  type OsmConfig,
  type RhelSubscriptionSecretField,
  type RhelSubscriptionSecrets,
  type SecretSource,
} from '../config/operatingSystemManagerConfig.ts';
import type { InputItem } from '../krm/resourceList.ts';
import { isLocalConfig } from '../krm/localConfig.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import type { Environment } from './valueSource.ts';
import { resolveSecretValue } from './secretValue.ts';
import type { SecretRegistry } from '../krm/redactSecrets.ts';

export type RhelSubscriptionValues = Partial<Record<RhelSubscriptionSecretField, string>>;

const FIELD = 'spec.rhelSubscription';

/**
 * `<namespace>/<name>` -> the values for each rendered RHEL MachineDeployment the config gives any for. Every
 * source used is resolved (a missing one is an error naming it); an entry naming no rendered RHEL
 * MachineDeployment is an error too (a typo would leave nodes unsubscribed).
 */
export function resolveRhelSubscriptions(
  config: OsmConfig,
  mds: readonly MachineDeployment[],
  items: readonly InputItem[],
  env: Environment,
  secrets: SecretRegistry,
): Map<string, RhelSubscriptionValues> {
  const { all, machineDeployments = {} } = config.rhelSubscription;
  const rhel = new Set(
    mds.filter((md) => md.providerConfig.operatingSystem === 'rhel').map((md) => `${md.namespace}/${md.name}`),
  );
  for (const key of Object.keys(machineDeployments)) {
    if (!rhel.has(key))
      throw new ResourceError(
        `${FIELD}.machineDeployments names ${key}, which is not a rendered RHEL MachineDeployment of the inputs`,
        `${FIELD}.machineDeployments.${key}`,
      );
  }
  const resolved = new Map<string, string>();
  const out = new Map<string, RhelSubscriptionValues>();
  for (const key of [...rhel].sort()) {
    const own = Object.hasOwn(machineDeployments, key);
    const entry: RhelSubscriptionSecrets | undefined = own ? machineDeployments[key] : all;
    const at = own ? `${FIELD}.machineDeployments.${key}` : `${FIELD}.all`;
    const values: RhelSubscriptionValues = {};
    for (const f of RHEL_SUBSCRIPTION_SECRET_FIELDS) {
      const src = entry?.[f];
      if (src === undefined) continue;
      const id = JSON.stringify(src);
      let v = resolved.get(id);
      if (v === undefined) resolved.set(id, (v = resolveSecret(src, `${at}.${f}`, items, env, secrets)));
      values[f] = v;
    }
    if (Object.keys(values).length > 0) out.set(key, values);
  }
  return out;
}

function resolveSecret(
  src: SecretSource,
  field: string,
  items: readonly InputItem[],
  env: Environment,
  secrets: SecretRegistry,
): string {
  let v: string | undefined;
  if ('secretKeyRef' in src) {
    const { namespace, name, key } = src.secretKeyRef;
    const where = `Secret ${namespace}/${name} (named by ${field}.secretKeyRef)`;
    const found = items.find(
      (i) =>
        i.object.apiVersion === 'v1' &&
        i.object.kind === 'Secret' &&
        i.object.metadata?.name === name &&
        (i.object.metadata?.namespace ?? '') === namespace,
    );
    if (found === undefined) throw new ResourceError(`${where} is not among the inputs`, `${field}.secretKeyRef`);
    if (!isLocalConfig(found.object)) {
      throw new ResourceError(
        `${where} must be marked config.kubernetes.io/local-config: "true", or it would be applied along with the manifests`,
        `${field}.secretKeyRef`,
      );
    }
    const o = found.object as { stringData?: Record<string, unknown>; data?: Record<string, unknown> };
    if (typeof o.stringData?.[key] === 'string') v = o.stringData[key] as string;
    else if (typeof o.data?.[key] === 'string') v = Buffer.from(o.data[key] as string, 'base64').toString('utf8');
    else throw new ResourceError(`${where} has no key ${JSON.stringify(key)}`, `${field}.secretKeyRef.key`);
  } else {
    v = resolveSecretValue(src, field, env, secrets);
  }
  // A value read from a file usually ends with a newline; the secret itself never does.
  v = v?.replace(/\r?\n$/, '');
  secrets.add(v);
  if (v === undefined || v === '') throw new ResourceError(`${field} gives an empty value`, field);
  return v;
}
