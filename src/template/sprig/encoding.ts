// Encodings: base64/base32, JSON (Go encoding/json output), hashes, paths, regular expressions.
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { goFunc, GoCallError, type FuncMap } from '../functions.ts';
import { GoPointer, GoStringer, GoStruct, isGoMap } from '../values.ts';
import { compareBytes, formatFloat } from '../goFormat.ts';
import { goJsonString } from '../../encoding/goJson.ts';
import { strval } from './strings.ts';
import { formatGoDuration, parseGoDuration } from '../../render/goDuration.ts';
import { goJsonDecode } from './goJsonDecode.ts';

/** Go's json.Marshal of our values (sorted map keys, HTML-safe strings, Go float format). */
export function goJsonMarshal(v: unknown, indent = '', prefix = ''): string {
  const nl = indent === '' ? '' : '\n';
  const enc = (x: unknown, depth: number): string => {
    const pad = indent.repeat(depth + 1);
    const close = indent.repeat(depth);
    if (x === null || x === undefined) return 'null';
    if (x instanceof GoStringer) return goJsonString(x.text);
    if (x instanceof GoPointer) return x.elem === null ? 'null' : enc(x.elem, depth);
    switch (typeof x) {
      case 'string': return goJsonString(x);
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
      return '[' + nl + x.map((e) => prefix + pad + enc(e, depth + 1)).join(',' + nl) + nl + (nl ? prefix + close : '') + ']';
    }
    const entries: Array<[string, unknown]> = x instanceof GoStruct ? Object.entries(x.fields) : isGoMap(x) ? Object.keys(x).sort(compareBytes).map((k) => [k, x[k]]) : [];
    if (entries.length === 0) return '{}';
    const sep = indent === '' ? ':' : ': ';
    return '{' + nl + entries.map(([k, e]) => prefix + pad + goJsonString(k) + sep + enc(e, depth + 1)).join(',' + nl) + nl + (nl ? prefix + close : '') + '}';
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
    [name('base')]: goFunc(['string'], (p: string) => (p === '' ? '.' : posix.basename(p.replace(/\/+$/, '')) || '/')),
    [name('dir')]: goFunc(['string'], (p: string) => posix.dirname(p) || '.'),
    [name('ext')]: goFunc(['string'], (p: string) => posix.extname(p)),
    [name('clean')]: goFunc(['string'], (p: string) => (p === '' ? '.' : posix.normalize(p).replace(/(.)\/$/, '$1'))),
    [name('isAbs')]: goFunc(['string'], (p: string) => p.startsWith('/')),
  };
}

function urlParse(s: string): Record<string, unknown> {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new GoCallError(`unable to parse url: parse ${JSON.stringify(s)}: invalid URL`);
  }
  const userinfo = u.username !== '' ? decodeURIComponent(u.username) + (u.password !== '' ? ':' + decodeURIComponent(u.password) : '') : '';
  return {
    fragment: decodeURIComponent(u.hash.replace(/^#/, '')),
    host: u.host,
    hostname: u.hostname.replace(/^\[|\]$/g, ''),
    opaque: '',
    path: decodeURIComponent(u.pathname === '/' && !/^[a-z][a-z0-9+.-]*:\/\/[^/]*\//i.test(s) ? '' : u.pathname),
    query: u.search.replace(/^\?/, ''),
    scheme: u.protocol.replace(/:$/, ''),
    userinfo,
  };
}

function urlJoin(m: Record<string, unknown> | null): string {
  const g = (k: string) => (m && typeof m[k] === 'string' ? (m[k] as string) : '');
  let out = g('scheme') !== '' ? g('scheme') + ':' : '';
  if (g('host') !== '' || g('userinfo') !== '') out += '//' + (g('userinfo') !== '' ? g('userinfo') + '@' : '') + g('host');
  out += g('path');
  if (g('query') !== '') out += '?' + g('query');
  if (g('fragment') !== '') out += '#' + g('fragment');
  return out;
}

/** sprig's durationRound: the largest unit only (y, mo, d, h, m, s). */
function roundDuration(ns: bigint): string {
  const u = ns < 0n ? -ns : ns;
  const sec = u / 1_000_000_000n;
  const units: Array<[bigint, string]> = [[31536000n, 'y'], [2592000n, 'mo'], [86400n, 'd'], [3600n, 'h'], [60n, 'm']];
  for (const [size, label] of units) if (sec >= size) return `${sec / size}${label}`;
  return `${sec}s`;
}

function b32(s: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bytes = Buffer.from(s, 'utf8');
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

function b32dec(s: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = s.replace(/=+$/, '');
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const c of clean) {
    const i = alphabet.indexOf(c);
    if (i < 0) return `illegal base32 data at input byte ${s.indexOf(c)}`;
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out).toString('utf8');
}

function b64dec(s: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) {
    const bad = [...s].findIndex((c, i) => !/[A-Za-z0-9+/=]/.test(c) || (c === '=' && i < s.length - 2));
    return `illegal base64 data at input byte ${bad < 0 ? s.length - (s.length % 4) : bad}`;
  }
  return Buffer.from(s, 'base64').toString('utf8');
}

/** Go's encoding/json error text for text (empty when it decodes into interface{} without error). */
export function goJsonError(text: string): string {
  return goJsonDecode(text, 'any').error ?? '';
}

export const strictJsonFuncs: FuncMap = {
  mustFromJson: goFunc(['string'], goJsonUnmarshal),
};

export const encodingFuncs: FuncMap = {
  b64enc: goFunc(['string'], (s: string) => Buffer.from(s, 'utf8').toString('base64')),
  b64dec: goFunc(['string'], b64dec),
  b32enc: goFunc(['string'], b32),
  b32dec: goFunc(['string'], b32dec),
  toJson: goFunc(['any'], (v: unknown) => {
    try {
      return goJsonMarshal(v);
    } catch {
      return '';
    }
  }),
  toPrettyJson: goFunc(['any'], (v: unknown) => {
    try {
      return goJsonMarshal(v, '  ');
    } catch {
      return '';
    }
  }),
  toRawJson: goFunc(['any'], (v: unknown) => {
    try {
      return goJsonMarshal(v).replace(/\\u003c/g, '<').replace(/\\u003e/g, '>').replace(/\\u0026/g, '&');
    } catch {
      return '';
    }
  }),
  sha1sum: goFunc(['string'], (s: string) => createHash('sha1').update(s, 'utf8').digest('hex')),
  sha256sum: goFunc(['string'], (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')),
  sha512sum: goFunc(['string'], (s: string) => createHash('sha512').update(s, 'utf8').digest('hex')),
  adler32sum: goFunc(['string'], (s: string) => {
    let a = 1;
    let b = 0;
    for (const byte of Buffer.from(s, 'utf8')) {
      a = (a + byte) % 65521;
      b = (b + a) % 65521;
    }
    return String(((b << 16) | a) >>> 0);
  }),
  ...pathFuncs(''),
  ...pathFuncs('os'),
  urlParse: goFunc(['string'], urlParse),
  urlJoin: goFunc(['map[string]any'], urlJoin),
  duration: goFunc(['any'], (v: unknown) => {
    // sprig only understands int64 and numeric strings; a template int is neither and gives 0s.
    const n = typeof v === 'string' && /^[+-]?[0-9]+$/.test(v) ? BigInt(v) : 0n;
    return formatGoDuration(n * 1_000_000_000n);
  }),
  durationRound: goFunc(['any'], (v: unknown) => {
    let ns = 0n;
    if (typeof v === 'string') {
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
