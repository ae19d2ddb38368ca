// fromToml and toToml where OSM's github.com/BurntSushi/toml v1.6.0 differs from the oracle's Debian v1.2.0
// (the rest is in testdata/template-corpus/osm-toml.yaml, checked against the oracle): TOML 1.1 (newlines
// and a trailing comma in inline tables, \x and \e escapes, times without seconds, a UTF-8 BOM), error lines
// at the end of a line or of the input, datetime error texts, and the Encoder's 'g' floats and top-level
// values. The expected outputs were produced by Go (text/template, sprig, OSM's funcmap functions) built
// against toml v1.6.0; time.Local is UTC, as in OSM's container.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from '../template/engine/goCases.ts';
import { osmTemplateFuncs } from '../../src/sprig/index.ts';

type Case = [template: string, expected: { out: string } | { err: string }];

const CASES: Case[] = [
  [String.raw`{{ (fromToml "a = ").Error }}`, { out: 'toml: line 1 (last key "a"): unexpected EOF; expected value' }],
  [
    String.raw`{{ (fromToml "a =\nb = 1").Error }}`,
    { out: 'toml: line 1 (last key "a"): expected value but found \'\\n\' instead' },
  ],
  [String.raw`{{ (fromToml "a\nb = 1").Error }}`, { out: "toml: line 1: expected '.' or '=', but got '\\n' instead" }],
  [
    String.raw`{{ (fromToml "a = \"abc").Error }}`,
    { out: 'toml: line 1 (last key "a"): unexpected EOF; expected \'"\'' },
  ],
  [
    String.raw`{{ (fromToml "a = [1,\n2").Error }}`,
    { out: "toml: line 2 (last key \"a\"): expected a comma (',') or array terminator (']'), but got end of file" },
  ],
  [
    String.raw`{{ (fromToml "a = {x = 1\n").Error }}`,
    {
      out: 'toml: line 1 (last key "a.x"): expected a comma or an inline table terminator \'}\', but got end of file instead',
    },
  ],
  [
    String.raw`{{ (fromToml "a = 1979-02-30").Error }}`,
    { out: 'toml: line 1 (last key "a"): invalid datetime: "1979-02-30"' },
  ],
  [
    String.raw`{{ (fromToml "a = 1979-5-27").Error }}`,
    { out: 'toml: line 1 (last key "a"): invalid datetime: "1979-5-27"' },
  ],
  [
    String.raw`{{ (fromToml "a = 7:32:00").Error }}`,
    { out: 'toml: line 1 (last key "a"): invalid datetime: "7:32:00"' },
  ],
  [
    String.raw`{{ (fromToml "a = 0x").Error }}`,
    { out: 'toml: line 1 (last key "a"): not a hexadecimal number: \'0x\u0000\'' },
  ],
  [String.raw`{{ $m := fromToml "a = {\n  x = 1, # one\n  y = 2,\n}" }}{{ $m }}`, { out: 'map[a:map[x:1 y:2]]' }],
  [String.raw`{{ $m := fromToml "a = {x = 1, y = 2,}" }}{{ $m }}`, { out: 'map[a:map[x:1 y:2]]' }],
  [String.raw`{{ $m := fromToml "a = \"\\x41\\xe9\\e[0m\"" }}{{ printf "%q" $m.a }}`, { out: '"Aé\\x1b[0m"' }],
  [
    String.raw`{{ (fromToml "a = \"\\x4\"").Error }}`,
    { out: 'toml: line 1 (last key "a"): expected two hexadecimal digits after \'\\x\', but got "\\\\x4\\"" instead' },
  ],
  [
    String.raw`{{ $m := fromToml "a = 07:32\nb = 1979-05-27T07:32\nc = 1979-05-27T07:32Z\nd = 1979-05-27T07:32-07:00" }}{{ range $k, $v := $m }}{{ $k }}={{ $v }};{{ end }}`,
    {
      out: 'a=0000-01-01 07:32:00 +0000 time-local;b=1979-05-27 07:32:00 +0000 datetime-local;c=1979-05-27 07:32:00 +0000 UTC;d=1979-05-27 07:32:00 -0700 -0700;',
    },
  ],
  [String.raw`{{ $m := fromToml "\ufeffa = 1" }}{{ $m }}`, { out: 'map[a:1]' }],
  [
    String.raw`{{ toToml (dict "a" 1e6 "b" 1e21 "c" 0.000001 "g" (float64 "inf") "h" (float64 "-inf")) }}`,
    { out: 'a = 1e+06\nb = 1e+21\nc = 1e-06\ng = inf\nh = -inf\n' },
  ],
  [
    String.raw`{{ toToml "s" }}|{{ toToml 1 }}|{{ toToml (list 1 2) }}|{{ toToml (list (dict "a" 1)) }}`,
    { out: '"s"|1|[1, 2]|toml: top-level values must be Go maps or structs' },
  ],
];

test('fromToml and toToml as toml v1.6.0 (OSM) has them', () => {
  const failures = CASES.flatMap(([template, expected]) => {
    const got = render(template, null, osmTemplateFuncs);
    return JSON.stringify(got) === JSON.stringify(expected)
      ? []
      : [`${template}\n    go:   ${JSON.stringify(expected)}\n    ours: ${JSON.stringify(got)}`];
  });
  assert.deepEqual(failures, []);
});

test('a zone offset beyond 24 hours is no datetime (current Go; Go 1.19 accepted it)', () => {
  // Newer Go's time.Parse range-checks offsets with > ("time zone offset hour"); Go 1.19 did not.
  assert.deepEqual(render(String.raw`{{ (fromToml "d = 1985-06-18T17:04:07+25:00").Error }}`, null, osmTemplateFuncs), {
    out: 'toml: line 1 (last key "d"): invalid datetime: "1985-06-18T17:04:07+25:00"',
  });
  assert.deepEqual(render(String.raw`{{ (fromToml "d = 1985-06-18T17:04:07+24:00").d }}`, null, osmTemplateFuncs), {
    out: '1985-06-18 17:04:07 +2400 +2400',
  });
});
