// Go structs, pointers and Stringers (src/go/reflect/value.ts) behave as their Go counterparts do in templates. The
// expectations are Go 1.19's output for the same templates over this Go data:
//
//   type Inner struct{ X int }
//   type Dur struct{ D int64 }                       // with String() = "<D>s"
//   type T struct {
//     Name string; N int; F float64; P, NilP *Inner; S, NilS *string; IP net.IP; IPs []net.IP
//     I interface{}; M map[string]interface{}; L []interface{}; Dur Dur; PDur *Dur; B bool
//   }
//   func (t *T) Greet(s string) string                // "hi " + s
//   data := &T{Name: "n", N: 3, F: 1.5, P: &Inner{7}, S: &"str", IP: 10.0.0.1, IPs: [10.0.0.1 ::1],
//              M: {a: 1}, L: [1 "x"], Dur: Dur{5}, PDur: &Dur{6}}   // NilP, NilS, I nil; B false
//   funcs: up func(string) string                     // s + "!"
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  GoPointer,
  GoStringer,
  GoStruct,
  goFunc,
  CONSTANT,
  newTemplate,
  TemplateError,
} from '../../../src/template/index.ts';

const inner = (x: bigint) => new GoStruct('main.Inner', { X: x });
const dur = (d: bigint) => new GoStringer('main.Dur', `${d}s`, new GoStruct('main.Dur', { D: d }));
const ip = (s: string) => new GoStringer('net.IP', s);
const data = new GoPointer(
  '*main.T',
  new GoStruct(
    'main.T',
    {
      Name: 'n',
      N: 3n,
      F: 1.5,
      P: new GoPointer('*main.Inner', inner(7n)),
      NilP: new GoPointer('*main.Inner', null),
      S: new GoPointer('*string', 'str'),
      NilS: new GoPointer('*string', null),
      IP: ip('10.0.0.1'),
      IPs: [ip('10.0.0.1'), ip('::1')],
      I: null,
      M: { a: 1n },
      L: [1n, 'x'],
      Dur: dur(5n),
      PDur: new GoPointer('*main.Dur', dur(6n)),
      B: false,
    },
    undefined,
    { Greet: goFunc(['string'], CONSTANT, (s: string) => 'hi ' + s) },
  ),
);
const funcs = { up: goFunc(['string'], CONSTANT, (s: string) => s + '!') };

function render(template: string): { out: string } | { err: string } {
  try {
    return { out: newTemplate('t', { funcs }).parse(template).execute(data) };
  } catch (e) {
    if (e instanceof TemplateError) return { err: e.message };
    throw e;
  }
}

const cases: [string, { out: string } | { err: string }][] = [
  ['{{.Name}} {{.N}} {{.F}} {{.B}}', { out: 'n 3 1.5 false' }],
  [
    '{{.Missing}}',
    { err: 'template: t:1:2: executing "t" at <.Missing>: can\'t evaluate field Missing in type *main.T' },
  ],
  ['{{.P.X}}', { out: '7' }],
  ['{{.NilP.X}}', { err: 'template: t:1:7: executing "t" at <.NilP.X>: nil pointer evaluating *main.Inner.X' }],
  ['{{if .NilP}}y{{else}}n{{end}} {{if .P}}y{{end}}', { out: 'n y' }],
  ['{{.P}}|{{print .P}}|{{printf "%v %+v" .P .P}}', { out: '{7}|&{7}|&{7} &{X:7}' }],
  [
    '{{.IP}}|{{.IPs}}|{{print .IPs}}|{{printf "%v|%s|%q" .IP .IP .IP}}',
    { out: '10.0.0.1|[10.0.0.1 ::1]|[10.0.0.1 ::1]|10.0.0.1|10.0.0.1|"10.0.0.1"' },
  ],
  ['{{.Dur}}|{{.PDur}}|{{print .Dur .PDur}}|{{printf "%d" .Dur}}', { out: '5s|6s|5s 6s|{5}' }],
  ['{{.I}}|{{.I.X}}', { err: 'template: t:1:11: executing "t" at <.I.X>: nil pointer evaluating interface {}.X' }],
  [
    '{{.Name 1}}',
    { err: 'template: t:1:2: executing "t" at <.Name>: Name has arguments but cannot be invoked as function' },
  ],
  ['{{.Greet "bob"}}|{{"al" | .Greet}}', { out: 'hi bob|hi al' }],
  ['{{.Greet}}', { err: 'template: t:1:2: executing "t" at <.Greet>: wrong number of args for Greet: want 1 got 0' }],
  ['{{.Greet 1}}', { err: 'template: t:1:9: executing "t" at <1>: expected string; found 1' }],
  ['{{len .}}', { err: 'template: t:1:2: executing "t" at <len .>: error calling len: len of type main.T' }],
  [
    '{{index . 0}}',
    { err: 'template: t:1:2: executing "t" at <index . 0>: error calling index: can\'t index item of type main.T' },
  ],
  ['{{.N.X}}', { err: 'template: t:1:4: executing "t" at <.N.X>: can\'t evaluate field X in type int' }],
  ['{{.M.a}} {{.M.b}} {{.L}}', { out: '1 <no value> [1 x]' }],
  ['{{up .Name}} {{up .S}}', { out: 'n! str!' }],
  ['{{up .NilS}}', { err: 'template: t:1:5: executing "t" at <.NilS>: dereference of nil pointer of type string' }],
  ['{{up .N}}', { err: 'template: t:1:5: executing "t" at <.N>: wrong type for value; expected string; got int' }],
  ['{{up .IP}}', { err: 'template: t:1:5: executing "t" at <.IP>: wrong type for value; expected string; got net.IP' }],
  ['{{eq .Name "n"}} {{eq .P .P}} {{eq .NilP nil}} {{eq .Dur .Dur}}', { out: 'true true true true' }],
  ['{{eq .P nil}}', { out: 'false' }],
  ['{{with .P}}{{.X}}{{end}}{{with .NilP}}x{{else}}none{{end}}', { out: '7none' }],
  ['{{$.P.X}} {{$x := .P}}{{$x.X}}', { out: '7 7' }],
  ['{{not .NilP}} {{and .P .N}} {{or .NilP .Name}}', { out: 'true 3 n' }],
  ['{{printf "%T %T %T %T" . .P .IP .Dur}}', { out: '*main.T *main.Inner net.IP main.Dur' }],
  ['{{printf "%+v" .Dur}}|{{printf "%#v" .P}}', { out: '5s|&main.Inner{X:7}' }],
  ['{{.Dur.D}} {{.PDur.D}}', { out: '5 6' }],
  ['{{html .P}} {{js .S}} {{urlquery .NilS}}', { out: '{7} str %3Cnil%3E' }],
  ['{{len .IPs}} {{index .IPs 1}}', { out: '2 ::1' }],
  ['{{range .IPs}}[{{.}}]{{end}}', { out: '[10.0.0.1][::1]' }],
  ['{{range $i, $e := .IPs}}{{$i}}={{$e}} {{end}}', { out: '0=10.0.0.1 1=::1 ' }],
];

for (const [template, want] of cases) {
  test(`Go values: ${template}`, () => assert.deepEqual(render(template), want));
}

// Where our model cannot know what Go knows, documented rather than hidden:
test('Go values: a nil pointer cannot tell which fields its struct has, so every field is a nil dereference', () => {
  // Go: "can't evaluate field Missing in type *main.Inner" for a field the struct lacks.
  assert.deepEqual(render('{{.NilP.Missing}}'), {
    err: 'template: t:1:7: executing "t" at <.NilP.Missing>: nil pointer evaluating *main.Inner.Missing',
  });
});

test('Go values: pointers to non-composites print as an address, as in Go (whose address differs per run)', () => {
  assert.match((render('{{print .S}}') as { out: string }).out, /^0xc[0-9a-f]+$/);
  assert.deepEqual(render('{{.S}}|{{.NilS}}|{{printf "%v" .NilS}}'), { out: 'str|<nil>|<nil>' });
});
