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
  ) {
    super(message);
    this.name = 'ResourceError';
  }
}

export function hasErrors(results: readonly Result[]): boolean {
  return results.some((r) => r.severity === 'error');
}
