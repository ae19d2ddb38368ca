// sprig's semver and semverCompare: Masterminds/semver v3 versions and constraints.
import { goFunc, GoCallError, type FuncMap } from '../functions.ts';
import { GoStruct } from '../values.ts';

export interface SemVer {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string;
  metadata: string;
  original: string;
}

const LOOSE = /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

export function parseSemVer(s: string): SemVer {
  const m = LOOSE.exec(s);
  if (!m) throw new GoCallError('Invalid Semantic Version');
  const pre = m[4] ?? '';
  if (pre !== '' && pre.split('.').some((p) => /^0[0-9]+$/.test(p))) throw new GoCallError('Version segment starts with 0');
  return {
    major: BigInt(m[1]!),
    minor: BigInt((m[2] ?? '.0').slice(1)),
    patch: BigInt((m[3] ?? '.0').slice(1)),
    pre,
    metadata: m[5] ?? '',
    original: s,
  };
}

function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const pa = a.split('.');
  const pb = b.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^[0-9]+$/.test(x);
    const yn = /^[0-9]+$/.test(y);
    if (xn && yn) {
      const d = BigInt(x) - BigInt(y);
      if (d !== 0n) return d < 0n ? -1 : 1;
    } else if (xn !== yn) return xn ? -1 : 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export function compareSemVer(a: SemVer, b: SemVer): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  return comparePre(a.pre, b.pre);
}

interface Constraint {
  op: string;
  con: SemVer;
  dirty: boolean;
  minorDirty: boolean;
  patchDirty: boolean;
}

const OPS = '=|!=|>|<|>=|=>|<=|=<|~|~>|\\^';
const CV = 'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const CONSTRAINT = new RegExp(`^\\s*(${OPS}|)\\s*(${CV})\\s*$`);
const FIND = new RegExp(`(${OPS}|)\\s*(${CV})`, 'g');
const VALID = new RegExp(`^(\\s*(${OPS}|)\\s*(${CV})\\s*\\,?)+$`);
const isX = (s: string) => s === 'x' || s === 'X' || s === '*';

function parseConstraint(c: string): Constraint {
  const m = CONSTRAINT.exec(c);
  if (!m) throw new GoCallError(`improper constraint: ${c}`);
  const op = m[1]!;
  const [maj, min, pat, pre] = [m[3]!, m[4] ?? '', m[5] ?? '', m[6] ?? ''];
  let ver: string;
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
  } else ver = `${maj}${min}${pat}${pre}`;
  let con: SemVer;
  try {
    con = parseSemVer(ver);
  } catch {
    throw new GoCallError('constraint Parser Error');
  }
  return { op, con, dirty, minorDirty, patchDirty };
}

function rewriteRanges(c: string): string {
  return c.replace(new RegExp(`\\s*(${CV})\\s+-\\s+(${CV})\\s*`, 'g'), (_all, a: string, ...rest: string[]) => `>= ${a}, <= ${rest[9]}`);
}

export function parseConstraints(c: string): Constraint[][] {
  return rewriteRanges(c).split('||').map((part) => {
    if (part.trim() === '') return [{ op: '', con: parseSemVer('0.0.0'), dirty: true, minorDirty: false, patchDirty: false }];
    if (!VALID.test(part)) throw new GoCallError(`improper constraint: ${part}`);
    const found = part.match(FIND) ?? [part];
    return found.map(parseConstraint);
  });
}

function check(v: SemVer, c: Constraint): boolean {
  const con = c.con;
  const preBlocked = v.pre !== '' && con.pre === '';
  const cmp = compareSemVer(v, con);
  switch (c.op) {
    case '': case '=':
      if (preBlocked) return false;
      return c.dirty ? tilde(v, c) : cmp === 0;
    case '!=':
      if (c.dirty) {
        if (preBlocked) return false;
        if (con.major !== v.major) return true;
        if (con.minor !== v.minor && !c.minorDirty) return true;
        if (c.minorDirty) return false;
        if (con.patch !== v.patch && !c.patchDirty) return true;
        if (c.patchDirty) return v.pre !== '' || con.pre !== '' ? comparePre(v.pre, con.pre) !== 0 : false;
      }
      return cmp !== 0;
    case '>':
      if (preBlocked) return false;
      if (!c.dirty) return cmp === 1;
      if (v.major > con.major) return true;
      if (v.major < con.major) return false;
      if (c.minorDirty) return false;
      if (c.patchDirty) return v.minor > con.minor;
      return cmp === 1;
    case '<':
      return !preBlocked && cmp < 0;
    case '>=': case '=>':
      return !preBlocked && cmp >= 0;
    case '<=': case '=<':
      if (preBlocked) return false;
      if (!c.dirty) return cmp <= 0;
      if (v.major > con.major) return false;
      if (v.major === con.major && v.minor > con.minor && !c.minorDirty) return false;
      return true;
    case '~': case '~>':
      return !preBlocked && tilde(v, c);
    case '^':
      if (preBlocked || cmp < 0) return false;
      if (con.major > 0n || c.minorDirty) return v.major === con.major;
      if (con.minor > 0n || c.patchDirty) return v.major === con.major && v.minor === con.minor;
      return v.major === con.major && v.minor === con.minor && v.patch === con.patch;
  }
  return false;
}

function tilde(v: SemVer, c: Constraint): boolean {
  const con = c.con;
  if (v.pre !== '' && con.pre === '') return false;
  if (compareSemVer(v, con) < 0) return false;
  if (con.major === 0n && con.minor === 0n && con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
  if (v.major !== con.major) return false;
  if (v.minor !== con.minor && !c.minorDirty) return false;
  return true;
}

export function semverCompare(constraint: string, version: string): boolean {
  const groups = parseConstraints(constraint);
  const v = parseSemVer(version);
  return groups.some((and) => and.every((c) => check(v, c)));
}

const versionOf = (x: unknown): SemVer => {
  const f = (x as GoStruct | null)?.fields as Record<string, unknown> | undefined;
  if (!f || !(x instanceof GoStruct) || x.typeName !== '*semver.Version') throw new GoCallError('runtime error: invalid memory address or nil pointer dereference');
  return { major: f.Major as bigint, minor: f.Minor as bigint, patch: f.Patch as bigint, pre: f.Prerelease as string, metadata: f.Metadata as string, original: f.Original as string };
};

/** A *semver.Version: its accessors as fields, its comparison methods callable, printed via String(). */
function semverValue(v: SemVer): GoStruct {
  const text = `${v.major}.${v.minor}.${v.patch}` + (v.pre ? `-${v.pre}` : '') + (v.metadata ? `+${v.metadata}` : '');
  const methods: FuncMap = {
    Compare: goFunc(['any'], (o: unknown) => BigInt(compareSemVer(v, versionOf(o)))),
    LessThan: goFunc(['any'], (o: unknown) => compareSemVer(v, versionOf(o)) < 0),
    GreaterThan: goFunc(['any'], (o: unknown) => compareSemVer(v, versionOf(o)) > 0),
    Equal: goFunc(['any'], (o: unknown) => compareSemVer(v, versionOf(o)) === 0),
    String: goFunc([], () => text),
  };
  return new GoStruct('*semver.Version', { Major: v.major, Minor: v.minor, Patch: v.patch, Prerelease: v.pre, Metadata: v.metadata, Original: v.original }, text, methods);
}

export const semverFuncs: FuncMap = {
  semverCompare: goFunc(['string', 'string'], semverCompare),
  semver: goFunc(['string'], (s: string) => {
    const v = parseSemVer(s);
    return semverValue(v);
  }),
};
