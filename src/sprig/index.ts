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
import { goFunc, GoCallError, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import {
  argsSize,
  CONSTANT,
  lengthOf,
  readsAndBuilds,
  readsAndBuildsBytes,
  readsBytes,
  readsStrings,
  type CallCost,
} from '../go/reflect/callCost.ts';
import type { Meter } from '../go/internal/meter.ts';
import { parseClampedInt64 } from '../go/strconv/parseNumber.ts';
import { goSlice } from '../go/reflect/value.ts';
import { deepEqual } from '../go/reflect/deepEqual.ts';
import { isSpace, mapRunes, toLower, toUpper } from '../go/unicode/unicode.ts';
import { goBytes } from '../go/reflect/byteString.ts';
import {
  goContains,
  goHasPrefix,
  goHasSuffix,
  goSplitN,
  goTitle,
  goTrim,
  goTrimFunc,
  goTrimPrefix,
  goTrimSuffix,
} from '../go/strings/strings.ts';
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
import { decimalOp, int64, numericFuncs } from './numeric.ts';
import { reflectFuncs } from './reflect.ts';
import { regexFuncs } from './regex.ts';
import { semverFuncs } from './semver.ts';
import {
  BYTE_UNITS,
  countOf,
  PART_BYTES,
  RUNE_MAPPING,
  RUNE_UNITS,
  SEARCHES,
  splitCost,
  stringsFuncs,
  toWidth,
  WORD_SPLITTING,
} from './strings.ts';
import { urlFuncs } from './url.ts';
import { osmExtraFuncs } from './osmExtras.ts';

const wrap64 = (x: bigint) => BigInt.asIntN(64, x);

function intDiv(a: bigint, b: bigint, op: (a: bigint, b: bigint) => bigint): bigint {
  if (b === 0n) throw new GoCallError('runtime error: integer divide by zero');
  return wrap64(op(a, b));
}

const MAX_REPEAT_OUTPUT = 64n * 1024n * 1024n;

/** path's functions, and filepath's (the same on Linux) under an "os" prefix; each reads its path once. */
function pathFuncs(prefix: string): FuncMap {
  const name = (n: string) => (prefix === '' ? n : prefix + n[0]!.toUpperCase() + n.slice(1));
  // Clean writes the path into a buffer of its own (two bytes a character) before making the text.
  const cleans = readsAndBuilds(PATH_UNITS, 6);
  const reads = readsAndBuilds(BYTE_UNITS, 1);
  return {
    [name('base')]: goFunc(['string'], reads, pathBase),
    [name('dir')]: goFunc(['string'], cleans, pathDir),
    [name('ext')]: goFunc(['string'], reads, pathExt),
    [name('clean')]: goFunc(['string'], cleans, pathClean),
    [name('isAbs')]: goFunc(['string'], CONSTANT, (p: string) => p.startsWith('/')),
  };
}

/** Work per character of path.Clean's loop (a character at a time). */
const PATH_UNITS = 16;

/** repeat: the result's size is known before it is built (Go's own limit, and ours, refuse before too). */
const repeatCost: CallCost = (m, [n, s]) => {
  const size = (n as bigint) * BigInt(lengthOf(s));
  if (size > 0n && size <= MAX_REPEAT_OUTPUT) m.build(Number(size));
};

/** wrap and wrapWith: a line break at most at every space and every `width` bytes. */
const wrapCost: CallCost = (m, args) => {
  const s = lengthOf(args[args.length - 1]);
  const width = Math.max(1, toWidth(args[0] as bigint));
  const newLine = args.length > 2 ? Math.max(1, lengthOf(args[1])) : 1;
  // A character is at most 3 bytes.
  const lines = Math.min(3 * s, Math.ceil((3 * s) / width) + countOf(args[args.length - 1] as string, ' ')) + 1;
  m.spend(BYTE_UNITS * 3 * s + 16 * lines);
  // The bytes, each line's place (two numbers), the result and its text.
  m.build(8 * s + lines * (newLine + 16));
};

/** The integer arithmetic reads its operands (numeric strings are parsed). */
const INT_ARITHMETIC = readsStrings(16);

/**
 * The float arithmetic (shopspring/decimal): each operand widens the exact product or sum by up to a float64's
 * digits and exponent, so a fold over n operands costs about n² digit operations.
 */
const decimalCost: CallCost = (m, args) => {
  m.spend(argsSize(args) + DECIMAL_UNITS * args.length * args.length);
};
const DECIMAL_UNITS = 512;

/** The entries functions.go defines in place, in its order. */
const functionsGoFuncs: FuncMap = {
  hello: goFunc([], CONSTANT, () => 'Hello!'),
  // Strings (Go's case mappings are one rune to one rune).
  trim: goFunc(['string'], readsAndBuilds(RUNE_UNITS, 1), (s: string) => goTrimFunc(s, isSpace)),
  upper: goFunc(['string'], RUNE_MAPPING, (s: string) => mapRunes(s, toUpper)),
  lower: goFunc(['string'], RUNE_MAPPING, (s: string) => mapRunes(s, toLower)),
  title: goFunc(['string'], RUNE_MAPPING, goTitle),
  repeat: goFunc(['int', 'string'], repeatCost, (n: bigint, s: string) => {
    if (n < 0n) throw new GoCallError('strings: negative Repeat count');
    // A bound of ours: Go would try to allocate it.
    if (BigInt(goBytes(s).length) * n > MAX_REPEAT_OUTPUT) throw new GoCallError('strings: Repeat output too large');
    return s.repeat(Number(n));
  }),
  trimall: goFunc(['string', 'string'], readsAndBuilds(RUNE_UNITS, 1), (cutset: string, s: string) =>
    goTrim(s, cutset),
  ),
  trimAll: goFunc(['string', 'string'], readsAndBuilds(RUNE_UNITS, 1), (cutset: string, s: string) =>
    goTrim(s, cutset),
  ),
  trimSuffix: goFunc(['string', 'string'], readsAndBuildsBytes(BYTE_UNITS, 4), (suffix: string, s: string) =>
    goTrimSuffix(s, suffix),
  ),
  trimPrefix: goFunc(['string', 'string'], readsAndBuildsBytes(BYTE_UNITS, 4), (prefix: string, s: string) =>
    goTrimPrefix(s, prefix),
  ),
  nospace: goFunc(['string'], readsAndBuilds(RUNE_UNITS, 6), (s: string) => (s === '' ? s : deleteWhiteSpace(s))),
  swapcase: goFunc(['string'], RUNE_MAPPING, (s: string) => (s === '' ? s : swapCase(s))),
  snakecase: goFunc(['string'], WORD_SPLITTING, toSnakeCase),
  camelcase: goFunc(['string'], WORD_SPLITTING, toPascalCase),
  kebabcase: goFunc(['string'], WORD_SPLITTING, toKebabCase),
  wrap: goFunc(['int', 'string'], wrapCost, (w: bigint, s: string) => wrapCustom(s, toWidth(w), '', false)),
  wrapWith: goFunc(['int', 'string', 'string'], wrapCost, (w: bigint, sep: string, s: string) =>
    wrapCustom(s, toWidth(w), sep, true),
  ),
  contains: goFunc(['string', 'string'], SEARCHES, (sub: string, s: string) => goContains(s, sub)),
  hasPrefix: goFunc(['string', 'string'], readsBytes(BYTE_UNITS), (p: string, s: string) => goHasPrefix(s, p)),
  hasSuffix: goFunc(['string', 'string'], readsBytes(BYTE_UNITS), (p: string, s: string) => goHasSuffix(s, p)),
  // strconv.Atoi: decimal only; out of range gives the clamped value (sprig ignores the error).
  atoi: goFunc(['string'], readsStrings(16), (s: string) => {
    if (!/^[+-]?[0-9]+$/.test(s)) return 0n;
    return parseClampedInt64(s);
  }),
  splitList: goFunc(['string', 'string'], splitCost(PART_BYTES), (sep: string, s: string) =>
    goSlice('string', goSplitN(s, sep, -1)),
  ),
  // Integer arithmetic in int64 (wrapping), operands through cast.ToInt64.
  add1: goFunc(['any'], INT_ARITHMETIC, (a: unknown) => int64(wrap64(toInt64(a) + 1n))),
  add: goFunc(
    [],
    INT_ARITHMETIC,
    (...xs: unknown[]) => int64(xs.reduce<bigint>((s, x) => wrap64(s + toInt64(x)), 0n)),
    'any',
  ),
  sub: goFunc(['any', 'any'], INT_ARITHMETIC, (a: unknown, b: unknown) => int64(wrap64(toInt64(a) - toInt64(b)))),
  div: goFunc(['any', 'any'], INT_ARITHMETIC, (a: unknown, b: unknown) =>
    int64(intDiv(toInt64(a), toInt64(b), (x, y) => x / y)),
  ),
  mod: goFunc(['any', 'any'], INT_ARITHMETIC, (a: unknown, b: unknown) =>
    int64(intDiv(toInt64(a), toInt64(b), (x, y) => x % y)),
  ),
  mul: goFunc(
    ['any'],
    INT_ARITHMETIC,
    (a: unknown, ...xs: unknown[]) => int64(xs.reduce<bigint>((s, x) => wrap64(s * toInt64(x)), toInt64(a))),
    'any',
  ),
  // Float arithmetic in decimal (numeric.go's execDecimalOp).
  add1f: goFunc(['any'], decimalCost, (a: unknown) => decimalOp(decimalAdd)(a, 1n)),
  addf: goFunc([], decimalCost, (...xs: unknown[]) => decimalOp(decimalAdd)(0, ...xs), 'any'),
  subf: goFunc(['any'], decimalCost, decimalOp(decimalSub), 'any'),
  divf: goFunc(['any'], decimalCost, decimalOp(decimalDiv), 'any'),
  mulf: goFunc(['any'], decimalCost, decimalOp(decimalMul), 'any'),
  deepEqual: meteredFunc(['any', 'any'], CONSTANT, (m: Meter, a: unknown, b: unknown) => deepEqual(a, b, m)),
  ...pathFuncs(''),
  ...pathFuncs('os'),
  tuple: listFuncs.list!,
  fail: goFunc(['string'], readsAndBuilds(1, 1), (msg: string) => {
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
