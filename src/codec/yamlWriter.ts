import { InvalidUnicodeError, isWellFormed } from './wellFormedUnicode.ts';

// A small, fast YAML writer for the objects the function generates (maps, lists, strings, numbers,
// booleans, null): block style, two-space indent, lists at their key's column, literal blocks for multi-line
// strings, and double quotes for anything a YAML 1.1 or 1.2 reader could take for something else. A string
// that is not valid Unicode is refused (InvalidUnicodeError), never written as U+FFFD.
// Measured: the general `yaml` Document API spent over a second serializing 1,000 MachineDeployments' output.
// Plain scalars that some YAML 1.1 or 1.2 reader would not read back as a string.
const AMBIGUOUS_PLAIN =
  /^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|[-+]?(?:\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN|<<|=|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?)|\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?)$/;

const UNSAFE_START = /^[-?:,[\]{}#&*!|>'"%@`\s]/;

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
    else out += ch;
  }
  return out + '"';
}

function plainOk(s: string): boolean {
  return (
    s !== '' &&
    !AMBIGUOUS_PLAIN.test(s) &&
    !UNSAFE_START.test(s) &&
    !/\s$/.test(s) &&
    !s.includes(': ') &&
    !s.includes(' #') &&
    !s.endsWith(':') &&
    !/[\x00-\x1f\x7f-\x9f\ufeff\u2028\u2029]/.test(s)
  );
}

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
  if (!s.includes('\n') || /^\n*$/.test(s) || /[\x00-\x08\x0b-\x1f\x7f-\x9f\r\ufeff\u2028\u2029]/.test(s))
    return undefined;
  // Kept (`+`) when more than one line break ends it. Not /\n\n+$/: tried at each break of a run that does not end
  // the text, that pattern ran to the run's end and back (quadratic: 80,000 blank lines in a file took 23 s).
  const chomp = s.endsWith('\n') ? (s.endsWith('\n\n') ? '+' : '') : '-';
  const body = chomp === '+' ? s.slice(0, -1) : s.endsWith('\n') ? s.slice(0, -1) : s;
  const lines = body.split('\n');
  // An explicit indentation indicator when the first non-empty line starts with a space.
  const firstNonEmpty = lines.find((l) => l !== '') ?? '';
  const indicator = firstNonEmpty.startsWith(' ') || lines[0] === '' ? '2' : '';
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

function map(m: Record<string, unknown>, indent: string, firstInline = false): string {
  let out = '';
  let first = true;
  for (const k of Object.keys(m)) {
    if (m[k] === undefined) continue;
    out += (first && firstInline ? '' : indent) + scalarText(k) + ':' + valueAfter(m[k], indent);
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
