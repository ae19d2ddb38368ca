// The shape of the function maps: which of sprig's functions are there, which are left out, and that
// every declared signature is sprig's Go signature (the executor converts arguments and reports Go's
// argument errors from these declarations).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { osmTemplateFuncs, sprigFuncs } from '../../src/sprig/index.ts';
import type { GoFunction, GoParamType } from '../../src/go/reflect/func.ts';
import { GO_SIGNATURES } from './goSignatures.ts';
import { call } from './sprigCases.ts';

/** Functions of sprig's map that depend on the clock, environment, network or randomness. */
const NON_HERMETIC = [
  'now',
  'ago',
  'date',
  'dateInZone',
  'date_in_zone',
  'dateModify',
  'date_modify',
  'mustDateModify',
  'must_date_modify',
  'htmlDate',
  'htmlDateInZone',
  'toDate',
  'mustToDate',
  'unixEpoch',
  'env',
  'expandenv',
  'getHostByName',
  'randAlpha',
  'randAlphaNum',
  'randAscii',
  'randNumeric',
  'randBytes',
  'randInt',
  'uuidv4',
  'shuffle',
  'genCA',
  'genCAWithKey',
  'genPrivateKey',
  'genSelfSignedCert',
  'genSelfSignedCertWithKey',
  'genSignedCert',
  'genSignedCertWithKey',
  'buildCustomCert',
  'derivePassword',
  'encryptAES',
  'bcrypt',
  'htpasswd',
];

const OSM_EXTRAS = ['toToml', 'fromToml', 'toYaml', 'fromYaml', 'fromYamlArray', 'toJson', 'fromJson', 'fromJsonArray'];

const GO_TYPES: Record<string, GoParamType> = {
  'interface {}': 'any',
  string: 'string',
  int: 'int',
  int64: 'int',
  float64: 'float64',
  bool: 'bool',
  '[]interface {}': '[]any',
  '[]string': '[]string',
  'map[string]interface {}': 'map[string]any',
};

function declared(f: GoFunction): string[] {
  return [...f.params, ...(f.variadic === undefined ? [] : [`...${f.variadic}`])];
}

function expected(goParams: readonly string[]): string[] {
  return goParams.map((p) => (p.startsWith('...') ? `...${GO_TYPES[p.slice(3)]}` : GO_TYPES[p]!));
}

test('sprigFuncs has every hermetic function of sprig 3.3.0 and none of the others', () => {
  const hermetic = Object.keys(GO_SIGNATURES).filter((n) => !NON_HERMETIC.includes(n));
  assert.deepEqual(
    hermetic.filter((n) => !(n in sprigFuncs)),
    [],
  );
  assert.deepEqual(
    NON_HERMETIC.filter((n) => n in sprigFuncs || n in osmTemplateFuncs),
    [],
  );
  assert.deepEqual(
    Object.keys(sprigFuncs).filter((n) => !(n in GO_SIGNATURES)),
    [],
  );
});

test("osmTemplateFuncs is sprig plus OSM's extras", () => {
  for (const [n, f] of Object.entries(sprigFuncs)) if (!OSM_EXTRAS.includes(n)) assert.equal(osmTemplateFuncs[n], f, n);
  for (const n of Object.keys(osmTemplateFuncs)) assert.ok(n in sprigFuncs || OSM_EXTRAS.includes(n), n);
  for (const n of ['toYaml', 'fromYaml', 'fromYamlArray', 'toToml', 'fromJson', 'fromJsonArray', 'toJson'])
    assert.ok(n in osmTemplateFuncs, n);
  assert.notEqual(osmTemplateFuncs.fromJson, sprigFuncs.fromJson);
});

test('every function declares the parameter types of its Go signature', () => {
  const wrong: string[] = [];
  for (const [name, f] of Object.entries(sprigFuncs)) {
    const want = expected(GO_SIGNATURES[name]!);
    if (JSON.stringify(declared(f)) !== JSON.stringify(want))
      wrong.push(`${name}: declared ${declared(f).join(', ')}; Go has ${want.join(', ')}`);
  }
  assert.deepEqual(wrong, []);
});

test('the function maps are frozen', () => {
  assert.ok(Object.isFrozen(sprigFuncs));
  assert.ok(Object.isFrozen(osmTemplateFuncs));
});

test('keys returns sorted keys (Go gives map order, which is random)', () => {
  assert.deepEqual(call('keys', { b: 1n, c: 2n, a: 3n }, { aa: 1n }), ['a', 'b', 'c', 'aa']);
  assert.deepEqual(call('values', { b: 1n, a: 2n }), [2n, 1n]);
});

test('merge shares what it copies from the sources, like Go maps', () => {
  const inner = { x: 1n };
  const dst = call('merge', { a: 1n }, { n: inner }) as Record<string, unknown>;
  assert.equal(dst.n, inner);
});

test('a key named __proto__ is an ordinary map key', () => {
  const m = call('dict', '__proto__', 1n, 'constructor', 2n) as Record<string, unknown>;
  assert.deepEqual(Object.keys(m), ['__proto__', 'constructor']);
  assert.equal(Object.getPrototypeOf(m), Object.prototype);
  assert.equal(call('get', m, '__proto__'), 1n);
  assert.equal(call('hasKey', {}, 'constructor'), false);
});
