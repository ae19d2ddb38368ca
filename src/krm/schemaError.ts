// Readable errors from ajv's output (the validators are generated with allErrors): every problem once, with its
// field path in KRM form (a.b[0].c), an unknown field with the closest known names.
import { didYouMean } from './didYouMean.ts';
import { ResourceError, ResourceErrors } from './results.ts';

/** An error of ajv's output, as the generated validators (config/generated/, model/generated/) report it. */
export interface SchemaError {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
  schemaPath?: string;
}

/** The fields each object allows, by the data's path (the generated `fieldTree`): p properties, a other keys, i items. */
export interface FieldTree {
  p?: Readonly<Record<string, FieldTree>>;
  a?: FieldTree;
  i?: FieldTree;
}

/** The field names the object at `instancePath` (ajv's `/spec/cluster`) may have, when the tree knows it. */
function knownFields(tree: FieldTree, instancePath: string): string[] | undefined {
  let node: FieldTree | undefined = tree;
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node =
      node.p !== undefined && Object.prototype.hasOwnProperty.call(node.p, seg)
        ? node.p[seg]
        : /^\d+$/.test(seg) && node.i !== undefined
          ? node.i
          : node.a;
    if (node === undefined) return undefined;
  }
  return node.p === undefined ? undefined : Object.keys(node.p);
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
  else if (e.keyword === 'enum')
    detail = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  else if (e.keyword === 'const') detail = `must be ${JSON.stringify(e.params.allowedValue)}`;
  else if (e.keyword === 'required') detail = `is missing required field ${JSON.stringify(e.params.missingProperty)}`;
  return new ResourceError(`invalid ${what}: ${path || '(root)'} ${detail}`, path || undefined);
}

/**
 * Every problem ajv found, each once: a oneOf whose value matches one branch's type reports that branch's
 * errors, one that matches none says which types it may be; umbrella errors are left out. Thrown as one error,
 * or as ResourceErrors (one result each).
 */
export function schemaErrors(
  what: string,
  errors: readonly SchemaError[] | null | undefined,
  names: FieldTree = {},
): ResourceError {
  const list = [...(errors ?? [])];
  // Group the errors under each oneOf (by the oneOf's schema path and the value's path).
  const oneOfs = list.filter((e) => e.keyword === 'oneOf' && e.schemaPath !== undefined);
  const kept: SchemaError[] = [];
  const inOneOf = (e: SchemaError, o: SchemaError) =>
    e !== o && e.instancePath.startsWith(o.instancePath) && e.schemaPath?.startsWith(`${o.schemaPath}/`) === true;
  for (const e of list) {
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    if (oneOfs.some((o) => inOneOf(e, o))) continue;
    kept.push(e);
  }
  const extra: ResourceError[] = [];
  for (const o of oneOfs) {
    const members = list.filter((e) => inOneOf(e, o));
    const branchOf = (e: SchemaError) => e.schemaPath!.slice(o.schemaPath!.length + 1).split('/')[0]!;
    const branches = [...new Set(members.map(branchOf))];
    // The branch whose type the value has: its own errors are what is wrong.
    const typed = branches.filter(
      (b) => !members.some((e) => branchOf(e) === b && e.keyword === 'type' && e.instancePath === o.instancePath),
    );
    if (typed.length === 1) kept.push(...members.filter((e) => branchOf(e) === typed[0]));
    else {
      const types = members
        .filter((e) => e.keyword === 'type' && e.instancePath === o.instancePath)
        .map((e) => String(e.params.type));
      extra.push(
        oneError(
          what,
          {
            ...o,
            keyword: 'type',
            params: { type: [...new Set(types)].join(' or ') },
            message: `must be ${[...new Set(types)].join(' or ')}`,
          },
          names,
        ),
      );
    }
  }
  const seen = new Set<string>();
  const out: ResourceError[] = [];
  for (const e of [...kept.map((k) => oneError(what, k, names)), ...extra]) {
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    out.push(e);
  }
  out.sort((a, b) =>
    (a.fieldPath ?? '') < (b.fieldPath ?? '')
      ? -1
      : (a.fieldPath ?? '') > (b.fieldPath ?? '')
        ? 1
        : a.message < b.message
          ? -1
          : 1,
  );
  if (out.length === 0) return new ResourceError(`invalid ${what}`);
  return out.length === 1 ? out[0]! : new ResourceErrors(out);
}

function oneError(what: string, e: SchemaError, names: FieldTree): ResourceError {
  const path = fieldPath(e.instancePath);
  let detail = e.message ?? 'is invalid';
  if (e.keyword === 'additionalProperties') {
    const unknown = String(e.params.additionalProperty);
    const known = knownFields(names, e.instancePath);
    detail = `has unknown field ${JSON.stringify(unknown)}${known === undefined ? '' : didYouMean(unknown, known)}`;
    return new ResourceError(
      `invalid ${what}: ${path || '(root)'} ${detail}`,
      path === '' ? unknown : `${path}.${unknown}`,
    );
  }
  if (e.keyword === 'maxProperties' && e.params.limit === 1) {
    const known = knownFields(names, e.instancePath);
    if (known !== undefined) detail = `must give only one of ${known.join(', ')}`;
  } else if (e.keyword === 'enum')
    detail = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  else if (e.keyword === 'const') detail = `must be ${JSON.stringify(e.params.allowedValue)}`;
  else if (e.keyword === 'required') detail = `is missing required field ${JSON.stringify(e.params.missingProperty)}`;
  return new ResourceError(`invalid ${what}: ${path || '(root)'} ${detail}`, path || undefined);
}

function fieldPath(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, seg) => (/^\d+$/.test(seg) ? `${acc}[${seg}]` : acc === '' ? seg : `${acc}.${seg}`), '');
}
