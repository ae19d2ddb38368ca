// KRM function results (KRM Functions Specification, ResourceList.results).

export type Severity = 'error' | 'warning' | 'info';

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface Result {
  message: string;
  severity: Severity;
  resourceRef?: ResourceRef;
  field?: { path: string };
  file?: { path: string; index?: number };
  tags?: Record<string, string>;
}

/** An error tied to one input resource and field; thrown inside the pipeline, turned into a Result at its edge. */
export class ResourceError extends Error {
  constructor(
    message: string,
    readonly fieldPath?: string,
    /** The input object the error is about, when it is not the one the catcher reports on (resultFor.ts). */
    readonly about?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.name = 'ResourceError';
  }
}

/** Several errors found in one pass (every problem of a config, not the first only); each becomes a result. */
export class ResourceErrors extends ResourceError {
  constructor(readonly errors: readonly ResourceError[]) {
    super(errors.map((e) => e.message).join('; '), errors[0]?.fieldPath);
    this.name = 'ResourceErrors';
  }
}

/** Throws what `errors` holds: nothing, the one error, or all of them together. */
export function throwAll(errors: readonly ResourceError[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new ResourceErrors(errors);
}

export function hasErrors(results: readonly Result[]): boolean {
  return results.some((r) => r.severity === 'error');
}
