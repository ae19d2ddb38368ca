// `osm-krm template`: rendering, exit codes and messages, called directly with an in-memory file system.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runTemplateCommand } from '../../src/cli/templateCommand.ts';
import { runOracle } from '../template/oracle/oracle.ts';
import { parseJsonData } from '../../src/cli/jsonData.ts';

function runBytes(args: string[], files: Record<string, string>): { code: number; stdout: Buffer; stderr: string } {
  const stdout: Buffer[] = [];
  let stderr = '';
  const code = runTemplateCommand(args, {
    stdout: (s) => stdout.push(Buffer.from(s, 'utf8')),
    stdoutBytes: (b) => stdout.push(Buffer.from(b)),
    stderr: (s) => (stderr += s),
    readFile: (p) => {
      if (!Object.prototype.hasOwnProperty.call(files, p))
        throw new Error(`ENOENT: no such file or directory, open '${p}'`);
      return files[p]!;
    },
  });
  return { code, stdout: Buffer.concat(stdout), stderr };
}

function run(args: string[], files: Record<string, string>): { code: number; stdout: string; stderr: string } {
  const r = runBytes(args, files);
  return { ...r, stdout: r.stdout.toString('utf8') };
}

test("prints Go's bytes, also where they are not UTF-8", () => {
  // 0xff, then "é" cut after its first byte by Go's byte-wise substr, then a whole "é".
  const r = runBytes(['t'], { t: '{{ "/w==" | b64dec }}{{ substr 0 1 "é" }}é' });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([...r.stdout], [0xff, 0xc3, 0xc3, 0xa9]);
});

test('renders FILE with --data and prints exactly the output', () => {
  const r = run(['t.tmpl', '--data', 'd.json'], {
    't.tmpl': 'Hello {{ .name }}! {{ range .l }}[{{ . }}]{{ end }}\n',
    'd.json': '{"name": "OSP", "l": [1, 2]}',
  });
  assert.deepEqual(r, { code: 0, stdout: 'Hello OSP! [1][2]\n', stderr: '' });
});

test('JSON integers are Go ints and other numbers float64', () => {
  const r = run(['t', '--data=d'], {
    t: '{{ printf "%T %T %T %v %v" .i .f .big .f .big }} {{ eq .i 3 }}',
    d: '{"i": 3, "f": 2.0, "big": 9007199254740993}',
  });
  assert.equal(r.stdout, 'int float64 int 2 9007199254740993 true');
  assert.equal(r.code, 0);
});

test('the default function map is osm (sprig + OSM extras)', () => {
  const r = run(['t', '--data', 'd'], { t: '{{ toYaml . }}|{{ .v | upper | quote }}', d: '{"v": "x"}' });
  assert.deepEqual(r, { code: 0, stdout: 'v: x|"X"', stderr: '' });
});

test('--funcs builtin has no sprig: calling one is a parse error (exit 1)', () => {
  const r = run(['t', '--funcs', 'builtin'], { t: '{{ upper "x" }}' });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'template: t:1: function "upper" not defined\n');
});

test('--funcs sprig has sprig but not OSM extras', () => {
  assert.equal(run(['t', '--funcs=sprig'], { t: '{{ upper "x" }}' }).stdout, 'X');
  assert.equal(
    run(['t', '--funcs=sprig'], { t: '{{ toYaml 1 }}' }).stderr,
    'template: t:1: function "toYaml" not defined\n',
  );
});

test('without --data dot is nil', () => {
  assert.deepEqual(run(['t'], { t: '[{{ . }}]{{ if . }}x{{ end }}' }), { code: 0, stdout: '[<no value>]', stderr: '' });
});

test("an execution error prints Go's message on stderr and exits 1, named after FILE or --name", () => {
  const files = { 'osp/file.tmpl': 'a\n{{ index .l 5 }}', d: '{"l": []}' };
  const r = run(['osp/file.tmpl', '--data', 'd'], files);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    'template: osp/file.tmpl:2:3: executing "osp/file.tmpl" at <index .l 5>: error calling index: index out of range: 5\n',
  );
  const named = run(['osp/file.tmpl', '--data', 'd', '--name', '/etc/motd'], files);
  assert.match(named.stderr, /^template: \/etc\/motd:2:3: executing "\/etc\/motd" at/);
});

test('the rendering and the error text are exactly what Go produces', async () => {
  const template =
    '{{ range $k, $v := .m }}{{ $k }}={{ $v | quote }}\n{{ end }}{{ semverCompare "~1.33.0" .v }} {{ .f }} {{ toJson . }}';
  const dataText = '{"m": {"b": 1, "a": "x<y"}, "v": "v1.33.2", "f": 1.5e300}';
  const [go] = await runOracle([{ name: 'cmp.tmpl', template, data: parseJsonData(dataText), funcs: 'osm' }]);
  const r = run(['cmp.tmpl', '--data', 'd'], { 'cmp.tmpl': template, d: dataText });
  assert.equal(go!.error, null);
  assert.deepEqual(r, { code: 0, stdout: go!.output, stderr: '' });

  const bad = '{{ .m.a.b }}';
  const [goBad] = await runOracle([{ name: 'bad.tmpl', template: bad, data: parseJsonData(dataText), funcs: 'osm' }]);
  assert.equal(run(['bad.tmpl', '--data', 'd'], { 'bad.tmpl': bad, d: dataText }).stderr, `${goBad!.error}\n`);
});

test('invalid JSON data: clear error naming the file, exit 1', () => {
  const r = run(['t', '--data', 'd.json'], { t: 'x', 'd.json': '{"a": 1,}' });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    'osm-krm template: d.json: invalid JSON data at line 1, column 9: unexpected character, expected a string key\n',
  );
});

test('JSON data past its value bound is refused before it is decoded, exit 1, naming the limit and where', () => {
  // At the limit, 1,500,000 values: the array and 1,499,999 numbers (3 MB; the decoder keeps a Go value for each).
  const r = run(['t', '--data', 'd.json'], { t: 'x', 'd.json': `[${'0,'.repeat(1_499_998)}0]` });
  assert.equal(r.code, 0, r.stderr);
  const past = run(['t', '--data', 'd.json'], { t: 'x', 'd.json': `[${'0,'.repeat(1_499_999)}0]` });
  assert.equal(past.code, 1);
  assert.equal(past.stdout, '');
  assert.equal(
    past.stderr,
    'osm-krm template: d.json: JSON data past its bound at line 1, column 3000000: more than 1500000 values (keys included), the limit on what one run reads\n',
  );
});

test('unreadable files: exit 1 with the path', () => {
  const noTemplate = run(['missing.tmpl'], {});
  assert.equal(noTemplate.code, 1);
  assert.match(noTemplate.stderr, /^osm-krm template: cannot read template missing\.tmpl: ENOENT/);
  const noData = run(['t', '--data', 'nope.json'], { t: 'x' });
  assert.equal(noData.code, 1);
  assert.match(noData.stderr, /^osm-krm template: cannot read data file nope\.json: ENOENT/);
});

test('data keys like __proto__ are plain map keys', () => {
  const r = run(['t', '--data', 'd'], { t: '{{ .__proto__.x }} {{ len . }}', d: '{"__proto__": {"x": "own"}}' });
  assert.deepEqual(r, { code: 0, stdout: 'own 1', stderr: '' });
  assert.equal(({} as Record<string, unknown>).x, undefined);
});

test('usage errors exit 2 with the usage text', () => {
  for (const args of [[], ['a', 'b'], ['t', '--data'], ['t', '--funcs', 'helm'], ['t', '--bogus'], ['t', '-x']]) {
    const r = run(args, { t: 'x', a: 'x', b: 'x' });
    assert.equal(r.code, 2, JSON.stringify(args));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^osm-krm template: .+\nusage: osm-krm template FILE/, JSON.stringify(args));
  }
});

test('--help prints the usage and exits 0', () => {
  const r = run(['--help'], {});
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^usage: osm-krm template FILE/);
});

test('an execution error without --data adds a note that dot is nil; with --data, or on a parse error, none', () => {
  const files = { 't.tmpl': '{{ .Name | upper }}', 'p.tmpl': '{{ nosuch }}', 'd.json': '{"Name":"osm"}' };
  const noData = run(['t.tmpl'], files);
  assert.equal(noData.code, 1);
  assert.equal(
    noData.stderr,
    'template: t.tmpl:1:11: executing "t.tmpl" at <upper>: invalid value; expected string\nosm-krm template: note: no --data was given, so dot is nil\n',
  );
  assert.equal(run(['t.tmpl', '--data', 'd.json'], files).stdout, 'OSM');
  assert.doesNotMatch(run(['p.tmpl'], files).stderr, /note/);
});

test('JSON data with a key longer than 16,383 characters: exit 1 naming it and where, not an internal error', () => {
  const r = run(['t', '--data', 'd.json'], { t: '{{ len . }}', 'd.json': `{"a": 1, "${'k'.repeat(16_384)}": 2}` });
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(
    r.stderr,
    /^osm-krm template: d\.json: JSON data past its bound at line 1, column 10: a key longer than 16,383 characters/,
  );
  assert.doesNotMatch(r.stderr, /internal error/);
});
