// sprig's url.go: urlParse and urlJoin over Go's net/url (src/go/net/url/, as ported for the containerd
// emitter), which works on "byte strings" (one char per byte).
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import type { CallCost } from '../go/reflect/callCost.ts';
import { ENTRY_BYTES } from '../go/internal/meter.ts';
import {
  EMPTY_GO_URL,
  formatGoUrl,
  goUrlHostname,
  goUserinfoString,
  GoUrlError,
  parseGoUrl,
  type GoUrl,
} from '../go/net/url/url.ts';
import { goUrlErrorText } from '../go/net/url/urlError.ts';
import { mapHas, type GoMap } from '../go/reflect/value.ts';
import { goByteLength, goBytes, goString } from '../go/reflect/byteString.ts';
import { goKind } from '../go/reflect/kind.ts';

const toByteString = (s: string) => goBytes(s).toString('latin1');
const fromByteString = (b: string) => goString(Buffer.from(b, 'latin1'));

function urlParse(s: string): Record<string, unknown> {
  let u: GoUrl;
  try {
    u = parseGoUrl(toByteString(s));
  } catch (e) {
    if (e instanceof GoUrlError) throw new GoCallError(`unable to parse url: ${goUrlErrorText(s, e.reason)}`);
    throw e;
  }
  const text = (b: string) => fromByteString(b);
  return {
    fragment: text(u.fragment),
    host: text(u.host),
    hostname: text(goUrlHostname(u)),
    opaque: text(u.opaque),
    path: text(u.path),
    query: text(u.rawQuery),
    scheme: text(u.scheme),
    userinfo: text(goUserinfoString(u.user)),
  };
}

/** urlJoin: the parts it reads, escaped (a byte can become %XX) and joined. */
const urlJoinCost: CallCost = (m, [map]) => {
  let n = 0;
  if (map !== null && typeof map === 'object') {
    for (const k of URL_KEYS) {
      const v = mapHas(map as GoMap, k) ? (map as Record<string, unknown>)[k] : undefined;
      if (typeof v === 'string') n += v.length;
    }
  }
  m.spend(URL_UNITS * n);
  m.build(24 * n + 64);
};
const URL_KEYS = ['scheme', 'host', 'path', 'query', 'opaque', 'fragment', 'userinfo'];

function urlJoin(m: Record<string, unknown> | null): string {
  const get = (key: string): string => {
    if (m === null || !mapHas(m, key)) return '';
    const v = m[key];
    if (v === null || v === undefined)
      throw new GoCallError('runtime error: invalid memory address or nil pointer dereference');
    if (typeof v !== 'string')
      throw new GoCallError(`unable to parse ${key} key, must be of type string, but ${goKind(v)} found`);
    return toByteString(v);
  };
  const u: GoUrl = {
    ...EMPTY_GO_URL,
    scheme: get('scheme'),
    host: get('host'),
    path: get('path'),
    rawQuery: get('query'),
    opaque: get('opaque'),
    fragment: get('fragment'),
  };
  const userinfo = get('userinfo');
  if (userinfo !== '') {
    const raw = `proto://${userinfo}@host`;
    try {
      u.user = parseGoUrl(raw).user;
    } catch (e) {
      if (e instanceof GoUrlError)
        throw new GoCallError(`unable to parse userinfo in dict: ${goUrlErrorText(fromByteString(raw), e.reason)}`);
      throw e;
    }
  }
  return fromByteString(formatGoUrl(u));
}

/** urlParse: eight parts of the URL, each at most its length (a few times over, in byte strings). */
const urlParseCost: CallCost = (m, [s]) => {
  // Parsed as bytes (up to three per character).
  const n = goByteLength(s as string);
  m.spend(URL_UNITS * n);
  m.build(24 * n + 8 * ENTRY_BYTES);
};
const URL_UNITS = 128;

export const urlFuncs: FuncMap = {
  urlParse: goFunc(['string'], urlParseCost, urlParse),
  // Only six of the map's keys are read; escaping makes each part at most three times longer.
  urlJoin: goFunc(['map[string]any'], urlJoinCost, urlJoin),
};
