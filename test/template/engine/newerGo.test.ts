// Behaviour of Go releases newer than the 1.19 oracle, which OSM (built with a current Go) has:
// range over an integer (Go 1.22), {{else with}} (Go 1.23), range assigning existing variables,
// strings.Split on an empty separator keeping invalid bytes, and time.Time's newer methods and checks.
// Expectations follow current Go's documentation and sources; Go 1.19 rejects the first two and got the
// third wrong (it overwrote whatever variable was on top of its stack).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { render } from './goCases.ts';
import { osmTemplateFuncs, sprigFuncs } from '../../../src/sprig/index.ts';

test('Go 1.22: range over an integer n visits 0..n-1 as dot and as the element variable', () => {
  assert.deepEqual(render('{{ range 3 }}{{ . }}{{ end }}'), { out: '012' });
  assert.deepEqual(render('{{ range $i := 3 }}{{ $i }},{{ end }}'), { out: '0,1,2,' });
  assert.deepEqual(render('{{ range .n }}x{{ end }}', { n: 2n }), { out: 'xx' });
  assert.deepEqual(render('{{ range 0 }}x{{ else }}none{{ end }}|{{ range -2 }}x{{ else }}none{{ end }}'), {
    out: 'none|none',
  });
  assert.deepEqual(render('{{ range 5 }}{{ if eq . 3 }}{{ break }}{{ end }}{{ . }}{{ end }}'), { out: '012' });
});

test('Go 1.22: range over an integer of another type yields values of that type', () => {
  // reflect.Value.Seq: the range variable has the integer's type.
  assert.deepEqual(render('{{ range add 2 }}{{ printf "%T=%v " . . }}{{ end }}', null, sprigFuncs), {
    out: 'int64=0 int64=1 ',
  });
  assert.deepEqual(render('{{ range index "\x03" 0 }}{{ printf "%T=%v " . . }}{{ end }}'), {
    out: 'uint8=0 uint8=1 uint8=2 ',
  });
  assert.deepEqual(render('{{ range sub 0 1 }}x{{ else }}none{{ end }}', null, sprigFuncs), { out: 'none' });
});

test('Go 1.22: range over an integer cannot bind two variables', () => {
  const r = render('{{ range $i, $e := 3 }}{{ end }}');
  assert.ok('err' in r);
  assert.match(r.err, /^template: t:1:\d+: executing "t" at <.*>: can't use 3 to iterate over more than one variable$/);
});

test('Go 1.23: else with', () => {
  const t = '{{ with .a }}A{{ . }}{{ else with .b }}B{{ . }}{{ else }}C{{ . }}{{ end }}';
  assert.deepEqual(render(t, { a: 1n, b: 2n }), { out: 'A1' });
  assert.deepEqual(render(t, { a: 0n, b: 2n }), { out: 'B2' });
  assert.deepEqual(render(t, { a: 0n, b: 0n }), { out: 'Cmap[a:0 b:0]' });
  // A chain of them needs a single {{end}}, like else if.
  assert.deepEqual(render('{{ with 0 }}a{{ else with 0 }}b{{ else with 3 }}{{ . }}{{ end }}'), { out: '3' });
  // else if is for if only (Go 1.19 gives the same error).
  assert.deepEqual(render('{{ with $x := 0 }}a{{ else if true }}{{ $x }}{{ end }}'), {
    err: 'template: t:1: unexpected <if> in input',
  });
  assert.deepEqual(render('{{ if 0 }}a{{ else with 0 }}b{{ end }}'), {
    err: 'template: t:1: unexpected <with> in input',
  });
});

test('current Go: range with = assigns the named variables', () => {
  // Go 1.19 printed "[a b],a;[a b],b;|[a b]" here: it set $y, the top of its variable stack.
  assert.deepEqual(
    render('{{ $x := 0 }}{{ $y := 5 }}{{ range $x = .l }}{{ $x }},{{ $y }};{{ end }}|{{ $x }}', { l: ['a', 'b'] }),
    { out: 'a,5;b,5;|b' },
  );
  assert.deepEqual(
    render(
      '{{ $i := 0 }}{{ $e := 0 }}{{ $z := 9 }}{{ range $i, $e = .l }}{{ $i }}={{ $e }};{{ end }}|{{ $i }}{{ $e }}{{ $z }}',
      { l: ['a', 'b'] },
    ),
    { out: '0=a;1=b;|1b9' },
  );
  // As in Go 1.19: assigning a variable that was never declared.
  assert.deepEqual(render('{{ range $x = .l }}{{ end }}', { l: [1n] }), {
    err: 'template: t:1:14: executing "t" at <.l>: undefined variable: $x',
  });
});

test('current Go: splitting on an empty separator keeps an invalid byte as it is', () => {
  // strings.Split(s, "") slices invalid UTF-8 bytes individually ("Invalid UTF-8 bytes are sliced
  // individually", strings.explode); Go 1.19 replaced all but the last with U+FFFD.
  const cut = '{{ $s := substr 0 2 "日" }}';
  assert.deepEqual(render(`${cut}{{ range splitList "" $s }}{{ printf "%q " . }}{{ end }}`, null, sprigFuncs), {
    out: '"\\xe6" "\\x97" ',
  });
  assert.deepEqual(
    render(`${cut}{{ range $k, $v := split "" $s }}{{ $k }}={{ printf "%q " $v }}{{ end }}`, null, sprigFuncs),
    { out: '_0="\\xe6" _1="\\x97" ' },
  );
});

const t = (s: string) => `{{ $t := (fromToml "a = ${s}").a }}`;

test('Go 1.20: Time.Compare', () => {
  assert.deepEqual(
    render(
      t('1979-05-27T07:32:00Z') +
        '{{ $t.Compare $t }} {{ $t.Compare ($t.Add 1) }} {{ ($t.Add 1).Compare $t }} {{ printf "%T" ($t.Compare $t) }}',
      null,
      osmTemplateFuncs,
    ),
    {
      out: '0 -1 1 int',
    },
  );
});

test('Go 1.20: JSON and text of a time refuse a zone offset of 24 hours, which RFC 3339 cannot write', () => {
  // time.appendStrictRFC3339; Go 1.19 checked only the year.
  assert.deepEqual(
    render(t('1985-06-18T17:04:07+24:00') + '[{{ toJson $t }}] [{{ toYaml $t }}]', null, osmTemplateFuncs),
    { out: '[] [1985-06-18T17:04:07+24:00]' },
  );
  assert.deepEqual(render(t('1985-06-18T17:04:07+24:00') + '{{ mustToJson $t }}', null, osmTemplateFuncs), {
    err: 'template: t:1:59: executing "t" at <mustToJson $t>: error calling mustToJson: json: error calling MarshalJSON for type time.Time: Time.MarshalJSON: timezone hour outside of range [0,23]',
  });
  assert.deepEqual(render(t('1985-06-18T17:04:07+24:00') + '{{ $t.MarshalText }}', null, osmTemplateFuncs), {
    err: 'template: t:1:61: executing "t" at <$t.MarshalText>: error calling MarshalText: Time.MarshalText: timezone hour outside of range [0,23]',
  });
});

test('Go 1.24: Time.AppendText and Time.AppendBinary', () => {
  // They append what MarshalText and MarshalBinary return (those bytes from the Go 1.19 oracle).
  assert.deepEqual(
    render(
      t('1979-05-27T07:32:00Z') +
        '{{ printf "%s" ($t.AppendText nil) }}|{{ $t.AppendText $t.MarshalBinary | len }}|{{ $t.AppendBinary nil }}',
      null,
      osmTemplateFuncs,
    ),
    {
      out: '1979-05-27T07:32:00Z|35|[1 0 0 0 14 137 64 78 112 0 0 0 0 255 255]',
    },
  );
});
