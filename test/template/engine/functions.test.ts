// Calling FuncMap functions: arguments converted to the declared parameter types as Go's evalArg and
// validateType do, argument counts, variadics, error results, panics and nil results. The expectations are
// Go 1.19's answers for the same templates with Go functions of the same signatures (e.g. str is
// func(string) string, join is func(string, ...string) string, fail returns an error, boom panics).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CONSTANT, GoCallError, goFunc, type FuncMap } from '../../../src/template/index.ts';
import { sprintf } from '../../../src/go/fmt/format.ts';
import { UNMETERED } from '../../../src/go/internal/meter.ts';
import { render } from './goCases.ts';

const funcs: FuncMap = {
  str: goFunc(['string'], CONSTANT, (s: string) => '<' + s + '>'),
  num: goFunc(['int'], CONSTANT, (i: bigint) => i * 2n),
  flt: goFunc(['float64'], CONSTANT, (f: number) => f / 2),
  bl: goFunc(['bool'], CONSTANT, (b: boolean) => !b),
  lst: goFunc(['[]any'], CONSTANT, (l: unknown[] | null) => BigInt(l?.length ?? 0)),
  mp: goFunc(['map[string]any'], CONSTANT, (m: Record<string, unknown> | null) =>
    BigInt(m === null ? 0 : Object.keys(m).length),
  ),
  anyf: goFunc(['any'], CONSTANT, (v: unknown) => sprintf('%T=%v', [v, v], UNMETERED)),
  join: goFunc(['string'], CONSTANT, (sep: string, ...xs: string[]) => xs.join(sep), 'string'),
  cnt: goFunc([], CONSTANT, (...xs: unknown[]) => BigInt(xs.length), 'any'),
  fail: goFunc(['string'], CONSTANT, (s: string) => {
    throw new GoCallError('boom: ' + s);
  }),
  boom: goFunc([], CONSTANT, () => {
    throw new GoCallError('kaboom');
  }),
  nilf: goFunc([], CONSTANT, () => null),
  print: goFunc([], CONSTANT, () => 'custom', 'any'),
};

const data = { i: 1n, f: 1.5, b: true, l: [1n, 'x'], m: { a: 1n }, n: null, s: 'str' };

const cases: ({ name: string; template: string } & ({ out: string } | { err: string }))[] = [
  { name: 'string parameter', template: '{{ str "a" }} {{ "x" | str }} {{ str .s }}', out: '<a> <x> <str>' },
  {
    name: 'string parameter given a number constant',
    template: '{{ str 1 }}',
    err: 'template: t:1:7: executing "t" at <1>: expected string; found 1',
  },
  {
    name: 'string parameter given an int value',
    template: '{{ str .i }}',
    err: 'template: t:1:7: executing "t" at <.i>: wrong type for value; expected string; got int',
  },
  {
    name: 'string parameter given a piped int',
    template: '{{ 1 | str }}',
    err: 'template: t:1:7: executing "t" at <str>: wrong type for value; expected string; got int',
  },
  {
    name: 'string parameter given a missing key',
    template: '{{ str .missing }}',
    err: 'template: t:1:7: executing "t" at <.missing>: invalid value; expected string',
  },
  {
    name: 'string parameter given nil',
    template: '{{ str nil }}',
    err: 'template: t:1:7: executing "t" at <nil>: cannot assign nil to string',
  },
  {
    name: 'string parameter given a nil value',
    template: '{{ str .n }}',
    err: 'template: t:1:7: executing "t" at <.n>: wrong type for value; expected string; got interface {}',
  },
  {
    name: 'int parameter',
    template: "{{ num 3 }} {{ num 3.0 }} {{ num 'a' }} {{ num 0x10 }} {{ num .i }} {{ num -2 }}",
    out: '6 6 194 32 2 -4',
  },
  {
    name: 'int parameter given a fraction',
    template: '{{ num 3.5 }}',
    err: 'template: t:1:7: executing "t" at <3.5>: expected integer; found 3.5',
  },
  {
    name: 'int parameter given a string',
    template: '{{ num "3" }}',
    err: 'template: t:1:7: executing "t" at <"3">: expected integer; found "3"',
  },
  {
    name: 'int parameter given a float value',
    template: '{{ num .f }}',
    err: 'template: t:1:7: executing "t" at <.f>: wrong type for value; expected int; got float64',
  },
  {
    name: 'int parameter given a float result',
    template: '{{ num (flt 4) }}',
    err: 'template: t:1:12: executing "t" at <4>: wrong type for value; expected int; got float64',
  },
  { name: 'float parameter', template: "{{ flt 2 }} {{ flt 1e3 }} {{ flt .f }} {{ flt 'a' }}", out: '1 500 0.75 48.5' },
  {
    name: 'float parameter given an int value',
    template: '{{ flt .i }}',
    err: 'template: t:1:7: executing "t" at <.i>: wrong type for value; expected float64; got int',
  },
  { name: 'bool parameter', template: '{{ bl true }} {{ bl .b }}', out: 'false false' },
  {
    name: 'bool parameter given a number',
    template: '{{ bl 1 }}',
    err: 'template: t:1:6: executing "t" at <1>: expected bool; found 1',
  },
  { name: 'slice parameter', template: '{{ lst .l }} {{ lst nil }} {{ lst .missing }}', out: '2 0 0' },
  {
    name: 'slice parameter given a map',
    template: '{{ lst .m }}',
    err: 'template: t:1:7: executing "t" at <.m>: wrong type for value; expected []interface {}; got map[string]interface {}',
  },
  {
    name: 'slice parameter given a string constant',
    template: '{{ lst "x" }}',
    err: 'template: t:1:7: executing "t" at <"x">: can\'t handle "x" for arg of type []interface {}',
  },
  { name: 'map parameter', template: '{{ mp .m }} {{ mp nil }} {{ mp .missing }}', out: '1 0 0' },
  {
    name: 'map parameter given a slice',
    template: '{{ mp .l }}',
    err: 'template: t:1:6: executing "t" at <.l>: wrong type for value; expected map[string]interface {}; got []interface {}',
  },
  {
    name: 'interface parameter',
    template:
      '{{ anyf nil }} {{ anyf .missing }} {{ anyf 1 }} {{ anyf 1.0 }} {{ anyf "s" }} {{ anyf .l }} {{ anyf .n }} {{ anyf true }}',
    out: '<nil>=<nil> <nil>=<nil> int=1 float64=1 string=s []interface {}=[1 x] <nil>=<nil> bool=true',
  },
  {
    name: 'variadic parameters',
    template: '{{ join "," "a" "b" }}|{{ join "," }}|{{ "c" | join "," "a" }}|{{ "," | join }}',
    out: 'a,b||a,c|',
  },
  {
    name: 'variadic without the fixed parameter',
    template: '{{ join }}',
    err: 'template: t:1:3: executing "t" at <join>: wrong number of args for join: want at least 1 got 0',
  },
  {
    name: 'variadic element of the wrong type',
    template: '{{ join "," 1 }}',
    err: 'template: t:1:12: executing "t" at <1>: expected string; found 1',
  },
  { name: 'variadic interface parameters', template: '{{ cnt }} {{ cnt 1 nil .missing }}', out: '0 3' },
  {
    name: 'too few arguments',
    template: '{{ str }}',
    err: 'template: t:1:3: executing "t" at <str>: wrong number of args for str: want 1 got 0',
  },
  {
    name: 'too many arguments',
    template: '{{ str "a" "b" }}',
    err: 'template: t:1:3: executing "t" at <str>: wrong number of args for str: want 1 got 2',
  },
  {
    name: 'too many arguments with a piped one',
    template: '{{ "a" | str "b" }}',
    err: 'template: t:1:9: executing "t" at <str>: wrong number of args for str: want 1 got 2',
  },
  {
    name: 'error result',
    template: '{{ fail "x" }}',
    err: 'template: t:1:3: executing "t" at <fail "x">: error calling fail: boom: x',
  },
  {
    name: 'error result of an argument',
    template: '{{ print (fail "x") }}',
    err: 'template: t:1:10: executing "t" at <fail "x">: error calling fail: boom: x',
  },
  {
    name: 'panic',
    template: '{{ boom }}',
    err: 'template: t:1:3: executing "t" at <boom>: error calling boom: kaboom',
  },
  {
    name: 'nil interface result',
    template: '{{ nilf }}|{{ print (nilf) }}|{{ if nilf }}t{{ else }}f{{ end }}|{{ nilf | anyf }}|{{ anyf nilf }}',
    out: '<no value>|custom|f|<nil>=<nil>|<nil>=<nil>',
  },
  { name: 'a function map entry overrides a builtin', template: '{{ print 1 2 }}', out: 'custom' },
  {
    name: 'function as a field chain',
    template: '{{ nilf.x }}',
    err: 'template: t:1:3: executing "t" at <nilf>: nil pointer evaluating interface {}.x',
  },
  {
    name: 'function result piped to a field',
    template: '{{ (str "a").x }}',
    err: 'template: t:1:8: executing "t" at <"a">: can\'t evaluate field x in type string',
  },
];

for (const c of cases) {
  test(`functions: ${c.name}`, () => {
    const got = render(c.template, data, funcs);
    assert.deepEqual(got, 'out' in c ? { out: c.out } : { err: c.err });
  });
}

test('functions: any other exception thrown by a function becomes a template error', () => {
  const bad: FuncMap = {
    typeError: goFunc([], CONSTANT, () => (null as unknown as { x: number }).x),
    thrower: goFunc([], CONSTANT, () => {
      throw new Error('plain error');
    }),
    stringThrower: goFunc([], CONSTANT, () => {
      throw 'not an Error';
    }),
  };
  assert.match(
    (render('{{ typeError }}', null, bad) as { err: string }).err,
    /^template: t:1:3: executing "t" at <typeError>: error calling typeError: Cannot read properties of null/,
  );
  assert.deepEqual(render('{{ thrower }}', null, bad), {
    err: 'template: t:1:3: executing "t" at <thrower>: error calling thrower: plain error',
  });
  assert.deepEqual(render('{{ stringThrower }}', null, bad), {
    err: 'template: t:1:3: executing "t" at <stringThrower>: error calling stringThrower: not an Error',
  });
});

test('functions: a name that is neither builtin nor in the map is a parse error, as in Go', () => {
  assert.deepEqual(render('{{ nope }}', null, funcs), { err: 'template: t:1: function "nope" not defined' });
  // Own properties only: Object.prototype members are not functions.
  assert.deepEqual(render('{{ constructor }}', null, funcs), {
    err: 'template: t:1: function "constructor" not defined',
  });
  assert.deepEqual(render('{{ toString }}', null, funcs), { err: 'template: t:1: function "toString" not defined' });
});
