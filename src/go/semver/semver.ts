// github.com/Masterminds/semver v3.4.0 (OSM's go.mod; Debian's test oracle has v3.2.0), as sprig's semver and
// semverCompare call it. Differences from v3.2.0 that show here: error texts are lower-case ("invalid semantic
// version"), a hyphen range is rewritten with a trailing space (visible in "improper constraint" messages), the
// AND groups of a constraint are validated more strictly, and a pre-release version is considered by every
// constraint of an AND group as soon as one constraint of that group names a pre-release (v3.2.0 asked each
// constraint separately).
//
// The constraint grammar is Masterminds' own regular expressions, run on our Go regexp engine: they are
// ambiguous enough to backtrack exponentially in JavaScript's RegExp on hostile input.
import { GoCallError } from '../reflect/func.ts';
import { compileGoRegexp } from '../regexp/regexp.ts';
import { UNMETERED, type Meter } from '../internal/meter.ts';

export interface SemVer {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string;
  metadata: string;
  original: string;
}

const UINT64_MAX = (1n << 64n) - 1n;

// Loose version syntax (leading zeros allowed, as NewVersion coerces them). Unambiguous, so a JS RegExp.
const LOOSE =
  /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;

/** A decimal digit string's value, if it fits a uint64 (linear: more than 20 significant digits never do). */
function uint64Of(s: string): bigint | undefined {
  const digits = s.replace(/^0+(?=.)/, '');
  if (digits.length > 20) return undefined;
  const n = BigInt(digits);
  return n > UINT64_MAX ? undefined : n;
}

function parseUint(s: string): bigint {
  const n = uint64Of(s);
  if (n === undefined)
    throw new GoCallError(`error parsing version segment: strconv.ParseUint: parsing "${s}": value out of range`);
  return n;
}

/** semver.NewVersion. */
export function parseSemVer(s: string): SemVer {
  const m = LOOSE.exec(s);
  if (!m) throw new GoCallError('invalid semantic version');
  const v: SemVer = {
    major: parseUint(m[1]!),
    minor: m[2] === undefined ? 0n : parseUint(m[2].slice(1)),
    patch: m[3] === undefined ? 0n : parseUint(m[3].slice(1)),
    pre: m[5] ?? '',
    metadata: m[8] ?? '',
    original: s,
  };
  if (v.pre !== '' && v.pre.split('.').some((p) => /^0[0-9]+$/.test(p)))
    throw new GoCallError('version segment starts with 0');
  return v;
}

export function semverString(v: SemVer): string {
  return (
    `${v.major}.${v.minor}.${v.patch}` + (v.pre !== '' ? `-${v.pre}` : '') + (v.metadata !== '' ? `+${v.metadata}` : '')
  );
}

function comparePrePart(s: string, o: string): number {
  if (s === o) return 0;
  if (s === '') return o !== '' ? -1 : 1;
  if (o === '') return 1;
  // Numeric identifiers (that fit a uint64) compare as numbers and sort before alphanumeric ones.
  const num = (x: string) => (/^[0-9]+$/.test(x) ? uint64Of(x) : undefined);
  const sn = num(s);
  const on = num(o);
  if (sn === undefined && on === undefined) return s > o ? 1 : -1;
  if (on === undefined) return -1;
  if (sn === undefined) return 1;
  return sn > on ? 1 : -1;
}

function comparePrerelease(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = comparePrePart(pa[i] ?? '', pb[i] ?? '');
    if (d !== 0) return d;
  }
  return 0;
}

/** Version.Compare: -1, 0 or 1; build metadata is ignored. */
export function compareSemVer(a: SemVer, b: SemVer): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre === '' && b.pre === '') return 0;
  if (a.pre === '') return 1;
  if (b.pre === '') return -1;
  return comparePrerelease(a.pre, b.pre);
}

// --- Constraints ------------------------------------------------------------------------------------

interface Constraint {
  op: string;
  con: SemVer;
  dirty: boolean;
  minorDirty: boolean;
  patchDirty: boolean;
}

interface Constraints {
  groups: Constraint[][];
  /** Per AND group: one of its constraints names a pre-release, so pre-release versions are considered. */
  includePre: boolean[];
}

const CV = String.raw`v?([0-9|x|X|\*]+)(\.[0-9|x|X|\*]+)?(\.[0-9|x|X|\*]+)?(-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?`;
const OPS = String.raw`=||!=|>|<|>=|=>|<=|=<|~|~>|\^`;
// Our own patterns: compiled unmetered (the runs on a template's text are charged on its meter).
const constraintRe = () => compileGoRegexp(String.raw`^\s*(${OPS})\s*(${CV})\s*$`, UNMETERED);
const rangeRe = () => compileGoRegexp(String.raw`\s*(${CV})\s+-\s+(${CV})\s*`, UNMETERED);
const findRe = () => compileGoRegexp(String.raw`(${OPS})\s*(${CV})`, UNMETERED);
const validRe = () =>
  compileGoRegexp(String.raw`^(\s*(${OPS})\s*(${CV})\s*)((?:\s+|,\s*)(${OPS})\s*(${CV})\s*)*$`, UNMETERED);

const isX = (s: string) => s === 'x' || s === 'X' || s === '*';

function parseConstraint(c: string, meter: Meter): Constraint {
  const m = constraintRe().findStringSubmatch(c, meter);
  if (m === null) throw new GoCallError(`improper constraint: ${c}`);
  return constraint(m[1]!, m[2]!, m[3]!, m[4]!, m[5]!, m[6]!);
}

/** A constraint from its regexp groups: operator, version, major, `.minor`, `.patch`, `-pre` (absent ones ''). */
function constraint(op: string, version: string, maj: string, min: string, pat: string, pre: string): Constraint {
  let ver = version;
  let dirty = false;
  let minorDirty = false;
  let patchDirty = false;
  if (isX(maj)) {
    ver = `0.0.0${pre}`;
    dirty = true;
  } else if (min === '' || isX(min.slice(1))) {
    minorDirty = dirty = true;
    ver = `${maj}.0.0${pre}`;
  } else if (pat === '' || isX(pat.slice(1))) {
    patchDirty = dirty = true;
    ver = `${maj}${min}.0${pre}`;
  }
  let con: SemVer;
  try {
    con = parseSemVer(ver);
  } catch {
    throw new GoCallError('constraint parser error');
  }
  return { op, con, dirty, minorDirty, patchDirty };
}

/** "1.2 - 1.4.5" becomes ">= 1.2, <= 1.4.5 ". */
function rewriteRange(c: string, meter: Meter): string {
  let out = c;
  for (const m of rangeRe().findAllStringSubmatch(c, -1, meter)) {
    // Each range is looked for and replaced in the whole text, as Masterminds does.
    meter.build(out.length);
    const at = out.indexOf(m[0]!);
    if (at >= 0) out = out.slice(0, at) + `>= ${m[1]}, <= ${m[11]} ` + out.slice(at + m[0]!.length);
  }
  return out;
}

// One operator and a plain version, as OSPs write them (`~1.33.0`, `<1.29`, `>=1.34.0`): read directly, because
// compiling and running the grammar's regexps is ~5 % of a cold start. The grammar gives the same groups for
// these texts: no range, one AND group, and the leftmost-first operator alternation ends at the whole operator.
const PLAIN = /^(!=|>=|=>|<=|=<|~>|[=<>~^]|)([0-9]+)(\.[0-9]+)?(\.[0-9]+)?$/;

/** semver.NewConstraint. */
export function parseConstraints(text: string, meter: Meter): Constraints {
  const plain = PLAIN.exec(text);
  if (plain === null) return parseConstraintsByGrammar(text, meter);
  const [, op, maj, min = '', pat = ''] = plain;
  return { groups: [[constraint(op!, text.slice(op!.length), maj!, min, pat, '')]], includePre: [false] };
}

/** semver.NewConstraint through Masterminds' regular expressions, for any text. */
export function parseConstraintsByGrammar(text: string, meter: Meter): Constraints {
  const groups: Constraint[][] = [];
  const includePre: boolean[] = [];
  for (const part of rewriteRange(text, meter).split('||')) {
    if (!validRe().matchString(part, meter)) throw new GoCallError(`improper constraint: ${part}`);
    const found = findRe().findAllString(part, -1, meter);
    const group = (found.length > 0 ? found : [part]).map((c) => parseConstraint(c, meter));
    groups.push(group);
    includePre.push(group.some((c) => c.con.pre !== ''));
  }
  return { groups, includePre };
}

function tilde(v: SemVer, c: Constraint): boolean {
  const con = c.con;
  if (compareSemVer(v, con) < 0) return false;
  if (con.major === 0n && con.minor === 0n && con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== con.major) return false;
  return v.minor === con.minor || c.minorDirty;
}

function check(v: SemVer, c: Constraint, includePre: boolean): boolean {
  // Pre-release versions only satisfy groups that ask for pre-releases.
  if (v.pre !== '' && !includePre) return false;
  const con = c.con;
  const cmp = compareSemVer(v, con);
  switch (c.op) {
    case '':
    case '=':
      return c.dirty ? tilde(v, c) : cmp === 0;
    case '!=':
      if (c.dirty) {
        if (con.major !== v.major) return true;
        if (con.minor !== v.minor && !c.minorDirty) return true;
        if (c.minorDirty) return false;
        if (con.patch !== v.patch && !c.patchDirty) return true;
        if (c.patchDirty) return (v.pre !== '' || con.pre !== '') && comparePrerelease(v.pre, con.pre) !== 0;
      }
      return cmp !== 0;
    case '>':
      if (!c.dirty) return cmp === 1;
      if (v.major !== con.major) return v.major > con.major;
      if (c.minorDirty) return false;
      if (c.patchDirty) return v.minor > con.minor;
      return cmp === 1;
    case '<':
      return cmp < 0;
    case '>=':
    case '=>':
      return cmp >= 0;
    case '<=':
    case '=<':
      if (!c.dirty) return cmp <= 0;
      if (v.major > con.major) return false;
      if (v.major === con.major && v.minor > con.minor && !c.minorDirty) return false;
      return true;
    case '~':
    case '~>':
      return tilde(v, c);
    case '^':
      if (cmp < 0) return false;
      if (con.major > 0n || c.minorDirty) return v.major === con.major;
      if (v.major > 0n) return false;
      if (con.minor > 0n || c.patchDirty) return v.minor === con.minor;
      if (v.minor > 0n) return false;
      return v.patch === con.patch;
  }
  return false;
}

/** sprig's semverCompare: the constraint is parsed first (its grammar's runs charged on `meter`), then the version. */
export function semverCompare(constraint: string, version: string, meter: Meter): boolean {
  const cs = parseConstraints(constraint, meter);
  const v = parseSemVer(version);
  return cs.groups.some((and, i) => and.every((c) => check(v, c, cs.includePre[i]!)));
}
