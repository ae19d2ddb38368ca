// Our additions for hostile templates: limits on template depth, output size, range iterations and steps,
// each a TemplateError at the node being executed; and no template can reach JS prototypes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GoStruct, newTemplate, TemplateError, type TemplateLimits } from '../../../src/template/index.ts';
import { render } from './goCases.ts';
import { sprigFuncs } from '../../../src/sprig/index.ts';

function fails(template: string, data: unknown, limits: Partial<TemplateLimits>): TemplateError {
  try {
    newTemplate('t', { limits }).parse(template).execute(data);
  } catch (e) {
    if (e instanceof TemplateError) return e;
    throw e;
  }
  assert.fail('rendered');
}

const RECURSE = '{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}';

// Go 1.19 reports the same at its own depth: template: t:1:28: executing "r" at <{{template "r" .}}>: exceeded maximum template depth (100000)
test("limits: recursion stops at maxDepth with Go's message", () => {
  assert.equal(
    fails(RECURSE, null, { maxDepth: 50 }).message,
    'template: t:1:28: executing "r" at <{{template "r" .}}>: exceeded maximum template depth (50)',
  );
  assert.equal(
    fails(RECURSE, null, {}).message,
    'template: t:1:28: executing "r" at <{{template "r" .}}>: exceeded maximum template depth (1000)',
  );
});

test('limits: nesting deeper than the JS stack is an execution error, not a crash', () => {
  const deep =
    '{{ define "r" }}{{ if . }}{{ with . }}{{ range . }}{{ template "r" $ }}{{ end }}{{ end }}{{ end }}{{ end }}{{ template "r" . }}';
  const e = fails(deep, [1n], { maxDepth: 1_000_000 });
  assert.equal(e.phase, 'exec');
  assert.match(e.message, /^template: t:1:\d+: executing "r" at <.*>: template execution is nested too deeply$/);
});

test('limits: a value nested past the JS stack is named as a value, at the node that walks it', () => {
  // A dict built a level per iteration: Go's growing stack prints it; ours cannot, and says why. Before, the
  // print said "template execution is nested too deeply" (the template is not) and a function "stack overflow".
  const build = '{{ $x := dict }}{{ range until 30000 }}{{ $x = dict "a" $x }}{{ end }}';
  const cases: Array<[string, RegExp]> = [
    [
      '{{ $x }}',
      /executing "t" at <\{\{\$x\}\}>: printing a value nested too deeply for the engine \(its stack ran out\)$/,
    ],
    ['{{ toJson $x }}', /at <toJson \$x>: error calling toJson: a value nested too deeply for the engine/],
    ['{{ if eq $x $x }}y{{ end }}', /at <eq \$x \$x>: error calling eq: a value nested too deeply for the engine/],
    ['{{ printf "%v" $x }}', /at <printf "%v" \$x>: error calling printf: a value nested too deeply for the engine/],
  ];
  for (const [use, message] of cases) {
    try {
      newTemplate('t', { funcs: sprigFuncs, limits: { maxWork: 1e12, maxMemoryBytes: 1e12 } })
        .parse(build + use)
        .execute(null);
      assert.fail(`rendered: ${use}`);
    } catch (e) {
      assert.ok(e instanceof TemplateError, String(e));
      assert.equal(e.phase, 'exec');
      assert.match(e.message, message);
    }
  }
});

test('limits: range iterations are counted over the whole execution', () => {
  assert.match(
    fails('{{ range 100000000 }}x{{ end }}', null, { maxRangeIterations: 1000 }).message,
    /: range exceeded 1000 iterations$/,
  );
  // Ten ranges of 200 are 2000 iterations.
  assert.match(
    fails('{{ range 10 }}{{ range 200 }}{{ end }}{{ end }}', null, { maxRangeIterations: 1500 }).message,
    /range exceeded 1500 iterations$/,
  );
  assert.equal(
    newTemplate('t', { limits: { maxRangeIterations: 2010 } })
      .parse('{{ range 10 }}{{ range 200 }}{{ end }}{{ end }}')
      .execute(null),
    '',
  );
});

test('limits: output is counted in UTF-8 bytes', () => {
  assert.equal(
    newTemplate('t', { limits: { maxOutputBytes: 10 } })
      .parse('{{ range 5 }}é{{ end }}')
      .execute(null),
    'ééééé',
  );
  const e = fails('{{ range 6 }}é{{ end }}', null, { maxOutputBytes: 10 });
  assert.equal(e.message, 'template: t:1:13: executing "t" at <é>: template output exceeds 10 bytes');
  assert.match(
    fails('{{ printf "%0100000d" 1 }}', null, { maxOutputBytes: 4096 }).message,
    /template output exceeds 4096 bytes$/,
  );
});

test('limits: steps', () => {
  assert.match(
    fails('{{ range 10000 }}{{ range 10000 }}{{ end }}{{ end }}', null, { maxSteps: 100000 }).message,
    /template execution exceeded 100000 steps$/,
  );
});

test('limits: parsing something nested too deeply for the JS stack is a parse error', () => {
  for (const text of [
    '{{ if 1 }}'.repeat(20000) + '{{ end }}'.repeat(20000),
    '{{ ' + '('.repeat(20000) + '1' + ')'.repeat(20000) + ' }}',
  ]) {
    try {
      // Limits past the depth: the nesting is what stops it (a parse is metered, by default on the defaults).
      newTemplate('t', { limits: { maxWork: 1e12, maxMemoryBytes: 1e12 } }).parse(text);
      assert.fail('parsed');
    } catch (e) {
      assert.ok(e instanceof TemplateError);
      assert.equal(e.phase, 'parse');
      assert.equal(e.message, 'template: t: template is too deeply nested to parse');
    }
  }
});

test('safety: prototype members are missing map keys, never reachable', () => {
  const data = { m: { a: 1n }, l: [1n], s: 'str' };
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']) {
    assert.deepEqual(
      render(`{{ .${name} }}|{{ .m.${name} }}|{{ index .m "${name}" }}|{{ if .m.${name} }}y{{ end }}`, data),
      { out: '<no value>|<no value>|<no value>|' },
    );
    assert.deepEqual(render(`{{ .l.${name} }}`, data), {
      err: `template: t:1:5: executing "t" at <.l.${name}>: can't evaluate field ${name} in type interface {}`,
    });
    assert.deepEqual(render(`{{ .s.${name} }}`, data), {
      err: `template: t:1:5: executing "t" at <.s.${name}>: can't evaluate field ${name} in type interface {}`,
    });
    assert.deepEqual(render(`{{ .${name} }}`, new GoStruct('main.T', { A: 1n })), {
      err: `template: t:1:3: executing "t" at <.${name}>: can't evaluate field ${name} in type main.T`,
    });
    assert.deepEqual(render(`{{ template "${name}" }}`), {
      err: `template: t:1:12: executing "t" at <{{template "${name}"}}>: template "${name}" not defined`,
    });
  }
  // A key named __proto__ that the data really has is an ordinary key.
  const own = JSON.parse('{"__proto__": "own", "constructor": 5}') as Record<string, unknown>;
  assert.deepEqual(
    render('{{ .__proto__ }} {{ .constructor }} {{ range $k, $v := . }}{{ $k }};{{ end }} {{ len . }}', own),
    { out: 'own 5 __proto__;constructor; 2' },
  );
  // Nothing leaked onto Object.prototype.
  assert.equal(({} as Record<string, unknown>).own, undefined);
});
