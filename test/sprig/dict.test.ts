// sprig's dict.go (src/sprig/dict.ts): dict functions (merge as mergo 1.0.1 does it), checked against Go.
import { test } from 'node:test';
import { checkCases, type SprigCase } from './sprigCases.ts';

// Expected results were produced by Go: text/template with sprig 3.3.0 and OSM's dependency versions
// (semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0, decimal 1.4.0), printing each call with %v.
const CASES: SprigCase[] = [
  ['dict', ['a', 1n, 'b'], { out: 'map[a:1 b:]' }],
  ['dict', [1n, 2n, null, 3n], { out: 'map[1:2 <nil>:3]' }],
  ['dict', [], { out: 'map[]' }],
  ['dict', ['a', 1n, 'a', 2n], { out: 'map[a:2]' }],
  ['get', [{ 'a': 1n }, 'a'], { out: '1' }],
  ['get', [{ 'a': 1n }, 'b'], { out: '' }],
  ['get', [null, 'a'], { out: '' }],
  ['set', [{ 'a': 1n }, 'b', 2n], { out: 'map[a:1 b:2]' }],
  ['set', [null, 'a', 1n], { err: 'assignment to entry in nil map' }],
  ['unset', [{ 'a': 1n, 'b': 2n }, 'a'], { out: 'map[b:2]' }],
  ['unset', [null, 'a'], { out: 'map[]' }],
  ['hasKey', [{ 'a': 1n }, 'a'], { out: 'true' }],
  ['hasKey', [{ 'a': null }, 'a'], { out: 'true' }],
  ['hasKey', [null, 'a'], { out: 'false' }],
  ['pluck', ['a', { 'a': 1n }, { 'b': 2n }, { 'a': 3n }], { out: '[1 3]' }],
  ['pluck', ['a', null], { out: '[]' }],
  ['keys', [{ 'b': 1n }, { 'a': 2n }], { out: '[b a]' }],
  ['keys', [null], { out: '[]' }],
  ['values', [{ 'a': 1n }], { out: '[1]' }],
  ['values', [null], { out: '[]' }],
  ['pick', [{ 'a': 1n, 'b': 2n, 'c': 3n }, 'a', 'c', 'x'], { out: 'map[a:1 c:3]' }],
  ['pick', [null, 'a'], { out: 'map[]' }],
  ['omit', [{ 'a': 1n, 'b': 2n }, 'a'], { out: 'map[b:2]' }],
  ['omit', [null, 'a'], { out: 'map[]' }],
  [
    'merge',
    [
      { 'a': 1n, 'n': { 'x': 1n } },
      { 'a': 2n, 'b': 3n, 'n': { 'x': 2n, 'y': 3n } },
    ],
    { out: 'map[a:1 b:3 n:map[x:1 y:3]]' },
  ],
  [
    'mergeOverwrite',
    [
      { 'a': 1n, 'n': { 'x': 1n } },
      { 'a': 2n, 'b': 3n, 'n': { 'x': 2n, 'y': 3n } },
    ],
    { out: 'map[a:2 b:3 n:map[x:2 y:3]]' },
  ],
  [
    'merge',
    [
      { 'a': '', 'b': 0n, 'c': false, 'd': null, 'e': [], 'f': {} },
      { 'a': 'x', 'b': 1n, 'c': true, 'd': 2n, 'e': [1n], 'f': { 'g': 1n } },
    ],
    { out: 'map[a:x b:1 c:true d:2 e:[1] f:map[g:1]]' },
  ],
  [
    'mergeOverwrite',
    [
      { 'a': 1n, 'b': 2n },
      { 'a': '', 'b': 0n, 'c': null },
    ],
    { out: 'map[a: b:0 c:<nil>]' },
  ],
  ['merge', [{ 'a': { 'x': 1n } }, { 'a': 'str' }], { out: 'map[a:map[x:1]]' }],
  ['mergeOverwrite', [{ 'a': { 'x': 1n } }, { 'a': 'str' }], { out: 'map[a:str]' }],
  ['mergeOverwrite', [{ 'a': 'str' }, { 'a': { 'x': 1n } }], { out: 'map[a:map[x:1]]' }],
  ['merge', [{ 'a': 'str' }, { 'a': { 'x': 1n } }], { out: 'map[a:str]' }],
  ['merge', [{ 'a': [1n, 2n] }, { 'a': [3n] }], { out: 'map[a:[1 2]]' }],
  ['mergeOverwrite', [{ 'a': [1n, 2n] }, { 'a': [3n] }], { out: 'map[a:[3]]' }],
  ['merge', [{ 'a': 'x' }, { 'a': [3n] }], { out: 'map[a:x]' }],
  ['mergeOverwrite', [{ 'a': 'x' }, { 'a': [3n] }], { out: 'map[a:[3]]' }],
  ['merge', [{ 'a': {} }, { 'a': { 'b': 1n } }], { out: 'map[a:map[b:1]]' }],
  ['merge', [{ 'a': 1n }, null, { 'b': 2n }], { out: 'map[a:1 b:2]' }],
  ['merge', [null, { 'a': 1n }], { out: 'map[a:1]' }],
  [
    'merge',
    [{ 'a': { 'b': { 'c': 1n } } }, { 'a': { 'b': { 'd': 2n } } }, { 'a': { 'e': 3n } }],
    { out: 'map[a:map[b:map[c:1 d:2] e:3]]' },
  ],
  ['mustMerge', [{}, { 'a': 1n }], { out: 'map[a:1]' }],
  ['mustMergeOverwrite', [{ 'a': 2n }, { 'a': 1n }], { out: 'map[a:1]' }],
  ['deepCopy', [{ 'a': [1n, { 'b': 2n }] }], { out: 'map[a:[1 map[b:2]]]' }],
  ['deepCopy', [5n], { out: '5' }],
  ['deepCopy', [null], { err: 'reflect: call of reflect.Value.Type on zero Value' }],
  ['mustDeepCopy', [[1n]], { out: '[1]' }],
  ['mustDeepCopy', [null], { err: 'reflect: call of reflect.Value.Type on zero Value' }],
  ['dig', ['a', 'b', 'def', { 'a': { 'b': 1n } }], { out: '1' }],
  ['dig', ['a', 'c', 'def', { 'a': { 'b': 1n } }], { out: 'def' }],
  [
    'dig',
    ['a', 'b', 'c', 'def', { 'a': { 'b': 1n } }],
    { err: 'interface conversion: interface {} is int, not map[string]interface {}' },
  ],
  ['dig', ['a', 1n, 'd', { 'a': 1n }], { err: 'interface conversion: interface {} is int, not string' }],
  [
    'dig',
    ['a', 'b', 'd', { 'a': 'x' }],
    { err: 'interface conversion: interface {} is string, not map[string]interface {}' },
  ],
  ['dig', ['a', 'd', { 'a': null }], { out: '<no value>' }],
  ['dig', ['x', 'd', {}], { out: 'd' }],
  [
    'dig',
    ['a', 'b', 'd', { 'a': null }],
    { err: 'interface conversion: interface {} is nil, not map[string]interface {}' },
  ],
  ['dig', ['a', 'd', 'notamap'], { err: 'interface conversion: interface {} is string, not map[string]interface {}' }],
  ['dig', ['a', 'd', null], { err: 'interface conversion: interface {} is nil, not map[string]interface {}' }],
  ['dig', [], { err: 'dig needs at least three arguments' }],
  ['dig', ['a', 'b'], { err: 'dig needs at least three arguments' }],
];

test("dict.go's functions return what sprig returns", () => checkCases(CASES));
