// sprig's regex.go: the regular-expression functions on Go's regexp semantics (src/go/regexp/regexp.ts). The
// plain forms compile with regexp.MustCompile, so a bad pattern is a panic that text/template reports as
// "regexp: Compile(`re`): error parsing regexp: ..."; regexMatch swallows the error and is false; the
// must* forms return Go's error.
import { goFunc, GoCallError, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import { readsAndBuilds, readsStrings } from '../go/reflect/callCost.ts';
import { goQuote } from '../go/fmt/format.ts';
import { goNilSlice, goSlice } from '../go/reflect/value.ts';
import { compileGoRegexp, GoRegexpError, quoteMeta, type GoRegexp } from '../go/regexp/regexp.ts';
import type { Meter } from '../go/internal/meter.ts';
import { BYTE_UNITS } from './strings.ts';

/** strconv.CanBackquote: no backquote, no control character but tab, no BOM. */
function canBackquote(s: string): boolean {
  return !/[`\x00-\x08\x0a-\x1f\x7f\ufeff]/.test(s);
}

/** Compiles and runs on the caller's meter (the pattern's parse and program, then each input position). */
function compile(re: string, mustCompile: boolean, m: Meter): GoRegexp {
  try {
    return compileGoRegexp(re, m);
  } catch (e) {
    if (!(e instanceof GoRegexpError)) throw e;
    if (!mustCompile) throw new GoCallError(e.message);
    const quoted = canBackquote(re) ? '`' + re + '`' : goQuote(re);
    throw new GoCallError(`regexp: Compile(${quoted}): ${e.message}`);
  }
}

/** A []string, nil when empty and `nilWhenEmpty`. */
const strings = (a: string[], nilWhenEmpty: boolean) =>
  nilWhenEmpty && a.length === 0 ? goNilSlice('string') : goSlice('string', a);

const toInt = (n: bigint) => (n > 0x7fffffffn ? 0x7fffffff : n < -1n ? -1 : Number(n));

/** The regex functions charge as they compile and run (compileGoRegexp, GoRegexp); before, only their texts are read. */
const RUNS = readsStrings(BYTE_UNITS);

function findAndReplaceFuncs(must: boolean): FuncMap {
  const m = (name: string) => (must ? 'must' + name[0]!.toUpperCase() + name.slice(1) : name);
  return {
    [m('regexFind')]: meteredFunc(['string', 'string'], RUNS, (meter: Meter, re: string, s: string) =>
      compile(re, !must, meter).findString(s, meter),
    ),
    // No match gives a nil []string.
    [m('regexFindAll')]: meteredFunc(
      ['string', 'string', 'int'],
      RUNS,
      (meter: Meter, re: string, s: string, n: bigint) =>
        strings(compile(re, !must, meter).findAllString(s, toInt(n), meter), true),
    ),
    [m('regexReplaceAll')]: meteredFunc(
      ['string', 'string', 'string'],
      RUNS,
      (meter: Meter, re: string, s: string, repl: string) => compile(re, !must, meter).replaceAllString(s, repl, meter),
    ),
    [m('regexReplaceAllLiteral')]: meteredFunc(
      ['string', 'string', 'string'],
      RUNS,
      (meter: Meter, re: string, s: string, repl: string) =>
        compile(re, !must, meter).replaceAllLiteralString(s, repl, meter),
    ),
    [m('regexSplit')]: meteredFunc(
      ['string', 'string', 'int'],
      RUNS,
      (meter: Meter, re: string, s: string, n: bigint) =>
        strings(compile(re, !must, meter).split(s, toInt(n), meter), n === 0n),
    ),
  };
}

export const regexFuncs: FuncMap = {
  regexMatch: meteredFunc(['string', 'string'], RUNS, (meter: Meter, re: string, s: string) => {
    let r: GoRegexp;
    try {
      r = compileGoRegexp(re, meter);
    } catch (e) {
      if (e instanceof GoRegexpError) return false;
      throw e;
    }
    return r.matchString(s, meter);
  }),
  mustRegexMatch: meteredFunc(['string', 'string'], RUNS, (meter: Meter, re: string, s: string) =>
    compile(re, false, meter).matchString(s, meter),
  ),
  ...findAndReplaceFuncs(false),
  ...findAndReplaceFuncs(true),
  // A backslash before each metacharacter: at most twice as long.
  regexQuoteMeta: goFunc(['string'], readsAndBuilds(4 * BYTE_UNITS, 2), quoteMeta),
};
