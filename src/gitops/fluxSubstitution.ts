// Flux's post-build variable substitution, and how our output opts out of it.
//
// What Flux does (fluxcd/kustomize-controller v1.9.4 internal/controller/kustomization_controller.go `build`, and
// fluxcd/pkg kustomize/v1.35.4 kustomize/kustomize_varsub.go `SubstituteVariables`, envsubst/v1.7.0): when a
// Kustomization has `spec.postBuild`, every object of the build (after SOPS decryption, so a Secret's plaintext
// too) is serialized to YAML and run through envsubst, unless the object's label OR annotation
// `kustomize.toolkit.fluxcd.io/substitute` is exactly `disabled`. On that text `${NAME...}` is a variable (in
// strict mode, on by default since v1.9, an unset one fails the whole Kustomization: "variable not set (strict
// mode)"; without it, it becomes empty), a malformed `${` fails it in either mode, and `$$` becomes `$` anywhere
// (so `$${X}` is a literal `${X}`, and a shell's `$$` loses a `$`). `$NAME` without braces is left alone. So an
// object is changed or refused by Flux exactly when one of its strings holds `${` or `$$`.
import type { KrmObject } from '../krm/resourceList.ts';
import { MD_API_VERSION } from '../machineDeployment/machineDeployment.ts';
import { OSM_API_VERSION } from '../model/operatingSystemProfile.ts';

export const FLUX_SUBSTITUTE_KEY = 'kustomize.toolkit.fluxcd.io/substitute';
export const FLUX_SUBSTITUTE_DISABLED = 'disabled';

const FLUX_SEQUENCE = /\$[{$]/;

/** Flux leaves the object alone: label or annotation `kustomize.toolkit.fluxcd.io/substitute: disabled`. */
export function fluxSkipsSubstitution(o: KrmObject): boolean {
  return (
    o.metadata?.labels?.[FLUX_SUBSTITUTE_KEY] === FLUX_SUBSTITUTE_DISABLED ||
    o.metadata?.annotations?.[FLUX_SUBSTITUTE_KEY] === FLUX_SUBSTITUTE_DISABLED
  );
}

/** The object with the opt-out annotation (a new object; the input is not changed). */
export function withFluxSubstitutionDisabled<T extends Record<string, unknown>>(o: T): T {
  const metadata = (o.metadata ?? {}) as Record<string, unknown>;
  const annotations = {
    ...((metadata.annotations as Record<string, unknown> | undefined) ?? {}),
    [FLUX_SUBSTITUTE_KEY]: FLUX_SUBSTITUTE_DISABLED,
  };
  return { ...o, metadata: { ...metadata, annotations } };
}

/** The path of the first string (key or value) under `value` that Flux would substitute into, if any. */
export function firstSubstitutedString(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return FLUX_SEQUENCE.test(value) ? path || '.' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = firstSubstitutedString(value[i], `${path}[${i}]`);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = path === '' ? k : `${path}.${k}`;
      if (FLUX_SEQUENCE.test(k)) return p;
      const inner = firstSubstitutedString(v, p);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

/** Whether Flux's substitution would change or refuse this object as written. */
export function fluxWouldSubstitute(o: KrmObject): boolean {
  return !fluxSkipsSubstitution(o) && firstSubstitutedString(o) !== undefined;
}

export interface FluxSubstitutionFinding {
  object: KrmObject;
  message: string;
  /** Where the first `${` or `$$` is. */
  field: string;
}

/**
 * The user's objects osm-krm reads that Flux would substitute into after osm-krm rendered from them: an
 * OperatingSystemProfile (its templates are shell: strict mode fails the Kustomization, otherwise variables
 * vanish from the applied copy) and the parts of a MachineDeployment a render depends on (name, annotations,
 * spec.template: the applied MachineDeployment would no longer be the one its Secrets were rendered for).
 * Other objects are passed through, and whether Flux substitutes into them is the user's design.
 */
export function fluxSubstitutionFindings(objects: readonly KrmObject[]): FluxSubstitutionFinding[] {
  const out: FluxSubstitutionFinding[] = [];
  const fix = `annotate it ${FLUX_SUBSTITUTE_KEY}: ${FLUX_SUBSTITUTE_DISABLED} (do not escape as $\${...}: osm-krm renders what the file says)`;
  for (const o of objects) {
    if (fluxSkipsSubstitution(o)) continue;
    if (o.kind === 'OperatingSystemProfile' && o.apiVersion === OSM_API_VERSION) {
      const field = firstSubstitutedString(o);
      if (field === undefined) continue;
      out.push({
        object: o,
        field,
        message: `Flux's post-build substitution would rewrite this OperatingSystemProfile's \${...} or $$ (first at ${field}): with strict substitution (kustomize-controller >= 1.9) the whole Kustomization fails, without it the variables become empty; ${fix}`,
      });
    } else if (o.kind === 'MachineDeployment' && o.apiVersion === MD_API_VERSION) {
      const metadata = o.metadata ?? {};
      const rendered = {
        metadata: { name: metadata.name, namespace: metadata.namespace, annotations: metadata.annotations },
        spec: { template: (o.spec as Record<string, unknown> | undefined)?.template },
      };
      const field = firstSubstitutedString(rendered);
      if (field === undefined) continue;
      out.push({
        object: o,
        field,
        message: `Flux's post-build substitution would rewrite \${...} or $$ at ${field} of this MachineDeployment after osm-krm rendered its Secrets from the text as written, so the applied MachineDeployment and its bootstrap Secrets would disagree (or strict substitution fails the Kustomization); put the value in Git (or substitute before osm-krm runs), or, if the text is meant literally, ${fix}`,
      });
    }
  }
  return out;
}
