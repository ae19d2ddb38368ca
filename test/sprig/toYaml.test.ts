// OSM's toYaml (gopkg.in/yaml.v3 Marshal, trailing newline trimmed) and fromYaml, checked against Go.
import { test } from 'node:test';
import { checkCases, type SprigCase } from './sprigCases.ts';

// Expected results were produced by Go: text/template with sprig 3.3.0 and OSM's dependency versions
// (semver 3.4.0, xstrings 1.5.0, mergo 1.0.1, cast 1.7.0, decimal 1.4.0), printing each call with %v.
const CASES: SprigCase[] = [
  [
    'toYaml',
    [{ 'b': 1n, 'a': [1n, 'two', 3.5, null, true, { 'x': ['y'] }, [1n, 2n]], 'c': {} }],
    {
      out: 'a:\n    - 1\n    - two\n    - 3.5\n    - null\n    - true\n    - x:\n        - "y"\n    - - 1\n      - 2\nb: 1\nc: {}',
    },
  ],
  [
    'toYaml',
    [
      [
        'yes',
        'No',
        'on',
        'y',
        'null',
        '~',
        '',
        '1.0',
        '0x1F',
        '1e3',
        '2001-12-14',
        '+1',
        '.5',
        '-',
        '- a',
        ': x',
        'a: b',
        'a #b',
        '#c',
        '@x',
        '`x',
        'x:',
        '!x',
        '&x',
        '*x',
        '|',
        '>',
        '%x',
        "'q'",
        '"d"',
        'tab\there',
        'lead ',
        ' lead',
        '1_000',
        '0o17',
        '.inf',
        'True',
        '12:30',
        '1:2:3',
        '=',
        '<<',
        '?',
        '? x',
        '-x',
        '--- x',
        '...',
        '[a]',
        '{a}',
        'a,b',
        'é',
        '😀',
        '',
        'a b',
        '﻿x',
        '08',
        '0777',
      ],
    ],
    {
      out: "- \"yes\"\n- \"No\"\n- \"on\"\n- \"y\"\n- \"null\"\n- \"~\"\n- \"\"\n- \"1.0\"\n- \"0x1F\"\n- \"1e3\"\n- \"2001-12-14\"\n- \"+1\"\n- \".5\"\n- '-'\n- '- a'\n- ': x'\n- 'a: b'\n- 'a #b'\n- '#c'\n- '@x'\n- '`x'\n- 'x:'\n- '!x'\n- '&x'\n- '*x'\n- '|'\n- '>'\n- '%x'\n- '''q'''\n- '\"d\"'\n- \"tab\\there\"\n- 'lead '\n- ' lead'\n- \"1_000\"\n- \"0o17\"\n- \".inf\"\n- \"True\"\n- \"12:30\"\n- \"1:2:3\"\n- =\n- <<\n- '?'\n- '? x'\n- -x\n- '--- x'\n- '...'\n- '[a]'\n- '{a}'\n- a,b\n- é\n- \"\\U0001F600\"\n- \"\\N\"\n- 'a   b'\n- \"\\uFEFF\\x78\"\n- \"08\"\n- \"0777\"",
    },
  ],
  ['toYaml', ['a\nb'], { out: '|-\n    a\n    b' }],
  ['toYaml', ['a\n'], { out: '|\n    a' }],
  ['toYaml', ['a\n\n'], { out: '|+\n    a\n' }],
  ['toYaml', ['\n'], { out: '|4+' }],
  ['toYaml', [' x\n'], { out: '|4\n     x' }],
  ['toYaml', ['x\r\ny'], { out: '"x\\r\\ny"' }],
  ['toYaml', ['plain'], { out: 'plain' }],
  ['toYaml', [1n], { out: '1' }],
  ['toYaml', [1.5], { out: '1.5' }],
  ['toYaml', [null], { out: 'null' }],
  ['toYaml', [[]], { out: '[]' }],
  ['toYaml', [{}], { out: '{}' }],
  ['toYaml', [1e21], { out: '1e+21' }],
  ['toYaml', [100000], { out: '100000' }],
  ['toYaml', [1e-7], { out: '1e-07' }],
  ['toYaml', [3], { out: '3' }],
  ['toYaml', [true], { out: 'true' }],
  ['toYaml', [NaN], { out: '.nan' }],
  ['toYaml', [-Infinity], { out: '-.inf' }],
  [
    'toYaml',
    [
      {
        '1': 2n,
        'key with: colon': 1n,
        'true': 3n,
        '': 4n,
        '-': 5n,
        'a b': 6n,
        'é': 7n,
        'multi\nkey': 8n,
        'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk':
          9n,
      },
    ],
    {
      out: '"": 4\n\'-\': 5\n"1": 2\na b: 6\n\'key with: colon\': 1\n? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n: 9\n? |-\n    multi\n    key\n: 8\n"true": 3\né: 7',
    },
  ],
  [
    'toYaml',
    [
      {
        '1': 6n,
        '2': 8n,
        '10': 7n,
        'a10': 1n,
        'a9': 2n,
        'a09': 3n,
        'A': 4n,
        '_x': 5n,
        'b1c': 9n,
        'b01c': 10n,
        'z': 12n,
        'a': 14n,
        'a0': 15n,
        'x1y2': 17n,
        'x1y10': 18n,
      },
    ],
    {
      out: '_x: 5\n"1": 6\n"2": 8\n"10": 7\nA: 4\na: 14\na0: 15\na9: 2\na09: 3\na10: 1\nb1c: 9\nb01c: 10\nx1y2: 17\nx1y10: 18\nz: 12',
    },
  ],
  [
    'toYaml',
    [[[[1n, 2n], []], { 'a': [{ 'b': 1n, 'c': 2n }] }]],
    { out: '- - - 1\n    - 2\n  - []\n- a:\n    - b: 1\n      c: 2' },
  ],
  [
    'toYaml',
    [{ 's': 'line1\nline2', 'l': ['x\ny'], 'n': { 'm': 'a\nb\n' } }],
    { out: 'l:\n    - |-\n      x\n      y\n"n":\n    m: |\n        a\n        b\ns: |-\n    line1\n    line2' },
  ],
  ['toYaml', [[[{ 'x': 'a\nb', 'y': 'a b' }]]], { out: '- - x: |-\n        a\n        b\n    "y": \'a         b\'' }],
  [
    'toYaml',
    [{ 'k': [[{ 'x': 'a\nb', 'y': ['c\nd'], 'z': { 'q': 'a\nb' } }]] }],
    {
      out: 'k:\n    - - x: |-\n            a\n            b\n        "y":\n            - |-\n              c\n              d\n        z:\n            q: |-\n                a\n                b',
    },
  ],
  ['toYaml', [{ 'a\nb': { 'x': 1n, 'y': [1n] } }], { out: '? |-\n    a\n    b\n:   x: 1\n    "y":\n        - 1' }],
  ['toYaml', [[{ 'a\nb': 1n, 'c': 2n }]], { out: '- ? |-\n    a\n    b\n  : 1\n  c: 2' }],
  [
    'toYaml',
    [
      {
        'long':
          'aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff gggggggggg hhhhhhhhhh iiiiiiiiii jjjjjjjjjj',
      },
    ],
    {
      out: 'long: aaaaaaaaaa bbbbbbbbbb cccccccccc dddddddddd eeeeeeeeee ffffffffff gggggggggg hhhhhhhhhh iiiiiiiiii jjjjjjjjjj',
    },
  ],
  [
    'fromYaml',
    ['a: 1\nb: [x, 2.5, true, null, yes, 0x10, 1e3, ~, "1", 0o10, .inf]\nc: {d: e}'],
    { out: 'map[a:1 b:[x 2.5 true <nil> yes 16 1000 <nil> 1 8 +Inf] c:map[d:e]]' },
  ],
  [
    'fromYaml',
    ['- a'],
    { out: 'map[Error:yaml: unmarshal errors:\n  line 1: cannot unmarshal !!seq into map[string]interface {}]' },
  ],
  ['fromYaml', [''], { out: 'map[]' }],
  ['fromYamlArray', ['- a\n- 1'], { out: '[a 1]' }],
  [
    'fromYamlArray',
    ['a: 1'],
    { out: '[yaml: unmarshal errors:\n  line 1: cannot unmarshal !!map into []interface {}]' },
  ],
  ['fromYamlArray', [''], { out: '[]' }],
];

test('toYaml functions return what sprig returns', () => checkCases(CASES));
