// Where gopkg.in/yaml.v3 (the parser inside ct, hence inside OSM) reads YAML differently from the `yaml`
// package, for text shaped like our Container Linux Config. The `yaml` package parses; these rules make its
// result the one yaml.v3 would give, or fail where yaml.v3 fails:
//  - yaml.v3 rejects control characters anywhere in the input;
//  - it takes CR, CR LF, NEL (U+0085), LS (U+2028) and PS (U+2029) as line breaks, and in scalar values
//    CR and NEL become "\n" (so they are normalised here, which keeps line numbers right as well);
//  - a block scalar with auto-detected indentation whose first non-blank line starts with a tab is an error;
//  - plain scalars resolve to null/bool/int/float/string with yaml.v3's rules (0755 is octal, 0800 a float)
//    and decode into Go types with its conversions and its error texts.
// Follows gopkg.in/yaml.v3 v3.0.1 (its latest release, and the differential oracle's).

import { GoInt } from '../reflect/value.ts';
import { resolve } from './decode.ts';
import { isAllowedChar } from './scan.ts';

export type Prepared = { ok: true; text: string } | { ok: false; error: string };

/**
 * The text as yaml.v3's scanner sees it, with line breaks the `yaml` package would not recognise rewritten
 * as "\n". LS and PS are refused: yaml.v3 keeps them in values as line breaks, which no rewrite reproduces.
 */
// Everything yaml.v3 reads as is: the common case, checked at once.
const PLAIN_TEXT = /^[\t\n\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd]*$/;

export function prepareForParser(text: string): Prepared {
  if (PLAIN_TEXT.test(text)) return { ok: true, text };
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (!isAllowedChar(cp)) return { ok: false, error: 'yaml: control characters are not allowed' };
    if (cp === 0x2028 || cp === 0x2029) {
      return {
        ok: false,
        error: `yaml: U+${cp.toString(16).toUpperCase()} would be read as a line break by ct's YAML parser (not supported)`,
      };
    }
  }
  return { ok: true, text: text.replace(/\r\n?|\u0085/g, '\n') };
}

/**
 * yaml.v3 refuses a tab where it is still looking for a block scalar's indentation: on its first non-blank
 * line, right after the leading spaces. `body` is the text after the block header's line break.
 */
export function blockScalarTabError(body: string): string | undefined {
  // Only the lines up to the first non-blank one matter: scanned in place, not split (contents are large).
  let p = 0;
  while (p < body.length) {
    while (body[p] === ' ') p++;
    if (body[p] === '\t') return 'found a tab character where an indentation space is expected';
    if (p < body.length && body[p] !== '\n') return undefined;
    p++;
  }
  return undefined;
}

export type Resolved =
  | { tag: '!!null' }
  | { tag: '!!bool'; value: boolean }
  | { tag: '!!int'; value: bigint }
  | { tag: '!!float'; value: number }
  | { tag: '!!str' };

const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const NULL: Resolved = { tag: '!!null' };
const STR: Resolved = { tag: '!!str' };

/** resolvePlain(text).tag === '!!null', without resolving anything else. */
export function isNullPlain(text: string): boolean {
  return NULLS.has(text);
}

/** A resolved scalar as a Go int64, as yaml.v3 converts ints and floats; undefined where it is a type error. */
export function goInt64Of(r: Resolved): bigint | undefined {
  if (r.tag === '!!int') return r.value;
  if (r.tag === '!!float' && r.value <= 9223372036854775807) {
    // Go's float64 → int64 conversion; out of range it yields the minimum on amd64.
    return Number.isFinite(r.value) && r.value > -9223372036854775808 ? BigInt(Math.trunc(r.value)) : -(2n ** 63n);
  }
  return undefined;
}

/** A resolved scalar as a Go bool, with the YAML 1.1 spellings yaml.v3 accepts for typed bools; undefined where it is a type error. */
export function goBoolOf(r: Resolved, text: string): boolean | undefined {
  if (r.tag === '!!bool') return r.value;
  if (r.tag === '!!str') {
    if (['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON'].includes(text)) return true;
    if (['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF'].includes(text)) return false;
  }
  return undefined;
}

/**
 * yaml.v3's resolve() for an untagged plain scalar: decode.ts's, the one fromYaml uses, with its values as plain
 * JS values. A timestamp counts as a string here (nothing the CLC decodes takes one).
 */
export function resolvePlain(text: string): Resolved {
  const r = resolve('', text);
  switch (r.tag) {
    case '!!null':
      return NULL;
    case '!!bool':
      return { tag: '!!bool', value: r.value as boolean };
    case '!!int':
      return { tag: '!!int', value: r.value instanceof GoInt ? r.value.value : (r.value as bigint) };
    case '!!float':
      return { tag: '!!float', value: r.value as number };
    default:
      return STR;
  }
}
