// Loads the template corpus (testdata/template-corpus/*.yaml). A file is either a list of cases or
// `{funcs, cases}` giving the default function map for its cases. A case is {name, template, data?, funcs?}
// and nothing else: the expected result is never stored, it comes from the Go oracle at test time.
//
// Data is read with YAML integers as bigint (Go int) and other numbers as number (float64), matching
// how parseJsonData (src/cli/jsonData.ts) decodes JSON; an integer outside int64 becomes a float64 as it does in Go.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OracleCase, OracleFuncs } from './oracle/oracle.ts';

export const corpusDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../testdata/template-corpus');

export interface CorpusCase extends OracleCase {
  funcs: OracleFuncs;
  /** File the case came from, for reporting. */
  file: string;
}

const FUNCS = new Set<string>(['builtin', 'sprig', 'osm']);
const CASE_KEYS = new Set(['name', 'template', 'data', 'funcs']);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function normalise(v: unknown): unknown {
  if (typeof v === 'bigint') return v < INT64_MIN || v > INT64_MAX ? Number(v) : v;
  if (Array.isArray(v)) return v.map(normalise);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) {
      Object.defineProperty(out, k, { value: normalise(e), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return v;
}

function fail(file: string, msg: string): never {
  throw new Error(`template corpus ${file}: ${msg}`);
}

export function loadCorpus(dir = corpusDir): CorpusCase[] {
  const cases: CorpusCase[] = [];
  const names = new Set<string>();
  for (const fileName of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const doc: unknown = parse(readFileSync(join(dir, fileName), 'utf8'), { intAsBigInt: true });
    let defaultFuncs = 'builtin';
    let list: unknown = doc;
    if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
      const d = doc as Record<string, unknown>;
      defaultFuncs = String(d.funcs ?? 'builtin');
      list = d.cases;
    }
    if (!FUNCS.has(defaultFuncs)) fail(fileName, `unknown funcs ${defaultFuncs}`);
    if (!Array.isArray(list)) fail(fileName, 'expected a list of cases or {funcs, cases}');
    const topic = fileName.replace(/\.yaml$/, '');
    for (const raw of list) {
      if (raw === null || typeof raw !== 'object') fail(fileName, 'a case must be a mapping');
      const c = raw as Record<string, unknown>;
      for (const k of Object.keys(c)) if (!CASE_KEYS.has(k)) fail(fileName, `case ${String(c.name)}: unknown key ${k}`);
      if (typeof c.name !== 'string' || c.name === '') fail(fileName, 'a case needs a name');
      if (typeof c.template !== 'string') fail(fileName, `case ${c.name}: template must be a string`);
      const funcs = String(c.funcs ?? defaultFuncs);
      if (!FUNCS.has(funcs)) fail(fileName, `case ${c.name}: unknown funcs ${funcs}`);
      const name = `${topic}/${c.name}`;
      if (names.has(name)) fail(fileName, `duplicate case name ${c.name}`);
      names.add(name);
      const kase: CorpusCase = { name, template: c.template, funcs: funcs as OracleFuncs, file: fileName };
      if ('data' in c) kase.data = normalise(c.data);
      cases.push(kase);
    }
  }
  return cases;
}
