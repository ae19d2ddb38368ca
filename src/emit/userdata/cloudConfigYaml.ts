// The one place a value becomes cloud-config text. cloud-init reads user-data with PyYAML (YAML 1.1), which
// also breaks lines at CR, NEL (U+0085), LS (U+2028) and PS (U+2029) and refuses control characters. OSM
// writes values unescaped; an ordinary value is still written exactly as OSM writes it (the goldens stay
// byte-identical), and any other value is written so that PyYAML reads back exactly that value: a scalar in
// double quotes with escapes, a file's content in base64. What has no such form (a unit's content) is refused.
import { UserDataError } from './errors.ts';
import { isPlainToken, UNSAFE_ON_ONE_LINE } from '../../model/pyyamlPlainScalar.ts';

/** Every character PyYAML takes as a line break. */
export const YAML_LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;
// PyYAML's reader refuses anything else (and a lone surrogate cannot be written as UTF-8).
const NOT_PRINTABLE = /[^\t\n\r\x20-\x7e\u0085\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** A YAML double-quoted scalar that reads back as exactly `value`: everything outside printable ASCII escaped. */
export function doubleQuoted(value: string): string {
  let s = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') s += '\\' + ch;
    else if (cp >= 0x20 && cp <= 0x7e) s += ch;
    else if (ch === '\t') s += '\\t';
    else if (ch === '\n') s += '\\n';
    else if (cp <= 0xffff) s += '\\u' + cp.toString(16).padStart(4, '0');
    else s += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return s + '"';
}

/** `'value'` as OSM writes it when that reads back as `value`, else the value double-quoted. */
export function singleQuoted(value: string): string {
  return value.includes("'") || UNSAFE_ON_ONE_LINE.test(value) ? doubleQuoted(value) : `'${value}'`;
}

/** `"value"` as OSM writes it (no escaping) when that reads back as `value`, else properly escaped. */
export function doubleQuotedAsWritten(value: string): string {
  return /["\\]/.test(value) || UNSAFE_ON_ONE_LINE.test(value) ? doubleQuoted(value) : `"${value}"`;
}

/**
 * A value OSM writes unquoted (module entries, map keys and values): kept as written when it is one plain
 * scalar there (PyYAML then resolves it as OSM's output would, `true` to a bool) or, for a command, a simple
 * one-line flow sequence (cloud-init's `[ cmd, arg ]` form); anything else is double-quoted, so it stays one
 * string.
 */
export function plainScalar(value: string, options: { flowSequence?: boolean } = {}): string {
  if (value === '') return value; // null to cloud-init, as OSM writes it
  if (UNSAFE_ON_ONE_LINE.test(value)) return doubleQuoted(value);
  if (isPlainToken(value) || (options.flowSequence === true && isSimpleFlowSequence(value))) return value;
  return doubleQuoted(value);
}

// `[ a, 'b c', "d" ]`: items that are plain words or quoted strings without escapes, read alike by every YAML
// reader (PyYAML refuses some flow forms other parsers take, such as `[:]`).
const FLOW_ITEM = /^(?:[A-Za-z0-9_./=+~$^-][^,[\]{}#'"&*!|>`:?\\]*|'[^']*'|"[^"\\]*")$/;

function isSimpleFlowSequence(value: string): boolean {
  if (!/^\[[\x20-\x7e]*\]$/.test(value)) return false;
  const inner = value.slice(1, -1).trim();
  return inner === '' || inner.split(',').every((item) => FLOW_ITEM.test(item.trim()) && !/[ ]$/.test(item.trim()));
}

/**
 * Whether `content`, indented under a `|`/`|-` header as OSM writes it (sprig's indent, after "\n" only),
 * stays inside its block: no line break but "\n" and nothing PyYAML refuses. PyYAML takes the block's
 * indentation from its first non-blank line (or a longer run of spaces on a blank line before it), strips
 * that much from every line (OSM's output shows that too) and ends the block at a line indented less,
 * leaving the rest to break the document: such content does not fit either.
 */
// What nearly every content is made of, checked in one pass (astral characters go the slow way).
const ORDINARY_TEXT = /^[\t\n\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufffd]*$/;

export function fitsLiteralBlock(content: string): boolean {
  if (!ORDINARY_TEXT.test(content) && (/[\r\u0085\u2028\u2029]/.test(content) || NOT_PRINTABLE.test(content)))
    return false;
  if (/^\n*(?:[^ \n]|$)/.test(content)) return true; // indentation 0: every line fits
  const lines = content.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) return !content.includes(' '); // spaces alone would set the indentation and vanish
  const indent = lines[first]!.length - lines[first]!.trimStart().length;
  if (lines.slice(0, first).some((l) => l.length > indent)) return false;
  return lines.slice(first + 1).every((l) => l.trim() === '' || l.startsWith(' '.repeat(indent)));
}

/** A unit's (or drop-in's) content has no other form in cloud-config: refused when it does not fit the block. */
export function literalBlockOrRefuse(content: string, what: string): string {
  if (!fitsLiteralBlock(content)) {
    throw new UserDataError(
      `${what}: its content cannot be written into cloud-config so that cloud-init reads it back (line breaks other than "\\n", control characters, or leading spaces on its first line)`,
    );
  }
  return content;
}
