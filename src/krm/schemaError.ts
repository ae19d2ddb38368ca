// One readable error from ajv's output: the first problem, with its field path in KRM form (a.b[0].c).
import { ResourceError } from './results.ts';

/** An error of ajv's output, as the generated validators (config/generated/, model/generated/) report it. */
export interface SchemaError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
}

export function schemaError(what: string, errors: readonly SchemaError[] | null | undefined): ResourceError {
  // Prefer the deepest error: for oneOf/anyOf, ajv lists the umbrella error last.
  const e = [...(errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (e === undefined) return new ResourceError(`invalid ${what}`);
  const path = e.instancePath
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc === '' ? seg : `${acc}.${seg}`), '');
  let detail = e.message ?? 'is invalid';
  if (e.keyword === 'additionalProperties') detail = `has unknown field ${JSON.stringify(e.params.additionalProperty)}`;
  else if (e.keyword === 'enum') detail = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  else if (e.keyword === 'const') detail = `must be ${JSON.stringify(e.params.allowedValue)}`;
  else if (e.keyword === 'required') detail = `is missing required field ${JSON.stringify(e.params.missingProperty)}`;
  return new ResourceError(`invalid ${what}: ${path || '(root)'} ${detail}`, path || undefined);
}
