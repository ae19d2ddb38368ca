// sprig's dict.go: dict, get, set, unset, hasKey, pluck, keys, values, pick, omit, merge and mergeOverwrite
// (mergo, src/go/mergo/), deepCopy (copystructure, src/go/copystructure/) and dig. Go maps iterate in random
// order; keys and values return sorted keys (and their values) instead, so our output is deterministic where
// Go's is not.
import { goFunc, GoCallError, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import { CONSTANT, type CallCost } from '../go/reflect/callCost.ts';
import {
  goMapSize,
  goNilMap,
  goSlice,
  isGoMap,
  isNilContainer,
  mapDelete,
  mapHas,
  mapSet,
  type GoMap,
} from '../go/reflect/value.ts';
import { ELEMENT_BYTES, ENTRY_BYTES, ENTRY_UNITS, type Meter } from '../go/internal/meter.ts';
import { goTypeName, sortedKeys } from '../go/fmt/format.ts';
import { mergoMerge } from '../go/mergo/merge.ts';
import { copystructureCopy } from '../go/copystructure/copy.ts';
import { strval } from './strings.ts';

const has = mapHas;

/** A map's entries, to read or copy; a nil map (null) has none. */
const entriesOf = (m: unknown, meter: Meter): number => (m !== null && isGoMap(m) ? goMapSize(m, meter) : 0);

/** dict: an entry per pair (keys printed with %v as they are made). */
const dictCost: CallCost = (m, kv) => m.build((kv.length / 2 + 1) * ENTRY_BYTES);

/** keys and values: a list of every entry of every map (listing and sorting them is charged as it is done). */
const listsEntries: CallCost = (m, ms) => {
  let n = 0;
  for (const x of ms) n += entriesOf(x, m);
  m.build(n * ELEMENT_BYTES);
};

/** pick: an entry per key asked for. */
const pickCost: CallCost = (m, [, ...ks]) => m.build(ks.length * ENTRY_BYTES);

/** omit: every entry read and compared with every key left out, and copied. */
const omitCost: CallCost = (m, [map, ...ks]) => {
  const n = entriesOf(map, m);
  m.spend(n * (ENTRY_UNITS + ks.length));
  m.build(n * ENTRY_BYTES);
};

/** pluck: a value per map. */
const pluckCost: CallCost = (m, ms) => m.build(ms.length * ELEMENT_BYTES);

function dict(meter: Meter, ...kv: unknown[]): GoMap {
  const m: GoMap = {};
  for (let i = 0; i < kv.length; i += 2) mapSet(m, strval(kv[i], meter), i + 1 < kv.length ? kv[i + 1] : '');
  return m;
}

/** sprig's merge and mergeOverwrite: each source merged into dst in turn (a nil dst starts empty). */
function merge(meter: Meter, overwrite: boolean, dst: GoMap | null, srcs: Array<GoMap | null>): GoMap {
  const out = dst ?? {};
  for (const s of srcs) if (s !== null && s !== undefined) mergoMerge(out, s, overwrite, meter);
  return out;
}

function typeAssertionPanic(v: unknown, want: string): never {
  throw new GoCallError(
    `interface conversion: interface {} is ${v === null || v === undefined ? 'nil' : goTypeName(v)}, not ${want}`,
  );
}

function dig(...ps: unknown[]): unknown {
  if (ps.length < 3) throw new GoCallError('dig needs at least three arguments');
  const m = ps[ps.length - 1];
  if (!isGoMap(m)) typeAssertionPanic(m, 'map[string]interface {}');
  const def = ps[ps.length - 2];
  const keys = ps.slice(0, -2).map((k) => (typeof k === 'string' ? k : typeAssertionPanic(k, 'string')));
  let cur: GoMap = m;
  for (let i = 0; ; i++) {
    if (!has(cur, keys[i]!)) return def;
    const step = cur[keys[i]!];
    if (i === keys.length - 1) return step;
    if (!isGoMap(step)) typeAssertionPanic(step, 'map[string]interface {}');
    cur = step;
  }
}

// Merging and copying charge each entry as they go (a structure that shares parts copies far larger than it is).
const mergeFunc = meteredFunc(
  ['map[string]any'],
  CONSTANT,
  (m: Meter, d: GoMap | null, ...s: Array<GoMap | null>) => merge(m, false, d, s),
  'map[string]any',
);
const mergeOverwriteFunc = meteredFunc(
  ['map[string]any'],
  CONSTANT,
  (m: Meter, d: GoMap | null, ...s: Array<GoMap | null>) => merge(m, true, d, s),
  'map[string]any',
);
const deepCopyFunc = meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => copystructureCopy(v, m));

export const dictFuncs: FuncMap = {
  dict: meteredFunc([], dictCost, dict, 'any'),
  get: goFunc(['map[string]any', 'string'], CONSTANT, (m: GoMap | null, k: string) => (m && has(m, k) ? m[k] : '')),
  set: goFunc(
    ['map[string]any', 'string', 'any'],
    (m) => m.build(ENTRY_BYTES),
    (m: GoMap | null, k: string, v: unknown) => {
      if (m === null || isNilContainer(m)) throw new GoCallError('assignment to entry in nil map');
      mapSet(m, k, v);
      return m;
    },
  ),
  unset: goFunc(['map[string]any', 'string'], CONSTANT, (m: GoMap | null, k: string) => {
    if (m === null) return goNilMap();
    mapDelete(m, k);
    return m;
  }),
  hasKey: goFunc(['map[string]any', 'string'], CONSTANT, (m: GoMap | null, k: string) => m !== null && has(m, k)),
  pluck: goFunc(
    ['string'],
    pluckCost,
    (k: string, ...ms: Array<GoMap | null>) => ms.filter((m) => m !== null && has(m, k)).map((m) => m![k]),
    'map[string]any',
  ),
  keys: meteredFunc(
    [],
    listsEntries,
    (meter: Meter, ...ms: Array<GoMap | null>) =>
      goSlice(
        'string',
        ms.flatMap((m) => (m ? sortedKeys(m, meter) : [])),
      ),
    'map[string]any',
  ),
  values: meteredFunc(['map[string]any'], listsEntries, (meter: Meter, m: GoMap | null) =>
    m ? sortedKeys(m, meter).map((k) => m[k]) : [],
  ),
  pick: goFunc(
    ['map[string]any'],
    pickCost,
    (m: GoMap | null, ...ks: string[]) => {
      const out: GoMap = {};
      for (const k of ks) if (m !== null && has(m, k)) mapSet(out, k, m[k]);
      return out;
    },
    'string',
  ),
  omit: goFunc(
    ['map[string]any'],
    omitCost,
    (m: GoMap | null, ...ks: string[]) => {
      const out: GoMap = {};
      for (const k of Object.keys(m ?? {})) if (!ks.includes(k)) mapSet(out, k, m![k]);
      return out;
    },
    'string',
  ),
  merge: mergeFunc,
  mustMerge: mergeFunc,
  mergeOverwrite: mergeOverwriteFunc,
  mustMergeOverwrite: mergeOverwriteFunc,
  deepCopy: deepCopyFunc,
  mustDeepCopy: deepCopyFunc,
  dig: goFunc([], CONSTANT, dig, 'any'),
};
