// github.com/BurntSushi/toml v1.6.0's Encoder over our values (OSM's go.mod pins v1.6.0), for sprig's toToml
// and the containerd files alike. Plain values of a table come before its sub-tables (each group sorted by
// key for maps, in declaration order for structs, a field named by its `toml` tag and left out by
// omitempty/omitzero or "-"), tables and arrays of tables get [headers] indented by Indent per level, a
// blank line goes before each top-level table, nil values are left out. Embedded structs are not modelled.
import { callGoFunction, GoCallError } from '../reflect/func.ts';
import {
  GoInt,
  GoKeyedMap,
  goMapSize,
  goUint8,
  GoPointer,
  GoStringer,
  GoStruct,
  isExported,
  isGoMap,
  isNilContainer,
} from '../reflect/value.ts';
import { structTagGet } from '../reflect/structTag.ts';
import { compareBytes, formatFloat, goTypeName } from '../fmt/format.ts';
import { formatGoTime, RFC3339_NANO } from '../time/time.ts';
import { goTimeOf } from '../time/value.ts';
import { tomlKey, tomlKeyPath, tomlString } from './encodeString.ts';
import { GoComplex } from '../reflect/complex.ts';
import { goString } from '../reflect/byteString.ts';
import { ELEMENT_BYTES, ENTRY_UNITS, type Meter } from '../internal/meter.ts';

/** An error the Encoder returns (toToml gives its text); other failures are Go panics. */
export class TomlEncodeError extends Error {}

type Key = readonly string[];
type TomlType = 'Bool' | 'Integer' | 'Float' | 'String' | 'Datetime' | 'Array' | 'ArrayHash' | 'Hash';

/** eindirect: through pointers (and interfaces) to the value. */
function deref(v: unknown): unknown {
  for (;;) {
    if (v instanceof GoPointer && v.elem !== null) v = v.elem;
    // A Stringer that is not a TextMarshaler is its value (time.Month an integer); time.Duration is text.
    else if (v instanceof GoStringer && !v.marshalsText && v.typeName !== 'time.Duration') v = v.value;
    else return v;
  }
}

const isNil = (v: unknown) =>
  v === null || v === undefined || (v instanceof GoPointer && v.elem === null) || isNilContainer(v);

/** A value that writes itself as text (encoding.TextMarshaler): semver.Version, net.IP, time.Time. */
const marshalText = (v: unknown, meter: Meter): string | undefined => {
  if (v instanceof GoStringer) return v.text;
  const m = v instanceof GoStruct ? v.methods?.MarshalText : undefined;
  return m === undefined ? undefined : goString(callGoFunction(m, meter, []) as Uint8Array);
};
const isMarshaler = (v: unknown) =>
  v instanceof GoStringer || (v instanceof GoStruct && v.methods?.MarshalText !== undefined);

/** The TOML type of a value; an array's is found by looking at every element, all the way down (charged). */
function tomlTypeOf(v: unknown, m: Meter): TomlType | undefined {
  v = deref(v);
  if (isNil(v)) return undefined;
  if (goTimeOf(v) !== undefined) return 'Datetime';
  if (isMarshaler(v)) return 'String';
  if (v instanceof GoInt) return 'Integer';
  switch (typeof v) {
    case 'boolean':
      return 'Bool';
    case 'bigint':
      return 'Integer';
    case 'number':
      return 'Float';
    case 'string':
      return 'String';
    default:
      break;
  }
  if (Array.isArray(v) || v instanceof Uint8Array) return isTableArray(v, m) ? 'ArrayHash' : 'Array';
  if (v instanceof GoStruct || isGoMap(v) || v instanceof GoKeyedMap) return 'Hash';
  throw new TomlEncodeError(`unsupported type: ${v instanceof GoComplex ? 'complex128' : goTypeName(v)}`);
}

function isTableArray(a: ArrayLike<unknown>, m: Meter): boolean {
  if (a.length === 0) return false;
  let tables = true;
  if (a instanceof Uint8Array) return false;
  for (let i = 0; i < a.length; i++) {
    m.visit();
    const t = tomlTypeOf(a[i], m);
    if (t === undefined) throw new TomlEncodeError('toml: cannot encode array with nil element');
    if (t !== 'Hash') tables = false;
  }
  return tables;
}

const isTable = (v: unknown, m: Meter) => {
  const t = tomlTypeOf(v, m);
  return t === 'Hash' || t === 'ArrayHash';
};

/** strconv.FormatFloat(f, 'g', -1, 64) with ".0" added when it has neither a point nor an exponent. */
function tomlFloat(f: number): string {
  if (Number.isNaN(f)) return 'nan';
  if (!Number.isFinite(f)) return f < 0 ? '-inf' : 'inf';
  const s = formatFloat(f, 'g', -1);
  return /[.e]/.test(s) ? s : s + '.0';
}

interface FieldOptions {
  skip: boolean;
  name: string;
  omitempty: boolean;
  omitzero: boolean;
}

const UNTAGGED: FieldOptions = { skip: false, name: '', omitempty: false, omitzero: false };

const optionsByTag = new Map<string, FieldOptions>();

/** getOptions: the field's `toml:"name,omitempty,omitzero"` tag, or `toml:"-"`. */
function fieldOptions(tag: string | undefined): FieldOptions {
  if (tag === undefined) return UNTAGGED;
  let o = optionsByTag.get(tag);
  if (o === undefined) {
    const t = structTagGet(tag, 'toml');
    const [name, ...opts] = t.split(',');
    o =
      t === '-'
        ? { ...UNTAGGED, skip: true }
        : { skip: false, name: name!, omitempty: opts.includes('omitempty'), omitzero: opts.includes('omitzero') };
    optionsByTag.set(tag, o);
  }
  return o;
}

/** omitempty: empty string, slice or map, false, a nil pointer, a struct whose fields are all so (ints never are). */
function isEmpty(v: unknown): boolean {
  if (typeof v === 'string') return v === '';
  if (typeof v === 'boolean') return !v;
  if (v instanceof GoPointer) return v.elem === null;
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length === 0;
  if (v instanceof GoKeyedMap) return v.size === 0;
  if (v instanceof GoStruct) return isComparable(v) ? isZeroValue(v) : Object.values(v.fields).every(isEmpty);
  if (v instanceof GoStringer) return isEmpty(v.value);
  if (isGoMap(v)) return Object.keys(v).length === 0;
  return false;
}

/** A struct without slice, map or func fields: Go compares it with its zero value. */
const isComparable = (s: GoStruct): boolean =>
  Object.values(s.fields).every(
    (f) =>
      !(Array.isArray(f) || f instanceof Uint8Array || f instanceof GoKeyedMap || isGoMap(f)) &&
      (!(f instanceof GoStruct) || isComparable(f)),
  );

function isZeroValue(v: unknown): boolean {
  if (v === null || v === undefined || v === '' || v === false || v === 0n || v === 0) return true;
  if (v instanceof GoInt) return v.value === 0n;
  if (v instanceof GoPointer) return v.elem === null;
  if (v instanceof GoStringer) return isZeroValue(v.value);
  if (v instanceof GoStruct) return Object.values(v.fields).every(isZeroValue);
  return false;
}

/** omitzero: an integer or float that is 0. */
const isZeroNumber = (v: unknown) => v === 0 || v === 0n || (v instanceof GoInt && v.value === 0n);

/** Bound on how much longer a TOML basic string is than its text (a control character becomes \\u00NN). */
const STRING_GROWTH = 6;
/** Work per character of a string read for escapes (besides what its quoted form builds). */
const STRING_UNITS = 8;

/** Work of writing a table, besides its entries (its keys split into values and tables, sorted, its header). */
const TABLE_UNITS = 2048;

/**
 * Charged on its meter as it goes: each value visited and each piece of text before it is made (strings, key
 * paths, indentation), so a structure that shares parts stops before its text exists.
 */
class Encoder {
  out = '';

  constructor(
    private readonly indentUnit: string,
    private readonly meter: Meter,
  ) {}

  /** Writes a short piece of text (punctuation, a number). */
  private write(s: string): void {
    this.meter.build(s.length);
    this.out += s;
  }

  /** A string value or key, charged before it is quoted. */
  private quoted(s: string, quote: (s: string) => string): string {
    this.meter.spend(STRING_UNITS * s.length);
    this.meter.build(STRING_GROWTH * s.length + 2);
    return quote(s);
  }

  /** A dotted key path, charged before it is made. */
  private keyPath(key: Key): string {
    let n = key.length;
    for (const k of key) n += STRING_GROWTH * k.length + 2;
    this.meter.build(n);
    return tomlKeyPath(key);
  }

  private newline(): void {
    if (this.out !== '') this.write('\n');
  }

  private indent(key: Key): string {
    const n = Math.max(0, key.length - 1);
    this.meter.build(n * this.indentUnit.length);
    return this.indentUnit.repeat(n);
  }

  encode(key: Key, v: unknown): void {
    this.meter.visit();
    v = deref(v);
    if (isMarshaler(v)) return this.keyValue(key, v, false);
    if (v === null || v === undefined || v instanceof GoPointer) return;
    if (
      typeof v === 'string' ||
      typeof v === 'boolean' ||
      typeof v === 'bigint' ||
      typeof v === 'number' ||
      v instanceof GoInt
    ) {
      return this.keyValue(key, v, false);
    }
    if (Array.isArray(v) || v instanceof Uint8Array) {
      if (tomlTypeOf(v, this.meter) === 'ArrayHash') return this.arrayOfTables(key, v as unknown[]);
      return this.keyValue(key, v, false);
    }
    if (isGoMap(v)) {
      if (isNilContainer(v)) return;
      return this.table(key, v);
    }
    if (v instanceof GoStruct || v instanceof GoKeyedMap) return this.table(key, v);
    throw new TomlEncodeError(
      `unsupported type for key '${tomlKeyPath(key)}': ${v instanceof GoComplex ? 'complex128' : goTypeName(v)}`,
    );
  }

  private element(v: unknown): void {
    v = deref(v);
    const t = goTimeOf(v);
    if (t !== undefined) {
      // Local datetimes, dates and times are written without a zone.
      const layout =
        t.loc === 'datetime-local'
          ? '2006-01-02T15:04:05.999999999'
          : t.loc === 'date-local'
            ? '2006-01-02'
            : t.loc === 'time-local'
              ? '15:04:05.999999999'
              : RFC3339_NANO;
      return this.write(formatGoTime(t, layout));
    }
    const text = marshalText(v, this.meter);
    if (text !== undefined) return this.write(this.quoted(text, tomlString));
    if (v instanceof GoInt) return this.write(v.value.toString());
    switch (typeof v) {
      case 'string':
        return this.write(this.quoted(v, tomlString));
      case 'boolean':
        return this.write(String(v));
      case 'bigint':
        return this.write(v.toString());
      case 'number':
        return this.write(tomlFloat(v));
      default:
        break;
    }
    if (Array.isArray(v) || v instanceof Uint8Array) {
      this.write('[');
      for (let i = 0; i < v.length; i++) {
        this.meter.visit();
        this.element(v instanceof Uint8Array ? goUint8(v[i]!) : v[i]);
        if (i !== v.length - 1) this.write(', ');
      }
      return this.write(']');
    }
    if (v instanceof GoStruct) return this.struct([], v, true);
    if (isGoMap(v) || v instanceof GoKeyedMap) return this.mapOrStruct([], v, true);
    throw new TomlEncodeError(`unexpected type: ${v === null || v === undefined ? '<nil>' : goTypeName(v)}`);
  }

  private keyValue(key: Key, v: unknown, inline: boolean): void {
    // A top-level value that is not a table is written on its own.
    if (key.length === 0) return this.element(v);
    this.write(`${this.indent(key)}${this.quoted(key[key.length - 1]!, tomlKey)} = `);
    this.element(v);
    if (!inline) this.newline();
  }

  private arrayOfTables(key: Key, tables: unknown[]): void {
    if (key.length === 0) throw new TomlEncodeError('toml: top-level values must be Go maps or structs');
    for (const t of tables) {
      const tv = deref(t);
      if (isNil(tv)) continue;
      this.newline();
      this.write(`${this.indent(key)}[[${this.keyPath(key)}]]`);
      this.newline();
      this.mapOrStruct(key, tv, false);
    }
  }

  private table(key: Key, v: unknown): void {
    if (key.length === 1) this.newline();
    if (key.length > 0) {
      this.write(`${this.indent(key)}[${this.keyPath(key)}]`);
      this.newline();
    }
    this.mapOrStruct(key, v, false);
  }

  private mapOrStruct(key: Key, v: unknown, inline: boolean): void {
    if (v instanceof GoKeyedMap) throw new TomlEncodeError('toml: cannot encode a map with non-string key type');
    if (v instanceof GoStruct) this.struct(key, v, inline);
    else this.map(key, v as Record<string, unknown>, inline);
  }

  private map(key: Key, m: Record<string, unknown>, inline: boolean): void {
    const direct: string[] = [];
    const sub: string[] = [];
    // Listed and sorted; each key is copied into the path of each value below it.
    const n = goMapSize(m, this.meter);
    this.meter.spend(TABLE_UNITS + n * (ENTRY_UNITS + key.length));
    this.meter.build(n * (key.length + 2) * ELEMENT_BYTES);
    for (const k of Object.keys(m)) (isTable(m[k], this.meter) ? sub : direct).push(k);
    const writeKeys = (keys: string[], trailingComma: boolean) => {
      keys.sort(compareBytes);
      keys.forEach((k, i) => {
        const val = deref(m[k]);
        if (isNil(val)) return;
        if (inline) {
          this.keyValue([k], val, true);
          if (trailingComma || i !== keys.length - 1) this.write(', ');
        } else this.encode([...key, k], val);
      });
    };
    if (inline) this.write('{');
    writeKeys(direct, sub.length > 0);
    writeKeys(sub, false);
    if (inline) this.write('}');
  }

  private struct(key: Key, s: GoStruct, inline: boolean): void {
    // Fields are numbered among all fields, exported or not; Go's inline comma compares that number with
    // the count of encoded fields, as below.
    const names = Object.keys(s.fields);
    const options = names.map((n) => (isExported(n) ? fieldOptions(s.tags?.[n]) : undefined));
    const direct: number[] = [];
    const sub: number[] = [];
    names.forEach((n, i) => {
      if (options[i] !== undefined && !options[i].skip) (isTable(s.fields[n], this.meter) ? sub : direct).push(i);
    });
    const total = direct.length + sub.length;
    const writeFields = (fields: number[]) => {
      for (const i of fields) {
        const opts = options[i]!;
        const raw = s.fields[names[i]!];
        if (opts.omitempty && isEmpty(raw)) continue;
        const val = deref(raw);
        if (isNil(val)) continue;
        if (opts.omitzero && isZeroNumber(val)) continue;
        const name = opts.name === '' ? names[i]! : opts.name;
        if (inline) {
          this.keyValue([name], val, true);
          if (i !== total - 1) this.write(', ');
        } else this.encode([...key, name], val);
      }
    };
    if (inline) this.write('{');
    writeFields(direct);
    writeFields(sub);
    if (inline) this.write('}');
  }
}

/**
 * enc := toml.NewEncoder(&buf); enc.Indent = indent; enc.Encode(v): the document; throws TomlEncodeError for
 * the Encoder's errors.
 */
export function encodeToml(v: unknown, meter: Meter, indent = '  '): string {
  // reflect on an untyped nil panics inside the Encoder.
  if (v === null || v === undefined) throw new GoCallError('reflect: call of reflect.Value.Type on zero Value');
  const enc = new Encoder(indent, meter);
  enc.encode([], v);
  return enc.out;
}

/** toml.Marshal(v): the Encoder with its default Indent of two spaces. */
export const marshalToml = (v: unknown, meter: Meter): string => encodeToml(v, meter);
