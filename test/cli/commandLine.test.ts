// One command-line parser for every command, its help generated from the same table (src/cli/commandSpecs.ts),
// run through the built bundle as a user runs it: `--flag=value` and `--flag value` alike, `--`, `-h`/`--help`
// and `help COMMAND` everywhere, `--version`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { COMMANDS, RENDER_COMMAND } from '../../src/cli/commandSpecs.ts';
import { helpText, parseCommandLine, synopses, UsageError } from '../../src/cli/commandLine.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { tempDir } from '../review/reviewSupport.ts';

const BUNDLE = join(REPO_ROOT, 'dist', 'osm-krm.cjs');
const EXAMPLE = join(REPO_ROOT, 'examples/basic/resourcelist.yaml');

function osmKrm(args: string[], cwd = REPO_ROOT) {
  const r = spawnSync(process.execPath, [BUNDLE, ...args], { cwd, encoding: 'utf8', env: { PATH: process.env.PATH } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('every command prints the help generated from its table for -h, --help and `help COMMAND`, exit 0', () => {
  for (const spec of COMMANDS) {
    const expected = helpText(spec);
    for (const args of [
      [spec.name, '-h'],
      [spec.name, '--help'],
      ['help', spec.name],
      [spec.name, 'x', '--help'],
    ]) {
      const r = osmKrm(args);
      assert.deepEqual(r, { code: 0, stdout: expected, stderr: '' }, args.join(' '));
    }
  }
});

test("the help names every option of the table, and the top-level help every command's synopsis", () => {
  const top = osmKrm(['--help']);
  assert.equal(top.code, 0);
  for (const spec of COMMANDS) {
    const help = helpText(spec);
    for (const o of spec.options) {
      assert.match(help, new RegExp(`^  ${o.flag}${o.value ? ` ${o.value}` : ''} `, 'm'), `${spec.name} ${o.flag}`);
      assert.ok(
        synopses(spec).some((s) => s.includes(o.flag)),
        `${spec.name} synopsis names ${o.flag}`,
      );
    }
    for (const s of synopses(spec)) assert.ok(top.stdout.includes(s), s);
  }
});

test('every option with a value is read the same as --flag=value and as --flag value (the parser, every command)', () => {
  for (const spec of COMMANDS) {
    for (const o of spec.options) {
      if (o.value === undefined) continue;
      const v = o.choices?.[0] ?? 'some-value';
      const operands = spec.forms.find((f) => f.with === o.flag)
        ? []
        : spec.forms[0]!.operands.split(' ')
            .filter((w) => !w.startsWith('['))
            .map((w, i) => `op${i}`);
      const joined = parseCommandLine(spec, [...operands, `${o.flag}=${v}`]);
      const split = parseCommandLine(spec, [...operands, o.flag, v]);
      assert.ok(joined !== 'help' && split !== 'help');
      assert.equal(joined.value(o.flag), v, `${spec.name} ${o.flag}=`);
      assert.equal(split.value(o.flag), v, `${spec.name} ${o.flag} VALUE`);
      assert.deepEqual(joined.operands, split.operands);
    }
  }
});

test('render --config=FILE works as generate --config=FILE does (through the bundle)', () => {
  const dir = tempDir();
  const list = readFileSync(EXAMPLE, 'utf8');
  writeFileSync(join(dir, 'rl.yaml'), list);
  // The ResourceList's own config, given again as a file: the same render either way.
  const config = list
    .slice(list.indexOf('functionConfig:\n') + 'functionConfig:\n'.length, list.indexOf('\nitems:'))
    .replace(/^ {2}/gm, '');
  writeFileSync(join(dir, 'osm.yaml'), config);
  const joined = osmKrm(['render', 'rl.yaml', '--config=osm.yaml', '--md=ubuntu-workers'], dir);
  const split = osmKrm(['render', 'rl.yaml', '--config', 'osm.yaml', '--md', 'ubuntu-workers'], dir);
  assert.equal(joined.code, 0, joined.stderr);
  assert.deepEqual(joined, split);
  assert.match(joined.stdout, /^# MachineDeployment kube-system\/ubuntu-workers$/m);
});

test('`--` ends the options: an operand may then start with a dash', () => {
  const dir = tempDir();
  mkdirSync(join(dir, '-inputs'));
  writeFileSync(join(dir, '-inputs', 'rl.yaml'), readFileSync(EXAMPLE, 'utf8'));
  const r = osmKrm(['render', '--md', 'ubuntu-workers', '--', '-inputs/rl.yaml'], dir);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^# MachineDeployment kube-system\/ubuntu-workers$/m);
  const without = osmKrm(['render', '-inputs/rl.yaml'], dir);
  assert.equal(without.code, 2);
  assert.match(without.stderr, /^osm-krm render: unknown option -inputs\/rl\.yaml\nusage: osm-krm render /);
});

test('wrong arguments: exit 2, the reason (with the closest option) and the help on stderr', () => {
  const cases: Array<[string[], RegExp]> = [
    [['render', '--confg', 'x'], /^osm-krm render: unknown option --confg; did you mean --config\?\n/],
    [['render', '--explain=yes'], /^osm-krm render: --explain takes no value\n/],
    [['render', '--config'], /^osm-krm render: --config needs a value \(--config FILE or --config=FILE\)\n/],
    [['render', '--config='], /^osm-krm render: --config needs a value/],
    [['render', 'a', 'b'], /^osm-krm render: expected at most one PATH, got 2 argument\(s\)\n/],
    [['hydrate', 'a'], /^osm-krm hydrate: expected SRC and OUT, got 1 argument\(s\)\n/],
    [['diff', 'a'], /^osm-krm diff: expected BASE and HEAD, got 1 argument\(s\)\n/],
    [
      ['diff', '--git', 'main', 'a', 'b'],
      /^osm-krm diff: with --git, expected at most one PATH, got 2 argument\(s\)\n/,
    ],
    [['diff', '--git=-x'], /^osm-krm diff: --git needs a revision, got -x\n/],
    [['lint'], /^osm-krm lint: expected at least one PATH, got 0 argument\(s\)\n/],
    [['lint', 'x', '--format=yaml'], /^osm-krm lint: --format must be text, json or github, got "yaml"\n/],
    [['template', '--funcs', 'helm', 't'], /^osm-krm template: --funcs must be builtin, sprig or osm, got "helm"\n/],
    [['generate', 'a', 'b'], /^osm-krm generate: expected at most one DIR, got 2 argument\(s\)\n/],
  ];
  for (const [args, message] of cases) {
    const r = osmKrm(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, message, args.join(' '));
    const spec = COMMANDS.find((c) => c.name === args[0])!;
    assert.ok(r.stderr.endsWith(helpText(spec)), `${args.join(' ')}: the help follows`);
  }
  const unknown = osmKrm(['rendr']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^osm-krm: unknown command "rendr"; did you mean "render"\?/);
});

test('a switch or an option the table does not list is refused by the parser (nothing is accepted that the help does not name)', () => {
  assert.throws(
    () => parseCommandLine(RENDER_COMMAND, ['--format', 'json']),
    (e) => e instanceof UsageError && /unknown option --format/.test(e.message),
  );
  const parsed = parseCommandLine(RENDER_COMMAND, ['--md', 'a', '--md=b', 'dir']);
  assert.ok(parsed !== 'help');
  assert.deepEqual(parsed.values('--md'), ['a', 'b']);
  assert.deepEqual(parsed.operands, ['dir']);
});

test("--version prints package.json's version", () => {
  const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  assert.deepEqual(osmKrm(['--version']), { code: 0, stdout: `osm-krm ${version}\n`, stderr: '' });
});
