// toml.Unmarshal into a map[string]interface{} as github.com/BurntSushi/toml v1.6.0 does it (OSM's
// fromToml): its parser over the items of lex.ts, building the same Go values (int64, float64,
// string, bool, time.Time, []interface{} for arrays, map[string]interface{} for tables and
// []map[string]interface{} for arrays of tables) and failing with the same ParseError texts,
// "toml: line N (last key "k"): message".
import { GoCallError } from '../reflect/func.ts';
import { LOCAL, parseGoTime, RFC3339_NANO, type GoLocation } from '../time/time.ts';
import { goTimeValue } from '../time/value.ts';
import { goQuote } from '../strconv/format.ts';
import { containerType, goSlice, GoInt, mapHas, mapSet, type GoMap } from '../reflect/value.ts';
import { lookupKey } from '../internal/hashableKey.ts';
import { goBytes } from '../reflect/byteString.ts';
import { tomlString } from './encodeString.ts';
import { isHex, lexToml, type TomlItem, type TomlItemType } from './lex.ts';
import type { Meter } from '../internal/meter.ts';

/** Work per part of a key path walked or copied. */
const PATH_UNITS = 8;

export class TomlParseError extends Error {
  constructor(line: number, lastKey: string, message: string) {
    super(
      lastKey === ''
        ? `toml: line ${line}: ${message}`
        : `toml: line ${line} (last key ${goQuote(lastKey)}): ${message}`,
    );
    this.name = 'TomlParseError';
  }
}

type Key = readonly string[];
type TomlType = 'Integer' | 'Float' | 'Datetime' | 'String' | 'Bool' | 'Array' | 'Hash' | 'ArrayHash';

const BARE = /^[A-Za-z0-9_-]+$/;

/** toml.Key's String: parts joined by dots, each quoted unless it is a bare key. */
const keyText = (k: Key) => k.map((p) => (p === '' ? '""' : BARE.test(p) ? p : tomlString(p))).join('.');

const TABLES = 'map[string]interface {}';
const isTables = (v: unknown): v is GoMap[] => Array.isArray(v) && containerType(v)?.elem === TABLES;
const isMap = (v: unknown): v is GoMap =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
const has = mapHas;
const put = mapSet;

const LOCAL_DATETIME: GoLocation = { loc: 'datetime-local', zone: 'datetime-local', offset: 0 };
const LOCAL_DATE: GoLocation = { loc: 'date-local', zone: 'date-local', offset: 0 };
const LOCAL_TIME: GoLocation = { loc: 'time-local', zone: 'time-local', offset: 0 };
const DATETIME_LAYOUTS: ReadonlyArray<[string, GoLocation]> = [
  [RFC3339_NANO, LOCAL],
  ['2006-01-02T15:04:05.999999999', LOCAL_DATETIME],
  ['2006-01-02', LOCAL_DATE],
  ['15:04:05.999999999', LOCAL_TIME],
  ['2006-01-02T15:04Z07:00', LOCAL],
  ['2006-01-02T15:04', LOCAL_DATETIME],
  ['15:04', LOCAL_TIME],
];

const STRING_TYPES = new Set<TomlItemType>([
  'string',
  'stringEsc',
  'multilineString',
  'rawString',
  'rawMultilineString',
]);

function bug(msg: string): never {
  throw new GoCallError(`BUG: ${msg}\n\n`);
}

/**
 * Charged on its meter where its work grows faster than its input, as BurntSushi's does: every key path it
 * writes out or walks (a table can be nested as deep as its name is long, and each key below it walks and
 * writes the whole path).
 */
class Parser {
  private i = 0;
  private context: Key = [];
  private currentKey = '';
  private posLine = 0;
  readonly mapping: GoMap = {};
  private readonly keyInfo = new Map<string, TomlType>();
  private readonly implicits = new Set<string>();

  constructor(
    private readonly items: readonly TomlItem[],
    private readonly meter: Meter,
  ) {}

  /** toml.Key's String, charged before it is made. */
  private text(k: Key): string {
    let n = k.length;
    for (const p of k) n += 6 * p.length + 2;
    this.meter.build(n);
    return keyText(k);
  }

  private current(): string {
    if (this.currentKey === '') return this.text(this.context);
    if (this.context.length === 0) return this.currentKey;
    return `${this.text(this.context)}.${this.currentKey}`;
  }

  private failAt(line: number, msg: string): never {
    throw new TomlParseError(line, this.current(), msg);
  }

  /** panicf: at the line of the last key or table name read. */
  private fail(msg: string): never {
    return this.failAt(this.posLine, msg);
  }

  next(): TomlItem {
    const it = this.items[this.i++]!;
    if (it.typ === 'error') this.failAt(it.line, it.val);
    return it;
  }

  private nextPos(): TomlItem {
    const it = this.next();
    this.posLine = it.line;
    return it;
  }

  private expect(typ: TomlItemType): void {
    const it = this.next();
    if (it.typ !== typ) bug(`Expected '${typ}' but got '${it.typ}'.`);
  }

  /** The parts of a key or table name, up to the item that ends it. */
  private keyParts(first: TomlItem, end: TomlItemType): string[] {
    const key: string[] = [];
    let it = first;
    for (; it.typ !== end && it.typ !== 'eof'; it = this.next()) key.push(this.keyString(it));
    if (it.typ !== end) bug(`Expected '${end}' but got '${it.typ}'.`);
    return key;
  }

  topLevel(item: TomlItem): void {
    switch (item.typ) {
      case 'commentStart':
        this.expect('text');
        return;
      case 'tableStart':
      case 'arrayTableStart': {
        const array = item.typ === 'arrayTableStart';
        const key = this.keyParts(this.nextPos(), array ? 'arrayTableEnd' : 'tableEnd');
        this.addContext(key, array);
        this.setType('', array ? 'ArrayHash' : 'Hash');
        return;
      }
      case 'keyStart': {
        const outerContext = this.context;
        this.keyPair(this.keyParts(this.nextPos(), 'keyEnd'));
        this.context = outerContext;
        this.currentKey = '';
        return;
      }
      default:
        break;
    }
    bug(`Unexpected type at top level: ${item.typ}`);
  }

  /** key = value: the key's parents become implicit tables, then the value is set. */
  private keyPair(key: string[]): { context: Key; value: unknown } {
    // Each parent's path is copied whole.
    this.meter.spend(PATH_UNITS * key.length * (this.context.length + key.length));
    this.currentKey = key[key.length - 1]!;
    const parents = key.slice(0, -1);
    for (const part of parents) this.addImplicitContext([...this.context, part]);
    const [value, typ] = this.value(this.next(), false);
    this.setValue(this.currentKey, value);
    this.setType(this.currentKey, typ);
    return { context: parents, value };
  }

  private keyString(it: TomlItem): string {
    if (it.typ === 'text') return it.val;
    if (STRING_TYPES.has(it.typ)) return this.value(it, false)[0] as string;
    return bug(`Unexpected key type: ${it.typ}`);
  }

  private value(it: TomlItem, parentIsArray: boolean): [unknown, TomlType] {
    switch (it.typ) {
      case 'string':
      case 'rawString':
        return [it.val, 'String'];
      case 'stringEsc':
        return [this.replaceEscapes(it, it.val), 'String'];
      case 'multilineString':
        return [this.replaceEscapes(it, stripEscapedNewlines(stripFirstNewline(it.val))), 'String'];
      case 'rawMultilineString':
        return [stripFirstNewline(it.val), 'String'];
      case 'integer':
        return [this.valueInteger(it), 'Integer'];
      case 'float':
        return [this.valueFloat(it), 'Float'];
      case 'bool':
        if (it.val === 'true' || it.val === 'false') return [it.val === 'true', 'Bool'];
        return bug(`Expected boolean value, but got '${it.val}'.`);
      case 'datetime':
        return [this.valueDatetime(it), 'Datetime'];
      case 'array':
        return [this.valueArray(), 'Array'];
      case 'inlineTableStart':
        return [this.valueInlineTable(parentIsArray), 'Hash'];
      default:
        break;
    }
    return bug(`Unexpected value type: ${it.typ}`);
  }

  private valueInteger(it: TomlItem): GoInt {
    if (!numUnderscoresOK(it.val))
      this.failAt(it.line, `Invalid integer ${goQuote(it.val)}: underscores must be surrounded by digits`);
    if (numHasLeadingZero(it.val))
      this.failAt(it.line, `Invalid integer ${goQuote(it.val)}: cannot have leading zeroes`);
    const digits = it.val.replace(/_/g, '');
    const m = /^([+-]?)(.*)$/.exec(digits)!;
    // More than 20 significant decimal digits are out of range, whatever they are (BigInt would be quadratic).
    if (/^[0-9]+$/.test(m[2]!) && m[2]!.replace(/^0+/, '').length > 20)
      this.failAt(it.line, `${it.val} is out of range for int64`);
    let n: bigint;
    try {
      n = BigInt(m[2]!);
    } catch {
      return bug(`Expected integer value, but got '${it.val}'.`);
    }
    if (m[1] === '-') n = -n;
    if (n < -(2n ** 63n) || n >= 2n ** 63n) this.failAt(it.line, `${it.val} is out of range for int64`);
    return new GoInt('int64', n);
  }

  private valueFloat(it: TomlItem): number {
    const parts = it.val.split(/[.eE]/).filter((p) => p !== '');
    for (const part of parts) {
      if (!numUnderscoresOK(part))
        this.failAt(it.line, `Invalid float ${goQuote(it.val)}: underscores must be surrounded by digits`);
    }
    if (parts.length > 0 && numHasLeadingZero(parts[0]!))
      this.failAt(it.line, `Invalid float ${goQuote(it.val)}: cannot have leading zeroes`);
    if (!numPeriodsOK(it.val))
      this.failAt(it.line, `Invalid float ${goQuote(it.val)}: '.' must be followed by one or more digits`);
    let val = it.val.replace(/_/g, '');
    if (val === '+nan' || val === '-nan') val = 'nan';
    const special = /^([+-]?)(inf|nan)$/.exec(val);
    if (special) return special[2] === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
    // strconv.ParseFloat: a syntax error, or a number too large for a float64.
    if (!/^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(val))
      this.failAt(it.line, `Invalid float value: ${goQuote(it.val)}`);
    const f = Number(val);
    if (!Number.isFinite(f)) this.failAt(it.line, `${it.val} is out of range for float64`);
    return f;
  }

  private valueDatetime(it: TomlItem): unknown {
    const val = it.val.replace(/z/g, 'Z').replace(/t/g, 'T').replace(/ /g, 'T');
    for (const [layout, where] of DATETIME_LAYOUTS) {
      const t = parseGoTime(layout, val, where);
      if (t === undefined) continue;
      if (missingLeadingZero(val, layout)) break;
      return goTimeValue(t);
    }
    return this.failAt(it.line, `invalid datetime: ${goQuote(val)}`);
  }

  private valueArray(): unknown[] {
    this.setType(this.currentKey, 'Array');
    const array: unknown[] = [];
    for (let el = this.next(); el.typ !== 'arrayEnd'; el = this.next()) {
      if (el.typ === 'commentStart') {
        this.expect('text');
        continue;
      }
      array.push(this.value(el, true)[0]);
    }
    return array;
  }

  private valueInlineTable(parentIsArray: boolean): GoMap {
    const topHash: GoMap = {};
    const outerContext = this.context;
    const outerKey = this.currentKey;
    this.context = [...this.context, this.currentKey];
    const prevContext = this.context;
    this.currentKey = '';
    this.addImplicit(this.context);
    this.addContext(this.context, parentIsArray);
    for (let it = this.next(); it.typ !== 'inlineTableEnd'; it = this.next()) {
      if (it.typ === 'commentStart') {
        this.expect('text');
        continue;
      }
      const { context, value } = this.keyPair(this.keyParts(this.nextPos(), 'keyEnd'));
      let hash = topHash;
      for (const c of context) {
        if (!has(hash, c)) put(hash, c, {});
        const h = hash[c];
        if (!isMap(h)) this.fail(`${goQuote(this.text(this.context))} is not a table`);
        hash = h;
      }
      put(hash, this.currentKey, value);
      this.context = prevContext;
    }
    this.context = outerContext;
    this.currentKey = outerKey;
    return topHash;
  }

  /** Makes `key` the current table (or a new element of the array of tables `key`), creating its parents. */
  private addContext(key: Key, array: boolean): void {
    this.meter.spend(PATH_UNITS * key.length);
    let hashContext = this.mapping;
    const keyContext: string[] = [];
    for (const k of key.slice(0, -1)) {
      keyContext.push(k);
      if (!has(hashContext, k)) {
        this.addImplicit(keyContext);
        put(hashContext, k, {});
      }
      const t = hashContext[k];
      if (isTables(t)) hashContext = t[t.length - 1]!;
      else if (isMap(t)) hashContext = t;
      else this.fail(`Key '${this.text(keyContext)}' was already created as a hash.`);
    }
    this.context = keyContext;
    const last = key[key.length - 1]!;
    if (array) {
      if (!has(hashContext, last)) put(hashContext, last, goSlice(TABLES, []));
      const tables = hashContext[last];
      if (isTables(tables)) tables.push({});
      else this.fail(`Key '${this.text(key)}' was already created and cannot be used as an array.`);
    } else {
      this.setValue(last, {});
    }
    this.context = [...keyContext, last];
  }

  /** Sets key in the current table; a table that was only implied may be defined once, nothing else twice. */
  private setValue(key: string, value: unknown): void {
    this.meter.spend(PATH_UNITS * this.context.length);
    let hash = this.mapping;
    const keyContext: string[] = [];
    for (const k of this.context) {
      keyContext.push(k);
      if (!has(hash, k)) bug(`Context for key '${this.text(keyContext)}' has not been established.`);
      const t = hash[k];
      if (isTables(t)) hash = t[t.length - 1]!;
      else if (isMap(t)) hash = t;
      else this.fail(`Key '${this.text(keyContext)}' has already been defined.`);
    }
    keyContext.push(key);
    if (has(hash, key)) {
      if (this.isArray(keyContext)) {
        if (!this.isImplicit(keyContext)) this.fail(`Key '${this.text(keyContext)}' has already been defined.`);
        this.implicits.delete(lookupKey(this.text(keyContext)));
        put(hash, key, value);
        return;
      }
      if (this.isImplicit(keyContext)) {
        this.implicits.delete(lookupKey(this.text(keyContext)));
        return;
      }
      this.fail(`Key '${this.text(keyContext)}' has already been defined.`);
    }
    put(hash, key, value);
  }

  private setType(key: string, typ: TomlType): void {
    const keyContext = key === '' ? [...this.context] : [...this.context, key];
    this.keyInfo.set(lookupKey(keyContext.length === 0 ? '""' : this.text(keyContext)), typ);
  }

  private addImplicit(key: Key): void {
    this.implicits.add(lookupKey(this.text(key)));
  }

  private isImplicit(key: Key): boolean {
    return this.implicits.has(lookupKey(this.text(key)));
  }

  private isArray(key: Key): boolean {
    return this.keyInfo.get(lookupKey(this.text(key))) === 'Array';
  }

  private addImplicitContext(key: Key): void {
    this.addImplicit(key);
    this.addContext(key, false);
  }

  private replaceEscapes(it: TomlItem, str: string): string {
    let out = '';
    for (let i = 0; i < str.length; i++) {
      const c = str[i]!;
      if (c !== '\\') {
        out += c;
        continue;
      }
      const e = str[i + 1];
      const simple: Record<string, string> = {
        b: '\b',
        t: '\t',
        n: '\n',
        f: '\f',
        r: '\r',
        e: '\x1b',
        '"': '"',
        '\\': '\\',
      };
      if (e === ' ' || e === '\t') this.failAt(it.line, `invalid escape: '\\${e}'`);
      if (e !== undefined && simple[e] !== undefined) {
        out += simple[e];
        i++;
        continue;
      }
      const n = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (n === 0) bug(`Expected valid escape code after \\, but got ${goQuote(e ?? '')}.`);
      const hex = str.slice(i + 2, i + 2 + n);
      const r = parseInt(hex, 16) | 0; // a Go rune is an int32
      if (r < 0 || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff))
        this.failAt(it.line, `Escaped character '\\u${hex}' is not valid UTF-8.`);
      out += String.fromCodePoint(r);
      i += n + 1;
    }
    return out;
  }
}

function stripFirstNewline(s: string): string {
  if (s.startsWith('\n')) return s.slice(1);
  if (s.startsWith('\r\n')) return s.slice(2);
  return s;
}

/** A backslash at the end of a line (before only whitespace) removes itself and the whitespace after it. */
function stripEscapedNewlines(s: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const ix = s.indexOf('\\', i);
    if (ix < 0) return out + s;
    i = ix;
    if (s[i + 1] === '\\') {
      i += 2;
      continue;
    }
    let j = i + 1;
    while (j < s.length && ' \t\r\n'.includes(s[j]!)) j++;
    if (j === i + 1 || !s.slice(i, j).includes('\n')) {
      i++;
      continue;
    }
    out += s.slice(0, i);
    s = s.slice(j);
    i = 0;
  }
}

function numHasLeadingZero(s: string): boolean {
  if (s.length > 1 && s[0] === '0' && !'box'.includes(s[1]!)) return true;
  return s.length > 2 && (s[0] === '-' || s[0] === '+') && s[1] === '0';
}

function numUnderscoresOK(s: string): boolean {
  if (['nan', '+nan', '-nan', 'inf', '-inf', '+inf'].includes(s)) return true;
  let accept = false;
  for (const ch of s) {
    if (ch === '_' && !accept) return false;
    accept = isHex(ch.codePointAt(0)!);
  }
  return accept;
}

function numPeriodsOK(s: string): boolean {
  let period = false;
  for (const ch of s) {
    if (period && !/[0-9]/.test(ch)) return false;
    period = ch === '.';
  }
  return !period;
}

/** time.Parse accepts one-digit hours; TOML does not: the layout's separators must line up. */
function missingLeadingZero(d: string, layout: string): boolean {
  for (let i = 0; i < layout.length; i++) {
    const c = layout[i]!;
    if (c === '.' || c === 'Z') return false;
    if ((c < '0' || c > '9') && d[i] !== c) return true;
  }
  return false;
}

/** toml.Unmarshal(text, &map[string]interface{}); throws TomlParseError (or GoCallError for Go's panics). */
export function decodeToml(text: string, meter: Meter): GoMap {
  // A byte order mark (UTF-16's, which is not valid, or UTF-8's) is skipped.
  if (text.startsWith('\udcff\udcfe') || text.startsWith('\udcfe\udcff')) text = text.slice(2);
  else if (text.startsWith('\ufeff')) text = text.slice(1);
  if (goBytes(text).subarray(0, 6).includes(0)) {
    throw new TomlParseError(1, '', 'files cannot contain NULL bytes; probably using UTF-16; TOML files must be UTF-8');
  }
  const p = new Parser(lexToml(text), meter);
  for (;;) {
    const item = p.next();
    if (item.typ === 'eof') break;
    p.topLevel(item);
  }
  return p.mapping;
}
