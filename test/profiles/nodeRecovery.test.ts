// What makes the default profiles' nodes recover (#28), checked on the files every profile delivers, for the
// profiles the boot tests cannot boot as much as for osp-ubuntu (which test/boot/ boots, cuts the power of and
// runs behind a proxy): shell-read files end with their newline, line loops read an unterminated last line, no
// temporary file has a random name a power cut would strand, the package manager is repaired before any
// install, the hand-overs make their writes durable before their markers, and retry jitter is drawn on the node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runOn } from '../support/runInProcess.ts';
import { REPO_ROOT } from '../support/paths.ts';
import {
  functionConfig,
  isShellScript,
  machineDeployment,
  resourceList,
  userDataOf,
  type UserDataFile,
} from './support/profileRuns.ts';

const PROFILES: Array<{
  profile: string;
  osName: string;
  cloud: string;
  provisioningUtility?: string;
  packages?: RegExp;
}> = [
  { profile: 'osp-ubuntu', osName: 'ubuntu', cloud: 'aws', packages: /\bapt-get\b/ },
  { profile: 'osp-rhel', osName: 'rhel', cloud: 'aws', packages: /\byum\b/ },
  { profile: 'osp-rockylinux', osName: 'rockylinux', cloud: 'aws', packages: /\byum\b/ },
  { profile: 'osp-amzn2', osName: 'amzn2', cloud: 'aws', packages: /\byum\b/ },
  { profile: 'osp-flatcar', osName: 'flatcar', cloud: 'aws' },
  { profile: 'osp-flatcar-cloud-init', osName: 'flatcar', cloud: 'anexia', provisioningUtility: 'cloud-init' },
];

interface Delivered {
  /** path -> content, bootstrap's then provisioning's (which wins), as the node writes them. */
  files: Map<string, string>;
  bootstrap: string;
}

function render(p: (typeof PROFILES)[number]): { delivered: Delivered; raw: string } {
  const md = machineDeployment({
    profile: p.profile,
    osName: p.osName,
    cloud: p.cloud,
    kubelet: '1.34.3',
    ipFamily: 'IPv4',
    provisioningUtility: p.provisioningUtility,
    name: 'workers',
  });
  const r = runOn(
    resourceList(
      [md],
      functionConfig({ nodeHTTPProxy: 'http://proxy.example:3128', nodeNoProxy: '.svc,.cluster.local' }),
    ),
  );
  assert.equal(r.exitCode, 0, r.stderr);
  const secret = (phase: string) =>
    r.items.find((i: any) => i.kind === 'Secret' && i.metadata.name === `workers-kube-system-${phase}-config`);
  const files = new Map<string, string>();
  for (const phase of ['bootstrap', 'provisioning'])
    for (const f of userDataOf(secret(phase)).files) files.set(f.path, f.content);
  const bootstrap = files.get('/opt/bin/bootstrap') ?? '';
  return { delivered: { files, bootstrap }, raw: JSON.stringify(r.items) };
}

const rendered = new Map(PROFILES.map((p) => [p.profile, render(p).delivered]));
const scripts = (d: Delivered): UserDataFile[] =>
  [...d.files].map(([path, content]) => ({ path, mode: 0o755, content })).filter(isShellScript);

test('every file a node script reads line by line arrives with the newline that ends its last line', () => {
  for (const [profile, d] of rendered) {
    const read = new Set<string>();
    for (const s of scripts(d)) for (const m of s.content.matchAll(/\bdone\s*<\s*(\/[\w./-]+)/g)) read.add(m[1]!);
    assert.ok(read.has('/etc/osm/proxy.env'), `${profile}: no script reads /etc/osm/proxy.env`);
    for (const path of read) {
      const content = d.files.get(path);
      if (content !== undefined)
        assert.ok(
          content.endsWith('\n'),
          `${profile}: ${path} arrives without a final newline: ${JSON.stringify(content.slice(-40))}`,
        );
    }
  }
});

test('every loop that reads lines also reads a last line without a newline', () => {
  for (const [profile, d] of rendered) {
    let loops = 0;
    for (const s of scripts(d)) {
      for (const m of s.content.matchAll(/\bwhile\s+(?:IFS=\S*\s+)?read\s+(?:-\w+\s+)*(\w+)([^\n]*)/g)) {
        loops++;
        assert.ok(
          m[2]!.includes(`|| [ -n "\${${m[1]}}" ]`),
          `${profile} ${s.path}: "${m[0].trim()}" skips an unterminated last line`,
        );
      }
    }
    assert.ok(loops > 0, `${profile}: no line loop found`);
  }
});

test('no node script names a temporary file at random (mktemp): a power cut would leave it for good', () => {
  for (const [profile, d] of rendered) {
    for (const s of scripts(d)) assert.doesNotMatch(s.content, /\bmktemp\b/, `${profile} ${s.path}`);
  }
});

test('the package manager is repaired before any package is installed', () => {
  for (const p of PROFILES.filter((x) => x.packages !== undefined)) {
    const d = rendered.get(p.profile)!;
    assert.ok(d.files.has('/opt/bin/recover-package-manager'), p.profile);
    for (const path of ['/opt/bin/setup', '/opt/bin/install-container-runtime']) {
      const text = d.files.get(path)!;
      const install = text.search(new RegExp(`${p.packages!.source}[^\\n]*\\binstall\\b`));
      const recover = text.indexOf('/opt/bin/recover-package-manager\n');
      assert.ok(install > 0, `${p.profile} ${path} installs nothing?`);
      assert.ok(
        recover >= 0 && recover < install,
        `${p.profile} ${path}: recover-package-manager does not run before the first install`,
      );
    }
  }
});

test('hand-overs make what was written durable before the marker that ends them', () => {
  for (const [profile, d] of rendered) {
    const order = (text: string, steps: string[], where: string) => {
      const at = steps.map((s) => text.indexOf(s));
      assert.ok(
        at.every((i) => i >= 0) && at.every((i, k) => k === 0 || i > at[k - 1]!),
        `${profile} ${where}: not in this order: ${steps.join(' | ')}`,
      );
    };
    if (profile === 'osp-flatcar')
      order(
        d.bootstrap,
        ['mv -f $c.new $c', 'sync\n', 'touch /boot/flatcar/first_boot /etc/bootstrap-complete'],
        '/opt/bin/bootstrap',
      );
    else if (profile !== 'osp-flatcar-cloud-init') {
      order(
        d.bootstrap,
        [
          'cloud-init init --file',
          'systemctl enable setup.service',
          'sync\n',
          'touch /etc/cloud/cloud-init.disabled /etc/bootstrap-complete',
          'systemctl disable bootstrap.service',
        ],
        '/opt/bin/bootstrap',
      );
      // setup waits for a bootstrap that a power cut sent round again.
      assert.match(
        d.files.get('/etc/systemd/system/setup.service')!,
        /^After=network-online\.target bootstrap\.service\nConditionPathExists=\/etc\/bootstrap-complete$/m,
        profile,
      );
    }
    const setup = d.files.get('/opt/bin/setup')!;
    order(
      setup,
      [
        'systemctl enable --now kubelet.service',
        'sync\n',
        profile === 'osp-flatcar-cloud-init' ? 'touch /etc/bootstrap-complete' : 'systemctl disable setup.service',
      ],
      '/opt/bin/setup',
    );
  }
});

test('retry delays are drawn on the node: rendering twice gives the same bytes, and no profile template draws at random', () => {
  for (const p of PROFILES) assert.equal(render(p).raw, render(p).raw, p.profile);
  for (const d of rendered.values()) {
    if (d.bootstrap !== '') assert.match(d.bootstrap, /RANDOM % d/);
    assert.match(d.files.get('/opt/bin/supervise.sh')!, /RANDOM % delay/);
  }
  const dir = join(REPO_ROOT, 'src/profiles');
  for (const f of readdirSync(dir).filter((x) => /^osp-.*\.yaml$/.test(x))) {
    // Template actions (not comments) calling sprig's random or clock functions.
    assert.doesNotMatch(
      readFileSync(join(dir, f), 'utf8'),
      /\{\{(?!-?\s*\/\*)[^}]*\b(rand\w*|uuidv4|now|date\w*|unixEpoch)\b[^}]*\}\}/,
      f,
    );
  }
});
