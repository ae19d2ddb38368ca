// Module-level state outlives a run: `diff` and `lint` render many times in one process, so anything a module
// keeps between calls could make one run depend on what ran before. Every such variable is listed here with
// why it cannot change what a run produces; what a run must own (parsed templates, Ignition's unit checks, the
// checked template values) belongs to the render run (src/render/renderRun.ts) instead. A new one fails this
// test until it is moved into a run or listed with its reason. Found syntactically: a module-level `let`, and
// a module-level Map, Set, WeakMap, array or object that the module adds to or changes (constant tables are
// left out).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

const ALLOWED: Record<string, string> = {
  // Lazily made, then the same for every call.
  'src/cli/fileGate.ts procFd':
    'whether this machine has /proc/self/fd (to check an open file is the one named); the same for every run',
  'src/cli/krmIgnore.ts cache': 'compiled .krmignore patterns by their text; the same value for a pattern',
  'src/krm/inputYaml.ts fastPath': 'the block-YAML parser, made on first use; it keeps nothing between calls',
  'src/emit/userdata/ignition/clcParse.ts emptyDocument': 'an empty yaml Document aliases resolve against; only read',
  'src/go/unicode/unicode.ts upperFallback': 'a fixed table of the Unicode data, built on first use',
  'src/go/regexp/regexp.ts orbits': 'case-folding orbits from the Unicode data, built on first use',
  'src/go/regexp/regexp.ts propCache': 'JS classes for \\p{...} names, from the Unicode data; same value for a name',
  'src/go/toml/encode.ts optionsByTag': 'struct tag parses; the tags come from our own struct definitions',
  'src/go/reflect/value.ts typeCache': 'interned frozen container types, one per Go type name',
  // Memos of pure functions whose values nothing changes: the same answer whatever ran before.
  'src/go/regexp/regexp.ts cache':
    'compiled regexps (or their compile error) by expression; matching changes a GoRegexp only by building its own JS matcher once; bounded (500)',
  'src/go/regexp/regexp.ts cachedSize':
    'the size of what the regexp cache holds, which bounds it; a compile is charged the same whether cached or not',
  'src/profiles/embeddedProfiles.ts parsed':
    'the embedded profiles, parsed once and frozen through and through (test/render/runIsolation.test.ts)',
  // Side tables keyed by the value they describe: they live and die with that value.
  'src/sprig/semver.ts VERSIONS': 'the SemVer behind each *semver.Version value (weak)',
  'src/go/time/value.ts TIMES': 'the GoTime behind each time.Time value (weak)',
  'src/go/time/value.ts WHERE': 'the zone behind each *time.Location value (weak)',
  'src/go/time/value.ts FIXED_LOCATIONS':
    'the *time.Location value of a zone time.Parse made, per time value that holds it (weak)',
  // Fixed sets, filled on first use.
  'src/go/time/value.ts NAMED_LOCATIONS':
    'the *time.Location values of UTC and Local (two entries), as Go compares locations by pointer',
  'src/go/reflect/value.ts uint8s': 'the 256 uint8 values, made once (a GoInt never changes)',
  'src/go/strconv/format.ts printables': 'strconv.IsPrint per BMP rune, from the Unicode data, worked out on first use',
  'src/go/unicode/unicode.ts categories': 'the Unicode categories of each BMP rune, worked out on first use',
  'src/go/unicode/unicode.ts uppers': 'unicode.ToUpper per BMP rune, worked out on first use',
  'src/go/unicode/unicode.ts lowers': 'unicode.ToLower per BMP rune, worked out on first use',
  'src/go/time/time.ts fabricatedZones': 'numbers the zones time.Parse makes up, so each is a location of its own',
  // Counters and scratch space that no output depends on.
  'src/go/reflect/value.ts nanKeys': 'makes each NaN map key distinct (NaN != NaN); the keys are never printed',
  'src/go/crypto/sha256.ts hashedBytes':
    'bytes hashed so far: past 256 KiB node:crypto takes over, with the same digests (test/go/crypto/sha256.test.ts)',
  'src/go/crypto/sha256.ts native': 'node:crypto once loaded (see hashedBytes)',
  'src/go/crypto/sha256.ts blocks':
    'the WebAssembly block function, made on first use; its memory is scratch space every digest sets anew',
};

function moduleState(file: string): string[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const names = [...text.matchAll(/^(?:export )?let ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!);
  for (const m of text.matchAll(
    /^(?:export )?const ([A-Za-z_$][\w$]*)(?::[^=\n]+)?\s*=\s*(?:new (?:Map|Set|WeakMap|WeakSet|Array|[A-Z]\w*Array)\b|\[\]|\{\})/gm,
  )) {
    const name = m[1]!;
    const changed = new RegExp(
      `\\b${name}(?:\\.(?:set|add|delete|clear|push|pop|splice|shift|unshift|fill|sort|reverse)\\(|\\[[^\\]\\n]*\\]\\s*=[^=])`,
    );
    if (changed.test(text)) names.push(name);
  }
  return names.map((n) => `${file} ${n}`);
}

const files = readdirSync(join(REPO_ROOT, 'src'), { recursive: true, withFileTypes: true })
  .filter(
    (e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.includes('.generated.'),
  )
  .map((e) => posix.relative(REPO_ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
  .sort();
const found = files.flatMap(moduleState);

test('the scan finds module-level state of each kind it looks for', () => {
  for (const known of [
    'src/go/time/time.ts fabricatedZones',
    'src/go/regexp/regexp.ts cache',
    'src/go/crypto/sha256.ts blocks',
  ])
    assert.ok(found.includes(known), known);
  // A constant table (filled where it is declared, never changed) is not state.
  assert.ok(!found.some((f) => f.startsWith('src/render/cloudProviderSettings.ts ')));
});

test('every module-level variable that outlives a run is listed with why it cannot change what a run produces', () => {
  assert.deepEqual(
    found.filter((f) => !(f in ALLOWED)),
    [],
  );
});

test('the list names only state that still exists', () => {
  assert.deepEqual(
    Object.keys(ALLOWED).filter((k) => !found.includes(k)),
    [],
  );
});
