// Turning errors into KRM results that point at the resource, field and file they concern.
import type { KrmObject } from './resourceList.ts';
import { ResourceError, ResourceErrors, type ResourceRef, type Result, type Severity } from './results.ts';

export function refOf(o: KrmObject): ResourceRef {
  const ref: ResourceRef = {
    apiVersion: String(o.apiVersion ?? ''),
    kind: String(o.kind ?? ''),
    name: String(o.metadata?.name ?? ''),
  };
  if (typeof o.metadata?.namespace === 'string' && o.metadata.namespace !== '') ref.namespace = o.metadata.namespace;
  return ref;
}

export function fileOf(o: KrmObject): { file?: { path: string; index?: number } } {
  const a = o.metadata?.annotations ?? {};
  const path = a['internal.config.kubernetes.io/path'] ?? a['config.kubernetes.io/path'];
  if (typeof path !== 'string') return {};
  const idx = a['internal.config.kubernetes.io/index'] ?? a['config.kubernetes.io/index'];
  const index = typeof idx === 'string' && /^\d+$/.test(idx) ? Number(idx) : undefined;
  return { file: index === undefined ? { path } : { path, index } };
}

export function toResult(
  e: unknown,
  ref: ResourceRef | undefined,
  file: { file?: { path: string; index?: number } } | undefined,
): Result {
  if (!(e instanceof Error)) throw e;
  // Only our own error types carry messages meant for users; anything else is a bug we still report cleanly.
  const known =
    e instanceof ResourceError ||
    (e.name.endsWith('Error') &&
      e.name !== 'Error' &&
      e.name !== 'TypeError' &&
      e.name !== 'RangeError' &&
      e.name !== 'ReferenceError');
  const r: Result = {
    severity: 'error',
    message: known ? e.message : `internal error (please report): ${e.name}: ${e.message}`,
  };
  if (ref) r.resourceRef = ref;
  if (ref && e instanceof ResourceError && e.fieldPath) r.field = { path: e.fieldPath };
  if (file?.file) r.file = file.file;
  return r;
}

/** toResult, one result per error when several were found together (ResourceErrors). */
export function toResults(
  e: unknown,
  ref: ResourceRef | undefined,
  file: { file?: { path: string; index?: number } } | undefined,
): Result[] {
  if (e instanceof ResourceErrors) return e.errors.map((x) => toResult(x, ref, file));
  return [toResult(e, ref, file)];
}

/**
 * A result about an object of the inputs (undefined: about none): its ref and file, and the field when known,
 * always in this order in the output. Every result about an input object is made here or by errorsAbout.
 */
export function resultAbout(o: KrmObject | undefined, severity: Severity, message: string, fieldPath?: string): Result {
  const r: Result = { severity, message };
  if (o === undefined) return r;
  r.resourceRef = refOf(o);
  if (fieldPath !== undefined) r.field = { path: fieldPath };
  const { file } = fileOf(o);
  if (file !== undefined) r.file = file;
  return r;
}

/** The results of an error about an object of the inputs (undefined: about none): toResults with its ref and file. */
export function errorsAbout(e: unknown, o: KrmObject | undefined): Result[] {
  // An error that names its own object (the cluster-info ConfigMap, caught where the config is reported) is about it.
  const about =
    e instanceof ResourceError && !(e instanceof ResourceErrors) && e.about !== undefined ? (e.about as KrmObject) : o;
  return about === undefined ? toResults(e, undefined, undefined) : toResults(e, refOf(about), fileOf(about));
}
