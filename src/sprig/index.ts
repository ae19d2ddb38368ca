// Function maps for templates: sprig v3's hermetic functions (sprigFuncs), and what OSP templates get
// (osmTemplateFuncs: sprig plus OSM's Helm-style extras, pkg/util/funcmap in OSM). This file has the role of
// sprig's functions.go: it assembles the map from one file per sprig source file (strings.ts for strings.go,
// list.ts for list.go...), and holds the entries functions.go defines in place: Go library functions
// (strings.ToUpper, path.Base, reflect.DeepEqual, goutils', xstrings') and its inline closures (repeat,
// contains, add, addf...). A sprig source file whose functions are all left out (network.go) has no file.
//
// Left out on purpose, so that calling one is a parse error naming the function (a KRM function must be
// hermetic and deterministic):
//   - clock: now, ago, date, dateInZone/date_in_zone, dateModify/date_modify, mustDateModify/
//     must_date_modify, htmlDate, htmlDateInZone, unixEpoch; toDate and mustToDate (they read the local
//     time zone);
//   - environment and network: env, expandenv, getHostByName;
//   - randomness: randAlpha, randAlphaNum, randAscii, randNumeric, randBytes, randInt, uuidv4, shuffle,
//     genPrivateKey, genCA, genCAWithKey, genSelfSignedCert, genSelfSignedCertWithKey, genSignedCert,
//     genSignedCertWithKey, buildCustomCert, encryptAES, bcrypt, htpasswd (random IVs, keys and salts);
//   - derivePassword (a password manager's derivation; the task leaves it out with the random ones).
// duration, durationRound and decryptAES are pure functions of their arguments and stay.
//
// Versions: OSM builds sprig 3.3.0 with semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0 and
// decimal 1.4.0, and that is what we follow. Debian's sprig 3.2.3 (our Go test oracle) differs in:
// sha512sum (3.3.0 only); camelcase (3.2.3 called xstrings' ToCamelCase, 3.3.0 ToPascalCase);
// snakecase/kebabcase word splitting (xstrings 1.3.3); merge/mergeOverwrite of a map over a non-map
// value (mergo 0.3.x kept the old value); semver error texts (capitalised before 3.4.0), hyphen-range
// rewriting and the pre-release rule within AND groups (see semver.ts).
//
// Results carry sprig's Go types (src/go/reflect/value.ts): int64 from the integer arithmetic, []string, []int,
// map[string]string, nil slices and maps where sprig returns nil (null in toJson).
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { goSlice } from '../go/reflect/value.ts';
import { deepEqual } from '../go/reflect/deepEqual.ts';
import { isSpace, mapRunes, toLower, toUpper } from '../go/unicode/unicode.ts';
import { goBytes } from '../go/reflect/byteString.ts';
import { goContains, goHasPrefix, goHasSuffix, goSplitN, goTitle, goTrim, goTrimFunc, goTrimPrefix, goTrimSuffix } from '../go/strings/strings.ts';
import { deleteWhiteSpace } from '../go/goutils/stringUtils.ts';
import { swapCase, wrapCustom } from '../go/goutils/wordUtils.ts';
import { toKebabCase, toPascalCase, toSnakeCase } from '../go/xstrings/caseConversion.ts';
import { pathBase, pathClean, pathDir, pathExt } from '../go/path/path.ts';
import { toInt64 } from '../go/cast/cast.ts';
import { decimalAdd, decimalDiv, decimalMul, decimalSub } from '../go/decimal/decimal.ts';
import { cryptoFuncs } from './crypto.ts';
import { dateFuncs } from './date.ts';
import { defaultsFuncs } from './defaults.ts';
import { dictFuncs } from './dict.ts';
import { listFuncs } from './list.ts';
import { decimalOp, INT64_MIN, int64, numericFuncs } from './numeric.ts';
import { reflectFuncs } from './reflect.ts';
import { regexFuncs } from './regex.ts';
import { semverFuncs } from './semver.ts';
import { stringsFuncs, toWidth } from './strings.ts';
import { urlFuncs } from './url.ts';
import { osmExtraFuncs } from './osmExtras.ts';

const wrap64 = (x: bigint) => BigInt.asIntN(64, x);

function intDiv(a: bigint, b: bigint, op: (a: bigint, b: bigint) => bigint): bigint {
  if (b === 0n) throw new GoCallError('runtime error: integer divide by zero');
  return wrap64(op(a, b));
}

const MAX_REPEAT_OUTPUT = 64n * 1024n * 1024n;

/** path's functions, and filepath's (the same on Linux) under an "os" prefix. */
function pathFuncs(prefix: string): FuncMap {
  const name = (n: string) => (prefix === '' ? n : prefix + n[0]!.toUpperCase() + n.slice(1));
  return {
    [name('base')]: goFunc(['string'], pathBase),
    [name('dir')]: goFunc(['string'], pathDir),
    [name('ext')]: goFunc(['string'], pathExt),
    [name('clean')]: goFunc(['string'], pathClean),
    [name('isAbs')]: goFunc(['string'], (p: string) => p.startsWith('/')),
  };
}

/** The entries functions.go defines in place, in its order. */
const functionsGoFuncs: FuncMap = {
  hello: goFunc([], () => 'Hello!'),
  // Strings (Go's case mappings are one rune to one rune).
  trim: goFunc(['string'], (s: string) => goTrimFunc(s, isSpace)),
  upper: goFunc(['string'], (s: string) => mapRunes(s, toUpper)),
  lower: goFunc(['string'], (s: string) => mapRunes(s, toLower)),
  title: goFunc(['string'], goTitle),
  repeat: goFunc(['int', 'string'], (n: bigint, s: string) => {
    if (n < 0n) throw new GoCallError('strings: negative Repeat count');
    // A bound of ours: Go would try to allocate it.
    if (BigInt(goBytes(s).length) * n > MAX_REPEAT_OUTPUT) throw new GoCallError('strings: Repeat output too large');
    return s.repeat(Number(n));
  }),
  trimall: goFunc(['string', 'string'], (cutset: string, s: string) => goTrim(s, cutset)),
  trimAll: goFunc(['string', 'string'], (cutset: string, s: string) => goTrim(s, cutset)),
  trimSuffix: goFunc(['string', 'string'], (suffix: string, s: string) => goTrimSuffix(s, suffix)),
  trimPrefix: goFunc(['string', 'string'], (prefix: string, s: string) => goTrimPrefix(s, prefix)),
  nospace: goFunc(['string'], (s: string) => (s === '' ? s : deleteWhiteSpace(s))),
  swapcase: goFunc(['string'], (s: string) => (s === '' ? s : swapCase(s))),
  snakecase: goFunc(['string'], toSnakeCase),
  camelcase: goFunc(['string'], toPascalCase),
  kebabcase: goFunc(['string'], toKebabCase),
  wrap: goFunc(['int', 'string'], (w: bigint, s: string) => wrapCustom(s, toWidth(w), '', false)),
  wrapWith: goFunc(['int', 'string', 'string'], (w: bigint, sep: string, s: string) => wrapCustom(s, toWidth(w), sep, true)),
  contains: goFunc(['string', 'string'], (sub: string, s: string) => goContains(s, sub)),
  hasPrefix: goFunc(['string', 'string'], (p: string, s: string) => goHasPrefix(s, p)),
  hasSuffix: goFunc(['string', 'string'], (p: string, s: string) => goHasSuffix(s, p)),
  // strconv.Atoi: decimal only; out of range gives the clamped value (sprig ignores the error).
  atoi: goFunc(['string'], (s: string) => {
    if (!/^[+-]?[0-9]+$/.test(s)) return 0n;
    const v = BigInt(s);
    return v < INT64_MIN ? INT64_MIN : v > -INT64_MIN - 1n ? -INT64_MIN - 1n : v;
  }),
  splitList: goFunc(['string', 'string'], (sep: string, s: string) => goSlice('string', goSplitN(s, sep, -1))),
  // Integer arithmetic in int64 (wrapping), operands through cast.ToInt64.
  add1: goFunc(['any'], (a: unknown) => int64(wrap64(toInt64(a) + 1n))),
  add: goFunc([], (...xs: unknown[]) => int64(xs.reduce<bigint>((s, x) => wrap64(s + toInt64(x)), 0n)), 'any'),
  sub: goFunc(['any', 'any'], (a: unknown, b: unknown) => int64(wrap64(toInt64(a) - toInt64(b)))),
  div: goFunc(['any', 'any'], (a: unknown, b: unknown) => int64(intDiv(toInt64(a), toInt64(b), (x, y) => x / y))),
  mod: goFunc(['any', 'any'], (a: unknown, b: unknown) => int64(intDiv(toInt64(a), toInt64(b), (x, y) => x % y))),
  mul: goFunc(['any'], (a: unknown, ...xs: unknown[]) => int64(xs.reduce<bigint>((s, x) => wrap64(s * toInt64(x)), toInt64(a))), 'any'),
  // Float arithmetic in decimal (numeric.go's execDecimalOp).
  add1f: goFunc(['any'], (a: unknown) => decimalOp(decimalAdd)(a, 1n)),
  addf: goFunc([], (...xs: unknown[]) => decimalOp(decimalAdd)(0, ...xs), 'any'),
  subf: goFunc(['any'], decimalOp(decimalSub), 'any'),
  divf: goFunc(['any'], decimalOp(decimalDiv), 'any'),
  mulf: goFunc(['any'], decimalOp(decimalMul), 'any'),
  deepEqual: goFunc(['any', 'any'], deepEqual),
  ...pathFuncs(''),
  ...pathFuncs('os'),
  tuple: listFuncs.list!,
  fail: goFunc(['string'], (msg: string) => {
    throw new GoCallError(msg);
  }),
};

export const sprigFuncs: FuncMap = Object.freeze({
  ...functionsGoFuncs,
  ...cryptoFuncs,
  ...dateFuncs,
  ...defaultsFuncs,
  ...dictFuncs,
  ...listFuncs,
  ...numericFuncs,
  ...reflectFuncs,
  ...regexFuncs,
  ...semverFuncs,
  ...stringsFuncs,
  ...urlFuncs,
});

export const osmTemplateFuncs: FuncMap = Object.freeze({ ...sprigFuncs, ...osmExtraFuncs });
