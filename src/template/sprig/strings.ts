// sprig's string functions (hermetic ones), with Go's semantics (bytes vs runes noted where they differ).
import { goFunc, GoCallError, type FuncMap } from '../functions.ts';
import { formatValue, goQuote } from '../goFormat.ts';

/** sprig's strval: strings as is, []byte as text, Stringers via String, the rest via fmt %v. */
export function strval(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (v === undefined || v === null) return '<nil>';
  return formatValue(v);
}

const runes = (s: string) => [...s];
const isSpace = (c: string) => /^[\s\u0085\u00a0]$/u.test(c);

function trimFunc(s: string, cut: (c: string) => boolean, left: boolean, right: boolean): string {
  const r = runes(s);
  let a = 0;
  let b = r.length;
  if (left) while (a < b && cut(r[a]!)) a++;
  if (right) while (b > a && cut(r[b - 1]!)) b--;
  return r.slice(a, b).join('');
}

function indent(spaces: bigint, v: string): string {
  const pad = ' '.repeat(Number(spaces));
  return pad + v.split('\n').join('\n' + pad);
}

function title(s: string): string {
  // strings.Title: upper-case the first letter of each word (words split on non-letters).
  let prev = ' ';
  let out = '';
  for (const c of s) {
    out += /[\p{L}\p{N}_]/u.test(prev) ? c : c.toUpperCase();
    prev = c;
  }
  return out;
}

function substr(start: bigint, end: bigint, s: string): string {
  // sprig works on bytes: s[start:end] with its own clamping.
  const b = Buffer.from(s, 'utf8');
  const st = Number(start);
  const en = Number(end);
  if (st < 0) return b.subarray(0, en).toString('utf8');
  if (en < 0 || en > b.length) return b.subarray(st).toString('utf8');
  if (st > en) throw new GoCallError(`runtime error: slice bounds out of range [${st}:${en}]`);
  return b.subarray(st, en).toString('utf8');
}

function trunc(c: bigint, s: string): string {
  const n = Number(c);
  const b = Buffer.from(s, 'utf8');
  if (n < 0 && b.length + n > 0) return b.subarray(b.length + n).toString('utf8');
  if (n >= 0 && b.length > n) return b.subarray(0, n).toString('utf8');
  return s;
}

/** goutils.AbbreviateFull: "..." on both sides around an offset. */
function abbrevBoth(offset: number, maxWidth: number, s: string): string {
  const r = runes(s);
  if (maxWidth < 4 || r.length <= maxWidth) return s;
  if (offset > r.length) offset = r.length;
  if (r.length - offset < maxWidth - 3) offset = r.length - (maxWidth - 3);
  if (offset <= 4) return r.slice(0, maxWidth - 3).join('') + '...';
  if (maxWidth < 7) return s;
  if (offset + maxWidth - 3 < r.length) return '...' + abbrevRight(r.slice(offset).join(''), maxWidth - 3);
  return '...' + r.slice(r.length - (maxWidth - 3)).join('');
}

function abbrevRight(s: string, w: number): string {
  const r = runes(s);
  return r.length <= w ? s : r.slice(0, w - 3).join('') + '...';
}

function splitList(sep: string, orig: string): string[] {
  if (sep === '') return runes(orig);
  return orig.split(sep);
}

function split(sep: string, orig: string): Record<string, string> {
  const m: Record<string, string> = {};
  splitList(sep, orig).forEach((p, i) => (m['_' + i] = p));
  return m;
}

function splitn(sep: string, n: bigint, orig: string): Record<string, string> {
  const parts = sep === '' ? runes(orig) : orig.split(sep);
  const k = Number(n);
  const out = k < 0 || parts.length <= k ? parts : [...parts.slice(0, k - 1), parts.slice(k - 1).join(sep)];
  const m: Record<string, string> = {};
  if (k === 0) return m;
  out.forEach((p, i) => (m['_' + i] = p));
  return m;
}

function join(sep: string, v: unknown): string {
  return toStrings(v).join(sep);
}

/** sprig's strslice: a list becomes its elements as strings; nil elements are dropped. */
export function toStrings(v: unknown): string[] {
  if (Array.isArray(v)) return v.filter((e) => e !== null && e !== undefined).map(strval);
  if (v === null || v === undefined) return [];
  return [strval(v)];
}

function wrapWith(width: bigint, sep: string, s: string): string {
  // goutils.WrapCustom with wrapLongWords=true.
  const w = Math.max(Number(width), 1);
  const lines: string[] = [];
  for (const para of s.split('\n')) {
    let line = '';
    for (const word of para.split(' ').filter((x) => x !== '')) {
      let rest = word;
      while ([...rest].length > w) {
        if (line !== '') {
          lines.push(line);
          line = '';
        }
        lines.push([...rest].slice(0, w).join(''));
        rest = [...rest].slice(w).join('');
      }
      if (line === '') line = rest;
      else if ([...line].length + 1 + [...rest].length <= w) line += ' ' + rest;
      else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines.join(sep);
}

function casing(s: string, sep: string): string {
  // xstrings.ToSnakeCase / ToKebabCase (simplified to the ASCII rules it applies).
  return s
    .replace(/([a-z0-9])([A-Z])/g, `$1${sep}$2`)
    .replace(/([A-Z]+)([A-Z][a-z])/g, `$1${sep}$2`)
    .replace(/[\s_-]+/g, sep)
    .toLowerCase();
}

export const stringFuncs: FuncMap = {
  upper: goFunc(['string'], (s: string) => s.toUpperCase()),
  lower: goFunc(['string'], (s: string) => s.toLowerCase()),
  title: goFunc(['string'], title),
  untitle: goFunc(['string'], (s: string) => s.replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_m, a: string, b: string) => a + b.toLowerCase())),
  substr: goFunc(['int', 'int', 'string'], substr),
  repeat: goFunc(['int', 'string'], (n: bigint, s: string) => {
    if (n < 0n) throw new GoCallError('strings: negative Repeat count');
    if (BigInt(s.length) * n > 16n * 1024n * 1024n) throw new GoCallError('strings: Repeat output too large');
    return s.repeat(Number(n));
  }),
  trim: goFunc(['string'], (s: string) => trimFunc(s, isSpace, true, true)),
  trimAll: goFunc(['string', 'string'], (cut: string, s: string) => trimFunc(s, (c) => cut.includes(c), true, true)),
  trimall: goFunc(['string', 'string'], (cut: string, s: string) => trimFunc(s, (c) => cut.includes(c), true, true)),
  hello: goFunc([], () => 'Hello!'),
  abbrevboth: goFunc(['int', 'int', 'string'], (left: bigint, width: bigint, s: string) => abbrevBoth(Number(left), Number(width), s)),
  trimPrefix: goFunc(['string', 'string'], (p: string, s: string) => (s.startsWith(p) ? s.slice(p.length) : s)),
  trimSuffix: goFunc(['string', 'string'], (p: string, s: string) => (p !== '' && s.endsWith(p) ? s.slice(0, s.length - p.length) : s)),
  nospace: goFunc(['string'], (s: string) => runes(s).filter((c) => !isSpace(c)).join('')),
  trunc: goFunc(['int', 'string'], trunc),
  abbrev: goFunc(['int', 'string'], (w: bigint, s: string) => (w < 4n || runes(s).length <= Number(w) ? s : runes(s).slice(0, Number(w) - 3).join('') + '...')),
  initials: goFunc(['string'], (s: string) => s.split(/\s+/).filter(Boolean).map((w) => runes(w)[0]).join('')),
  wrap: goFunc(['int', 'string'], (w: bigint, s: string) => wrapWith(w, '\n', s)),
  wrapWith: goFunc(['int', 'string', 'string'], wrapWith),
  contains: goFunc(['string', 'string'], (sub: string, s: string) => s.includes(sub)),
  hasPrefix: goFunc(['string', 'string'], (p: string, s: string) => s.startsWith(p)),
  hasSuffix: goFunc(['string', 'string'], (p: string, s: string) => s.endsWith(p)),
  quote: goFunc([], (...v: unknown[]) => v.filter((x) => x !== null && x !== undefined).map((x) => goQuote(strval(x))).join(' '), 'any'),
  squote: goFunc([], (...v: unknown[]) => v.filter((x) => x !== null && x !== undefined).map((x) => `'${strval(x)}'`).join(' '), 'any'),
  cat: goFunc([], (...v: unknown[]) => v.filter((x) => x !== null && x !== undefined).map(strval).join(' '), 'any'),
  indent: goFunc(['int', 'string'], indent),
  nindent: goFunc(['int', 'string'], (n: bigint, v: string) => '\n' + indent(n, v)),
  replace: goFunc(['string', 'string', 'string'], (old: string, nw: string, s: string) => (old === '' ? runes(s).join(nw).replace(/^/, nw) + nw : s.split(old).join(nw))),
  plural: goFunc(['string', 'string', 'int'], (one: string, many: string, n: bigint) => (n === 1n ? one : many)),
  snakecase: goFunc(['string'], (s: string) => casing(s, '_')),
  kebabcase: goFunc(['string'], (s: string) => casing(s, '-')),
  camelcase: goFunc(['string'], (s: string) => s.split('_').map((p) => (p === '' ? '' : p[0]!.toUpperCase() + p.slice(1))).join('')),
  swapcase: goFunc(['string'], (s: string) => runes(s).map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')),
  toString: goFunc(['any'], strval),
  toStrings: goFunc(['any'], toStrings),
  split: goFunc(['string', 'string'], split),
  splitList: goFunc(['string', 'string'], splitList),
  splitn: goFunc(['string', 'int', 'string'], splitn),
  join: goFunc(['string', 'any'], join),
  sortAlpha: goFunc(['any'], (v: unknown) => toStrings(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))),
};
