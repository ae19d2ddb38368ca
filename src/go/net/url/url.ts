// The part of Go's net/url that OSM's mirror and credential handling goes through: Parse (with its errors),
// URL.String, ParseQuery, Values.Encode and the escaping rules behind them. OSM is built with go 1.26 in
// go.mod, so hosts follow that release: bracketed hosts must be IP literals (not IPv4) and an http(s) host
// may hold only one colon (urlstrictcolons=1); ParseQuery refuses more than 10000 parameters.
// Every string here is a byte string (see src/go/strings/strings.ts), because Go escapes and unescapes bytes.
import { isGoIPv4, isGoIPv6 } from '../ip.ts';

export class GoUrlError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'GoUrlError';
  }
}

export interface GoUserinfo {
  username: string;
  /** undefined when the URL had no ':' in its userinfo */
  password: string | undefined;
}

export interface GoUrl {
  scheme: string;
  opaque: string;
  user: GoUserinfo | undefined;
  host: string;
  path: string;
  rawPath: string;
  omitHost: boolean;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

const isAlnum = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const unhex = (c: number) => (c <= 0x39 ? c - 0x30 : c <= 0x46 ? c - 0x41 + 10 : c - 0x61 + 10);
const HOST_ALLOWED = new Set([...`!$&'()*+,;=:[]<>"`].map((c) => c.charCodeAt(0)));
const RESERVED = new Set([...'$&+,/:;=?@'].map((c) => c.charCodeAt(0)));
const UNRESERVED_MARK = new Set([...'-_.~'].map((c) => c.charCodeAt(0)));
const FRAGMENT_ALLOWED = new Set([...'!()*'].map((c) => c.charCodeAt(0)));

/** RFC 3986 escaping as Go applies it per URL component (shouldEscape). */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if ((mode === 'host' || mode === 'zone') && HOST_ALLOWED.has(c)) return false;
  if (UNRESERVED_MARK.has(c)) return false;
  if (RESERVED.has(c)) {
    const ch = String.fromCharCode(c);
    switch (mode) {
      case 'path':
        return ch === '?';
      case 'pathSegment':
        return '/;,?'.includes(ch);
      case 'userPassword':
        return '@/?:'.includes(ch);
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && FRAGMENT_ALLOWED.has(c)) return false;
  return true;
}

function unescape(s: string, mode: Mode): string {
  let needed = false;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      needed = true;
      if (i + 2 >= s.length || !isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2)))
        throw new GoUrlError('invalid URL escape');
      // Hosts may only %-encode non-ASCII bytes (and %25 for an IPv6 zone).
      if (mode === 'host' && unhex(s.charCodeAt(i + 1)) < 8 && s.slice(i, i + 3) !== '%25')
        throw new GoUrlError('invalid URL escape');
      if (mode === 'zone') {
        const v = (unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2));
        if (s.slice(i, i + 3) !== '%25' && v !== 0x20 && shouldEscape(v, 'host'))
          throw new GoUrlError('invalid URL escape');
      }
      i += 3;
    } else {
      if (c === 0x2b && mode === 'queryComponent') needed = true;
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && c !== 0x2b && shouldEscape(c, mode))
        throw new GoUrlError('invalid character in host name');
      i++;
    }
  }
  if (!needed) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      out += String.fromCharCode((unhex(s.charCodeAt(i + 1)) << 4) | unhex(s.charCodeAt(i + 2)));
      i += 2;
    } else if (c === 0x2b) {
      out += mode === 'queryComponent' ? ' ' : '+';
    } else {
      out += s[i];
    }
  }
  return out;
}

function escape(s: string, mode: Mode): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 && mode === 'queryComponent') out += '+';
    else if (shouldEscape(c, mode)) out += '%' + c.toString(16).toUpperCase().padStart(2, '0');
    else out += s[i];
  }
  return out;
}

/** url.QueryUnescape; undefined where Go returns an error. */
export function goQueryUnescape(s: string): string | undefined {
  try {
    return unescape(s, 'queryComponent');
  } catch {
    return undefined;
  }
}

export const goQueryEscape = (s: string): string => escape(s, 'queryComponent');

const MAX_QUERY_PARAMS = 10000;

/** url.ParseQuery: the valid pairs in order, and whether any part was invalid. */
export function parseGoQuery(query: string): { values: Map<string, string[]>; invalid: boolean } {
  const values = new Map<string, string[]>();
  if (query.split('&').length > MAX_QUERY_PARAMS) return { values, invalid: true };
  let invalid = false;
  for (const pair of query === '' ? [] : query.split('&')) {
    if (pair.includes(';')) {
      invalid = true;
      continue;
    }
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = goQueryUnescape(eq < 0 ? pair : pair.slice(0, eq));
    const value = goQueryUnescape(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === undefined || value === undefined) {
      invalid = true;
      continue;
    }
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  return { values, invalid };
}

/** url.Values.Encode: keys in byte order, values in their order. */
export function encodeGoQuery(values: Map<string, string[]>): string {
  const parts: string[] = [];
  for (const key of [...values.keys()].sort()) {
    for (const v of values.get(key)!) parts.push(`${goQueryEscape(key)}=${goQueryEscape(v)}`);
  }
  return parts.join('&');
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) throw new GoUrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

function validOptionalPort(port: string): boolean {
  return port === '' || /^:[0-9]*$/.test(port);
}

const USERINFO_ALLOWED = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/** netip.ParseAddr for the inside of brackets: an IPv6 address (optionally with a zone) passes; IPv4 is refused by the caller. */
function parseAddr(s: string): 'v4' | 'v6' | undefined {
  for (const ch of s) {
    if (ch === '.') return isGoIPv4(s) ? 'v4' : undefined;
    if (ch === ':') return isGoIPv6(s, { zone: true }) ? 'v6' : undefined;
    if (ch === '%') return undefined;
  }
  return undefined;
}

function parseHost(scheme: string, host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new GoUrlError('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new GoUrlError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new GoUrlError('invalid port after host');
    const hostname = host.slice(1, close);
    const zone = hostname.indexOf('%25');
    const unescaped =
      zone >= 0
        ? unescape(hostname.slice(0, zone), 'host') + unescape(hostname.slice(zone), 'zone')
        : unescape(hostname, 'host');
    const kind = parseAddr(unescaped);
    if (kind === undefined) throw new GoUrlError('invalid host');
    if (kind === 'v4') throw new GoUrlError('invalid IP-literal');
    return `[${unescaped}]${colonPort}`;
  }
  let colon = host.indexOf(':');
  if (colon >= 0) {
    const last = host.lastIndexOf(':');
    // Only http(s) hosts are strict about a second colon; others take the last one as the port.
    if (last !== colon && scheme !== 'http' && scheme !== 'https') colon = last;
    if (!validOptionalPort(host.slice(colon))) throw new GoUrlError('invalid port after host');
  }
  return unescape(host, 'host');
}

function parseAuthority(scheme: string, authority: string): [GoUserinfo | undefined, string] {
  const at = authority.lastIndexOf('@');
  const host = parseHost(scheme, authority.slice(at + 1));
  if (at < 0) return [undefined, host];
  const userinfo = authority.slice(0, at);
  if (!USERINFO_ALLOWED.test(userinfo)) throw new GoUrlError('invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) return [{ username: unescape(userinfo, 'userPassword'), password: undefined }, host];
  return [
    {
      username: unescape(userinfo.slice(0, colon), 'userPassword'),
      password: unescape(userinfo.slice(colon + 1), 'userPassword'),
    },
    host,
  ];
}

function emptyUrl(): GoUrl {
  return { ...EMPTY_GO_URL };
}

function parseWithoutFragment(raw: string): GoUrl {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new GoUrlError('invalid control character in URL');
  const url = emptyUrl();
  if (raw === '*') {
    url.path = '*';
    return url;
  }
  let [scheme, rest] = getScheme(raw);
  url.scheme = scheme.toLowerCase();
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    url.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      url.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') {
      url.opaque = rest; // rootless paths are opaque (RFC 3986)
      return url;
    }
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':'))
      throw new GoUrlError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    [url.user, url.host] = parseAuthority(url.scheme, authority);
  } else if (url.scheme !== '' && rest.startsWith('/')) {
    url.omitHost = true;
  }
  url.path = unescape(rest, 'path');
  url.rawPath = escape(url.path, 'path') === rest ? '' : rest;
  return url;
}

/** url.Parse of a JS string; the result's fields are byte strings. Throws GoUrlError where Go returns an error. */
export function parseGoUrl(rawByteString: string): GoUrl {
  const hash = rawByteString.indexOf('#');
  const url = parseWithoutFragment(hash < 0 ? rawByteString : rawByteString.slice(0, hash));
  const frag = hash < 0 ? '' : rawByteString.slice(hash + 1);
  if (frag !== '') {
    url.fragment = unescape(frag, 'fragment');
    url.rawFragment = escape(url.fragment, 'fragment') === frag ? '' : frag;
  }
  return url;
}

function validEncoded(s: string, mode: Mode): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ("!$&'()*+,;=:@[]%".includes(s[i]!)) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

function escapedHint(raw: string, decoded: string, mode: Mode): string | undefined {
  if (raw === '' || !validEncoded(raw, mode)) return undefined;
  try {
    return unescape(raw, mode) === decoded ? raw : undefined;
  } catch {
    return undefined;
  }
}

function escapedPath(u: GoUrl): string {
  const hint = escapedHint(u.rawPath, u.path, 'path');
  if (hint !== undefined) return hint;
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

/** URL.String */
export function formatGoUrl(u: GoUrl): string {
  let buf = '';
  if (u.scheme !== '') buf += u.scheme + ':';
  if (u.opaque !== '') {
    buf += u.opaque;
  } else {
    const noAuthority = u.omitHost && u.host === '' && u.user === undefined;
    if ((u.scheme !== '' || u.host !== '' || u.user !== undefined) && !noAuthority) {
      if (u.host !== '' || u.path !== '' || u.user !== undefined) buf += '//';
      if (u.user !== undefined) {
        buf += escape(u.user.username, 'userPassword');
        if (u.user.password !== undefined) buf += ':' + escape(u.user.password, 'userPassword');
        buf += '@';
      }
      if (u.host !== '') buf += escape(u.host, 'host');
    }
    let path = escapedPath(u);
    if (noAuthority && path.startsWith('//')) {
      buf += '%2F'; // so that re-parsing does not read the path as an authority
      path = path.slice(1);
    }
    if (path !== '' && path[0] !== '/' && u.host !== '') buf += '/';
    if (buf === '') {
      const slash = path.indexOf('/');
      if ((slash < 0 ? path : path.slice(0, slash)).includes(':')) buf += './';
    }
    buf += path;
  }
  if (u.forceQuery || u.rawQuery !== '') buf += '?' + u.rawQuery;
  if (u.fragment !== '')
    buf += '#' + (escapedHint(u.rawFragment, u.fragment, 'fragment') ?? escape(u.fragment, 'fragment'));
  return buf;
}

/** URL.Hostname: the host without its port and brackets. */
export function goUrlHostname(u: GoUrl): string {
  let hostname = u.host;
  const colon = hostname.lastIndexOf(':');
  if (colon >= 0 && /^:[0-9]*$/.test(hostname.slice(colon))) hostname = hostname.slice(0, colon);
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);
  return hostname;
}

/** Userinfo.String; "" for a URL without userinfo. */
export function goUserinfoString(user: GoUserinfo | undefined): string {
  if (user === undefined) return '';
  let s = escape(user.username, 'userPassword');
  if (user.password !== undefined) s += ':' + escape(user.password, 'userPassword');
  return s;
}

/** A URL with every field empty, to build one from parts. */
export const EMPTY_GO_URL: Readonly<GoUrl> = {
  scheme: '',
  opaque: '',
  user: undefined,
  host: '',
  path: '',
  rawPath: '',
  omitHost: false,
  forceQuery: false,
  rawQuery: '',
  fragment: '',
  rawFragment: '',
};
