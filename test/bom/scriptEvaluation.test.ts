// The shell reader and evaluator behind the bill of materials: what a script fetches, followed through
// variables, arrays, functions, scripts calling scripts and the node's architecture; what the node computes
// stays unresolved with its line and why; generated scripts check that values survive any chain of them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ScriptEvaluator, type ExecutedCommand, type ScriptFile } from '../../src/bom/scriptEvaluation.ts';
import { fetchesOf, type Fetch } from '../../src/bom/fetchCommands.ts';
import { nodeFacts, type Architecture } from '../../src/bom/nodeFacts.ts';

function fetches(
  scripts: Record<string, string>,
  entry: string,
  arch: Architecture = 'amd64',
  args: string[] = [],
): Array<Fetch & { line: number; path: string }> {
  const out: Array<Fetch & { line: number; path: string }> = [];
  const file = (path: string): ScriptFile | undefined =>
    scripts[path] === undefined ? undefined : { stage: 'provisioning', path, content: scripts[path]! };
  const evaluator = new ScriptEvaluator({
    facts: nodeFacts(arch, 'ubuntu', '24.04'),
    scriptAt: file,
    fileAt: (p) => scripts[p],
    onCommand: (c: ExecutedCommand) =>
      out.push(...fetchesOf(c).map((f) => ({ ...f, line: c.line + 1, path: c.script.path }))),
  });
  evaluator.runScript(
    file(entry)!,
    args.map((a) => ({ text: a, unknown: [] })),
  );
  return out;
}

const urls = (fs: ReturnType<typeof fetches>) => fs.flatMap((f) => (f.kind === 'url' ? [f.url.text] : []));

test('variables, arrays, functions and a case on uname -m give the URL each architecture fetches', () => {
  const script = [
    '#!/bin/bash',
    "base='https://dl.example/k8s'",
    'machine=${HOST_ARCH:-$(uname -m)}',
    'case "${machine}" in',
    '  x86_64 | amd64) arch=amd64 ;;',
    '  aarch64) arch=arm64 ;;',
    '  *) echo unsupported >&2; exit 1 ;;',
    'esac',
    'args=(--fail --silent)',
    'if curl --help all | grep -q -- --retry-all-errors; then args+=(--retry-all-errors); fi',
    'get() {',
    '  local url=$1 dest=$2',
    '  curl "${args[@]}" --output "${dest}" "${url}"',
    '}',
    'for b in kubelet kubeadm; do',
    '  get "${base}/v1.34.0/bin/linux/${arch}/${b}" "/opt/bin/${b}"',
    'done',
  ].join('\n');
  assert.deepEqual(urls(fetches({ '/s': script }, '/s', 'amd64')), [
    'https://dl.example/k8s/v1.34.0/bin/linux/amd64/kubelet',
    'https://dl.example/k8s/v1.34.0/bin/linux/amd64/kubeadm',
  ]);
  assert.deepEqual(urls(fetches({ '/s': script }, '/s', 'arm64')), [
    'https://dl.example/k8s/v1.34.0/bin/linux/arm64/kubelet',
    'https://dl.example/k8s/v1.34.0/bin/linux/arm64/kubeadm',
  ]);
  const first = fetches({ '/s': script }, '/s')[0]!;
  assert.equal(first.kind === 'url' && first.output?.text, '/opt/bin/kubelet');
  assert.equal(first.line, 13);
});

test('a value the node computes stays in the URL as written, with its line and why', () => {
  const script = '#!/bin/bash\nset -e\nstamp=$(date +%s)\ncurl -fsSLo /tmp/x "https://dl.example/${stamp}/x.tgz"\n';
  const [f] = fetches({ '/s': script }, '/s');
  assert.ok(f?.kind === 'url');
  assert.equal(f.url.text, 'https://dl.example/$(date +%s)/x.tgz');
  assert.equal(f.line, 4);
  assert.deepEqual(f.url.unknown, ['the output of `date +%s` is known only on the node']);
  // A variable set differently on two paths is unknown too, named as such.
  const branches =
    '#!/bin/bash\nif [ -e /etc/x ]; then u=https://a.example; else u=https://b.example; fi\ncurl -O "$u/f"\n';
  const [g] = fetches({ '/s': branches }, '/s');
  assert.ok(
    g?.kind === 'url' && g.url.unknown.length === 1 && /\$\{u\} is set differently/.test(g.url.unknown[0]!),
    JSON.stringify(g),
  );
});

test('scripts called by path get their arguments; runcmd-like wrappers (bash -c, timeout, sudo) are followed', () => {
  const scripts = {
    '/opt/bin/setup':
      "#!/bin/bash\n/opt/bin/fetch 'https://api.example:6443' my-secret\nsudo timeout 30 bash -c 'curl -fsS https://dl.example/x -o /x'\n",
    '/opt/bin/fetch':
      '#!/bin/bash\nserver=${1%/}\ncurl -H @<(printf "Authorization: Bearer %s" "$(cat /t)") "${server}/api/v1/namespaces/cloud-init-settings/secrets/$2"\n',
  };
  const got = fetches(scripts, '/opt/bin/setup');
  assert.deepEqual(
    got.map((f) => [f.path, f.line, f.kind === 'url' ? f.url.text : '', f.kind === 'url' && f.authenticated]),
    [
      ['/opt/bin/fetch', 3, 'https://api.example:6443/api/v1/namespaces/cloud-init-settings/secrets/my-secret', true],
      ['/opt/bin/setup', 3, 'https://dl.example/x', false],
    ],
  );
  // Called with no arguments, the same script says which argument it lacks.
  const alone = fetches(scripts, '/opt/bin/fetch');
  assert.ok(
    alone[0]?.kind === 'url' &&
      alone[0].url.unknown.some((w) => /\$2 is an argument \/opt\/bin\/fetch is called with/.test(w)),
    JSON.stringify(alone),
  );
});

test('package sources and packages: apt sources written with echo | tee and a here-document, apt-get and yum installs', () => {
  const script = [
    '#!/bin/bash',
    '. /etc/os-release',
    "echo \"deb [arch=$(dpkg --print-architecture)] https://pkgs.example/$(lsb_release -si | tr '[:upper:]' '[:lower:]') ${VERSION_CODENAME} stable\" | tee /etc/apt/sources.list.d/x.list",
    'cat >/etc/yum.repos.d/y.repo <<EOF',
    '[y]',
    'baseurl=https://rpms.example/\\$releasever/\\$basearch/stable',
    'EOF',
    "apt-get -o Acquire::Retries=5 install -y 'containerd.io=2.2*' jq",
    'yum install -y containerd.io-2.2.1',
  ].join('\n');
  const got = fetches({ '/s': script }, '/s');
  assert.deepEqual(
    got.map((f) =>
      f.kind === 'repository'
        ? `${f.manager} ${f.url.text} ${f.detail}`
        : f.kind === 'packages'
          ? `${f.manager}: ${f.packages.map((p) => p.text).join(' ')}`
          : f.kind,
    ),
    [
      'apt https://pkgs.example/ubuntu suite noble, components stable (/etc/apt/sources.list.d/x.list)',
      'yum https://rpms.example/$releasever/$basearch/stable baseurl (/etc/yum.repos.d/y.repo)',
      'apt: containerd.io=2.2* jq',
      'yum: containerd.io-2.2.1',
    ],
  );
});

test('generated chains of assignments, functions and scripts keep every value (fast-check)', () => {
  const segment = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,11}$/);
  fc.assert(
    fc.property(
      fc.array(segment, { minLength: 1, maxLength: 6 }),
      fc.constantFrom('assign', 'function', 'script', 'array'),
      (segments, via) => {
        const lines = ['#!/bin/bash', "v0='https://h.example'"];
        segments.forEach((s, k) => lines.push(`v${k + 1}="\${v${k}}/${s}"`));
        const last = `"\${v${segments.length}}"`;
        const scripts: Record<string, string> = {};
        if (via === 'assign') lines.push(`curl -o /f ${last}`);
        if (via === 'function') lines.push('f() { curl -o /f "$1"; }', `f ${last}`);
        if (via === 'script') {
          scripts['/opt/bin/get'] = '#!/bin/bash\ncurl -o /f "$1"\n';
          lines.push(`get ${last}`);
        }
        if (via === 'array') lines.push(`a=(-o /f ${last})`, 'curl "${a[@]}"');
        scripts['/s'] = lines.join('\n');
        assert.deepEqual(urls(fetches(scripts, '/s')), [`https://h.example/${segments.join('/')}`]);
      },
    ),
    { numRuns: 200 },
  );
});

test('a construct the reader misreads never ends the script: what follows is still read; values read on the node are unknown', () => {
  const script = [
    '#!/bin/bash',
    'declare -A keys=()',
    'mapfile -t pkgs < <(cat /var/lib/list)',
    ')',
    'apt-get install -y --reinstall "${pkgs[@]}"',
    'curl -o /x https://dl.example/after',
  ].join('\n');
  const got = fetches({ '/s': script }, '/s');
  assert.deepEqual(urls(got), ['https://dl.example/after']);
  const reinstall = got.find((f) => f.kind === 'packages');
  assert.ok(reinstall?.kind === 'packages' && reinstall.reinstall, JSON.stringify(got));
  assert.deepEqual(reinstall.packages[0]!.unknown, ['${pkgs} is read on the node (mapfile, /s line 3)']);
});
