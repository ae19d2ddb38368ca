// sprig's dict.go: dict, get, set, unset, hasKey, pluck, keys, values, pick, omit, merge and mergeOverwrite
// (mergo, src/go/mergo/), deepCopy (copystructure, src/go/copystructure/) and dig. Go maps iterate in random
// order; keys and values return sorted keys (and their values) instead, so our output is deterministic where
// Go's is not.
import { goFunc, GoCallError, type FuncMap } from '../go/reflect/func.ts';
import { goNilMap, goSlice, isGoMap, isNilContainer, mapSet, type GoMap } from '../go/reflect/value.ts';
import { compareBytes, goTypeName } from '../go/fmt/format.ts';
import { mergoMerge } from '../go/mergo/merge.ts';
import { copystructureCopy } from '../go/copystructure/copy.ts';
import { strval } from './strings.ts';

const has = (m: GoMap, k: string) => Object.prototype.hasOwnProperty.call(m, k);

function dict(...kv: unknown[]): GoMap {
  const m: GoMap = {};
  for (let i = 0; i < kv.length; i += 2) mapSet(m, strval(kv[i]), i + 1 < kv.length ? kv[i + 1] : '');
  return m;
}

/** sprig's merge and mergeOverwrite: each source merged into dst in turn (a nil dst starts empty). */
function merge(overwrite: boolean, dst: GoMap | null, srcs: Array<GoMap | null>): GoMap {
  const out = dst ?? {};
  for (const s of srcs) if (s !== null && s !== undefined) mergoMerge(out, s, overwrite);
  return out;
}

function typeAssertionPanic(v: unknown, want: string): never {
  throw new GoCallError(`interface conversion: interface {} is ${v === null || v === undefined ? 'nil' : goTypeName(v)}, not ${want}`);
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

const mergeFunc = goFunc(['map[string]any'], (d: GoMap | null, ...s: Array<GoMap | null>) => merge(false, d, s), 'map[string]any');
const mergeOverwriteFunc = goFunc(['map[string]any'], (d: GoMap | null, ...s: Array<GoMap | null>) => merge(true, d, s), 'map[string]any');
const deepCopyFunc = goFunc(['any'], copystructureCopy);

export const dictFuncs: FuncMap = {
  dict: goFunc([], dict, 'any'),
  get: goFunc(['map[string]any', 'string'], (m: GoMap | null, k: string) => (m && has(m, k) ? m[k] : '')),
  set: goFunc(['map[string]any', 'string', 'any'], (m: GoMap | null, k: string, v: unknown) => {
    if (m === null || isNilContainer(m)) throw new GoCallError('assignment to entry in nil map');
    mapSet(m, k, v);
    return m;
  }),
  unset: goFunc(['map[string]any', 'string'], (m: GoMap | null, k: string) => {
    if (m === null) return goNilMap();
    delete m[k];
    return m;
  }),
  hasKey: goFunc(['map[string]any', 'string'], (m: GoMap | null, k: string) => m !== null && has(m, k)),
  pluck: goFunc(['string'], (k: string, ...ms: Array<GoMap | null>) => ms.filter((m) => m !== null && has(m, k)).map((m) => m![k]), 'map[string]any'),
  keys: goFunc([], (...ms: Array<GoMap | null>) => goSlice('string', ms.flatMap((m) => (m ? Object.keys(m).sort(compareBytes) : []))), 'map[string]any'),
  values: goFunc(['map[string]any'], (m: GoMap | null) => (m ? Object.keys(m).sort(compareBytes).map((k) => m[k]) : [])),
  pick: goFunc(['map[string]any'], (m: GoMap | null, ...ks: string[]) => {
    const out: GoMap = {};
    for (const k of ks) if (m !== null && has(m, k)) mapSet(out, k, m[k]);
    return out;
  }, 'string'),
  omit: goFunc(['map[string]any'], (m: GoMap | null, ...ks: string[]) => {
    const out: GoMap = {};
    for (const k of Object.keys(m ?? {})) if (!ks.includes(k)) mapSet(out, k, m![k]);
    return out;
  }, 'string'),
  merge: mergeFunc,
  mustMerge: mergeFunc,
  mergeOverwrite: mergeOverwriteFunc,
  mustMergeOverwrite: mergeOverwriteFunc,
  deepCopy: deepCopyFunc,
  mustDeepCopy: deepCopyFunc,
  dig: goFunc([], dig, 'any'),
};
