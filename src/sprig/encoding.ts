// Encodings: base64/base32, JSON (Go encoding/json output), hashes, paths, regular expressions.
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { exportedFields, GoInt, GoKeyedMap, GoPointer, GoStringer, GoStruct, isGoMap, isNilContainer } from '../go/reflect/value.ts';
import { compareBytes, formatFloat, goQuote } from '../go/fmt/format.ts';
import { goJsonString } from '../go/encoding/json/encodeString.ts';
import { strval } from './strings.ts';
import { formatGoDuration, parseGoDuration } from '../go/time/duration.ts';
import { goJsonDecode } from '../go/encoding/json/decode.ts';
import { formatGoUrl, GoUrlError, parseGoUrl, type GoUrl } from '../go/net/url/url.ts';
import { canonicalGoString, goBytes, goString, hasRawBytes } from '../go/reflect/byteString.ts';
import { goKind } from './collections.ts';
import { base64Decode, CorruptInputError } from '../go/encoding/base64.ts';
import { base32Decode, base32Encode } from '../go/encoding/base32.ts';
import { pathBase, pathClean, pathDir, pathExt } from '../go/path/path.ts';
import { chargeBuilt, chargeNode } from '../go/internal/cost.ts';

/** encoding/json's string: as goJsonString, and each byte that is not UTF-8 written as \ufffd, as Go does. */
function jsonString(s: string): string {
  if (!hasRawBytes(s)) return goJsonString(s);
  const parts = canonicalGoString(s).split(/[\uDC80-\uDCFF]/u);
  return '"' + parts.map((p) => goJsonString(p).slice(1, -1)).join('\\ufffd') + '"';
}

/** A composite's text, built anew at each level of nesting: charged as such. */
function built(s: string): string {
  chargeBuilt(s.length);
  return s;
}

/** Go's json.Marshal of our values (sorted map keys, HTML-safe strings, Go float format). */
export function goJsonMarshal(v: unknown, indent = '', prefix = ''): string {
  const nl = indent === '' ? '' : '\n';
  const enc = (x: unknown, depth: number): string => {
    chargeNode();
    const pad = indent.repeat(depth + 1);
    const close = indent.repeat(depth);
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
        return goString(marshal.call() as Uint8Array);
      } catch (e) {
        if (!(e instanceof GoCallError)) throw e;
        throw new GoCallError(`json: error calling MarshalJSON for type ${(x as GoStruct).typeName}: ${e.message}`);
      }
    }
    switch (typeof x) {
      case 'string':
        chargeBuilt(x.length);
        return jsonString(x);
      case 'boolean': return String(x);
      case 'bigint': return x.toString();
      case 'number': {
        if (!Number.isFinite(x)) throw new GoCallError(`json: unsupported value: ${formatFloat(x, 'g', -1)}`);
        const abs = Math.abs(x);
        let s = abs !== 0 && (abs < 1e-6 || abs >= 1e21) ? formatFloat(x, 'e', -1) : formatFloat(x, 'f', -1);
        s = s.replace(/e([+-])0(\d)$/, 'e$1$2');
        return s;
      }
    }
    if (x instanceof Uint8Array) return goJsonString(Buffer.from(x).toString('base64'));
    if (Array.isArray(x)) {
      if (x.length === 0) return '[]';
      return built('[' + nl + x.map((e) => prefix + pad + enc(e, depth + 1)).join(',' + nl) + nl + (nl ? prefix + close : '') + ']');
    }
    const entries: Array<[string, unknown]> = x instanceof GoStruct ? exportedFields(x) : isGoMap(x) ? Object.keys(x).sort(compareBytes).map((k) => [k, x[k]]) : [];
    if (entries.length === 0) return '{}';
    const sep = indent === '' ? ':' : ': ';
    return built('{' + nl + entries.map(([k, e]) => prefix + pad + jsonString(k) + sep + enc(e, depth + 1)).join(',' + nl) + nl + (nl ? prefix + close : '') + '}');
  };
  return enc(v, 0);
}

/** JSON text -> our values, as json.Unmarshal into interface{}; throws Go's error text. */
export function goJsonUnmarshal(text: string): unknown {
  const r = goJsonDecode(text, 'any');
  if (r.error !== undefined) throw new GoCallError(r.error);
  return r.value;
}

function pathFuncs(prefix: string): FuncMap {
  const name = (n: string) => (prefix === '' ? n : prefix + n[0]!.toUpperCase() + n.slice(1));
  return {
    [name('base')]: goFunc(['string'], pathBase),
    [name('dir')]: goFunc(['string'], pathDir),
    [name('ext')]: goFunc(['string'], pathExt),
    [name('clean')]: goFunc(['string'], pathClean),
    [name('isAbs')]: goFunc(['string'], (p: string) => p.startsWith('/')),
  };
}



// urlParse/urlJoin go through Go's net/url (as ported for the containerd emitter), which works on
// "byte strings" (one char per byte).
const toByteString = (s: string) => goBytes(s).toString('latin1');
const fromByteString = (b: string) => goString(Buffer.from(b, 'latin1'));
function urlParse(s: string): Record<string, unknown> {
  let u: GoUrl;
  try {
    u = parseGoUrl(toByteString(s));
  } catch (e) {
    if (e instanceof GoUrlError) throw new GoCallError(`unable to parse url: ${urlErrorText(s, e.reason)}`);
    throw e;
  }
  // URL.Hostname: the host without its port and brackets.
  let hostname = u.host;
  const colon = hostname.lastIndexOf(':');
  if (colon >= 0 && /^:[0-9]*$/.test(hostname.slice(colon))) hostname = hostname.slice(0, colon);
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);
  const userinfo = u.user === undefined ? '' : formatGoUrl({ ...EMPTY_URL, scheme: 'x', host: 'h', user: u.user }).slice(4, -2);
  const text = (b: string) => fromByteString(b);
  return {
    fragment: text(u.fragment),
    host: text(u.host),
    hostname: text(hostname),
    opaque: text(u.opaque),
    path: text(u.path),
    query: text(u.rawQuery),
    scheme: text(u.scheme),
    userinfo: text(userinfo),
  };
}

/** url.Error's text: the URL without its fragment, and the details the ported parser leaves out. */
function urlErrorText(url: string, reason: string): string {
  const u = url.split('#')[0]!;
  let detail = reason;
  if (reason === 'invalid userinfo' || reason === 'invalid control character in URL') detail = `net/url: ${reason}`;
  else if (reason === 'invalid URL escape') {
    const m = /%(?![0-9A-Fa-f]{2})[^]{0,2}/.exec(u);
    if (m) detail = `invalid URL escape ${goQuote(m[0])}`;
  } else if (reason === 'invalid character in host name') {
    const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?]*)/.exec(u)?.[1] ?? '';
    const bad = [...authority.slice(authority.lastIndexOf('@') + 1)].find((c) => c < '\x80' && !/[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"%]/.test(c));
    if (bad !== undefined) detail = `invalid character ${goQuote(bad)} in host name`;
  } else if (reason === 'invalid port after host') {
    const port = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?]*?(:[^:/?]*)(?:[/?]|$)/.exec(u)?.[1];
    if (port !== undefined) detail = `invalid port ${goQuote(port)} after host`;
  }
  return `parse ${goQuote(u)}: ${detail}`;
}

const EMPTY_URL: GoUrl = { scheme: '', opaque: '', user: undefined, host: '', path: '', rawPath: '', omitHost: false, forceQuery: false, rawQuery: '', fragment: '', rawFragment: '' };

function urlJoin(m: Record<string, unknown> | null): string {
  const get = (key: string): string => {
    if (m === null || !Object.prototype.hasOwnProperty.call(m, key)) return '';
    const v = m[key];
    if (v === null || v === undefined) throw new GoCallError('runtime error: invalid memory address or nil pointer dereference');
    if (typeof v !== 'string') throw new GoCallError(`unable to parse ${key} key, must be of type string, but ${goKind(v)} found`);
    return toByteString(v);
  };
  const u: GoUrl = { ...EMPTY_URL, scheme: get('scheme'), host: get('host'), path: get('path'), rawQuery: get('query'), opaque: get('opaque'), fragment: get('fragment') };
  const userinfo = get('userinfo');
  if (userinfo !== '') {
    const raw = `proto://${userinfo}@host`;
    try {
      u.user = parseGoUrl(raw).user;
    } catch (e) {
      if (e instanceof GoUrlError) throw new GoCallError(`unable to parse userinfo in dict: ${urlErrorText(fromByteString(raw), e.reason)}`);
      throw e;
    }
  }
  return fromByteString(formatGoUrl(u));
}

const INT64_MAX = (1n << 63n) - 1n;

/** sprig's durationRound: the largest unit only (y, mo, d, h, m, s). */
function roundDuration(ns: bigint): string {
  // sprig compares strictly: exactly one hour is "60m", exactly one second "0s".
  const u = ns < 0n ? -ns : ns;
  const s = 1_000_000_000n;
  const units: Array<[bigint, string]> = [[31536000n * s, 'y'], [2592000n * s, 'mo'], [86400n * s, 'd'], [3600n * s, 'h'], [60n * s, 'm'], [s, 's']];
  for (const [size, label] of units) if (u > size) return `${u / size}${label}`;
  return '0s';
}




/** sprig's base64decode/base32decode: the decoded text, or the error's text. */
function decodeOr(decode: (s: string) => Uint8Array, s: string): string {
  try {
    return goString(decode(s));
  } catch (e) {
    if (e instanceof CorruptInputError) return e.message;
    throw e;
  }
}

/** Go's encoding/json error text for text (empty when it decodes into interface{} without error). */
export function goJsonError(text: string): string {
  return goJsonDecode(text, 'any').error ?? '';
}

function swallow(f: () => string): string {
  try {
    return f();
  } catch (e) {
    if (e instanceof GoCallError) return '';
    throw e;
  }
}

/** An Encoder with SetEscapeHTML(false): <, > and & as themselves (escapes are read pairwise, so "\\u003c" stays). */
function withoutHtmlEscapes(json: string): string {
  return json.replace(/\\(u003c|u003e|u0026|[\s\S])/g, (all, e: string) => (e === 'u003c' ? '<' : e === 'u003e' ? '>' : e === 'u0026' ? '&' : all));
}

export const strictJsonFuncs: FuncMap = {
  mustFromJson: goFunc(['string'], goJsonUnmarshal),
};

export const encodingFuncs: FuncMap = {
  b64enc: goFunc(['string'], (s: string) => goBytes(s).toString('base64')),
  b64dec: goFunc(['string'], (s: string) => decodeOr(base64Decode, s)),
  b32enc: goFunc(['string'], (s: string) => base32Encode(goBytes(s))),
  b32dec: goFunc(['string'], (s: string) => decodeOr(base32Decode, s)),
  // json.Marshal; toJson and toPrettyJson swallow the error (""), toRawJson panics with it.
  toJson: goFunc(['any'], (v: unknown) => swallow(() => goJsonMarshal(v))),
  mustToJson: goFunc(['any'], (v: unknown) => goJsonMarshal(v)),
  toPrettyJson: goFunc(['any'], (v: unknown) => swallow(() => goJsonMarshal(v, '  '))),
  mustToPrettyJson: goFunc(['any'], (v: unknown) => goJsonMarshal(v, '  ')),
  toRawJson: goFunc(['any'], (v: unknown) => withoutHtmlEscapes(goJsonMarshal(v))),
  mustToRawJson: goFunc(['any'], (v: unknown) => withoutHtmlEscapes(goJsonMarshal(v))),
  ...pathFuncs(''),
  ...pathFuncs('os'),
  urlParse: goFunc(['string'], urlParse),
  urlJoin: goFunc(['map[string]any'], urlJoin),
  duration: goFunc(['any'], (v: unknown) => {
    // sprig only understands an int64 and numeric strings; a template int is neither and gives 0s.
    let n = 0n;
    if (v instanceof GoInt && v.type === 'int64') n = v.value;
    // strconv.ParseInt(s, 10, 64) with the error ignored: out of range gives the nearest int64.
    else if (typeof v === 'string' && /^[+-]?[0-9]+$/.test(v)) n = BigInt(v) > INT64_MAX ? INT64_MAX : BigInt(v) < -INT64_MAX - 1n ? -INT64_MAX - 1n : BigInt(v);
    return formatGoDuration(BigInt.asIntN(64, n * 1_000_000_000n));
  }),
  durationRound: goFunc(['any'], (v: unknown) => {
    let ns = 0n;
    // An int64 is nanoseconds.
    if (v instanceof GoInt && v.type === 'int64') ns = v.value;
    else if (typeof v === 'string') {
      try {
        ns = parseGoDuration(v);
      } catch {
        ns = 0n;
      }
    }
    return roundDuration(ns);
  }),
  // sprig's fromJson swallows the error (and gives what was decoded: nil after a syntax error).
  fromJson: goFunc(['string'], (s: string) => goJsonDecode(s, 'any').value),
};
