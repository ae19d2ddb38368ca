// YAML output byte-identical to Go's sigs.k8s.io/yaml.Marshal, for comparing our objects with upstream goldens.
//
// sigs.k8s.io/yaml.Marshal(obj) is: encoding/json.Marshal(obj) -> JSON text -> yaml.v2 Unmarshal into interface{}
// (so ints stay ints, floats become float64, keys are strings) -> yaml.v2 Marshal (keys sorted, block style, width 80).
// This file reimplements those steps for JSON data in JS (what JSON.parse returns):
//   1. toNode: the value tree yaml.v2 decodes from the JSON text (number typing, the few string changes the YAML
//      parser makes, key order), with each scalar's requested style as yaml.v2's encoder picks it;
//   2. Emitter: the parts of yaml.v2's emitter (emitterc.go) these trees reach — block mappings and sequences,
//      `{}`/`[]` for empty ones, plain/single/double-quoted/literal scalars — with its column and whitespace state,
//      because line folding at width 80 and indentation depend on it.
// Behaviour follows gopkg.in/yaml.v2 2.4.0 (whose emitter sigs.k8s.io/yaml's goyaml.v2 fork keeps) built with Go 1.19.
// Written from reading those sources; test/support/goYaml.test.ts checks it against a Go oracle.

/** Raised for input sigs.k8s.io/yaml.Marshal would reject (it returns an error there) or that is not JSON data. */
export class GoYamlError extends Error {
  override readonly name = 'GoYamlError';
}

/**
 * Serializes a JSON value exactly as Go's `sigs.k8s.io/yaml.Marshal` serializes the same JSON. The input is taken as
 * JSON.stringify would write it: object properties that are undefined or functions are omitted, such array items
 * and non-finite numbers become null, toJSON() is honoured. Throws GoYamlError where Go would fail.
 */
export function marshalLikeSigsYaml(obj: unknown): string {
  const value = asJson(obj);
  if (value === undefined) {
    throw new GoYamlError('marshalLikeSigsYaml: no JSON value (undefined, a function or a symbol)');
  }
  return new Emitter().document(toNode(value, '$', new Set()));
}

// ---------------------------------------------------------------------------------------------------------------
// 1. The value tree yaml.v2 decodes from the JSON

type Style = 'plain' | 'single' | 'double' | 'literal';
type ScalarNode = { kind: 'scalar'; cps: number[]; style: Style };
type Node = ScalarNode | { kind: 'seq'; items: Node[] } | { kind: 'map'; entries: Array<[ScalarNode, Node]> };

function plainScalar(text: string): ScalarNode {
  return { kind: 'scalar', cps: codePoints(text), style: 'plain' };
}

/** The value JSON.stringify writes in place of `value` (toJSON() applied), or undefined where it writes nothing. */
function asJson(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
}

function toNode(value: unknown, path: string, open: Set<object>): Node {
  switch (typeof value) {
    case 'undefined':
      return plainScalar('null'); // an array item JSON.stringify writes as null
    case 'boolean':
      return plainScalar(value ? 'true' : 'false');
    case 'number':
      return plainScalar(Number.isFinite(value) ? numberText(value) : 'null');
    case 'string':
      return stringScalar(decodedLikeGoYaml(value, path, false));
    case 'bigint':
      throw new GoYamlError(`marshalLikeSigsYaml: ${path} is a bigint, which JSON cannot hold`);
    default:
      break;
  }
  if (value === null) return plainScalar('null');
  const object = value as object;
  if (open.has(object)) throw new GoYamlError(`marshalLikeSigsYaml: ${path} refers back to itself`);
  open.add(object);
  try {
    if (Array.isArray(object)) {
      return { kind: 'seq', items: object.map((item, i) => toNode(asJson(item), `${path}[${i}]`, open)) };
    }
    const entries: Array<[ScalarNode, Node]> = [];
    for (const [key, item] of Object.entries(object)) {
      const itemValue = asJson(item);
      if (itemValue === undefined) continue;
      const childPath = `${path}.${key}`;
      if (goJsonQuotedLength(key) > 1024) {
        throw new GoYamlError(
          `marshalLikeSigsYaml: map key ${childPath.slice(0, 60)}... is too long: Go's yaml.v2 reads the JSON back ` +
            'and gives up on a key whose ":" is more than 1024 characters from its start',
        );
      }
      entries.push([stringScalar(decodedLikeGoYaml(key, childPath, true)), toNode(itemValue, childPath, open)]);
    }
    entries.sort(([a], [b]) => (keyLess(a.cps, b.cps) ? -1 : keyLess(b.cps, a.cps) ? 1 : 0));
    return { kind: 'map', entries };
  } finally {
    open.delete(object);
  }
}

/** Characters in Go 1.19's json.Marshal of s, quotes included (\b and \f are escaped as \u0008 and \u000c). */
function goJsonQuotedLength(s: string): number {
  let n = 2;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\' || ch === '\n' || ch === '\r' || ch === '\t') n += 2;
    else if (cp < 0x20 || ch === '<' || ch === '>' || ch === '&' || cp === 0x2028 || cp === 0x2029) n += 6;
    else n += 1;
  }
  return n;
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * A JSON number as yaml.v2 prints it after decoding: integer text that fits int64 or uint64 stays as written; anything
 * else (a fraction, an exponent, a bigger integer) is a float64 printed with Go's strconv 'g' format, which switches
 * to exponent form from 1e+06 on (1234567.5 -> "1.2345675e+06", 0.00001 -> "1e-05").
 */
function numberText(n: number): string {
  const json = JSON.stringify(n); // the same text Go's json.Marshal writes for this float64
  if (/^-?\d+$/.test(json)) {
    const big = BigInt(json);
    if (big >= INT64_MIN && big <= UINT64_MAX) return json;
  }
  return goFormatFloatG(n);
}

/** strconv.FormatFloat(f, 'g', -1, 64): shortest digits; %e when the exponent is < -4 or >= 6. */
function goFormatFloatG(f: number): string {
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const sign = f < 0 ? '-' : '';
  const [mantissa, exponent] = Math.abs(f).toExponential().split('e'); // shortest round-trip digits, like Go's
  const digits = mantissa!.replace('.', '');
  const exp = Number(exponent);
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const expDigits = String(Math.abs(exp)).padStart(2, '0');
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${expDigits}`;
  }
  const pointAt = exp + 1; // digits before the decimal point
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return `${sign}${digits}${'0'.repeat(pointAt - digits.length)}`;
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

const NEL = 0x85;

/**
 * The string yaml.v2 reads back from Go's JSON encoding of `s`. json.Marshal escapes control characters, quotes,
 * backslashes, <>& and U+2028/9 but writes everything else raw, and the YAML parser then
 * - rejects raw DEL, C1 controls other than NEL, U+FFFE and U+FFFF ("control characters are not allowed");
 * - takes a raw NEL (U+0085) for a line break inside the double-quoted scalar and folds it like one: spaces around a
 *   break are dropped, a single break becomes a space, n > 1 breaks become n-1 newlines. A NEL inside a map key
 *   breaks the JSON mapping for the parser, and "---" or "..." right after a NEL reads as a document marker; both fail.
 */
function decodedLikeGoYaml(s: string, path: string, isKey: boolean): string {
  let hasNel = false;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      throw new GoYamlError(`marshalLikeSigsYaml: ${path} holds a lone UTF-16 surrogate, which is not Unicode text`);
    }
    if (cp === 0x7f || (cp >= 0x80 && cp <= 0x9f && cp !== NEL) || cp === 0xfffe || cp === 0xffff) {
      const hex = cp.toString(16).toUpperCase().padStart(4, '0');
      throw new GoYamlError(
        `marshalLikeSigsYaml: ${path} holds U+${hex}; Go's yaml.v2 fails with "control characters are not allowed"`,
      );
    }
    if (cp === NEL) hasNel = true;
  }
  if (!hasNel) return s;
  if (isKey) {
    throw new GoYamlError(`marshalLikeSigsYaml: map key ${path} holds U+0085 (NEL); Go's yaml.v2 cannot read it back`);
  }

  const cps = codePoints(s);
  let out = '';
  let i = 0;
  let atLineStart = false;
  for (;;) {
    if (atLineStart && isDocumentMarkerAt(cps, i)) {
      throw new GoYamlError(
        `marshalLikeSigsYaml: ${path} has "---" or "..." after U+0085 (NEL); Go's yaml.v2 reads a document marker`,
      );
    }
    while (i < cps.length && cps[i] !== 0x20 && cps[i] !== NEL) out += String.fromCodePoint(cps[i++]!);
    if (i >= cps.length) return out;
    let sawBreak = false;
    let spaces = '';
    let extraBreaks = '';
    for (; i < cps.length && (cps[i] === 0x20 || cps[i] === NEL); i++) {
      if (cps[i] === 0x20) {
        if (!sawBreak) spaces += ' ';
        atLineStart = false;
      } else {
        if (sawBreak) extraBreaks += '\n';
        sawBreak = true;
        atLineStart = true;
      }
    }
    out += sawBreak ? extraBreaks || ' ' : spaces;
  }
}

function isDocumentMarkerAt(cps: number[], i: number): boolean {
  const c = cps[i];
  if ((c !== 0x2d && c !== 0x2e) || cps[i + 1] !== c || cps[i + 2] !== c) return false;
  // the character after the marker, as the parser sees it: a raw space or NEL; anything escaped starts with '\'
  return cps[i + 3] === 0x20 || cps[i + 3] === NEL;
}

/**
 * yaml.v2's encoder asks for a literal block when the string has a "\n", plain when the text would read back as a
 * string, double quotes otherwise (so "" "true" "1" "null" "2024-01-02" "1:20" come out double-quoted). The emitter
 * may still override this (see Emitter.selectStyle).
 */
function stringScalar(s: string): ScalarNode {
  const style: Style = s.includes('\n') ? 'literal' : resolvesToString(s) && !BASE60_FLOAT.test(s) ? 'plain' : 'double';
  return { kind: 'scalar', cps: codePoints(s), style };
}

// Sexagesimal floats are gone from yaml.v2's resolver, but it still quotes them for other YAML 1.1 parsers.
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
// Plain scalars yaml.v2 maps to bools, nulls and special floats (YAML 1.1: y/n/yes/no/on/off too).
const RESOLVE_MAP = new Set(
  [
    'y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF',
    '~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF <<',
  ]
    .join(' ')
    .split(' ')
    .concat(['']),
);

/** Whether yaml.v2's resolve() leaves `s` a string when it is written plain (its first byte picks what it tries). */
function resolvesToString(s: string): boolean {
  if (s === '') return false; // null
  const first = s[0]!;
  let hint: 'M' | '.' | 'DS';
  if ('yYnNtTfFoO~'.includes(first)) hint = 'M';
  else if (first === '.') hint = '.';
  else if ('+-0123456789'.includes(first)) hint = 'DS';
  else return true; // "<<" is in the map but never looked up: '<' has no hint
  if (RESOLVE_MAP.has(s)) return false;
  if (hint === 'M') return true;
  if (hint === '.') return !goParseFloatOk(s);
  if (isGoTimestamp(s)) return false;
  const plain = s.replaceAll('_', '');
  if (goParseInt(plain, 0) || goParseUint(plain, 0) !== undefined) return false;
  if (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain))) return false; // overflow is an error in Go
  // base-2 retries that only add oddities like "0b-101"
  if (plain.startsWith('0b')) return !(goParseInt(plain.slice(2), 2) || goParseUint(plain.slice(2), 2) !== undefined);
  if (plain.startsWith('-0b')) return !goParseInt(`-${plain.slice(3)}`, 2);
  return true;
}

/** strconv.ParseUint(s, base, 64): the value, or undefined where Go fails (base 0: 0b/0o/0x prefixes, 0 = octal). */
function goParseUint(s: string, base: number): bigint | undefined {
  if (s === '') return undefined;
  if (base === 0) {
    base = 10;
    if (s[0] === '0') {
      const prefix = s.length >= 3 ? s[1]!.toLowerCase() : '';
      const prefixed = prefix === 'b' || prefix === 'o' || prefix === 'x';
      base = prefix === 'b' ? 2 : prefix === 'x' ? 16 : 8;
      s = s.slice(prefixed ? 2 : 1);
    }
  }
  let n = 0n;
  for (const c of s.toLowerCase()) {
    const d = c >= '0' && c <= '9' ? c.charCodeAt(0) - 48 : c >= 'a' && c <= 'z' ? c.charCodeAt(0) - 87 : 99;
    if (d >= base) return undefined;
    n = n * BigInt(base) + BigInt(d);
    if (n > UINT64_MAX) return undefined;
  }
  return n;
}

/** strconv.ParseInt(s, base, 64) succeeds. */
function goParseInt(s: string, base: number): boolean {
  const negative = s[0] === '-';
  const n = goParseUint(s[0] === '+' || negative ? s.slice(1) : s, base);
  return n !== undefined && (negative ? n <= 2n ** 63n : n < 2n ** 63n);
}

/** strconv.ParseFloat(s, 64) succeeds, for s starting with '.' (the only raw ParseFloat call resolve makes). */
function goParseFloatOk(s: string): boolean {
  const m = /^\.([0-9_]*)(?:[eE][-+]?[0-9][0-9_]*)?$/.exec(s);
  if (!m || !/[0-9]/.test(m[1]!)) return false;
  if (s.includes('_') && !goUnderscoreOk(s)) return false;
  return Number.isFinite(Number(s.replaceAll('_', ''))); // only overflow is an error; underflow gives 0
}

/** strconv's underscoreOK: '_' only between digits (s here never has a sign or base prefix). */
function goUnderscoreOk(s: string): boolean {
  let saw = '^';
  for (const c of s) {
    if (c >= '0' && c <= '9') saw = '0';
    else if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
    } else {
      if (saw === '_') return false;
      saw = '!';
    }
  }
  return saw !== '_';
}

/**
 * Whether time.Parse accepts `s` with one of yaml.v2's timestamp layouts: "2006-1-2T15:4:5.999999999Z07:00",
 * the same with a lower-case 't', "2006-1-2 15:4:5.999999999" and "2006-1-2". (Go 1.19 semantics: 1-2 digit fields,
 * range checks, at most 9 fraction digits, a layout space matches one or more spaces.)
 */
function isGoTimestamp(s: string): boolean {
  if (!/^[0-9]{4}-/.test(s)) return false;
  const dateTime = ['Y', '-', 'M', '-', 'D'];
  const clock = ['h', ':', 'm', ':', 's', 'f'];
  const layouts = [
    [...dateTime, 'T', ...clock, 'Z'],
    [...dateTime, 't', ...clock, 'Z'],
    [...dateTime, ' ', ...clock],
    dateTime,
  ];
  return layouts.some((layout) => matchesGoLayout(layout, s));
}

function matchesGoLayout(layout: string[], value: string): boolean {
  let v = value;
  let year = 0;
  let month = 0;
  let day = 0;
  // getnum(v, false): one digit, or two if the second is a digit
  const num = (): number | undefined => {
    if (!/^[0-9]/.test(v)) return undefined;
    const len = /^[0-9]{2}/.test(v) ? 2 : 1;
    const n = Number(v.slice(0, len));
    v = v.slice(len);
    return n;
  };
  for (const chunk of layout) {
    switch (chunk) {
      case 'Y':
        year = Number(v.slice(0, 4)); // the caller checked four digits
        v = v.slice(4);
        break;
      case 'M': {
        const n = num();
        if (n === undefined || n < 1 || n > 12) return false;
        month = n;
        break;
      }
      case 'D': {
        const n = num();
        if (n === undefined) return false;
        day = n;
        break;
      }
      case 'h':
      case 'm':
      case 's': {
        const n = num();
        if (n === undefined || n >= (chunk === 'h' ? 24 : 60)) return false;
        break;
      }
      case 'f': {
        // optional: a '.' or ',' and up to 9 digits
        const m = /^[.,][0-9]{1,9}/.exec(v);
        if (m) v = v.slice(m[0].length);
        break;
      }
      case 'Z': {
        if (v[0] === 'Z') {
          v = v.slice(1);
          break;
        }
        // sign, two-character hour, ':', two-character minute; time's atoi takes an inner sign too
        if (v.length < 6 || v[3] !== ':' || (v[0] !== '+' && v[0] !== '-')) return false;
        if (!/^[-+]?[0-9]*$/.test(v.slice(1, 3)) || !/^[-+]?[0-9]*$/.test(v.slice(4, 6))) return false;
        v = v.slice(6);
        break;
      }
      case ' ':
        if (v[0] !== ' ') return false;
        v = v.replace(/^ +/, '');
        break;
      default:
        if (v[0] !== chunk) return false;
        v = v.slice(1);
    }
  }
  if (v !== '') return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysIn = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day >= 1 && day <= daysIn;
}

/**
 * yaml.v2's map key order (sorter.go), not plain code-point order: where two keys first differ, a letter sorts after
 * a non-letter, and runs of digits compare by numeric value ("a2" < "a10"), the shorter run first on ties
 * ("1" < "01"); digit values wrap like Go's int64. The order is not transitive ("10" < "99" < "9a" < "10"); for such
 * key sets Go's output itself varies from run to run with map iteration order.
 */
function keyLess(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const ca = a[i]!;
    const cb = b[i]!;
    if (ca === cb) continue;
    const al = isLetter(ca);
    const bl = isLetter(cb);
    if (al && bl) return ca < cb;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ca === 0x30 || cb === 0x30) {
      // a zero continuing a number with a non-zero digit before it is an ordinary digit, not a leading zero
      for (let j = i - 1; j >= 0 && isDigit(a[j]!); j--) {
        if (a[j] !== 0x30) {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < a.length && isDigit(a[ai]!); ai++) an = BigInt.asIntN(64, an * 10n + BigInt(a[ai]! - 0x30));
    let bi = i;
    for (; bi < b.length && isDigit(b[bi]!); bi++) bn = BigInt.asIntN(64, bn * 10n + BigInt(b[bi]! - 0x30));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ca < cb;
  }
  return a.length < b.length;
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const isLetter = (cp: number): boolean => LETTER.test(String.fromCodePoint(cp));
const isDigit = (cp: number): boolean => (cp < 0x80 ? cp >= 0x30 && cp <= 0x39 : DIGIT.test(String.fromCodePoint(cp)));

// ---------------------------------------------------------------------------------------------------------------
// 2. The emitter

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

function codePoints(s: string): number[] {
  return Array.from(s, (ch) => ch.codePointAt(0)!);
}

function utf8Length(cps: number[]): number {
  return cps.reduce((n, cp) => n + (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4), 0);
}

const isSpace = (cp: number | undefined): boolean => cp === 0x20;
const isBlank = (cp: number | undefined): boolean => cp === 0x20 || cp === 0x09;
const isBreak = (cp: number | undefined): boolean =>
  cp === 0x0d || cp === 0x0a || cp === NEL || cp === 0x2028 || cp === 0x2029;
const isBlankOrBreakOrNul = (cp: number | undefined): boolean => isBlank(cp) || isBreak(cp) || cp === 0;

/**
 * Characters yaml.v2 writes unescaped. Not printable, so forcing double quotes: tab, CR, DEL, C1 controls (NEL too),
 * U+FEFF, U+FFFE/F and everything outside the BMP (emoji come out as "\U0001F600").
 */
function isPrintable(cp: number): boolean {
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

/** What analyze_scalar finds out about a scalar: which styles can represent it. */
interface Analysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

function analyzeScalar(value: number[]): Analysis {
  if (value.length === 0) {
    return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;

  const [c0, c1, c2] = value;
  if ((c0 === 0x2d || c0 === 0x2e) && c1 === c0 && c2 === c0) blockIndicators = true; // "---" / "..." prefixes
  for (let i = 0; i < value.length; i++) {
    const cp = value[i]!;
    const followedByWhitespace = i + 1 >= value.length || isBlank(value[i + 1]);
    const ch = String.fromCodePoint(cp);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) blockIndicators = true;
      else if ((ch === '?' || ch === ':' || ch === '-') && followedByWhitespace) blockIndicators = true;
    } else if ((ch === ':' && followedByWhitespace) || (ch === '#' && precededByWhitespace)) {
      blockIndicators = true;
    }
    if (!isPrintable(cp)) specialCharacters = true;
    if (isSpace(cp)) {
      if (i === 0) leadingSpace = true;
      if (i === value.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === value.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankOrBreakOrNul(cp);
  }
  // (flow-context results are not needed: the only flow collections written here are empty)
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks || blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

interface Context {
  mapping?: boolean;
  simpleKey?: boolean;
}

/** yaml.v2's emitter state for one document, driven by recursion instead of its event queue. */
class Emitter {
  private readonly out: string[] = [];
  private column = 0;
  /** the last thing written was whitespace (an indicator like ':' or '-' clears it) */
  private whitespace = true;
  /** only indentation has been written on the current line so far */
  private indention = true;
  private indent = -1;
  private readonly indents: number[] = [];
  private mappingContext = false;
  private simpleKeyContext = false;

  document(root: Node): string {
    this.node(root, {});
    this.writeIndent(); // DOCUMENT-END: ends the last line
    return this.out.join('');
  }

  private node(node: Node, ctx: Context): void {
    this.mappingContext = ctx.mapping ?? false;
    this.simpleKeyContext = ctx.simpleKey ?? false;
    if (node.kind === 'scalar') this.scalar(node, analyzeScalar(node.cps));
    else if (node.kind === 'seq' && node.items.length > 0) this.blockSequence(node.items);
    else if (node.kind === 'map' && node.entries.length > 0) this.blockMapping(node.entries);
    else this.emptyFlowCollection(node.kind === 'seq' ? '[' : '{', node.kind === 'seq' ? ']' : '}');
  }

  private blockSequence(items: Node[]): void {
    // A sequence that is a mapping value is not indented: its "- " starts at the key's column.
    this.increaseIndent(false, this.mappingContext && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.node(item, {});
    }
    this.popIndent();
  }

  private blockMapping(entries: Array<[ScalarNode, Node]>): void {
    this.increaseIndent(false, false);
    for (const [key, value] of entries) {
      this.writeIndent();
      const analysis = analyzeScalar(key.cps);
      // A key spanning lines or longer than 128 UTF-8 bytes becomes a "? key" / ": value" pair.
      if (!analysis.multiline && utf8Length(key.cps) <= 128) {
        this.mappingContext = true;
        this.simpleKeyContext = true;
        this.scalar(key, analysis);
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.node(key, { mapping: true });
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(value, { mapping: true });
    }
    this.popIndent();
  }

  private emptyFlowCollection(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.writeIndicator(close, false, false, false);
  }

  private scalar(node: ScalarNode, analysis: Analysis): void {
    const style = this.selectStyle(node, analysis);
    this.increaseIndent(true, false);
    const allowBreaks = !this.simpleKeyContext; // simple keys stay on one line
    if (style === 'plain') this.writePlain(node.cps, allowBreaks);
    else if (style === 'single') this.writeSingleQuoted(node.cps, allowBreaks);
    else if (style === 'double') this.writeDoubleQuoted(node.cps, allowBreaks);
    else this.writeLiteral(node.cps);
    this.popIndent();
  }

  /** select_scalar_style: fall back from the requested style to one that can represent the value. */
  private selectStyle(node: ScalarNode, a: Analysis): Style {
    let style = node.style;
    if (this.simpleKeyContext && a.multiline) style = 'double';
    if (style === 'plain' && (!a.blockPlainAllowed || (node.cps.length === 0 && this.simpleKeyContext))) {
      style = 'single';
    }
    if (style === 'single' && !a.singleQuotedAllowed) style = 'double';
    // A literal block cannot hold trailing spaces, spaces before a line break, or non-printable characters
    // (a tab, a CR, an emoji): such multi-line strings become one folded double-quoted scalar with \n escapes.
    if (style === 'literal' && (!a.blockAllowed || this.simpleKeyContext)) style = 'double';
    return style;
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  private put(ascii: string): void {
    this.out.push(ascii);
    this.column += ascii.length;
  }

  private putBreak(): void {
    this.out.push('\n');
    this.column = 0;
  }

  private write(cp: number): void {
    this.out.push(String.fromCodePoint(cp));
    this.column++; // columns count characters, not bytes
  }

  /** write_break: "\n" is a line break; CR, NEL, LS, PS are copied as they are but still reset the column. */
  private writeBreak(cp: number): void {
    if (cp === 0x0a) {
      this.putBreak();
    } else {
      this.write(cp);
      this.column = 0;
    }
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean) {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(indicator);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** Folds at a single space once past column 80 (never inside keys, never at a run of spaces). */
  private writePlain(value: number[], allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < value.length; i++) {
      const cp = value[i]!;
      if (isSpace(cp)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && !isSpace(value[i + 1])) this.writeIndent();
        else this.write(cp);
        spaces = true;
      } else if (isBreak(cp)) {
        if (!breaks && cp === 0x0a) this.putBreak();
        this.writeBreak(cp);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.write(cp);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(value: number[], allowBreaks: boolean): void {
    this.writeIndicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < value.length; i++) {
      const cp = value[i]!;
      if (isSpace(cp)) {
        const foldable = i > 0 && i < value.length - 1 && !isSpace(value[i + 1]);
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && foldable) this.writeIndent();
        else this.write(cp);
        spaces = true;
      } else if (isBreak(cp)) {
        if (!breaks && cp === 0x0a) this.putBreak();
        this.writeBreak(cp);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (cp === 0x27) this.put("'");
        this.write(cp);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * Escapes breaks, '"', '\' and non-printables; folds at a space past column 80 that is neither the first nor the
   * last character, writing "\" before the next line's content when that content starts with a space (an escaped
   * space keeps it from being eaten by the fold). yaml.v2 quirk: when the value starts with U+FEFF, it escapes
   * every character ("\x61"), because its BOM test looks at the start of the value instead of the current position.
   */
  private writeDoubleQuoted(value: number[], allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    const escapeAll = value[0] === 0xfeff;
    let spaces = false;
    for (let i = 0; i < value.length; i++) {
      const cp = value[i]!;
      if (escapeAll || !isPrintable(cp) || isBreak(cp) || cp === 0x22 || cp === 0x5c) {
        this.put(`\\${escapeSequence(cp)}`);
        spaces = false;
      } else if (isSpace(cp)) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < value.length - 1) {
          this.writeIndent();
          if (isSpace(value[i + 1])) this.put('\\');
        } else {
          this.write(cp);
        }
        spaces = true;
      } else {
        this.write(cp);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * "|" plus hints: "2" (the indentation) when the value starts with a space or break, then chomping: "-" without a
   * final break, "+" with two or more (or when the value is a single break), none with exactly one.
   */
  private writeLiteral(value: number[]): void {
    this.writeIndicator('|', true, false, false);
    if (isSpace(value[0]) || isBreak(value[0])) this.writeIndicator(String(BEST_INDENT), false, false, false);
    const last = value.length - 1;
    const chomp = !isBreak(value[last]) ? '-' : last === 0 || isBreak(value[last - 1]) ? '+' : '';
    if (chomp) this.writeIndicator(chomp, false, false, false);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const cp of value) {
      if (isBreak(cp)) {
        this.writeBreak(cp); // blank lines get no indentation
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.write(cp);
        this.indention = false;
        breaks = false;
      }
    }
  }
}

const SHORT_ESCAPES = new Map<number, string>([
  [0x00, '0'],
  [0x07, 'a'],
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0b, 'v'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [0x1b, 'e'],
  [0x22, '"'],
  [0x5c, '\\'],
  [0x85, 'N'],
  [0xa0, '_'],
  [0x2028, 'L'],
  [0x2029, 'P'],
]);

/** The text after the backslash: a short escape, else \xXX, \uXXXX or \UXXXXXXXX in upper-case hex. */
function escapeSequence(cp: number): string {
  const short = SHORT_ESCAPES.get(cp);
  if (short !== undefined) return short;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `x${hex.padStart(2, '0')}`;
  if (cp <= 0xffff) return `u${hex.padStart(4, '0')}`;
  return `U${hex.padStart(8, '0')}`;
}
