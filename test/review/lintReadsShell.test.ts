// lint reads an OSP's scripts as a shell does (src/lint/shellCommands.ts): a comment, an echo or a quoted
// string that mentions `curl -k` is no finding, while a real `curl -k` is one wherever the shell would run it
// (a continued line, `if !`, $(...) inside quotes, a here-document, sudo, a unit's ExecStart). The property
// test attacks it with comments and prose inserted anywhere in every example and default profile. And
// `--format github` reports skipped validators and a summary line.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { curlInsecureFindings, type LintProfileInput } from '../../src/lint/lintProfile.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { osmKrm, tempDir } from '../cli/routeSupport.ts';

const EXAMPLE_PROFILES = ['examples/kpt', 'examples/argocd/app', 'examples/flux/source', 'examples/kustomize/base'].map(
  (d) => `${d}/operatingsystemprofile.yaml`,
);
const DEFAULT_PROFILES = ['ubuntu', 'rhel', 'rockylinux', 'amzn2', 'flatcar', 'flatcar-cloud-init'].map(
  (n) => `src/profiles/osp-${n}.yaml`,
);

test('no example profile gets a finding from its comment saying never `curl -k` (through the bundle)', () => {
  for (const file of EXAMPLE_PROFILES) {
    assert.match(readFileSync(join(REPO_ROOT, file), 'utf8'), /#.*never `curl -k`/, `${file} still has the comment`);
    const r = osmKrm(['lint', file, '--format', 'json']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).findings.filter((f: any) => f.check === 'curl-insecure'),
      [],
      file,
    );
  }
});

/** The kpt example's profile with one more script, and the OSP file's line of each of its lines. */
function withScript(script: string, unit?: string): { text: string; lineOf: (needle: string) => number } {
  const osp = parse(readFileSync(join(REPO_ROOT, 'examples/kpt/operatingsystemprofile.yaml'), 'utf8'));
  osp.spec.provisioningConfig.files.push({
    path: '/opt/bin/lint-me',
    permissions: 755,
    content: { inline: { data: script } },
  });
  if (unit !== undefined)
    osp.spec.provisioningConfig.files.push({
      path: '/etc/systemd/system/lint-me.service',
      permissions: 644,
      content: { inline: { data: unit } },
    });
  const text = stringify(osp, { lineWidth: 0, blockQuote: 'literal' });
  const lines = text.split('\n');
  return { text, lineOf: (needle) => lines.findIndex((l) => l.includes(needle)) + 1 };
}

test('a real curl -k is found where the shell runs it, and only there (through the bundle)', () => {
  const script = [
    '#!/bin/bash',
    'set -euo pipefail',
    '# curl -k here is a comment',
    'echo "never curl -k" # nor --insecure',
    "note='curl -k",
    "  is not a command here'",
    'curl -fsS --retry 3 \\',
    '  -k https://continued.example/x -o /tmp/x',
    'if ! sudo curl --insecure https://negated.example/; then exit 1; fi',
    'token="$(curl -sk {{ .ServerURL }}/api/v1/namespaces/x)"',
    'cat <<EOF >/opt/bin/written',
    '#!/bin/sh',
    '# curl -k in a comment of the written script',
    'curl -k https://heredoc.example/',
    'EOF',
    'sha256sum -c /tmp/x.sha256',
    '',
  ].join('\n');
  const unit =
    '[Service]\n# ExecStart=/usr/bin/curl -k https://commented.example/\nExecStart=/usr/bin/curl -k https://unit.example/\n';
  const { text, lineOf } = withScript(script, unit);
  const dir = tempDir();
  writeFileSync(join(dir, 'osp.yaml'), text);
  const r = osmKrm(['lint', 'osp.yaml', '--format', 'json'], { cwd: dir });
  const found = JSON.parse(r.stdout)
    .findings.filter((f: any) => f.check === 'curl-insecure')
    .map((f: any) => [f.severity, f.line]);
  const expected = [
    ['warning', lineOf('-k https://continued.example/x')] as const,
    ['warning', lineOf('sudo curl --insecure')] as const,
    ['error', lineOf('token="$(curl -sk')] as const,
    ['warning', lineOf('curl -k https://heredoc.example/')] as const,
    ['warning', lineOf('ExecStart=/usr/bin/curl -k https://unit.example/')] as const,
  ];
  // A continued command is placed on the line where it starts.
  expected[0] = ['warning', lineOf('curl -fsS --retry 3')];
  assert.deepEqual(
    found.sort((a: any, b: any) => a[1] - b[1]),
    expected.map((e) => [...e]).sort((a, b) => (a[1] as number) - (b[1] as number)),
  );
  assert.equal(r.code, 1, 'the API server one is an error');
});

/** Every shell script file of a profile (object), by stage and index. */
function scriptFiles(osp: any): Array<{ stage: string; index: number; lines: string[] }> {
  const out: Array<{ stage: string; index: number; lines: string[] }> = [];
  for (const stage of ['bootstrapConfig', 'provisioningConfig']) {
    (osp.spec[stage]?.files ?? []).forEach((f: any, index: number) => {
      const data = f?.content?.inline?.data;
      if (typeof data === 'string' && /^#!\s*\S*\/(env\s+)?(ba)?sh\b/.test(data))
        out.push({ stage, index, lines: data.split('\n') });
    });
  }
  return out;
}

function findingsOf(osp: any): Array<[string, string]> {
  const text = stringify(osp, { lineWidth: 0, blockQuote: 'literal' });
  const input: LintProfileInput = {
    object: parseAllDocuments(text)[0]!.toJS(),
    file: 'osp.yaml',
    text,
    documentIndex: 0,
  };
  return curlInsecureFindings(input).map((f) => [f.severity, f.message]);
}

const PROSE = [
  '# never curl -k',
  '# curl --insecure https://x.example/',
  'echo "do not run curl -k here"',
  "printf '%s\\n' 'curl -k is insecure'",
  ': curl -k',
  '#curl -sk',
];

test('comments and prose mentioning curl -k, inserted anywhere in a script, add no finding (every example and default profile)', () => {
  const profiles = [...EXAMPLE_PROFILES, ...DEFAULT_PROFILES].map((f) =>
    parse(readFileSync(join(REPO_ROOT, f), 'utf8')),
  );
  const baselines = profiles.map(findingsOf);
  fc.assert(
    fc.property(fc.nat(), fc.nat(), fc.nat(), fc.constantFrom(...PROSE), fc.boolean(), (p, s, at, prose, trailing) => {
      const index = p % profiles.length;
      const osp = structuredClone(profiles[index]);
      const scripts = scriptFiles(osp);
      if (scripts.length === 0) return;
      const script = scripts[s % scripts.length]!;
      const k = at % script.lines.length;
      const line = script.lines[k]!;
      // Not where it would change what the shell reads: after a continued line, or on a here-document's end.
      if ((k > 0 && script.lines[k - 1]!.endsWith('\\')) || line.endsWith('\\') || /^\s*[A-Z_]+\s*$/.test(line)) return;
      const lines = [...script.lines];
      if (trailing && prose.startsWith('#')) lines[k] = `${line} ${prose}`;
      else lines.splice(k, 0, `${/^\s*/.exec(line)![0]}${prose}`);
      osp.spec[script.stage].files[script.index].content.inline.data = lines.join('\n');
      assert.deepEqual(findingsOf(osp), baselines[index]);
    }),
    { seed: 2311, numRuns: 400 },
  );
});

test('a real curl -k appended to any script is found on its line', () => {
  const profiles = [...EXAMPLE_PROFILES, ...DEFAULT_PROFILES].map((f) =>
    parse(readFileSync(join(REPO_ROOT, f), 'utf8')),
  );
  fc.assert(
    fc.property(
      fc.nat(),
      fc.nat(),
      fc.constantFrom(
        'curl -k https://x.example/',
        'curl -fsSk https://x.example/',
        'sudo curl --insecure https://x.example/',
      ),
      (p, s, command) => {
        const osp = structuredClone(profiles[p % profiles.length]);
        const scripts = scriptFiles(osp);
        if (scripts.length === 0) return;
        const script = scripts[s % scripts.length]!;
        const before = findingsOf(osp).length;
        const data = script.lines.join('\n');
        osp.spec[script.stage].files[script.index].content.inline.data =
          `${data}${data.endsWith('\n') ? '' : '\n'}${command}\n`;
        assert.equal(findingsOf(osp).length, before + 1, command);
      },
    ),
    { seed: 2312, numRuns: 60 },
  );
});

test('--format github: a notice per skipped validator, then the summary line', () => {
  // Only node on PATH: shellcheck and cloud-init are not found.
  const bin = tempDir();
  const { symlinkSync } = process.getBuiltinModule('node:fs');
  symlinkSync(process.execPath, join(bin, 'node'));
  const r = osmKrm(['lint', 'examples/kpt/operatingsystemprofile.yaml', '--format', 'github'], { env: { PATH: bin } });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^::notice title=osm-krm lint \(skipped\)::shellcheck: shellcheck is not installed$/m);
  assert.match(r.stdout, /^::notice title=osm-krm lint \(skipped\)::cloud-init schema: cloud-init is not installed$/m);
  assert.match(
    r.stdout,
    /\nosm-krm lint: 1 profile\(s\), 6 user-data config\(s\) rendered: 0 error\(s\), 0 warning\(s\)\n$/,
  );
});
