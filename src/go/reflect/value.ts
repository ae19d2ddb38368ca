// How Go values are represented in JavaScript, for the template engine and its function maps.
//
//   Go                         JS
//   string (and named strings) string        (Go's bytes; one not part of valid UTF-8 is held as described
//                                             in byteString.ts)
//   bool                       boolean
//   int                        bigint        (an int is never a JS number, so `%d` and `lt .n 10` behave as in Go)
//   int8..int64, uint*         GoInt         (type and value: sprig's int64 results, the bytes of a string)
//   float32, float64           number
//   untyped nil / nil iface    null
//   "no value" (missing key)   undefined
//   []interface{}              Array
//   []T, [N]T                  Array tagged with goSlice(T, ...) (a nil slice: goNilSlice(T))
//   map[string]interface{}     plain object (own enumerable keys only; the prototype is never consulted)
//   map[string]T               plain object tagged with goMap(T, ...) (a nil map: goNilMap(T))
//   map[interface{}]interface{} GoKeyedMap   (keys of any type; what yaml.v3 gives for non-string keys)
//   struct                     GoStruct      (a missing field is an execution error, unlike a map)
//   *T                         GoPointer     (elem null = nil pointer; truthy when non-nil; printed through)
//   fmt.Stringer (net.IP, ...) GoStringer    (printed with its String() text)
//   []byte                     Uint8Array
//
// The type of a tagged slice or map shows only where Go shows it: %T, typeOf, error texts, the static
// type of its elements (range, index), the zero value `index` gives for a missing key, nil in JSON.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).

import { ENTRY_UNITS, type Meter } from '../internal/meter.ts';
import { isHashableKey, MAX_KEY_LENGTH } from '../internal/hashableKey.ts';

export type GoIntType =
  'int8' | 'int16' | 'int32' | 'int64' | 'uint' | 'uint8' | 'uint16' | 'uint32' | 'uint64' | 'uintptr';

/** A Go integer whose type is not int (an int is a plain bigint). */
export class GoInt {
  constructor(
    readonly type: GoIntType,
    readonly value: bigint,
  ) {}
  get unsigned(): boolean {
    return this.type[0] === 'u';
  }
}

let uint8s: GoInt[] | undefined;

/** A byte as a uint8 value (the 256 of them are made once: a GoInt never changes). */
export function goUint8(b: number): GoInt {
  uint8s ??= Array.from({ length: 256 }, (_, i) => new GoInt('uint8', BigInt(i)));
  return uint8s[b]!;
}

/**
 * A Go map[interface{}]interface{} (yaml.v3 decodes a mapping whose keys are not all strings into one): keys
 * of any type, compared as Go compares interface values (dynamic type and value).
 */
export class GoKeyedMap {
  readonly typeName = 'map[interface {}]interface {}';
  private readonly index = new Map<string, number>();
  readonly keys: unknown[] = [];
  readonly values: unknown[] = [];

  get size(): number {
    return this.keys.length;
  }

  get(key: unknown): { found: boolean; value: unknown } {
    const k = interfaceKey(key);
    const i = isHashableKey(k) ? this.index.get(k) : undefined;
    return i === undefined ? { found: false, value: null } : { found: true, value: this.values[i] };
  }

  set(key: unknown, value: unknown): void {
    const k = hashableKey(interfaceKey(key));
    const i = this.index.get(k);
    if (i !== undefined) this.values[i] = value;
    else {
      this.index.set(k, this.keys.length);
      this.keys.push(key);
      this.values.push(value);
    }
  }
}

let nanKeys = 0;

/** A string that is equal for two Go interface values exactly when Go's == says they are. */
export function interfaceKey(v: unknown): string {
  if (v === null || v === undefined) return 'nil';
  switch (typeof v) {
    case 'string':
      return 's:' + v;
    case 'bigint':
      return 'i:' + v;
    case 'boolean':
      return 'b:' + v;
    // NaN is never equal to itself, so each one is a key of its own.
    case 'number':
      return Number.isNaN(v) ? `nan:${++nanKeys}` : 'f:' + (Object.is(v, -0) ? 0 : v);
    default:
      break;
  }
  if (v instanceof GoInt) return `${v.type}:${v.value}`;
  if (v instanceof GoStruct) return `${v.typeName}:${JSON.stringify(v.fields)}`;
  if (v instanceof GoStringer) return `${v.typeName}:${interfaceKey(v.value)}`;
  return `?:${String(v)}`;
}

/** The Go type of a tagged slice or map: its name ("[]string"), its element type, and whether it is nil. */
export interface ContainerType {
  readonly name: string;
  readonly elem: string;
  readonly nil: boolean;
}

const CONTAINER_TYPE = Symbol('go.containerType');
const INTERFACE = 'interface {}';
const typeCache = new Map<string, ContainerType>();

function containerTypeFor(name: string, elem: string, nil: boolean): ContainerType {
  const key = (nil ? 'nil ' : '') + name;
  let t = typeCache.get(key);
  if (t === undefined) typeCache.set(key, (t = Object.freeze({ name, elem, nil })));
  return t;
}

function tag<T extends object>(v: T, t: ContainerType): T {
  Object.defineProperty(v, CONTAINER_TYPE, { value: t });
  return v;
}

/** items as a Go []elem (elem as reflect prints it: "string", "int", "[]interface {}"). */
export function goSlice<T>(elem: string, items: T[]): T[] {
  return elem === INTERFACE ? items : tag(items, containerTypeFor(`[]${elem}`, elem, false));
}

/** A nil []elem: empty, but null in JSON and `[]elem(nil)` in %#v. */
export function goNilSlice(elem: string = INTERFACE): unknown[] {
  return tag([], containerTypeFor(`[]${elem}`, elem, true));
}

/** m as a Go map[string]elem. */
export function goMap<T>(elem: string, m: Record<string, T>): Record<string, T> {
  return elem === INTERFACE ? m : tag(m, containerTypeFor(`map[string]${elem}`, elem, false));
}

/** A nil map[string]elem. */
export function goNilMap(elem: string = INTERFACE): Record<string, unknown> {
  return tag({}, containerTypeFor(`map[string]${elem}`, elem, true));
}

/** The tag of a typed slice or map; undefined for []interface{} and map[string]interface{}. */
export function containerType(v: object): ContainerType | undefined {
  return (v as { [CONTAINER_TYPE]?: ContainerType })[CONTAINER_TYPE];
}

/** The element type of a slice or map value ("interface {}" unless tagged). */
export function elemType(v: object): string {
  return containerType(v)?.elem ?? INTERFACE;
}

/** A new slice or map of the same Go type as `like` (nil-ness not included). */
export function sameContainerType<T extends object>(like: object, v: T): T {
  const t = containerType(like);
  return t === undefined ? v : tag(v, t.nil ? containerTypeFor(t.name, t.elem, false) : t);
}

export function isNilContainer(v: unknown): boolean {
  return v !== null && typeof v === 'object' && containerType(v)?.nil === true;
}

/** The zero value of a Go type, as far as templates can see one (index of a missing map key). */
export function zeroValue(type: string): unknown {
  switch (type) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int':
      return 0n;
    case 'float64':
    case 'float32':
      return 0;
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64':
    case 'uint':
    case 'uint8':
    case 'uint16':
    case 'uint32':
    case 'uint64':
    case 'uintptr':
      return new GoInt(type, 0n);
  }
  if (type.startsWith('[]')) return goNilSlice(type.slice(2));
  if (type.startsWith('map[string]')) return goNilMap(type.slice('map[string]'.length));
  return null;
}

/** A Go struct value: field access by exported name; a missing field is an error naming typeName. */
export class GoStruct {
  constructor(
    /** Go type name as Go prints it in errors, e.g. "*generator.filesData" or "main.Data". */
    readonly typeName: string,
    readonly fields: Readonly<Record<string, unknown>>,
    /** Set when the type implements fmt.Stringer: what printing it shows. */
    readonly stringerText?: string,
    /** Methods callable from templates (`.Compare $other`); a method wins over a field of the same name. */
    readonly methods?: Readonly<Record<string, import('./func.ts').GoFunction>>,
    /** The type's struct tags by field name (`toml:"name,omitempty"`), read with structTagGet. */
    readonly tags?: Readonly<Record<string, string>>,
  ) {}
}

/** Go's IsExported: a name starting with an upper-case letter. */
export const isExported = (name: string): boolean => {
  // ASCII first: field names almost always are, and the Unicode test is the slow part of a field lookup.
  const c = name.charCodeAt(0);
  if (c < 0x80) return c >= 0x41 && c <= 0x5a;
  return /^\p{Lu}/u.test(name);
};

/** The exported fields of a struct, the ones encoders (JSON, YAML, TOML) see. */
export const exportedFields = (s: GoStruct): Array<[string, unknown]> =>
  Object.entries(s.fields).filter(([k]) => isExported(k));

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
    /** Methods callable from templates besides String. */
    readonly methods?: Readonly<Record<string, import('./func.ts').GoFunction>>,
    /** Whether the type is also an encoding.TextMarshaler (net.IP): encoders then write `text`, else `value`. */
    readonly marshalsText = true,
  ) {}
}

export type GoMap = Record<string, unknown>;

export function isGoMap(v: unknown): v is GoMap {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v) || v instanceof Uint8Array) return false;
  if (v instanceof GoStruct || v instanceof GoPointer || v instanceof GoStringer || v instanceof GoKeyedMap)
    return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const MAP_SIZE = Symbol('go.mapSize');

/**
 * len(m) for a map[string]T in constant time, as in Go (a large object's keys take V8 a while to list): counted
 * once, then kept on the map by mapSet and mapDelete, through which every change to a map that has left the
 * code that built it goes. The count is charged on `meter` when it is made.
 */
export function goMapSize(m: GoMap, meter?: Meter): number {
  const known = (m as { [MAP_SIZE]?: number })[MAP_SIZE];
  if (known !== undefined) return known;
  const n = Object.keys(m).length;
  meter?.spend(n * ENTRY_UNITS);
  // A frozen map cannot change: it is counted each time.
  if (Object.isExtensible(m)) Object.defineProperty(m, MAP_SIZE, { value: n, writable: true });
  return n;
}

/**
 * A map key longer than V8 hashes by its content (src/go/internal/hashableKey.ts): a limit of ours, not Go's.
 * No such key is ever put in a map, so a lookup of one finds nothing without hashing it.
 */
export class MapKeyTooLongError extends Error {
  override name = 'MapKeyTooLongError';
  constructor(readonly length: number) {
    super(
      `a map key of ${length} characters: longer than the ${MAX_KEY_LENGTH.toLocaleString('en-US')} a key may have here (longer keys would all share one hash)`,
    );
  }
}

function hashableKey(key: string): string {
  if (!isHashableKey(key)) throw new MapKeyTooLongError(key.length);
  return key;
}

/**
 * m[key] = value as an own property (a key like `__proto__` is an ordinary key, as in Go). Every write of a key
 * into a map goes through here: a key too long to be hashed by its content is refused (MapKeyTooLongError).
 */
export function mapSet(m: GoMap, key: string, value: unknown): void {
  hashableKey(key);
  const counted = m as { [MAP_SIZE]?: number };
  if (counted[MAP_SIZE] !== undefined && !Object.prototype.hasOwnProperty.call(m, key)) counted[MAP_SIZE]++;
  // Only __proto__ has a setter on Object.prototype; any other key is an own property when assigned.
  if (key === '__proto__')
    Object.defineProperty(m, key, { value, enumerable: true, writable: true, configurable: true });
  else m[key] = value;
}

/** delete(m, key). */
export function mapDelete(m: GoMap, key: string): void {
  if (!isHashableKey(key)) return;
  const counted = m as { [MAP_SIZE]?: number };
  if (counted[MAP_SIZE] !== undefined && Object.prototype.hasOwnProperty.call(m, key)) counted[MAP_SIZE]--;
  delete m[key];
}

/** Own-property lookup only: `__proto__`, `constructor` and friends are never reachable from a template. */
export function mapGet(m: GoMap, key: string): { found: boolean; value: unknown } {
  if (mapHas(m, key)) return { found: true, value: m[key] };
  return { found: false, value: undefined };
}

/** Whether `key` is an own property of `m`; a key too long for any map is in none. */
export function mapHas(m: GoMap, key: string): boolean {
  return isHashableKey(key) && Object.prototype.hasOwnProperty.call(m, key);
}
