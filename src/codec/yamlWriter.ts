import { InvalidUnicodeError, isWellFormed } from './wellFormedUnicode.ts';

// A small, fast YAML writer for the objects the function generates (maps, lists, strings, numbers,
// booleans, null): block style, two-space indent, lists at their key's column, literal blocks for multi-line
// strings, and double quotes for anything a YAML 1.1 or 1.2 reader could take for something else. A string
// that is not valid Unicode is refused (InvalidUnicodeError), never written as U+FFFD.
// Measured: the general `yaml` Document API spent over a second serializing 1,000 MachineDeployments' output.
/** Every string (key or value) is checked; native, and immediate for strings V8 holds one byte per character. */
function checkWellFormed(s: string): void {
  if (!isWellFormed(s)) throw new InvalidUnicodeError();
}

function quoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0) || c === 0xfeff || c === 0x2028 || c === 0x2029)
      out += '\\u' + c.toString(16).padStart(4, '0');
    // Non-characters: Go's and Python's YAML readers refuse the whole text when one appears anywhere, even quoted.
    else if (c === 0xfffe || c === 0xffff) out += '\\u' + c.toString(16);
    else out += ch;
  }
  return out + '"';
}

// Plain scalars are checked by scanning character codes, not with regular expressions: V8 compiles a regexp on
// its first runs, which cost more than all the strings of a small run (README.md, Benchmark). The rules are the
// regexps' (test/codec/yamlWriter.test.ts holds them and compares on arbitrary strings).

/** C0 and C1 controls, DEL, BOM, line and paragraph separators, U+FFFE and U+FFFF: no plain scalar holds them. */
const CONTROL = /[\x00-\x1f\x7f-\x9f\ufeff\u2028\u2029\ufffe\uffff]/;

/** `\s` of a JavaScript regexp. */
function isSpace(c: number): boolean {
  return (
    c === 0x20 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff ||
    c === 0x2028 ||
    c === 0x2029 ||
    (c >= 0x09 && c <= 0x0d)
  );
}

/** A first character that makes a plain scalar something else (indicators and white space). */
function isUnsafeStart(c: number): boolean {
  switch (c) {
    case 0x2d: // -
    case 0x3f: // ?
    case 0x3a: // :
    case 0x2c: // ,
    case 0x5b: // [
    case 0x5d: // ]
    case 0x7b: // {
    case 0x7d: // }
    case 0x23: // #
    case 0x26: // &
    case 0x2a: // *
    case 0x21: // !
    case 0x7c: // |
    case 0x3e: // >
    case 0x27: // '
    case 0x22: // "
    case 0x25: // %
    case 0x40: // @
    case 0x60: // `
      return true;
    default:
      return isSpace(c);
  }
}

/** Whether s can be written as a plain scalar and read back as the same string by any YAML 1.1 or 1.2 reader. */
export function plainOk(s: string): boolean {
  const n = s.length;
  if (n === 0 || isUnsafeStart(s.charCodeAt(0)) || isDocumentEnd(s)) return false;
  const last = s.charCodeAt(n - 1);
  // `: ` and `:` at the end start a mapping value; ` #` starts a comment.
  if (isSpace(last) || last === 0x3a || s.includes(': ') || s.includes(' #')) return false;
  return !CONTROL.test(s) && !readsAsNonString(s);
}

/** `...` alone or before white space: at the start of a line (a key at column 0), the end of the document. */
function isDocumentEnd(s: string): boolean {
  return s.startsWith('...') && (s.length === 3 || isSpace(s.charCodeAt(3)));
}

/** Words a YAML 1.1 or 1.2 reader takes for null, a boolean, infinity, NaN or a merge key. */
function isReservedWord(s: string): boolean {
  switch (s) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
    case 'y':
    case 'Y':
    case 'yes':
    case 'Yes':
    case 'YES':
    case 'n':
    case 'N':
    case 'no':
    case 'No':
    case 'NO':
    case 'true':
    case 'True':
    case 'TRUE':
    case 'false':
    case 'False':
    case 'FALSE':
    case 'on':
    case 'On':
    case 'ON':
    case 'off':
    case 'Off':
    case 'OFF':
    case '.inf':
    case '.Inf':
    case '.INF':
    case '+.inf':
    case '+.Inf':
    case '+.INF':
    case '-.inf':
    case '-.Inf':
    case '-.INF':
    case '.nan':
    case '.NaN':
    case '.NAN':
    case '<<':
    case '=':
      return true;
    default:
      return false;
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isDigitOr_ = (c: number) => isDigit(c) || c === 0x5f;
const isBinaryOr_ = (c: number) => c === 0x30 || c === 0x31 || c === 0x5f;
const isOctalOr_ = (c: number) => (c >= 0x30 && c <= 0x37) || c === 0x5f;
const isHexOr_ = (c: number) => isDigitOr_(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** The index after the run of characters from `at` that `accept` takes. */
function skip(s: string, at: number, accept: (c: number) => boolean): number {
  while (at < s.length && accept(s.charCodeAt(at))) at++;
  return at;
}

/** Whether `[eE][-+]?[0-9]+` is all of s from `at`, or s ends at `at`. */
function exponentToEnd(s: string, at: number): boolean {
  if (at === s.length) return true;
  const c = s.charCodeAt(at);
  if (c !== 0x65 && c !== 0x45) return false;
  at++;
  if (s.charCodeAt(at) === 0x2b || s.charCodeAt(at) === 0x2d) at++;
  const end = skip(s, at, isDigit);
  return end > at && end === s.length;
}

/**
 * Whether a YAML 1.1 or 1.2 reader takes s for something other than a string: a reserved word, an integer
 * (binary, octal, hex, decimal, sexagesimal), a float, or a timestamp.
 */
function readsAsNonString(s: string): boolean {
  // A string switch compares with each case in turn: only words that start as a reserved word does go through it.
  if (s.length <= 5 && '~nNyYtTfFoO.+-<='.includes(s[0]!) && isReservedWord(s)) return true;
  if (isNumberOrTimestamp(s)) return true;
  // yaml.v3 and v2 (kyaml, sigs.k8s.io/yaml) remove every `_` from a scalar that starts with a digit or a sign
  // before Go's strconv parses it (`+_1` is 1, `0_x1F` 31, `1e_3` 1000), and Go's ParseFloat, which reads one
  // that starts with `.`, takes `_` between any digits (`.5e3_1`).
  const first = s.charCodeAt(0);
  return (
    (isDigit(first) || first === 0x2b || first === 0x2e) &&
    s.includes('_') &&
    isNumberOrTimestamp(s.replaceAll('_', ''))
  );
}

function isNumberOrTimestamp(s: string): boolean {
  const n = s.length;
  const first = s.charCodeAt(0);
  let at = first === 0x2b || first === 0x2d ? 1 : 0;
  const c = s.charCodeAt(at);
  if (c === 0x2e) {
    // .5, .5e3
    const end = skip(s, at + 1, isDigitOr_);
    return end > at + 1 && exponentToEnd(s, end);
  }
  if (!isDigit(c)) return false;
  if (c === 0x30 && at + 1 < n) {
    // Go's strconv takes the radix letter in either case (`0X1F`).
    const radix = s.charCodeAt(at + 1) | 0x20;
    const accept = radix === 0x62 ? isBinaryOr_ : radix === 0x6f ? isOctalOr_ : radix === 0x78 ? isHexOr_ : undefined;
    if (accept !== undefined) return at + 2 < n && skip(s, at + 2, accept) === n;
  }
  if (at === 0 && isTimestamp(s)) return true;
  // Decimal, float: digits, then an optional fraction and exponent; sexagesimal: digits, then `:` groups.
  at = skip(s, at + 1, isDigitOr_);
  if (s.charCodeAt(at) === 0x3a) {
    while (s.charCodeAt(at) === 0x3a) {
      const end = skip(s, at + 1, isDigit);
      const digits = end - at - 1;
      if (digits === 0 || digits > 2 || (digits === 2 && s.charCodeAt(at + 1) > 0x35)) return false;
      at = end;
    }
    if (at === n) return true;
    return s.charCodeAt(at) === 0x2e && skip(s, at + 1, isDigitOr_) === n;
  }
  if (s.charCodeAt(at) === 0x2e) at = skip(s, at + 1, isDigitOr_);
  return exponentToEnd(s, at);
}

/**
 * `\d{4}-\d\d?-\d\d?`, then optionally a time, fraction and zone, all of s: YAML 1.1's timestamp, and yaml.v3's and
 * v2's, which are Go layouts (`2006-1-2T15:4:5.999999999Z07:00`): one-digit minutes and seconds, a comma before
 * the fraction.
 */
function isTimestamp(s: string): boolean {
  const n = s.length;
  const digits = (at: number, min: number, max: number): number => {
    const end = skip(s, at, isDigit);
    return end - at >= min && end - at <= max ? end : -1;
  };
  let at = digits(0, 4, 4);
  if (at < 0 || s.charCodeAt(at) !== 0x2d) return false;
  at = digits(at + 1, 1, 2);
  if (at < 0 || s.charCodeAt(at) !== 0x2d) return false;
  at = digits(at + 1, 1, 2);
  if (at === n) return at > 0;
  if (at < 0) return false;
  const sep = s.charCodeAt(at);
  if (sep === 0x54 || sep === 0x74) at++;
  else {
    const end = skip(s, at, isBlank);
    if (end === at) return false;
    at = end;
  }
  at = digits(at, 1, 2);
  if (at < 0 || s.charCodeAt(at) !== 0x3a) return false;
  at = digits(at + 1, 1, 2);
  if (at < 0 || s.charCodeAt(at) !== 0x3a) return false;
  at = digits(at + 1, 1, 2);
  if (at < 0) return false;
  if (s.charCodeAt(at) === 0x2e || s.charCodeAt(at) === 0x2c) at = skip(s, at + 1, isDigit);
  if (at === n) return true;
  at = skip(s, at, isBlank);
  const zone = s.charCodeAt(at);
  if (zone === 0x5a) return at + 1 === n;
  if (zone !== 0x2b && zone !== 0x2d) return false;
  at = digits(at + 1, 1, 2);
  if (at === n) return true;
  if (at < 0 || s.charCodeAt(at) !== 0x3a) return false;
  return digits(at + 1, 2, 2) === n;
}

const isBlank = (c: number) => c === 0x20 || c === 0x09;

export function scalarText(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') {
    checkWellFormed(v);
    return plainOk(v) ? v : quoted(v);
  }
  if (typeof v === 'number')
    return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? '.nan' : v > 0 ? '.inf' : '-.inf';
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  return quoted(String(v));
}

/** A literal block (`|`) when the string can be one, else undefined. */
function literalBlock(s: string, indent: string): string | undefined {
  if (!s.includes('\n') || /^\n*$/.test(s) || /[\x00-\x08\x0b-\x1f\x7f-\x9f\r\ufeff\u2028\u2029\ufffe\uffff]/.test(s))
    return undefined;
  // Kept (`+`) when more than one line break ends it. Not /\n\n+$/: tried at each break of a run that does not end
  // the text, that pattern ran to the run's end and back (quadratic: 80,000 blank lines in a file took 23 s).
  const chomp = s.endsWith('\n') ? (s.endsWith('\n\n') ? '+' : '') : '-';
  const body = chomp === '+' ? s.slice(0, -1) : s.endsWith('\n') ? s.slice(0, -1) : s;
  const lines = body.split('\n');
  // An explicit indentation indicator when the first non-empty line starts with a space or a tab (where yaml.v3
  // and v2 still detect the indentation, a tab is an error).
  const firstNonEmpty = lines.find((l) => l !== '') ?? '';
  const indicator = firstNonEmpty.startsWith(' ') || firstNonEmpty.startsWith('\t') || lines[0] === '' ? '2' : '';
  return `|${indicator}${chomp}\n` + lines.map((l) => (l === '' ? '' : indent + l)).join('\n');
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function valueAfter(v: unknown, indent: string): string {
  if (typeof v === 'string') {
    checkWellFormed(v);
    const lit = literalBlock(v, indent + '  ');
    if (lit !== undefined) return ' ' + lit + '\n';
  }
  if (Array.isArray(v)) return v.length === 0 ? ' []\n' : '\n' + seq(v, indent);
  if (isMap(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    return keys.length === 0 ? ' {}\n' : '\n' + map(v, indent + '  ');
  }
  return ' ' + scalarText(v) + '\n';
}

/** The longest key written as an implicit key (`k: v`): no reader finds the `:` of a longer one. */
const IMPLICIT_KEY_MAX = 1024;

function map(m: Record<string, unknown>, indent: string, firstInline = false): string {
  let out = '';
  let first = true;
  for (const k of Object.keys(m)) {
    if (m[k] === undefined) continue;
    const key = scalarText(k);
    // A longer key is explicit (`? k` then `: v` on the next line), as YAML allows a key of any length.
    const sep = key.length <= IMPLICIT_KEY_MAX ? ':' : '\n' + indent + ':';
    out += (first && firstInline ? '' : indent) + (sep === ':' ? '' : '? ') + key + sep + valueAfter(m[k], indent);
    first = false;
  }
  return out;
}

function seq(a: unknown[], indent: string): string {
  let out = '';
  for (const x of a) {
    if (isMap(x) && Object.keys(x).some((k) => x[k] !== undefined)) out += indent + '- ' + map(x, indent + '  ', true);
    else if (Array.isArray(x) && x.length > 0) out += indent + '-\n' + seq(x, indent + '  ');
    else out += indent + '-' + valueAfter(x, indent);
  }
  return out;
}

/** The document body for a value (a map or list at column 0). */
export function writeYaml(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? '[]\n' : seq(v, '');
  if (isMap(v)) return Object.keys(v).length === 0 ? '{}\n' : map(v, '');
  return scalarText(v) + '\n';
}
