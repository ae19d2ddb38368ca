// gopkg.in/yaml.v3's Marshal of plain data as Helm/OSM's toYaml calls it: block style, 4-space indent,
// keys in yaml.v3's "natural" order, and each string in the style yaml.v3 picks: its encoder asks for
// double quotes when the plain text would read back as another type (including YAML 1.1 booleans and
// base-60 numbers), a literal block when it spans lines, plain otherwise; its emitter then falls back
// from plain to single to double quotes by what the text contains (indicators, leading or trailing
// spaces, tabs, line breaks, characters it does not print: C1 controls, BOM and non-BMP runes), and
// writes keys that span lines or exceed 128 bytes as "? " keys.
// Follows gopkg.in/yaml.v3 v3.0.1 (its latest release, and the differential oracle's).
import {
  exportedFields,
  GoInt,
  GoKeyedMap,
  goMapSize,
  GoPointer,
  GoStringer,
  GoStruct,
  isGoMap,
  type GoMap,
} from '../reflect/value.ts';
import { formatFloat, goTypeName } from '../fmt/format.ts';
import { parseGoFloat, parseGoInt } from '../strconv/parseNumber.ts';
import { canonicalGoString, goByteLength, goBytes, goString, hasRawBytes } from '../reflect/byteString.ts';
import { goRunes, isDigit, isLetter } from '../unicode/unicode.ts';
import { formatGoTime, RFC3339_NANO } from '../time/time.ts';
import { goTimeOf } from '../time/value.ts';
import { ENTRY_UNITS, type Meter } from '../internal/meter.ts';
import { callGoFunction } from '../reflect/func.ts';
import { TextBuilder } from '../internal/textBuilder.ts';

// --- Which strings must be quoted (encoder.stringv): those that would read back as another type ---

const OLD_BOOL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const RESOLVE_MAP = new Set([
  'true',
  'True',
  'TRUE',
  'false',
  'False',
  'FALSE',
  '',
  '~',
  'null',
  'Null',
  'NULL',
  '.nan',
  '.NaN',
  '.NAN',
  '.inf',
  '.Inf',
  '.INF',
  '+.inf',
  '+.Inf',
  '+.INF',
  '-.inf',
  '-.Inf',
  '-.INF',
  '<<',
]);
const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** yaml.v3's parseTimestamp: the four layouts it accepts, with time.Parse's range checks. */
function isTimestamp(s: string): boolean {
  const m =
    /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:([Tt ])([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(\.[0-9]+)?(Z|[-+][0-9]{2}:[0-9]{2})?)?$/.exec(
      s,
    );
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo)) return false;
  if (m[4] === undefined) return true;
  if (Number(m[5]) > 23 || Number(m[6]) > 59 || Number(m[7]) > 59) return false;
  // A zone is required after T/t and not allowed after a space.
  if ((m[4] === ' ') !== (m[9] === undefined)) return false;
  if (m[9] !== undefined && m[9] !== 'Z' && (Number(m[9].slice(1, 3)) > 23 || Number(m[9].slice(4)) > 59)) return false;
  return true;
}

/** yaml.v3's resolve: does an unquoted s read back as something other than a string? */
function resolvesToNonString(s: string): boolean {
  const c = s[0];
  if (s === '') return true;
  if (c === undefined || !/[-+0-9yYnNtTfFoO~.]/.test(c)) return false;
  if (RESOLVE_MAP.has(s)) return true;
  if (c === '.') return parseGoFloat(s) !== undefined;
  if (!/[-+0-9]/.test(c)) return false;
  if (isTimestamp(s)) return true;
  const plain = s.replace(/_/g, '');
  if (parseGoInt(plain, false) !== undefined || /^\+?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[0-9]+)$/.test(plain))
    return true;
  if (YAML_FLOAT.test(plain) && parseGoFloat(plain) !== undefined) return true;
  if (/^-?0b[01]+$/.test(plain) || /^-?0o[0-7]+$/.test(plain)) return true;
  return false;
}

// --- The emitter's scalar analysis (yaml_emitter_analyze_scalar), on code points ---------------------

const isBreak = (c: number) => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
/** is_printable, as the emitter tests UTF-8 lead bytes: no C1 controls, no BOM, nothing beyond the BMP. */
const isPrintable = (c: number) =>
  c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

interface Analysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

function analyze(s: string): Analysis {
  const r = codePoints(s);
  if (r.length === 0)
    return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  let blockIndicators = s.startsWith('---') || s.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let tabs = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  for (let i = 0; i < r.length; i++) {
    const c = r[i]!;
    const last = i === r.length - 1;
    const followedByWhitespace = last || r[i + 1] === 0x20 || r[i + 1] === 0x09;
    if (i === 0) {
      if (c < 0x80 && '#,[]{}&*!|>\'"%@`'.includes(String.fromCharCode(c))) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a || c === 0x2d) && followedByWhitespace) blockIndicators = true;
    } else if ((c === 0x3a && followedByWhitespace) || (c === 0x23 && precededByWhitespace)) blockIndicators = true;
    if (c === 0x09) tabs = true;
    else if (!isPrintable(c)) special = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === 0x20 || c === 0x09 || c === 0 || isBreak(c);
  }
  const a: Analysis = { multiline: lineBreaks, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.blockPlainAllowed = false;
  if (trailingSpace) a.blockAllowed = false;
  if (breakSpace) a.blockPlainAllowed = a.singleQuotedAllowed = false;
  if (spaceBreak || tabs || special) a.blockPlainAllowed = a.singleQuotedAllowed = false;
  if (spaceBreak || special) a.blockAllowed = false;
  if (lineBreaks || blockIndicators) a.blockPlainAllowed = false;
  return a;
}

type Style = 'plain' | 'single' | 'double' | 'literal';

/** encoder.stringv's request, then the emitter's select_scalar_style (block context). */
function styleOf(s: string, simpleKey: boolean): Style {
  const a = analyze(s);
  let style: Style = s.includes('\n')
    ? 'literal'
    : !resolvesToNonString(s) && !BASE60_FLOAT.test(s) && !OLD_BOOL.test(s)
      ? 'plain'
      : 'double';
  if (simpleKey && a.multiline) style = 'double';
  if (style === 'plain' && (!a.blockPlainAllowed || (s === '' && simpleKey))) style = 'single';
  if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || simpleKey)) style = 'double';
  return style;
}

const HEX = '0123456789ABCDEF';
const DOUBLE_ESCAPES: Record<number, string> = {
  0x00: '0',
  0x07: 'a',
  0x08: 'b',
  0x09: 't',
  0x0a: 'n',
  0x0b: 'v',
  0x0c: 'f',
  0x0d: 'r',
  0x1b: 'e',
  0x22: '"',
  0x5c: '\\',
  0x85: 'N',
  0xa0: '_',
  0x2028: 'L',
  0x2029: 'P',
};

function writeDouble(s: string): string {
  // is_bom looks at the start of the value, so a leading BOM escapes every character.
  const bom = s.startsWith('\ufeff');
  const out = new TextBuilder();
  out.unit(0x22);
  for (const c of codePoints(s)) {
    if (bom || !isPrintable(c) || isBreak(c) || c === 0x22 || c === 0x5c) {
      const named = DOUBLE_ESCAPES[c];
      if (named !== undefined) out.append('\\' + named);
      else {
        const [mark, digits] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
        let hex = '';
        for (let k = digits - 1; k >= 0; k--) hex += HEX[(c >> (4 * k)) & 15];
        out.append('\\' + mark + hex);
      }
    } else out.push(c);
  }
  out.unit(0x22);
  return out.toString();
}

/** The code points of s (a lone surrogate as itself, as iterating a string gives it). */
function codePoints(s: string): Int32Array {
  const out = new Int32Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out[n++] = (c - 0xd800) * 0x400 + (s.charCodeAt(i + 1) - 0xdc00) + 0x10000;
      i++;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

/** Single-quoted: quotes doubled; after a line break the next character is indented. */
function writeSingle(s: string, indent: number): string {
  const out = new TextBuilder();
  const pad = ' '.repeat(indent);
  out.unit(0x27);
  let breaks = false;
  for (const c of codePoints(s)) {
    if (isBreak(c)) {
      out.push(c);
      breaks = true;
      continue;
    }
    if (breaks) out.append(pad);
    breaks = false;
    if (c === 0x27) out.unit(0x27);
    out.push(c);
  }
  out.unit(0x27);
  return out.toString();
}

/** A literal block: indentation and chomping indicators, then the lines; without its final line feed. */
function writeLiteral(s: string, indent: number): string {
  const r = codePoints(s);
  let head = '|';
  if (r[0] === 0x20 || isBreak(r[0]!)) head += '4';
  const n = r.length;
  if (!isBreak(r[n - 1]!)) head += '-';
  else if (n === 1 || isBreak(r[n - 2]!)) head += '+';
  const out = new TextBuilder();
  out.append(head + (isBreak(r[0]!) ? '' : '\n'));
  const pad = ' '.repeat(indent);
  let breaks = true;
  for (const c of r) {
    if (isBreak(c)) {
      out.push(c);
      breaks = true;
    } else {
      if (breaks) out.append(pad);
      breaks = false;
      out.push(c);
    }
  }
  const text = out.toString();
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}

/** encodeBase64 in yaml.v3: base64 in lines of 70, each ended by a line feed once there is more than one. */
function yamlBase64(b: Uint8Array): string {
  const text = Buffer.from(b).toString('base64');
  if (text.length < 70) return text;
  return text.replace(/.{1,70}/g, '$&\n');
}

/** The line breaks in s. */
function countBreaks(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029) n++;
  }
  return n;
}

/** Bound on how much longer double quotes make a text (a character beyond the BMP becomes \\UXXXXXXXX: 10 for 2). */
const DOUBLE_GROWTH = 6;
/** Work per character of analysing a scalar (the emitter's checks, one code point at a time). */
const ANALYSIS_UNITS = 32;
/** Work per key of sorting a mapping's keys (yaml.v3's natural order compares rune by rune). */
const KEY_SORT_UNITS = 8 * ENTRY_UNITS;
/** Memory per entry of a mapping being written: its place in the sorted list, its runes, the encoder's nodes. */
const ENTRY_NODE_BYTES = 128;
/** Work per character of a key, per comparison of the sort (digit runs compare as numbers). */
const KEY_CHAR_UNITS = 16;

/**
 * A string scalar as yaml.v3 writes it; `indent` is where its continuation lines start. Charged before it is
 * written: its analysis, and the longest text its style can make (each line indented).
 */
function stringScalar(s: string, indent: number, m: Meter, simpleKey = false): string {
  m.spend(ANALYSIS_UNITS * s.length);
  m.build(DOUBLE_GROWTH * s.length + countBreaks(s) * indent + 8);
  // Text that is not valid UTF-8 is written as !!binary base64.
  if (hasRawBytes(s) && hasRawBytes((s = canonicalGoString(s)))) {
    const b64 = yamlBase64(goBytes(s));
    return '!!binary ' + (b64.includes('\n') ? writeLiteral(b64, indent) : b64);
  }
  switch (styleOf(s, simpleKey)) {
    case 'plain':
      return s;
    case 'single':
      return writeSingle(s, indent);
    case 'double':
      return writeDouble(s);
    case 'literal':
      return writeLiteral(s, indent);
  }
}

/** A key fits on its line unless it spans lines or is longer than 128 bytes (then it is a "? " key). */
function isSimpleKey(k: string, m: Meter): boolean {
  m.spend(ANALYSIS_UNITS * k.length);
  if (hasRawBytes(k) && hasRawBytes((k = canonicalGoString(k)))) return goByteLength(k) <= 51; // its base64 fits one line
  return !analyze(k).multiline && Buffer.byteLength(k, 'utf8') <= 128;
}

export function yamlV3Scalar(s: string, m: Meter): string {
  return stringScalar(s, 4, m, true);
}

/** yaml.v3's key order (keyList.Less): letters sort before other characters, digit runs numerically. */
export function compareYamlKeys(a: string, b: string): number {
  return compareYamlRunes(goRunes(a), goRunes(b));
}

function compareYamlRunes(a: Int32Array, b: Int32Array): number {
  return yamlKeyLess(a, b) ? -1 : yamlKeyLess(b, a) ? 1 : 0;
}

function yamlKeyLess(ar: Int32Array, br: Int32Array): boolean {
  const digit = (c: number | undefined) => c !== undefined && isDigit(c);
  const letter = isLetter;
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = digit(ar[i]);
      continue;
    }
    const al = letter(ar[i]!);
    const bl = letter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return digits ? al : bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === 0x30 || br[i] === 0x30) {
      for (let j = i - 1; j >= 0 && digit(ar[j]); j--) {
        if (ar[j] !== 0x30) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    // Go's int64 arithmetic wraps; BigInt.asIntN keeps that.
    for (; ai < ar.length && digit(ar[ai]); ai++) an = BigInt.asIntN(64, an * 10n + BigInt(ar[ai]! - 0x30));
    for (; bi < br.length && digit(br[bi]); bi++) bn = BigInt.asIntN(64, bn * 10n + BigInt(br[bi]! - 0x30));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

/** A non-string scalar or an empty collection, or undefined for strings and non-empty collections. */
/** A timestamp already formatted; the emitter writes it plain. */
class YamlTimestamp {
  constructor(readonly text: string) {}
}

function nonString(v: unknown, _m: Meter): string | undefined {
  if (v === null || v === undefined) return 'null';
  if (v instanceof YamlTimestamp) return v.text;
  if (v instanceof GoInt) return v.value.toString();
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isNaN(v) ? '.nan' : v === Infinity ? '.inf' : v === -Infinity ? '-.inf' : formatFloat(v, 'g', -1);
    case 'boolean':
      return String(v);
    default:
      break;
  }
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (isMapLike(v) && isEmptyMapLike(v)) return '{}';
  return undefined;
}

const isEmptyMapLike = (v: unknown) =>
  v instanceof GoStruct
    ? exportedFields(v).length === 0
    : v instanceof GoKeyedMap
      ? v.size === 0
      : goMapSize(v as GoMap) === 0;

/** A scalar as written at a position whose continuation lines start at `indent`, or undefined for a collection. */
function scalar(v: unknown, indent: number, m: Meter): string | undefined {
  m.visit();
  if (typeof v === 'string') return stringScalar(v, indent, m);
  return nonString(v, m);
}

const isMapLike = (v: unknown) => isGoMap(v) || v instanceof GoStruct || v instanceof GoKeyedMap;
function entries(v: unknown, m: Meter): Array<[unknown, unknown]> {
  if (v instanceof GoStruct) return exportedFields(v);
  const n = v instanceof GoKeyedMap ? v.size : goMapSize(v as GoMap, m);
  m.spend(n * KEY_SORT_UNITS);
  // The sorted list of entries, and the nodes the encoder makes for each.
  m.build(n * ENTRY_NODE_BYTES);
  if (v instanceof GoKeyedMap) {
    const idx = v.keys
      .map((_, i) => i)
      .sort((i, j) => (keyLess(v.keys[i], v.keys[j]) ? -1 : keyLess(v.keys[j], v.keys[i]) ? 1 : 0));
    return idx.map((i) => [v.keys[i], v.values[i]]);
  }
  // Each key's runes once; the sort's comparisons read them (charged above, and per character here).
  const keys = Object.keys(v as object);
  let chars = 0;
  for (const k of keys) chars += k.length;
  m.spend(Math.ceil(Math.log2(keys.length + 1)) * KEY_CHAR_UNITS * chars);
  m.build(4 * chars);
  const runes = keys.map((k) => ({ k, r: goRunes(k) }));
  runes.sort((x, y) => compareYamlRunes(x.r, y.r));
  return runes.map(({ k }) => [k, (v as Record<string, unknown>)[k]]);
}

// reflect.Kind numbers, which order keys of different kinds.
const KIND_NUMBERS: Record<string, number> = {
  bool: 1,
  int: 2,
  int64: 6,
  uint8: 8,
  uint64: 11,
  float64: 14,
  string: 24,
};
const kindNumber = (v: unknown) => (v === null || v === undefined ? 20 : (KIND_NUMBERS[goTypeName(v)] ?? 25));

/** A key as a number, for the keys that sort numerically (ints, floats, bools). */
function keyFloat(v: unknown): number | undefined {
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof GoInt) return Number(v.value);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return undefined;
}

/** yaml.v3's keyList.Less over keys of any type: numbers by value, then kinds by number, strings naturally. */
function keyLess(a: unknown, b: unknown): boolean {
  const af = keyFloat(a);
  const bf = keyFloat(b);
  if (af !== undefined && bf !== undefined) {
    if (af !== bf) return af < bf;
    if (kindNumber(a) !== kindNumber(b)) return kindNumber(a) < kindNumber(b);
    const av = a instanceof GoInt ? a.value : a;
    const bv = b instanceof GoInt ? b.value : b;
    if (typeof av === 'boolean') return !av && (bv as boolean);
    return (av as number) < (bv as number);
  }
  if (typeof a !== 'string' || typeof b !== 'string') return kindNumber(a) < kindNumber(b);
  return yamlKeyLess(goRunes(a), goRunes(b));
}

function deref(v: unknown, m: Meter): unknown {
  while (v instanceof GoPointer) {
    m.visit();
    v = v.elem;
  }
  // yaml.v3 writes a time.Duration as its String(), other Stringers only when they are TextMarshalers.
  if (v instanceof GoStringer) return v.marshalsText || v.typeName === 'time.Duration' ? v.text : deref(v.value, m);
  // A time.Time is written as an RFC 3339 timestamp, unquoted (before TextMarshalers are asked).
  const t = goTimeOf(v);
  if (t !== undefined) return new YamlTimestamp(formatGoTime(t, RFC3339_NANO));
  // An encoding.TextMarshaler (semver.Version) is written as its text.
  const text = v instanceof GoStruct ? v.methods?.MarshalText : undefined;
  return text !== undefined ? goString(callGoFunction(text, m, []) as Uint8Array) : v;
}

// The emitter's indentation (yaml_emitter_increase_indent): a sequence item's content is 2 columns past
// its dash; a mapping value, nested or scalar, goes to the next multiple of 4 past the key's column.
const valueIndent = (keyCol: number) => 4 * Math.floor((keyCol + 4) / 4);

/** The lines of a collection, joined: its text is built anew at each level of nesting, so it is charged before. */
function joined(lines: string[], m: Meter): string {
  let n = lines.length;
  for (const l of lines) n += l.length;
  m.build(n);
  return lines.join('\n');
}

/** `n` spaces of indentation, charged. */
function spaces(n: number, m: Meter): string {
  m.build(n);
  return ' '.repeat(n);
}

function map(v: unknown, keyCol: number, m: Meter, firstInline = false): string {
  const vi = valueIndent(keyCol);
  const lines = entries(v, m).map(([rawKey, raw], i) => {
    const x = deref(raw, m);
    const lead = i === 0 && firstInline ? '' : spaces(keyCol, m);
    const s = scalar(x, vi, m);
    if (typeof rawKey !== 'string') {
      // A key that is not a string (map[interface{}]interface{}) is a short plain scalar.
      const k = lead + nonString(deref(rawKey, m), m) + ':';
      if (s !== undefined) return k + ' ' + s;
      return k + '\n' + (Array.isArray(x) ? seq(x, vi, m) : map(x, vi, m));
    }
    const k = rawKey;
    if (isSimpleKey(k, m)) {
      const key = lead + stringScalar(k, vi, m, true) + ':';
      if (s !== undefined) return key + ' ' + s;
      return key + '\n' + (Array.isArray(x) ? seq(x, vi, m) : map(x, vi, m));
    }
    // A "? " key; its value follows ':' on the next line, collections starting on that same line.
    const key = lead + '? ' + stringScalar(k, vi, m) + '\n' + spaces(keyCol, m) + ':';
    if (s !== undefined) return key + ' ' + s;
    const pad = spaces(Math.max(1, vi - keyCol - 1), m);
    return key + pad + (Array.isArray(x) ? seq(x, vi, m, true) : map(x, vi, m, true));
  });
  return joined(lines, m);
}

function seq(v: unknown[], dashCol: number, m: Meter, firstInline = false): string {
  const lines = v.map((raw, i) => {
    const x = deref(raw, m);
    const lead = (i === 0 && firstInline ? '' : spaces(dashCol, m)) + '- ';
    const s = scalar(x, dashCol + 2, m);
    if (s !== undefined) return lead + s;
    return lead + (Array.isArray(x) ? seq(x, dashCol + 2, m, true) : map(x, dashCol + 2, m, true));
  });
  return joined(lines, m);
}

/**
 * yaml.Marshal. Charged on `m` as it goes: each node visited, each key sort, each scalar before it is written
 * and each collection's text, so a structure that shares parts stops before its text exists.
 */
export function marshalYamlV3(v: unknown, m: Meter): string {
  v = deref(v, m);
  // A document-level scalar is indented as a flow node would be (best_indent).
  const s = scalar(v, 4, m);
  if (s !== undefined) return s + '\n';
  if (Array.isArray(v)) return seq(v, 0, m) + '\n';
  return map(v, 0, m) + '\n';
}
