// Runs the function on a set of inputs and turns its output into what a person reviews: per MachineDeployment,
// the profile chosen, the revision, and the decoded bootstrap and provisioning user-data (secrets masked
// unless asked otherwise). `render`, `diff` and `lint` all start here, so they see exactly what the function
// would output.
import type { SharedRunMeter } from '../template/index.ts';
import type { Environment } from '../cluster/valueSource.ts';
import { parseResourceList, serializeResourceList, type KrmObject } from '../krm/resourceList.ts';
import { NodeBudget } from '../krm/inputBounds.ts';
import { stringifyForOutput } from '../krm/yamlSchema.ts';
import { processResourceList } from '../function/processResourceList.ts';
import { MASKED, SecretRegistry } from '../krm/redactSecrets.ts';
import { withoutSopsSettings, type OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { Result } from '../krm/results.ts';
import type { MachineDeployment } from '../machineDeployment/machineDeployment.ts';
import type { ProfileEntry } from '../model/profileEntry.ts';
import {
  ANNOTATION_MD_REVISION,
  CLOUD_INIT_SETTINGS_NAMESPACE,
  cloudConfigSecretName,
} from '../render/generatedResources.ts';
import { isStateObject } from '../gitops/renderState.ts';
import { syncToolsOf, type SyncTool } from '../gitops/syncAnnotations.ts';
import { MD_API_VERSION } from '../machineDeployment/machineDeployment.ts';
import { viewUserData, type NodeConfigView } from './nodeConfigView.ts';
import { userDataFormatFor } from '../emit/userdata/formats/index.ts';
import { describeTemplateData } from './templateDataText.ts';
import { fieldLine } from '../lint/profileSourceMap.ts';

export const MASK = MASKED;

export interface ReviewInputs {
  objects: readonly KrmObject[];
  functionConfig: KrmObject | undefined;
  /** The text of an input file by its path annotation (for lines in --explain), where the inputs are files. */
  sourceText?: (path: string) => string | undefined;
}

export interface ProfileSource {
  name: string;
  namespace: string;
  version: string;
  /** "embedded", or the file (and document index) the profile was read from. */
  source: string;
  /** An overlay's profile: the overlays (bottom first, with their files) and the plain profile under them. */
  overlay?: { overlays: string[]; base: string };
}

export interface MachineDeploymentReview {
  namespace: string;
  name: string;
  profile: ProfileSource;
  /** k8c.io/machine-deployment-revision of the generated Secrets. */
  revision: string;
  bootstrap: NodeConfigView;
  provisioning: NodeConfigView;
  /** The MachineDeployment's spec.template, for telling whether machines roll. */
  template: unknown;
  /** `.Field = value` lines of the template data, as Go prints each value (secrets masked). */
  templateData: string[];
  /** The user-data as the cloud gets it (not masked: for validators, never printed). */
  userData: { bootstrap: string; provisioning: string };
  cloudProvider: string;
  /** Per Secret, the tools that re-create it when it changes (spec.gitops.syncAnnotations); none: an apply fails. */
  recreatedBy: Record<'bootstrap' | 'provisioning', SyncTool[]>;
  /**
   * An overlay's profile: where each file, unit and drop-in came from, by `<stage> file <path>`,
   * `<stage> unit <name>`, `<stage> drop-in <unit>/<name>`; anything not listed is the base's (`base`).
   */
  origins?: { base: string; byKey: ReadonlyMap<string, string> };
}

/** An input MachineDeployment (machine-controller's) that got no review: nothing was rendered for it. */
export interface UnrenderedMachineDeployment {
  namespace: string;
  name: string;
  template: unknown;
  /** What the run said about it (the first warning or info naming it), or a generic reason. */
  reason: string;
}

export interface ReviewRender {
  exitCode: number;
  results: Result[];
  reviews: MachineDeploymentReview[];
  /** The input MachineDeployments nothing was rendered for (no profile annotation), by namespace/name. */
  unrendered: UnrenderedMachineDeployment[];
  /** The config fields that were set (functionConfig's spec or data), and where the cluster facts came from. */
  config: { source: string; settings: string[]; clusterFacts: string[] };
  /** Every generated object, as the function output it (secrets not masked). */
  generated: KrmObject[];
  /** Replaces every secret value the run knows with <masked> (whatever showSecrets said). */
  mask(text: string): string;
  /** The render state this run hands to the next (revisions, profile versions). */
  state: KrmObject | undefined;
  /** The input objects (a committed state among them, the MachineDeployments' annotations). */
  inputs: readonly KrmObject[];
  /** The function config as the run decoded it (undefined when it did not decode). */
  osmConfig?: OsmConfig;
}

export interface ReviewOptions {
  showSecrets?: boolean;
  /** The render state the run starts from instead of the inputs' own (diff: the base's, as if it had been applied). */
  previousState?: KrmObject;
  /** The mask the command prints through (CommandIO.secrets): the run registers every secret it reads there. */
  secrets?: SecretRegistry;
  /** The meter this render's templates share with others (lint's matrix, diff's sides); its own otherwise. */
  templateBudget?: SharedRunMeter;
}

export function renderForReview(inputs: ReviewInputs, env: Environment, options: ReviewOptions = {}): ReviewRender {
  const items =
    options.previousState === undefined
      ? inputs.objects
      : [...inputs.objects.filter((o) => !isStateObject(o)), options.previousState];
  // SOPS mode is how hydrate writes its files; a review of the same inputs shows what they render to.
  const functionConfig = inputs.functionConfig === undefined ? undefined : withoutSopsSettings(inputs.functionConfig);
  const list = parseResourceList(
    stringifyForOutput({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items,
      ...(functionConfig ? { functionConfig } : {}),
    }),
    NodeBudget.countedAlready(),
  );
  const secrets = options.secrets ?? new SecretRegistry();
  const seen = new Map<string, { md: MachineDeployment; profile: ProfileEntry; data: unknown }>();
  const clusterFacts: string[] = [];
  let ignitionSpec = '';
  let osmConfig: OsmConfig | undefined;
  const out = processResourceList(
    list,
    env,
    {
      config: (config, facts) => {
        ignitionSpec = config.ignitionSpec;
        osmConfig = config;
        if (facts === undefined) return;
        clusterFacts.push(
          `server: ${facts.cluster.server}`,
          `API server CA: ${certificateSummary(facts.apiServerCACert)}`,
          `cloud-init getter token: ${facts.cloudInitGetterToken ? MASK : '(none)'}`,
        );
        if (facts.hostCACert) clusterFacts.push(`host CA bundle: ${certificateSummary(facts.hostCACert)}`);
        if (facts.bootstrapTokenKey)
          clusterFacts.push(`bootstrap token key: ${MASK} (tokens derived per MachineDeployment)`);
      },
      templateData: (md, profile, data) => seen.set(`${md.namespace}/${md.name}`, { md, profile, data }),
    },
    secrets,
    options.templateBudget,
  );
  const redact = (text: string) => secrets.redact(text, MASK);
  const mask = (text: string) => (options.showSecrets ? text : redact(text));
  const objects = parseResourceList(serializeResourceList(list, out), NodeBudget.countedAlready()).items.map(
    (i) => i.object,
  );
  const generated = objects.filter((o) => isGenerated(o));
  const reviews: MachineDeploymentReview[] = [];
  for (const [, { md, profile, data }] of [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const bootstrap = findSecret(generated, cloudConfigSecretName(md, 'bootstrap'));
    const provisioning = findSecret(generated, cloudConfigSecretName(md, 'provisioning'));
    if (bootstrap === undefined || provisioning === undefined) continue; // its render failed: the results say why

    // Read as the format the render chose (which the bytes alone cannot always tell: Flatcar's coreos-cloudinit).
    const format = userDataFormatFor({
      provisioningUtility: profile.spec.provisioningUtility || 'cloud-init',
      osName: profile.spec.osName,
      ignitionSpec,
    });
    const mdObject = objects.find(
      (o) =>
        o.kind === 'MachineDeployment' &&
        o.metadata?.name === md.name &&
        (o.metadata?.namespace ?? 'default') === md.namespace,
    );
    reviews.push({
      namespace: md.namespace,
      name: md.name,
      profile: profileSource(
        profile,
        list.items.map((i) => i.object),
      ),
      ...(profile.overlay
        ? {
            origins: overlayOrigins(
              profile,
              md.providerConfig.cloudProvider,
              list.items.map((i) => i.object),
              inputs.sourceText,
            ),
          }
        : {}),
      revision: String(bootstrap.metadata?.annotations?.[ANNOTATION_MD_REVISION] ?? ''),
      bootstrap: maskView(viewUserData(userDataOf(bootstrap), format), mask),
      provisioning: maskView(viewUserData(userDataOf(provisioning), format), mask),
      template: (mdObject?.spec as any)?.template,
      templateData: describeTemplateData(data).map(mask),
      userData: { bootstrap: userDataOf(bootstrap), provisioning: userDataOf(provisioning) },
      cloudProvider: md.providerConfig.cloudProvider,
      recreatedBy: {
        bootstrap: syncToolsOf(bootstrap.metadata?.annotations),
        provisioning: syncToolsOf(provisioning.metadata?.annotations),
      },
    });
  }
  const reviewed = new Set(reviews.map((r) => `${r.namespace}/${r.name}`));
  const unrendered = unrenderedMachineDeployments(
    list.items.map((i) => i.object),
    reviewed,
    out.results,
  );
  return {
    exitCode: out.results.some((r) => r.severity === 'error') ? 1 : 0,
    results: [...out.results],
    reviews,
    unrendered,
    config: { ...describeConfig(inputs.functionConfig), clusterFacts },
    generated,
    state: generated.find(isStateObject),
    inputs: inputs.objects,
    mask: redact,
    ...(osmConfig !== undefined ? { osmConfig } : {}),
  };
}

function unrenderedMachineDeployments(
  items: readonly KrmObject[],
  reviewed: ReadonlySet<string>,
  results: readonly Result[],
): UnrenderedMachineDeployment[] {
  const out: UnrenderedMachineDeployment[] = [];
  for (const o of items) {
    if (o.apiVersion !== MD_API_VERSION || o.kind !== 'MachineDeployment') continue;
    const name = String(o.metadata?.name ?? '');
    const namespace =
      typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : 'default';
    if (reviewed.has(`${namespace}/${name}`)) continue;
    const about = results.filter(
      (r) =>
        r.resourceRef?.kind === 'MachineDeployment' &&
        r.resourceRef.name === name &&
        (r.resourceRef.namespace || 'default') === namespace,
    );
    const failed = about.find((r) => r.severity === 'error');
    const reason =
      failed !== undefined
        ? `its render failed: ${failed.message}`
        : (about[0]?.message ?? 'nothing was rendered for it');
    out.push({ namespace, name, template: (o.spec as { template?: unknown } | undefined)?.template, reason });
  }
  return out.sort((a, b) => compareKeys(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`));
}

const compareKeys = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function isGenerated(o: KrmObject): boolean {
  const path =
    o.metadata?.annotations?.['internal.config.kubernetes.io/path'] ??
    o.metadata?.annotations?.['config.kubernetes.io/path'];
  return typeof path === 'string' && path.startsWith('osm-generated/');
}

function findSecret(objects: readonly KrmObject[], name: string): KrmObject | undefined {
  return objects.find(
    (o) => o.kind === 'Secret' && o.metadata?.name === name && o.metadata?.namespace === CLOUD_INIT_SETTINGS_NAMESPACE,
  );
}

function userDataOf(secret: KrmObject): string {
  const data = (secret.data as Record<string, string> | undefined)?.['cloud-config'] ?? '';
  return Buffer.from(data, 'base64').toString('utf8');
}

function maskView(view: NodeConfigView, mask: (s: string) => string): NodeConfigView {
  return {
    ...view,
    files: view.files.map((f) => ({ ...f, content: mask(f.content) })),
    units: view.units.map((u) => ({
      ...u,
      content: mask(u.content),
      dropIns: u.dropIns.map((d) => ({ ...d, content: mask(d.content) })),
    })),
    settings: view.settings.map((s) => ({ ...s, value: mask(s.value) })),
  };
}

function profileSource(profile: ProfileEntry, items: readonly KrmObject[]): ProfileSource {
  const base = { name: profile.name, namespace: profile.namespace, version: profile.spec.version ?? '' };
  if (profile.origin.builtin) return { ...base, source: 'embedded (osm-krm default profile)' };
  const source = itemSource(profile.origin.itemIndex, items);
  const stack = profile.overlay;
  if (stack === undefined) return { ...base, source };
  const overlays = stack.overlays.map((o) => `${o.namespace}/${o.name} (${itemSource(o.itemIndex, items)})`);
  const bottom = `${stack.base.name} ${stack.base.version} (${stack.base.builtin ? 'embedded' : itemSource(stack.base.itemIndex, items)})`;
  return {
    ...base,
    source: `overlay ${source}, on ${[
      ...stack.overlays
        .slice(0, -1)
        .map((o) => `${o.namespace}/${o.name}`)
        .reverse(),
      bottom,
    ].join(' on ')}`,
    overlay: { overlays, base: bottom },
  };
}

function itemSource(index: number | undefined, items: readonly KrmObject[]): string {
  const o = index === undefined ? undefined : items[index];
  const path = sourcePath(o);
  return path !== undefined ? `file ${path}` : `input item ${index}`;
}

function sourcePath(o: KrmObject | undefined): string | undefined {
  const a = o?.metadata?.annotations ?? {};
  const path = a['internal.config.kubernetes.io/path'] ?? a['config.kubernetes.io/path'];
  return typeof path === 'string' ? path : undefined;
}

/** Where each file, unit and drop-in of an overlay's profile came from: the overlay, its field, its line. */
function overlayOrigins(
  profile: ProfileEntry,
  cloud: string,
  items: readonly KrmObject[],
  sourceText: ReviewInputs['sourceText'],
): MachineDeploymentReview['origins'] {
  const stack = profile.overlay!;
  const byKey = new Map<string, string>();
  for (const [k, origin] of stack.layered(cloud).origins) {
    const o = items[origin.itemIndex];
    const path = sourcePath(o);
    const idx =
      o?.metadata?.annotations?.['internal.config.kubernetes.io/index'] ??
      o?.metadata?.annotations?.['config.kubernetes.io/index'];
    const text = path === undefined ? undefined : sourceText?.(path);
    const line =
      text === undefined
        ? undefined
        : fieldLine(text, typeof idx === 'string' && /^\d+$/.test(idx) ? Number(idx) : 0, origin.field);
    const where =
      path === undefined ? `input item ${origin.itemIndex}` : `${path}${line !== undefined ? `:${line}` : ''}`;
    byKey.set(k, `overlay ${origin.overlay}, ${origin.field}, ${origin.action} (${where})`);
  }
  return { base: `base ${stack.base.name} ${stack.base.version}`, byKey };
}

function describeConfig(fc: KrmObject | undefined): { source: string; settings: string[] } {
  if (fc === undefined) return { source: 'none (defaults apply)', settings: [] };
  const a = fc.metadata?.annotations ?? {};
  const path = a['internal.config.kubernetes.io/path'] ?? a['config.kubernetes.io/path'];
  const source = `${String(fc.kind)} ${String(fc.metadata?.name ?? '')}${typeof path === 'string' ? ` (${path})` : ''}`;
  const body = (fc.kind === 'ConfigMap' ? fc.data : fc.spec) as Record<string, unknown> | undefined;
  const settings = Object.keys(body ?? {})
    .sort()
    .map((k) => `${k}: ${JSON.stringify(body![k])}`);
  return { source, settings };
}

function certificateSummary(pem: string): string {
  const count = (pem.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length;
  if (count === 0) return '(none)';
  try {
    const { X509Certificate } = process.getBuiltinModule('node:crypto');
    const cert = new X509Certificate(pem);
    return `${count} certificate(s), first: ${cert.subject.replaceAll('\n', ', ')} (SHA-256 ${cert.fingerprint256})`;
  } catch {
    return `${count} certificate(s)`;
  }
}
