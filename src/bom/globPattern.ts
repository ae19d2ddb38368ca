// Shell patterns (case arms, ${x%pat} and kin) matched by walking the pattern's positions over the text at once
// (a set of positions per character), never by a backtracking regular expression: time is at most the
// pattern's length times the text's (MATCH_UNITS, charged by the evaluator), whatever the stars. Bash's
// syntax: `*`, `?`, `[...]` with `!` or `^` to negate and ranges; a `[` with no `]` is itself.

type Token =
  { kind: 'star' } | { kind: 'any' } | { kind: 'char'; c: string } | { kind: 'class'; test: (c: string) => boolean };

function tokens(pattern: string): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (out.at(-1)?.kind !== 'star') out.push({ kind: 'star' });
    } else if (c === '?') out.push({ kind: 'any' });
    else if (c === '[') {
      const cls = bracket(pattern, i);
      if (cls === undefined) out.push({ kind: 'char', c });
      else {
        out.push({ kind: 'class', test: cls.test });
        i = cls.end;
      }
    } else out.push({ kind: 'char', c });
  }
  return out;
}

/** The class opening at `open` and the index of its `]`, or undefined when it has none. */
function bracket(pattern: string, open: number): { test: (c: string) => boolean; end: number } | undefined {
  let i = open + 1;
  const negate = pattern[i] === '!' || pattern[i] === '^';
  if (negate) i++;
  const ranges: [string, string][] = [];
  // A `]` first is a member.
  for (let first = true; i < pattern.length; first = false) {
    const c = pattern[i]!;
    if (c === ']' && !first) {
      return { test: (x) => ranges.some(([lo, hi]) => x >= lo && x <= hi) !== negate, end: i };
    }
    if (pattern[i + 1] === '-' && i + 2 < pattern.length && pattern[i + 2] !== ']') {
      ranges.push([c, pattern[i + 2]!]);
      i += 3;
    } else {
      ranges.push([c, c]);
      i++;
    }
  }
  return undefined;
}

/** Work per pattern position per text character. */
export const MATCH_UNITS = 4;

/** The work matching `pattern` against `text` (or its prefixes or suffixes) may take. */
export function matchWork(pattern: string, text: string): number {
  return MATCH_UNITS * (pattern.length + 1) * (text.length + 1);
}

/** Every length k (ascending) such that `toks` matches text[0, k). */
function matchedPrefixes(toks: readonly Token[], text: readonly string[]): number[] {
  const m = toks.length;
  let on = new Uint8Array(m + 1);
  const close = (s: Uint8Array) => {
    for (let j = 0; j < m; j++) if (s[j] && toks[j]!.kind === 'star') s[j + 1] = 1;
  };
  on[0] = 1;
  close(on);
  const out: number[] = on[m] ? [0] : [];
  for (let k = 0; k < text.length; k++) {
    const c = text[k]!;
    const next = new Uint8Array(m + 1);
    let any = false;
    for (let j = 0; j < m; j++) {
      if (!on[j]) continue;
      const t = toks[j]!;
      if (t.kind === 'star') next[j] = 1;
      else if (t.kind === 'any' || (t.kind === 'char' ? t.c === c : t.test(c))) next[j + 1] = 1;
      else continue;
      any = true;
    }
    if (!any) break;
    close(next);
    on = next;
    if (on[m]) out.push(k + 1);
  }
  return out;
}

/** Whether `pattern` matches all of `text`. */
export function globMatches(pattern: string, text: string): boolean {
  const chars = [...text];
  return matchedPrefixes(tokens(pattern), chars).at(-1) === chars.length;
}

/** ${value#pattern}, ##, % and %%: the shortest or longest matching prefix or suffix removed. */
export function trimPattern(value: string, pattern: string, op: string): string {
  const chars = [...value];
  const toks = tokens(pattern);
  if (op.startsWith('#')) {
    const lengths = matchedPrefixes(toks, chars);
    const k = op === '##' ? lengths.at(-1) : lengths[0];
    return k === undefined ? value : chars.slice(k).join('');
  }
  // A suffix of the text is a prefix of the reversed text, matched by the reversed pattern.
  const lengths = matchedPrefixes([...toks].reverse(), [...chars].reverse());
  const k = op === '%%' ? lengths.at(-1) : lengths[0];
  return k === undefined ? value : chars.slice(0, chars.length - k).join('');
}
