// OSM's JSON extras (fromJson/fromJsonArray put errors in the result), checked against Go.
import { test } from 'node:test';
import { checkCases, type SprigCase } from './sprigCases.ts';

// Expected results were produced by Go: text/template with sprig 3.3.0 and OSM's dependency versions
// (semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0, decimal 1.4.0), printing each call with %v.
const CASES: SprigCase[] = [
  ['fromJson', ['{"a":1,"b":[1.5,"x",null,true],"c":{}}'], { out: 'map[a:1 b:[1.5 x <nil> true] c:map[]]' }],
  [
    'fromJson',
    ['[1,2]'],
    { out: 'map[Error:json: cannot unmarshal array into Go value of type map[string]interface {}]' },
  ],
  ['fromJson', ['bad'], { out: "map[Error:invalid character 'b' looking for beginning of value]" }],
  [
    'fromJson',
    ['1'],
    { out: 'map[Error:json: cannot unmarshal number into Go value of type map[string]interface {}]' },
  ],
  ['fromJson', ['{"a":1}x'], { out: "map[Error:invalid character 'x' after top-level value]" }],
  ['fromJson', [''], { out: 'map[Error:unexpected end of JSON input]' }],
  [
    'fromJson',
    ['{"a":1e400}'],
    { out: 'map[Error:json: cannot unmarshal number 1e400 into Go value of type float64 a:<nil>]' },
  ],
  ['fromJson', ['{"a":1,"a":2}'], { out: 'map[a:2]' }],
  [
    'fromJson',
    ['"s"'],
    { out: 'map[Error:json: cannot unmarshal string into Go value of type map[string]interface {}]' },
  ],
  [
    'fromJson',
    ['true'],
    { out: 'map[Error:json: cannot unmarshal bool into Go value of type map[string]interface {}]' },
  ],
  ['fromJsonArray', ['[1,"a"]'], { out: '[1 a]' }],
  ['fromJsonArray', ['{}'], { out: '[json: cannot unmarshal object into Go value of type []interface {}]' }],
  ['fromJsonArray', ['1'], { out: '[json: cannot unmarshal number into Go value of type []interface {}]' }],
  ['fromJsonArray', ['[1'], { out: '[unexpected end of JSON input]' }],
  ['fromJsonArray', ['[1e999]'], { out: '[json: cannot unmarshal number 1e999 into Go value of type float64]' }],
  ['fromJsonArray', ['"x"'], { out: '[json: cannot unmarshal string into Go value of type []interface {}]' }],
  ['toJson', [{ 'a': NaN }], { out: '' }],
  ['toJson', [{ 'a': [1n, 'é'] }], { out: '{"a":[1,"é"]}' }],
];

test('osmExtras functions return what sprig returns', () => checkCases(CASES));
