// A fast path for Go regexp's MatchString (sprig's regexMatch): the same pattern as a JS RegExp, used only
// where both give the same answer and the backtracking JS engine cannot run away.
//
// Whether a string matches does not depend on leftmost-first or greedy rules, only on the language, so the
// translation has to get characters and assertions exactly right, nothing more:
// - characters: Go matches runes; a `u` RegExp matches code points. They agree on every string without
//   surrogate code units (no raw bytes, which Go reads as U+FFFD; no astral characters): others take the VM;
// - `.` is [^\n] (JS also excludes \r, U+2028, U+2029); ^ $ \A \z and (?m) become lookarounds on \n only;
//   \b is ASCII in both; classes are written out as code point ranges or the same Unicode properties our
//   VM uses; case folding only for literals (their fold orbit written out), folded classes take the VM;
// - work: a quantifier may only apply to one character (no nesting, no alternation under it), and the
//   backtracking bound (input length times each quantifier's span, times alternatives) must stay under
//   MAX_JS_BACKTRACKING for the string at hand, else the VM answers; the caller charges that bound.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import type { CharClass, ClassItem, EmptyKind, RegexpNode } from './syntaxTree.ts';

/** The most backtracking steps the JS engine may take for a match; beyond it, the VM answers. */
export const MAX_JS_BACKTRACKING = 20_000_000;
const SURROGATE = /[\ud800-\udfff]/;

export interface JsMatcher {
  re: RegExp;
  /** A bound on the backtracking steps of `re` on `s`: `re` may answer when it is at most MAX_JS_BACKTRACKING. */
  bound(s: string): number;
}

class NotTranslatable extends Error {}

/** A matcher for the parsed pattern, or undefined when it has no safe JS equivalent. */
export function jsMatcher(tree: RegexpNode, foldOrbit: (c: number) => readonly number[]): JsMatcher | undefined {
  const spans: number[] = [];
  let branches = 1;
  const cp = (c: number) => `\\u{${c.toString(16)}}`;
  const ranges = (rs: ReadonlyArray<readonly [number, number]>) =>
    rs.map(([lo, hi]) => (lo === hi ? cp(lo) : `${cp(lo)}-${cp(hi)}`)).join('');
  const item = (it: ClassItem): string => {
    if ('ranges' in it)
      return it.ranges.length === 0 ? (it.negated ? '[^]' : '[]') : `[${it.negated ? '^' : ''}${ranges(it.ranges)}]`;
    return it.negated ? `(?:(?!${it.prop.source})[^])` : it.prop.source;
  };
  const charClass = (cls: CharClass): string => {
    if (cls.fold) throw new NotTranslatable();
    const union = cls.items.length === 1 ? item(cls.items[0]!) : `(?:${cls.items.map(item).join('|') || '[]'})`;
    return cls.negated ? `(?:(?!${union})[^])` : union;
  };
  const empty: Record<EmptyKind, string> = {
    beginLine: '(?<![^\\n])',
    endLine: '(?![^\\n])',
    beginText: '(?<![^])',
    endText: '(?![^])',
    wordBoundary: '\\b',
    noWordBoundary: '\\B',
  };
  const oneChar = (n: RegexpNode): boolean =>
    n.op === 'literal' || n.op === 'class' || n.op === 'anyChar' || n.op === 'anyCharNotNL';
  const quantified = (
    n: RegexpNode & { sub: RegexpNode; nonGreedy: boolean },
    suffix: string,
    span: number,
  ): string => {
    if (!oneChar(n.sub)) throw new NotTranslatable();
    spans.push(span);
    return `${translate(n.sub)}${suffix}${n.nonGreedy ? '?' : ''}`;
  };
  const translate = (n: RegexpNode): string => {
    switch (n.op) {
      case 'literal': {
        const runes = n.fold ? foldOrbit(n.rune) : [n.rune];
        return runes.length === 1 ? cp(runes[0]!) : `[${runes.map(cp).join('')}]`;
      }
      case 'class':
        return charClass(n.cls);
      case 'anyChar':
        return '[^]';
      case 'anyCharNotNL':
        return '[^\\n]';
      case 'empty':
        return empty[n.kind];
      case 'emptyMatch':
        return '(?:)';
      case 'capture':
        return `(?:${translate(n.sub)})`;
      case 'star':
        return quantified(n, '*', Infinity);
      case 'plus':
        return quantified(n, '+', Infinity);
      case 'quest':
        return quantified(n, '?', 2);
      case 'repeat':
        return quantified(
          n,
          n.max < 0 ? `{${n.min},}` : `{${n.min},${n.max}}`,
          n.max < 0 ? Infinity : n.max - n.min + 1,
        );
      case 'concat':
        return `(?:${n.subs.map(translate).join('')})`;
      case 'alternate':
        branches *= n.subs.length;
        return `(?:${n.subs.map(translate).join('|')})`;
    }
  };
  let re: RegExp;
  try {
    re = new RegExp(translate(tree), 'u');
  } catch (e) {
    if (e instanceof NotTranslatable || e instanceof SyntaxError) return undefined;
    throw e;
  }
  return {
    re,
    bound(s) {
      if (SURROGATE.test(s)) return Infinity;
      let work = (s.length + 1) * branches;
      for (const span of spans) {
        work *= Math.min(span, s.length + 1);
        if (work > MAX_JS_BACKTRACKING) return Infinity;
      }
      return work;
    },
  };
}
