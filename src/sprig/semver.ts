// sprig's semver.go: semver and semverCompare (sprig 3.3.0 over Masterminds/semver v3.4.0, src/go/semver/semver.ts), and
// *semver.Version as a template value with its methods.
import { goFunc, GoCallError, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import { CONSTANT, readsStrings, type CallCost } from '../go/reflect/callCost.ts';
import type { Meter } from '../go/internal/meter.ts';
import { GoInt, GoPointer, GoStruct } from '../go/reflect/value.ts';
import { goBytes } from '../go/reflect/byteString.ts';
import { goJsonString } from '../go/encoding/json/encodeString.ts';
import { compareSemVer, parseSemVer, semverCompare, semverString, type SemVer } from '../go/semver/semver.ts';

/** Work per character of reading a version or constraint (JS regular expressions, a few passes). */
const SEMVER_UNITS = 16;

// --- *semver.Version values -------------------------------------------------------------------------

const VERSIONS = new WeakMap<GoStruct, SemVer>();

/** A *semver.Version parameter (nil dereferences as in Go). */
const versionOf = (x: GoPointer | null): SemVer => {
  if (x === null) throw new GoCallError('runtime error: invalid memory address or nil pointer dereference');
  return VERSIONS.get(x.elem as GoStruct)!;
};

const validIdentifier = (p: string) => /^[0-9A-Za-z-]+$/.test(p);

/** v3.4.0's validatePrerelease and validateMetadata. */
function validatePart(s: string, what: 'prerelease' | 'metadata'): void {
  for (const p of s.split('.')) {
    if (p === '') throw new GoCallError(`invalid ${what} string`);
    if (what === 'prerelease' && /^[0-9]+$/.test(p)) {
      if (p.length > 1 && p[0] === '0') throw new GoCallError('version segment starts with 0');
    } else if (!validIdentifier(p)) throw new GoCallError(`invalid ${what} string`);
  }
}

/**
 * A semver.Version as templates see it: printed (and marshalled) as its String(), with the methods of its
 * value; `semver` returns a *semver.Version, which adds the pointer-receiver methods (Compare, Original...).
 * The fields are the unexported ones of Masterminds' struct, for %#v and their error texts. The pointer
 * methods that modify the version (Scan, UnmarshalJSON, UnmarshalText) are left out.
 */
/** A method that returns a new version: the value and its table of methods are made. */
const MAKES_VERSION: CallCost = (m) => {
  m.spend(VERSION_UNITS);
  m.build(VERSION_BYTES);
};
const VERSION_UNITS = 1024;
const VERSION_BYTES = 2048;
const setsPart: CallCost = (m, args) => {
  readsStrings(SEMVER_UNITS)(m, args);
  MAKES_VERSION(m, args);
};

export function semverValue(v: SemVer, pointer = true): GoPointer | GoStruct {
  const text = semverString(v);
  const vPrefix = v.original.startsWith('v') ? 'v' : '';
  const next = (w: Omit<SemVer, 'original'>) =>
    semverValue({ ...w, original: vPrefix + semverString({ ...w, original: '' }) }, false);
  const uint64 = (x: bigint) => new GoInt('uint64', x);
  const methods: FuncMap = {
    String: goFunc([], CONSTANT, () => text),
    Major: goFunc([], CONSTANT, () => uint64(v.major)),
    Minor: goFunc([], CONSTANT, () => uint64(v.minor)),
    Patch: goFunc([], CONSTANT, () => uint64(v.patch)),
    Prerelease: goFunc([], CONSTANT, () => v.pre),
    Metadata: goFunc([], CONSTANT, () => v.metadata),
    IncPatch: goFunc([], MAKES_VERSION, () =>
      next({ ...v, pre: '', metadata: '', patch: v.pre !== '' ? v.patch : v.patch + 1n }),
    ),
    IncMinor: goFunc([], MAKES_VERSION, () => next({ ...v, pre: '', metadata: '', patch: 0n, minor: v.minor + 1n })),
    IncMajor: goFunc([], MAKES_VERSION, () =>
      next({ ...v, pre: '', metadata: '', patch: 0n, minor: 0n, major: v.major + 1n }),
    ),
    SetPrerelease: goFunc(['string'], setsPart, (pre: string) => {
      if (pre !== '') validatePart(pre, 'prerelease');
      return next({ ...v, pre });
    }),
    SetMetadata: goFunc(['string'], setsPart, (metadata: string) => {
      if (metadata !== '') validatePart(metadata, 'metadata');
      return next({ ...v, metadata });
    }),
    MarshalJSON: goFunc([], CONSTANT, () => goBytes(goJsonString(text))),
    MarshalText: goFunc([], CONSTANT, () => goBytes(text)),
    Value: goFunc([], CONSTANT, () => text),
    ...(pointer
      ? {
          Original: goFunc([], CONSTANT, () => v.original),
          Compare: goFunc(['*semver.Version'], CONSTANT, (o: GoPointer | null) =>
            BigInt(compareSemVer(v, versionOf(o))),
          ),
          LessThan: goFunc(['*semver.Version'], CONSTANT, (o: GoPointer | null) => compareSemVer(v, versionOf(o)) < 0),
          LessThanEqual: goFunc(
            ['*semver.Version'],
            CONSTANT,
            (o: GoPointer | null) => compareSemVer(v, versionOf(o)) <= 0,
          ),
          GreaterThan: goFunc(
            ['*semver.Version'],
            CONSTANT,
            (o: GoPointer | null) => compareSemVer(v, versionOf(o)) > 0,
          ),
          GreaterThanEqual: goFunc(
            ['*semver.Version'],
            CONSTANT,
            (o: GoPointer | null) => compareSemVer(v, versionOf(o)) >= 0,
          ),
          Equal: goFunc(
            ['*semver.Version'],
            CONSTANT,
            (o: GoPointer | null) => o !== null && compareSemVer(v, versionOf(o)) === 0,
          ),
        }
      : {}),
  };
  const fields = {
    major: uint64(v.major),
    minor: uint64(v.minor),
    patch: uint64(v.patch),
    pre: v.pre,
    metadata: v.metadata,
    original: v.original,
  };
  const struct = new GoStruct('semver.Version', fields, text, methods);
  VERSIONS.set(struct, v);
  return pointer ? new GoPointer('*semver.Version', struct) : struct;
}

export const semverFuncs: FuncMap = {
  // A plain constraint is read directly; any other runs Masterminds' grammar, charged as it runs.
  semverCompare: meteredFunc(['string', 'string'], readsStrings(SEMVER_UNITS), (m: Meter, c: string, v: string) =>
    semverCompare(c, v, m),
  ),
  semver: goFunc(['string'], readsStrings(SEMVER_UNITS), (s: string) => semverValue(parseSemVer(s))),
};
