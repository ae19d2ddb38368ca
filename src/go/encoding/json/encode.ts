// encoding/json's Marshal and MarshalIndent of the Go values of src/go/reflect/value.ts: map keys sorted,
// HTML-safe strings, Go's float format, json.Marshaler and encoding.TextMarshaler values writing themselves,
// and Go's error texts for what cannot be encoded. Follows Go 1.26 (OSM's go.mod).
import { callGoFunction, GoCallError } from '../../reflect/func.ts';
import {
  exportedFields,
  GoInt,
  GoKeyedMap,
  GoPointer,
  GoStringer,
  GoStruct,
  isGoMap,
  isNilContainer,
} from '../../reflect/value.ts';
import { formatFloat, sortedKeys } from '../../fmt/format.ts';
import { goJsonString } from './encodeString.ts';
import { canonicalGoString, goString, hasRawBytes } from '../../reflect/byteString.ts';
import type { Meter } from '../../internal/meter.ts';

/** encoding/json's string: as goJsonString, and each byte that is not UTF-8 written as \ufffd, as Go does. */
function jsonString(s: string): string {
  if (!hasRawBytes(s)) return goJsonString(s);
  const parts = canonicalGoString(s).split(/[\uDC80-\uDCFF]/u);
  return '"' + parts.map((p) => goJsonString(p).slice(1, -1)).join('\\ufffd') + '"';
}

/** Bound on how much longer JSON makes a string (a control character or raw byte becomes \\u00NN: 6 for 1). */
const STRING_GROWTH = 6;
/** Work per character of a string read for escapes (besides what its quoted form builds). */
const STRING_UNITS = 12;

/**
 * json.Marshal (indent '') or json.MarshalIndent(v, prefix, indent); Go's errors are thrown as GoCallError.
 * Charged on `meter` as it goes: each element visited, each string before it is escaped, and each composite's
 * text, which is built anew at each level of nesting.
 */
export function goJsonMarshal(v: unknown, meter: Meter, indent = '', prefix = ''): string {
  const nl = indent === '' ? '' : '\n';
  // A composite's text, built anew at each level of nesting: charged before it is joined.
  const joined = (open: string, parts: string[], close: string): string => {
    let n = open.length + close.length + parts.length * (nl.length + 1);
    for (const p of parts) n += p.length;
    meter.build(n);
    return open + nl + parts.join(',' + nl) + nl + close;
  };
  const indentation = (depth: number): [string, string] => {
    meter.build((2 * depth + 1) * indent.length);
    return [indent.repeat(depth + 1), indent.repeat(depth)];
  };
  const enc = (x: unknown, depth: number): string => {
    meter.visit();
    if (x === null || x === undefined || isNilContainer(x)) return 'null';
    if (x instanceof GoKeyedMap) throw new GoCallError(`json: unsupported type: ${x.typeName}`);
    if (x instanceof GoInt) return x.value.toString();
    // A Stringer that is not a TextMarshaler (time.Month, time.Duration) is written as its value.
    if (x instanceof GoStringer) return x.marshalsText ? jsonString(x.text) : enc(x.value, depth);
    if (x instanceof GoPointer) return x.elem === null ? 'null' : enc(x.elem, depth);
    // A json.Marshaler (semver.Version, time.Time) writes itself.
    const marshal = x instanceof GoStruct ? x.methods?.MarshalJSON : undefined;
    if (marshal !== undefined) {
      try {
        return goString(callGoFunction(marshal, meter, []) as Uint8Array);
      } catch (e) {
        if (!(e instanceof GoCallError)) throw e;
        throw new GoCallError(`json: error calling MarshalJSON for type ${(x as GoStruct).typeName}: ${e.message}`);
      }
    }
    switch (typeof x) {
      case 'string':
        meter.spend(STRING_UNITS * x.length);
        meter.build(STRING_GROWTH * x.length + 2);
        return jsonString(x);
      case 'boolean':
        return String(x);
      case 'bigint':
        return x.toString();
      case 'number': {
        if (!Number.isFinite(x)) throw new GoCallError(`json: unsupported value: ${formatFloat(x, 'g', -1)}`);
        const abs = Math.abs(x);
        let s = abs !== 0 && (abs < 1e-6 || abs >= 1e21) ? formatFloat(x, 'e', -1) : formatFloat(x, 'f', -1);
        s = s.replace(/e([+-])0(\d)$/, 'e$1$2');
        return s;
      }
      default:
        break;
    }
    if (x instanceof Uint8Array) {
      meter.build(2 * x.length + 4);
      return goJsonString(Buffer.from(x).toString('base64'));
    }
    if (Array.isArray(x)) {
      if (x.length === 0) return '[]';
      const [pad, close] = indentation(depth);
      return joined(
        '[',
        x.map((e) => prefix + pad + enc(e, depth + 1)),
        (nl ? prefix + close : '') + ']',
      );
    }
    const entries: Array<[string, unknown]> =
      x instanceof GoStruct ? exportedFields(x) : isGoMap(x) ? sortedKeys(x, meter).map((k) => [k, x[k]]) : [];
    if (entries.length === 0) return '{}';
    const sep = indent === '' ? ':' : ': ';
    const [pad, close] = indentation(depth);
    const key = (k: string) => {
      meter.build(STRING_GROWTH * k.length + 2);
      return jsonString(k);
    };
    return joined(
      '{',
      entries.map(([k, e]) => prefix + pad + key(k) + sep + enc(e, depth + 1)),
      (nl ? prefix + close : '') + '}',
    );
  };
  return enc(v, 0);
}

/** What an Encoder with SetEscapeHTML(false) writes instead: <, > and & as themselves (escapes are read pairwise, so "\\u003c" stays). */
export function withoutHtmlEscapes(json: string): string {
  return json.replace(/\\(u003c|u003e|u0026|[\s\S])/g, (all, e: string) =>
    e === 'u003c' ? '<' : e === 'u003e' ? '>' : e === 'u0026' ? '&' : all,
  );
}
