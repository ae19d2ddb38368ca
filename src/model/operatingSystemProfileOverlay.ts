// OperatingSystemProfileOverlay (osm-krm.dev/v1alpha1): a change to a base profile, kept in Git beside the
// MachineDeployments, that gives a profile of its own name. Decoded here (schema, then the checks the schema
// cannot say); src/model/applyOverlay.ts makes the profile.
import { validate } from './generated/validateOperatingSystemProfileOverlay.generated.js';
import { schemaError } from '../krm/schemaError.ts';
import { ResourceError } from '../krm/results.ts';
import type { KrmObject } from '../krm/resourceList.ts';
import { isSafeValue } from './scriptValues.ts';
import { checkPathLength, UNIT_NAME } from './validateProfile.ts';
import { isNamespaceName } from './kubernetesNames.ts';

export const OVERLAY_API_VERSION = 'osm-krm.dev/v1alpha1';
export const OVERLAY_KIND = 'OperatingSystemProfileOverlay';

export type OverlayConfig = 'provisioning' | 'bootstrap';

export interface OverlayFile {
  path: string;
  config?: OverlayConfig;
  replace?: boolean;
  permissions?: number;
  clouds?: string[];
  content: { literal: string } | { template: string };
}

export interface OverlayDropIn {
  name: string;
  replace?: boolean;
  content: string;
}

export interface OverlayUnit {
  name: string;
  config?: OverlayConfig;
  replace?: boolean;
  enable?: boolean;
  content?: string;
  dropIns?: OverlayDropIn[];
  clouds?: string[];
}

export interface OverlayTemplate {
  name: string;
  config?: OverlayConfig;
  replace?: boolean;
  template: string;
  clouds?: string[];
}

export type OverlayCommand = string | { run: string; clouds?: string[] };

export interface OverlaySpec {
  base: string;
  osVersion?: string;
  supportedCloudProviders?: string[];
  files?: OverlayFile[];
  units?: OverlayUnit[];
  templates?: OverlayTemplate[];
  commands?: { beforeSetup?: OverlayCommand[]; afterSetup?: OverlayCommand[] };
}

export interface Overlay {
  name: string;
  namespace: string;
  spec: OverlaySpec;
}

export function isOverlayObject(o: KrmObject): boolean {
  return o.apiVersion === OVERLAY_API_VERSION && o.kind === OVERLAY_KIND;
}

/** The overlay of input item `o`; throws a ResourceError naming the field. */
export function parseOverlay(o: KrmObject, defaultNamespace: string): Overlay {
  if (!validate(o)) throw schemaError(OVERLAY_KIND, validate.errors);
  const spec = (o as unknown as { spec: OverlaySpec }).spec;
  const name = String(o.metadata!.name);
  if (spec.base === name)
    throw new ResourceError(`${OVERLAY_KIND} ${JSON.stringify(name)} names itself as its base`, 'spec.base');
  (spec.files ?? []).forEach((f, i) => {
    if (!f.path.startsWith('/') || !isSafeValue(f.path, 'line'))
      throw new ResourceError(
        'a file path must be absolute and one line without control characters (no line break of any kind)',
        `spec.files[${i}].path`,
      );
    if (f.path.endsWith('/'))
      throw new ResourceError('a file path must name a file, not a directory', `spec.files[${i}].path`);
    checkPathLength(f.path, `spec.files[${i}].path`);
  });
  (spec.units ?? []).forEach((u, i) => {
    if (!UNIT_NAME.test(u.name) || u.name === '.' || u.name === '..')
      throw new ResourceError('a unit name may only contain letters, digits and : _ . \\ @ -', `spec.units[${i}].name`);
    if (u.content === undefined && (u.dropIns ?? []).length === 0)
      throw new ResourceError('a unit needs content or dropIns', `spec.units[${i}]`);
    if (u.content === undefined && (u.replace || u.enable !== undefined))
      throw new ResourceError(
        "replace and enable need the unit's content (a unit without content only adds drop-ins)",
        `spec.units[${i}].${u.replace ? 'replace' : 'enable'}`,
      );
    (u.dropIns ?? []).forEach((d, j) => {
      if (!UNIT_NAME.test(d.name) || d.name === '.' || d.name === '..' || !d.name.endsWith('.conf'))
        throw new ResourceError(
          'a drop-in name must end in .conf and may only contain letters, digits and : _ . \\ @ -',
          `spec.units[${i}].dropIns[${j}].name`,
        );
    });
  });
  for (const phase of ['beforeSetup', 'afterSetup'] as const) {
    (spec.commands?.[phase] ?? []).forEach((c, i) => {
      const run = typeof c === 'string' ? c : c.run;
      const field = `spec.commands.${phase}[${i}]${typeof c === 'string' ? '' : '.run'}`;
      if (!isSafeValue(run, 'line'))
        throw new ResourceError(
          'a command must be one line without control characters (no line break of any kind): write a longer script as a file',
          field,
        );
    });
  }
  const namespace =
    typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : defaultNamespace;
  if (!isNamespaceName(namespace))
    throw new ResourceError('metadata.namespace is not a valid namespace (RFC 1123 label)', 'metadata.namespace');
  return { name, namespace, spec };
}
