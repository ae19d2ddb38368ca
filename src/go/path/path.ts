// Go's package path (Clean, Base, Dir, Ext) as sprig's base, dir, ext and clean call it; filepath is the same
// on Linux. Follows Go 1.19, the differential oracle.
import { TextBuilder } from '../internal/textBuilder.ts';

/** path.Clean: the shortest equivalent path, lexically (Go's algorithm, writing into a buffer: linear). */
export function pathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p[0] === '/';
  const n = p.length;
  const out = new Uint16Array(n + 3);
  let w = 0;
  let r = 0;
  let dotdot = 0;
  if (rooted) {
    out[w++] = SLASH;
    r = dotdot = 1;
  }
  while (r < n) {
    const c = p.charCodeAt(r);
    if (c === SLASH) r++;
    else if (c === DOT && (r + 1 === n || p.charCodeAt(r + 1) === SLASH)) r++;
    else if (c === DOT && p.charCodeAt(r + 1) === DOT && (r + 2 === n || p.charCodeAt(r + 2) === SLASH)) {
      r += 2;
      if (w > dotdot) {
        w--;
        while (w > dotdot && out[w] !== SLASH) w--;
      } else if (!rooted) {
        if (w > 0) out[w++] = SLASH;
        out[w++] = DOT;
        out[w++] = DOT;
        dotdot = w;
      }
    } else {
      if ((rooted && w !== 1) || (!rooted && w !== 0)) out[w++] = SLASH;
      for (; r < n && p.charCodeAt(r) !== SLASH; r++) out[w++] = p.charCodeAt(r);
    }
  }
  if (w === 0) return '.';
  const text = new TextBuilder();
  for (let i = 0; i < w; i++) text.unit(out[i]!);
  return text.toString();
}

const SLASH = 0x2f;
const DOT = 0x2e;

/** path.Base. */
export function pathBase(p: string): string {
  if (p === '') return '.';
  let end = p.length;
  while (end > 0 && p.charCodeAt(end - 1) === SLASH) end--;
  p = p.slice(0, end);
  if (p === '') return '/';
  return p.slice(p.lastIndexOf('/') + 1);
}

/** path.Dir: Clean of everything up to the last slash. */
export function pathDir(p: string): string {
  return pathClean(p.slice(0, p.lastIndexOf('/') + 1));
}

/** path.Ext: from the last dot of the last element. */
export function pathExt(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}
