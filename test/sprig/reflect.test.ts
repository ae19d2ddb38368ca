// sprig's reflect.go (src/sprig/reflect.ts): type and kind functions, checked against Go.
import { test } from 'node:test';
import { checkCases, type SprigCase } from './sprigCases.ts';

// Expected results were produced by Go: text/template with sprig 3.3.0 and OSM's dependency versions
// (semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0, decimal 1.4.0), printing each call with %v.
const CASES: SprigCase[] = [
  ['typeOf', [1n], { out: 'int' }],
  ['typeOf', [1.5], { out: 'float64' }],
  ['typeOf', ['a'], { out: 'string' }],
  ['typeOf', [null], { out: '<nil>' }],
  ['typeOf', [[]], { out: '[]interface {}' }],
  ['typeOf', [{}], { out: 'map[string]interface {}' }],
  ['typeOf', [true], { out: 'bool' }],
  ['kindOf', [1n], { out: 'int' }],
  ['kindOf', [1.5], { out: 'float64' }],
  ['kindOf', ['a'], { out: 'string' }],
  ['kindOf', [null], { out: 'invalid' }],
  ['kindOf', [[]], { out: 'slice' }],
  ['kindOf', [{}], { out: 'map' }],
  ['kindOf', [true], { out: 'bool' }],
  ['typeIs', ['int', 1n], { out: 'true' }],
  ['typeIs', ['[]interface {}', []], { out: 'true' }],
  ['typeIs', ['int64', 1n], { out: 'false' }],
  ['typeIsLike', ['int', 1n], { out: 'true' }],
  ['typeIsLike', ['interface {}', []], { out: 'false' }],
  ['kindIs', ['int', 1n], { out: 'true' }],
  ['kindIs', ['slice', []], { out: 'true' }],
  ['kindIs', ['invalid', null], { out: 'true' }],
  ['kindIs', ['map', {}], { out: 'true' }],
];

test("reflect.go's functions return what sprig returns", () => checkCases(CASES));
