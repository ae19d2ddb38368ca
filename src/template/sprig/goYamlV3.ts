// gopkg.in/yaml.v3's Marshal of plain data as Helm/OSM's toYaml calls it (4-space indent, sorted keys):
// the indentation of collections nested in sequence items and the quoting rules are yaml.v3's own.
import { GoPointer, GoStringer, GoStruct, isGoMap } from '../values.ts';
import { formatFloat } from '../goFormat.ts';

const OLD_BOOL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|true|True|TRUE|false|False|FALSE)$/;
const NULLISH = /^(?:~|null|Null|NULL)?$/;
const NUMBER = /^(?:[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|[-+]?\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?0[xX][0-9a-fA-F_]+|[-+]?0[oO]?[0-7_]+|[-+]?0[bB][01_]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const TIMESTAMP = /^\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$/;

function quoteDouble(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).toUpperCase().padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

export function yamlV3Scalar(s: string): string {
  if (NULLISH.test(s) || OLD_BOOL.test(s) || NUMBER.test(s) || TIMESTAMP.test(s)) return quoteDouble(s);
  if (/[\x00-\x08\x0b-\x1f\x7f\t]/.test(s)) return quoteDouble(s);
  const needsQuotes =
    /^[-?:,[\]{}#&*!|>'"%@`]/.test(s) && !/^[-?:][^\s]/.test(s) ||
    /^\s|\s$/.test(s) || s.includes(': ') || s.includes(' #') || s.endsWith(':');
  if (needsQuotes) return `'${s.replace(/'/g, "''")}'`;
  return s;
}

function scalar(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'null';
  if (v instanceof GoStringer) return yamlV3Scalar(v.text);
  switch (typeof v) {
    case 'string': return v.includes('\n') ? undefined : yamlV3Scalar(v);
    case 'bigint': return v.toString();
    case 'number': return Number.isNaN(v) ? '.nan' : v === Infinity ? '.inf' : v === -Infinity ? '-.inf' : formatFloat(v, 'g', -1);
    case 'boolean': return String(v);
  }
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (isMapLike(v) && entries(v).length === 0) return '{}';
  return undefined;
}

const isMapLike = (v: unknown) => isGoMap(v) || v instanceof GoStruct;
const entries = (v: unknown): Array<[string, unknown]> =>
  v instanceof GoStruct ? Object.entries(v.fields) : Object.keys(v as object).sort().map((k) => [k, (v as Record<string, unknown>)[k]]);

function literal(s: string, indent: number): string {
  const chomp = s.endsWith('\n') ? (s.endsWith('\n\n') ? '+' : '') : '-';
  const indicator = /^[ \n]/.test(s) ? '4' : '';
  const body = (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n').map((l) => (l === '' ? '' : ' '.repeat(indent) + l)).join('\n');
  return `|${indicator}${chomp}\n${body}`;
}

function deref(v: unknown): unknown {
  while (v instanceof GoPointer) v = v.elem;
  // An encoding.TextMarshaler (semver.Version) is written as its text.
  const text = v instanceof GoStruct ? v.methods?.MarshalText : undefined;
  return text !== undefined ? String(text.call()) : v;
}

/** A value under `key:` of a map whose base column is `base`. */
function valueAfterKey(v: unknown, base: number): string {
  v = deref(v);
  const s = scalar(v);
  if (s !== undefined) return ' ' + s;
  if (typeof v === 'string') return ' ' + literal(v, base + 4);
  if (Array.isArray(v)) return '\n' + seq(v, base + 4);
  return '\n' + map(v, base + 4, base + 4);
}

function map(v: unknown, keyCol: number, base: number, firstInline = false): string {
  return entries(v)
    .map(([k, x], i) => (i === 0 && firstInline ? '' : ' '.repeat(keyCol)) + yamlV3Scalar(k) + ':' + valueAfterKey(x, base))
    .join('\n');
}

function seq(v: unknown[], dashCol: number, firstInline = false): string {
  return v
    .map((x, i) => {
      x = deref(x);
      const lead = (i === 0 && firstInline ? '' : ' '.repeat(dashCol)) + '- ';
      const s = scalar(x);
      if (s !== undefined) return lead + s;
      if (typeof x === 'string') return lead + literal(x, dashCol + 2);
      if (Array.isArray(x)) return lead + seq(x, dashCol + 2, true);
      return lead + map(x, dashCol + 2, dashCol, true);
    })
    .join('\n');
}

export function marshalYamlV3(v: unknown): string {
  v = deref(v);
  const s = scalar(v);
  if (s !== undefined) return s + '\n';
  if (typeof v === 'string') return literal(v, 4) + '\n';
  if (Array.isArray(v)) return seq(v, 0) + '\n';
  return map(v, 0, 0) + '\n';
}
