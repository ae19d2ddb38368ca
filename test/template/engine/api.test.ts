// The public API, shaped like Go's *template.Template: parsing several texts into one set (adding and
// redefining templates), executing the set or one of its templates, and TemplateError's fields. The
// expected texts are Go 1.19's for the same sequence of Parse/Execute/ExecuteTemplate calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LIMITS, newTemplate, TemplateError, type Template } from '../../../src/template/index.ts';

function run(t: Template, name: string | undefined, data: unknown = null): string {
  try {
    return name === undefined ? t.execute(data) : t.executeTemplate(name, data);
  } catch (e) {
    if (e instanceof TemplateError) return `ERR ${e.message}`;
    throw e;
  }
}

function parseError(t: Template, text: string): string {
  try {
    t.parse(text);
  } catch (e) {
    if (e instanceof TemplateError) return e.message;
    throw e;
  }
  return 'parsed';
}

test('api: parsing several texts into one template set, as Go does', () => {
  const t = newTemplate('t');
  assert.equal(run(t, undefined), 'ERR template: t: "t" is an incomplete or empty template');
  t.parse('main {{template "a" .}}');
  assert.equal(
    run(t, undefined),
    'ERR template: t:1:16: executing "t" at <{{template "a" .}}>: template "a" not defined',
  );
  t.parse('{{define "a"}}A1{{end}}');
  assert.equal(run(t, undefined), 'main A1');
  // An empty definition never replaces a template.
  t.parse('{{define "a"}}  {{end}}');
  assert.equal(run(t, undefined), 'main A1');
  // A later non-empty one does.
  t.parse('{{define "a"}}A2{{end}}');
  assert.equal(run(t, undefined), 'main A2');
  // A text that fails to parse adds nothing, not even its valid definitions.
  assert.equal(
    parseError(t, '{{define "a"}}A3{{end}}{{define "b"}}B{{end}}{{if}}'),
    'template: t:1: missing value for if',
  );
  assert.equal(run(t, undefined), 'main A2');
  assert.equal(run(t, 'b'), 'ERR template: no template "b" associated with template "t"');
  assert.equal(run(t, 'a'), 'A2');
  assert.equal(
    parseError(t, '{{define "a"}}x{{end}}{{define "a"}}y{{end}}'),
    'template: t:1: template: multiple definition of template "a"',
  );
  // Only spaces: the main template keeps its earlier text.
  t.parse('   ');
  assert.equal(run(t, undefined), 'main A2');
  // Errors in a template from a later Parse: the set's name, lines of that text.
  t.parse('{{define "e"}}\n\n  {{.x.y}}{{end}}');
  assert.equal(
    run(t, 'e', { x: 1n }),
    'ERR template: t:3:6: executing "e" at <.x.y>: can\'t evaluate field y in type interface {}',
  );
  assert.equal(t.lookup('a'), true);
  assert.equal(t.lookup('b'), false);
  assert.equal(t.definedTemplates(), '; defined templates are: "a", "e", "t"');
});

test('api: a text with only definitions gives an empty main template', () => {
  const t = newTemplate('u').parse('{{define "d"}}D{{end}}');
  assert.equal(run(t, undefined), '');
  assert.equal(run(t, 'd'), 'D');
});

test('api: block defines a template that a later Parse can override', () => {
  const t = newTemplate('v').parse('{{block "b" .}}B{{.}}{{end}}|{{template "b" 2}}');
  assert.equal(run(t, undefined, 1n), 'B1|B2');
  t.parse('{{define "b"}}override{{end}}');
  assert.equal(run(t, undefined, 1n), 'override|override');
});

test('api: a template set is executed many times with different data', () => {
  const t = newTemplate('m').parse('{{range .}}{{.}},{{end}}');
  assert.equal(t.execute([1n, 2n]), '1,2,');
  assert.equal(t.execute(['a']), 'a,');
  assert.equal(t.execute(null), '');
  assert.equal(t.execute(undefined), '');
});

test("api: TemplateError carries the phase, the template, and Go's line and column", () => {
  try {
    newTemplate('p').parse('a\nb {{ if }}');
    assert.fail('parsed');
  } catch (e) {
    assert.ok(e instanceof TemplateError);
    assert.equal(e.message, 'template: p:2: missing value for if');
    assert.equal(e.phase, 'parse');
    assert.equal(e.templateName, 'p');
    assert.equal(e.line, 2);
    // Go's parse error has no column; ours is that of the item the error was found at ("}}" in "b {{ if }}").
    assert.equal(e.column, 8);
  }
  try {
    newTemplate('x').parse('{{define "d"}}\né {{ .a.b }}{{end}}{{template "d" .}}').execute({ a: 1n });
    assert.fail('executed');
  } catch (e) {
    assert.ok(e instanceof TemplateError);
    assert.equal(e.message, 'template: x:2:8: executing "d" at <.a.b>: can\'t evaluate field b in type interface {}');
    assert.equal(e.phase, 'exec');
    assert.equal(e.templateName, 'd');
    assert.equal(e.line, 2);
    // Bytes, as Go counts them ("é {{ " is 6), at the chain's second field, where Go's node starts.
    assert.equal(e.column, 8);
  }
});

test('api: default limits', () => {
  assert.deepEqual(
    { ...DEFAULT_LIMITS },
    {
      maxDepth: 1000,
      maxOutputBytes: 16 * 1024 * 1024,
      maxRangeIterations: 1_000_000,
      maxSteps: 10_000_000,
      maxWork: 500_000_000,
      maxMemoryBytes: 256 * 1024 * 1024,
    },
  );
  assert.ok(Object.isFrozen(DEFAULT_LIMITS));
});
