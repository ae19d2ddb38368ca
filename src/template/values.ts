// How Go values are represented in JavaScript, for the template engine and its function maps.
//
//   Go                         JS
//   string (and named strings) string
//   bool                       boolean
//   int, int8..int64, uint*    bigint         (an int is never a JS number, so `%d` and `lt .n 10` behave as in Go)
//   float32, float64           number
//   untyped nil / nil iface    null
//   "no value" (missing key)   undefined
//   []T, [N]T                  Array
//   map[string]T               plain object (own enumerable keys only; the prototype is never consulted)
//   struct                     GoStruct      (a missing field is an execution error, unlike a map)
//   *T                         GoPointer     (elem null = nil pointer; truthy when non-nil; printed through)
//   fmt.Stringer (net.IP, ...) GoStringer    (printed with its String() text)
//   []byte                     Uint8Array

/** A Go struct value: field access by exported name; a missing field is an error naming typeName. */
export class GoStruct {
  constructor(
    /** Go type name as Go prints it in errors, e.g. "*generator.filesData" or "main.Data". */
    readonly typeName: string,
    readonly fields: Readonly<Record<string, unknown>>,
    /** Set when the type implements fmt.Stringer: what printing it shows. */
    readonly stringerText?: string,
    /** Methods callable from templates (`.Compare $other`); a method wins over a field of the same name. */
    readonly methods?: Readonly<Record<string, import('./functions.ts').GoFunction>>,
  ) {}
}

/** A Go pointer. `elem === null` is a nil pointer of `typeName` (e.g. "*string"). */
export class GoPointer {
  constructor(
    readonly typeName: string,
    readonly elem: unknown,
  ) {}
  get isNil(): boolean {
    return this.elem === null;
  }
}

/** A value whose type implements fmt.Stringer: printing uses `text`, comparisons use `value`. */
export class GoStringer {
  constructor(
    readonly typeName: string,
    readonly text: string,
    readonly value: unknown = text,
  ) {}
}

export type GoMap = Record<string, unknown>;

export function isGoMap(v: unknown): v is GoMap {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v) || v instanceof Uint8Array) return false;
  if (v instanceof GoStruct || v instanceof GoPointer || v instanceof GoStringer) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Own-property lookup only: `__proto__`, `constructor` and friends are never reachable from a template. */
export function mapGet(m: GoMap, key: string): { found: boolean; value: unknown } {
  if (Object.prototype.hasOwnProperty.call(m, key)) return { found: true, value: m[key] };
  return { found: false, value: undefined };
}
