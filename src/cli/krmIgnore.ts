// `.krmignore`, as kpt reads it (kpt 1.0.0-beta.56 and main 23c57d7f, through kyaml v0.21.1's
// kio/ignorefilesmatcher.go and github.com/monochromegane/go-gitignore 205db1a):
// - the file sits at the top of a package (the directory read) and of each subpackage (a directory holding a
//   Kptfile); each covers its own package only: a parent's patterns can skip a subpackage's directory but do not
//   apply to the files inside one;
// - a subset of gitignore: one pattern a line, spaces trimmed at both ends, `#` comments (`\#` for a literal
//   #), `!` accepts a path again (an accept pattern wins over every ignore pattern, whatever the order), a
//   trailing `/` matches directories only, a leading `/` anchors the pattern at the package's top;
//   `*`, `?`, `[...]` and `\` escapes as Go's filepath.Match (no `**`: it is two `*`);
// - an unanchored pattern of N components matches the last N components of a path, at any depth
//   (`sub/x.yaml` ignores `a/sub/x.yaml` too); an anchored one matches the whole path.
// A directory that matches is not entered.

interface Pattern {
  anchored: boolean;
  directoryOnly: boolean;
  depth: number;
  glob: string;
}

export interface KrmIgnore {
  /** Whether the path (relative to the package's top, slash-separated) is ignored. */
  ignores(rel: string, isDirectory: boolean): boolean;
}

export const KRMIGNORE_FILE = '.krmignore';
export const KPTFILE = 'Kptfile';

export function parseKrmIgnore(text: string): KrmIgnore {
  const ignore: Pattern[] = [];
  const accept: Pattern[] = [];
  for (const raw of text.split('\n')) {
    let line = raw.replace(/\r$/, '').replace(/^ +| +$/g, '');
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('\\#')) line = line.slice(1);
    const list = line.startsWith('!') ? accept : ignore;
    if (line.startsWith('!')) line = line.slice(1);
    const glob = line.replace(/^\/+|\/+$/g, '');
    if (glob === '') continue;
    list.push({
      anchored: line.startsWith('/'),
      directoryOnly: line.endsWith('/'),
      depth: glob.split('/').length,
      glob,
    });
  }
  const matches = (patterns: Pattern[], rel: string, isDirectory: boolean) => {
    const parts = rel.split('/');
    return patterns.some((p) => {
      if (p.directoryOnly && !isDirectory) return false;
      if (p.anchored) return p.depth === parts.length && globMatch(p.glob, rel);
      return p.depth <= parts.length && globMatch(p.glob, parts.slice(parts.length - p.depth).join('/'));
    });
  };
  return {
    ignores: (rel, isDirectory) => !matches(accept, rel, isDirectory) && matches(ignore, rel, isDirectory),
  };
}

/** Go's path/filepath.Match (Unix): `*` and `?` never match `/`; a malformed pattern matches nothing. */
export function globMatch(pattern: string, name: string): boolean {
  const re = globRegExp(pattern);
  return re !== undefined && re.test(name);
}

const cache = new Map<string, RegExp | undefined>();

function globRegExp(pattern: string): RegExp | undefined {
  if (cache.has(pattern)) return cache.get(pattern);
  let out = '';
  let ok = true;
  for (let i = 0; i < pattern.length && ok; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '\\') {
      if (i + 1 >= pattern.length) ok = false;
      else out += escapeChar(pattern[++i]!);
    } else if (c === '[') {
      let j = i + 1;
      let cls = '';
      if (pattern[j] === '^') {
        cls += '^';
        j++;
      }
      let count = 0;
      for (;;) {
        if (j >= pattern.length) {
          ok = false;
          break;
        }
        let lo = pattern[j]!;
        if (lo === ']' && count > 0) break;
        if (lo === '-' || lo === ']') {
          ok = false;
          break;
        }
        if (lo === '\\') {
          j++;
          if (j >= pattern.length) {
            ok = false;
            break;
          }
          lo = pattern[j]!;
        }
        j++;
        let hi = lo;
        if (pattern[j] === '-' && pattern[j + 1] !== undefined && pattern[j + 1] !== ']') {
          hi = pattern[j + 1]!;
          j += 2;
          if (hi === '\\') {
            if (j >= pattern.length) {
              ok = false;
              break;
            }
            hi = pattern[j++]!;
          }
          if (hi < lo) {
            ok = false;
            break;
          }
        }
        cls += lo === hi ? escapeChar(lo) : `${escapeChar(lo)}-${escapeChar(hi)}`;
        count++;
      }
      if (!ok) break;
      out += `[${cls}]`;
      i = j;
    } else out += escapeChar(c);
  }
  const re = ok ? new RegExp(`^${out}$`, 's') : undefined;
  cache.set(pattern, re);
  return re;
}

function escapeChar(c: string): string {
  return /[\\^$.*+?()[\]{}|\/-]/.test(c) ? `\\${c}` : c;
}
