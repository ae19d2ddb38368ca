// sprig's regex.go: the regular-expression functions on Go's regexp semantics (src/go/regexp/regexp.ts). The
// plain forms compile with regexp.MustCompile, so a bad pattern is a panic that text/template reports as
// "regexp: Compile(`re`): error parsing regexp: ..."; regexMatch swallows the error and is false; the
// must* forms return Go's error.
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { goQuote } from '../go/fmt/format.ts';
import { goNilSlice, goSlice } from '../go/reflect/value.ts';
import { compileGoRegexp, GoRegexpError, GoRegexpTooComplexError, quoteMeta, type GoRegexp } from '../go/regexp/regexp.ts';

/** strconv.CanBackquote: no backquote, no control character but tab, no BOM. */
function canBackquote(s: string): boolean {
  return !/[`\x00-\x08\x0a-\x1f\x7f\ufeff]/.test(s);
}

function compile(re: string, mustCompile: boolean): GoRegexp {
  try {
    return compileGoRegexp(re);
  } catch (e) {
    if (!(e instanceof GoRegexpError)) throw e;
    if (!mustCompile) throw new GoCallError(e.message);
    const quoted = canBackquote(re) ? '`' + re + '`' : goQuote(re);
    throw new GoCallError(`regexp: Compile(${quoted}): ${e.message}`);
  }
}

/** Runs a match; our own bound on very large work is reported as an error rather than hanging. */
function run<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof GoRegexpTooComplexError) throw new GoCallError(e.message);
    throw e;
  }
}

/** A []string, nil when empty and `nilWhenEmpty`. */
const strings = (a: string[], nilWhenEmpty: boolean) => (nilWhenEmpty && a.length === 0 ? goNilSlice('string') : goSlice('string', a));

const toInt = (n: bigint) => (n > 0x7fffffffn ? 0x7fffffff : n < -1n ? -1 : Number(n));

function findAndReplaceFuncs(must: boolean): FuncMap {
  const m = (name: string) => (must ? 'must' + name[0]!.toUpperCase() + name.slice(1) : name);
  return {
    [m('regexFind')]: goFunc(['string', 'string'], (re: string, s: string) => run(() => compile(re, !must).findString(s))),
    // No match gives a nil []string.
    [m('regexFindAll')]: goFunc(['string', 'string', 'int'], (re: string, s: string, n: bigint) =>
      strings(run(() => compile(re, !must).findAllString(s, toInt(n))), true),
    ),
    [m('regexReplaceAll')]: goFunc(['string', 'string', 'string'], (re: string, s: string, repl: string) => run(() => compile(re, !must).replaceAllString(s, repl))),
    [m('regexReplaceAllLiteral')]: goFunc(['string', 'string', 'string'], (re: string, s: string, repl: string) =>
      run(() => compile(re, !must).replaceAllLiteralString(s, repl)),
    ),
    [m('regexSplit')]: goFunc(['string', 'string', 'int'], (re: string, s: string, n: bigint) => strings(run(() => compile(re, !must).split(s, toInt(n))), n === 0n)),
  };
}

export const regexFuncs: FuncMap = {
  regexMatch: goFunc(['string', 'string'], (re: string, s: string) => {
    let r: GoRegexp;
    try {
      r = compileGoRegexp(re);
    } catch (e) {
      if (e instanceof GoRegexpError) return false;
      throw e;
    }
    return run(() => r.matchString(s));
  }),
  mustRegexMatch: goFunc(['string', 'string'], (re: string, s: string) => run(() => compile(re, false).matchString(s))),
  ...findAndReplaceFuncs(false),
  ...findAndReplaceFuncs(true),
  regexQuoteMeta: goFunc(['string'], quoteMeta),
};
