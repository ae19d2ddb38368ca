// Go's package path (Clean, Base, Dir, Ext) as sprig's base, dir, ext and clean call it; filepath is the same
// on Linux. Follows Go 1.19, the differential oracle.

/** path.Clean: the shortest equivalent path, lexically. */
export function pathClean(p: string): string {
  if (p === '') return '.';
  const rooted = p[0] === '/';
  const n = p.length;
  let out = rooted ? '/' : '';
  let r = rooted ? 1 : 0;
  let dotdot = rooted ? 1 : 0;
  while (r < n) {
    if (p[r] === '/') r++;
    else if (p[r] === '.' && (r + 1 === n || p[r + 1] === '/')) r++;
    else if (p[r] === '.' && p[r + 1] === '.' && (r + 2 === n || p[r + 2] === '/')) {
      r += 2;
      if (out.length > dotdot) {
        let w = out.length - 1;
        while (w > dotdot && out[w] !== '/') w--;
        out = out.slice(0, w);
      } else if (!rooted) {
        if (out.length > 0) out += '/';
        out += '..';
        dotdot = out.length;
      }
    } else {
      if ((rooted && out.length !== 1) || (!rooted && out.length !== 0)) out += '/';
      for (; r < n && p[r] !== '/'; r++) out += p[r];
    }
  }
  return out === '' ? '.' : out;
}

/** path.Base. */
export function pathBase(p: string): string {
  if (p === '') return '.';
  p = p.replace(/\/+$/, '');
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
