// Boots a node from our bootstrap user-data in a podman pod (network: loopback only): the node container (systemd,
// cloud-init's NoCloud seed = the bootstrap Secret's bytes) and the stand-in servers (test/boot/standins/servers.mjs:
// API server with the test cluster CA, an impostor with another CA, the artifact mirror) share one network
// namespace, so no traffic leaves the machine.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';
import { isRunning } from '../../src/cli/outputDirectory.ts';

/** The node image scripts/test-images.sh built from this tree (its content tag), else the last one built. */
export const BOOT_IMAGE = existsSync(join(REPO_ROOT, '.cache', 'test-images', 'node-boot'))
  ? readFileSync(join(REPO_ROOT, '.cache', 'test-images', 'node-boot'), 'utf8').trim()
  : 'localhost/osm-krm-test/node-boot:latest';
export const SERVER_IMAGE = 'localhost/osm-krm:0.1.0';
const STANDINS = join(REPO_ROOT, 'test', 'boot', 'standins');

export function sh(
  cmd: string,
  args: readonly string[],
  opts: { input?: string | Buffer; env?: NodeJS.ProcessEnv; timeout?: number } = {},
) {
  const r = spawnSync(cmd, args, {
    input: opts.input,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: opts.timeout ?? 600_000,
  });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function shOk(cmd: string, args: readonly string[], opts: Parameters<typeof sh>[2] = {}): string {
  const r = sh(cmd, args, opts);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A CA and a server certificate for 127.0.0.1 / localhost (or the names given) signed by it (openssl). */
export function makeCA(
  dir: string,
  name: string,
  altNames = 'IP:127.0.0.1,DNS:localhost',
): { caCert: string; cert: string; key: string } {
  const p = (f: string) => join(dir, `${name}-${f}`);
  shOk('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    `/CN=${name} test CA`,
    '-keyout',
    p('ca.key'),
    '-out',
    p('ca.crt'),
  ]);
  shOk('openssl', [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=kube-apiserver',
    '-keyout',
    p('server.key'),
    '-out',
    p('server.csr'),
  ]);
  writeFileSync(p('ext'), `subjectAltName=${altNames}\nextendedKeyUsage=serverAuth\n`);
  shOk('openssl', [
    'x509',
    '-req',
    '-in',
    p('server.csr'),
    '-CA',
    p('ca.crt'),
    '-CAkey',
    p('ca.key'),
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    p('ext'),
    '-out',
    p('server.crt'),
  ]);
  return {
    caCert: readFileSync(p('ca.crt'), 'utf8'),
    cert: readFileSync(p('server.crt'), 'utf8'),
    key: readFileSync(p('server.key'), 'utf8'),
  };
}

/** A throwaway OpenPGP key in its own GNUPGHOME: its fingerprint and an ASCII-armored public key. */
export function makeSigningKey(home: string): { fingerprint: string; publicKey: string } {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const env = { ...process.env, GNUPGHOME: home };
  shOk(
    'gpg',
    [
      '--batch',
      '--passphrase',
      '',
      '--quick-gen-key',
      'osm-krm boot test <test@osm-krm.invalid>',
      'rsa2048',
      'sign',
      '2d',
    ],
    { env },
  );
  const colons = shOk('gpg', ['--batch', '--with-colons', '--list-keys'], { env });
  const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(colons)![1]!;
  return { fingerprint, publicKey: shOk('gpg', ['--batch', '--armor', '--export', fingerprint], { env }) };
}

/** An apt repository `<dir>` with suite `<codename>` component `stable` holding `debs`, signed with the key in `home`. */
export function makeAptRepo(dir: string, codename: string, debs: string[], home: string): void {
  const pool = join(dir, 'pool');
  mkdirSync(pool, { recursive: true });
  for (const d of debs) copyFileSync(d, join(pool, d.split('/').pop()!));
  const bin = join(dir, 'dists', codename, 'stable', 'binary-amd64');
  mkdirSync(bin, { recursive: true });
  const packages = shOk('bash', [
    '-c',
    `cd ${JSON.stringify(dir)} && dpkg-scanpackages --multiversion pool /dev/null 2>/dev/null`,
  ]);
  writeFileSync(join(bin, 'Packages'), packages);
  const release = [
    'Origin: osm-krm boot test',
    `Suite: ${codename}`,
    `Codename: ${codename}`,
    'Architectures: amd64',
    'Components: stable',
    `Date: ${new Date().toUTCString()}`,
    'SHA256:',
    ` ${sha256(packages)} ${Buffer.byteLength(packages)} stable/binary-amd64/Packages`,
    '',
  ].join('\n');
  const dists = join(dir, 'dists', codename);
  writeFileSync(join(dists, 'Release'), release);
  shOk('gpg', ['--batch', '--yes', '--clearsign', '--output', join(dists, 'InRelease'), join(dists, 'Release')], {
    env: { ...process.env, GNUPGHOME: home },
  });
}

/** Writes `content` at `path` under the mirror and its `.sha256` beside it (sha256sum's "checksum  name" form). */
export function publish(mirror: string, path: string, content: Buffer | string, sumOverride?: string): void {
  const file = join(mirror, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, content);
  writeFileSync(`${file}.sha256`, `${sumOverride ?? sha256(content)}  ${path.split('/').pop()}\n`);
}

/** A gzipped tar holding `files` (name -> executable content), made with tar. */
export function tarGz(files: Record<string, string>, fromDir?: string): Buffer {
  const d = mkdtempSync(join(tmpdir(), 'osm-krm-tar-'));
  try {
    if (fromDir !== undefined)
      return Buffer.from(shOk('bash', ['-c', `tar -C ${JSON.stringify(fromDir)} -cz . | base64 -w0`]), 'base64');
    for (const [name, content] of Object.entries(files)) {
      writeFileSync(join(d, name), content);
      chmodSync(join(d, name), 0o755);
    }
    return Buffer.from(
      shOk('bash', ['-c', `tar -C ${JSON.stringify(d)} -cz ${Object.keys(files).join(' ')} | base64 -w0`]),
      'base64',
    );
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
}

export interface Pod {
  name: string;
  node: string;
  servers: string;
  exec(cmd: string): { status: number | null; stdout: string; stderr: string };
  execOk(cmd: string): string;
  requests(): any[];
  remove(): void;
}

/** The registry names the stand-in servers resolve to loopback (podman ignores --add-host in a pod without a network). */
export const REGISTRY_NAMES = ['mirror.registry.test', 'other.registry.test'];

/** The ports of the stand-ins a node reaches only through the proxy in a proxy-only pod (API servers, mirror, registry). */
const DIRECT_PORTS = [443, 6443, 6444, 8080];

export interface PodOptions {
  /** The pod's name after osm-krm-: default the scenario's (one per scenario and test process). */
  name?: string;
  /**
   * Where the test steers the pod (powerCuts.ts): CONTROL/node is mounted in the node at /osm-krm-test-control
   * (the hold hook's holds), CONTROL/servers in the stand-ins' container (the mirror's stall).
   */
  control?: string;
  /**
   * Only the proxy reaches the stand-ins: the pod's packet filter refuses (TCP reset) every connection to their
   * ports on loopback that does not come from the stand-ins' own user (nobody, which the proxy runs as).
   */
  proxyOnly?: boolean;
}

/**
 * Starts the pod: the stand-in servers (the function image's Node.js, as nobody, `dir` mounted read-only) and the
 * node booted with systemd, the NoCloud seed mounted read-only. With `dir/node-tools` (registryMirror.ts), that is
 * mounted read-only in the node at /opt/osm-krm-test.
 */
export function startPod(scenario: string, dir: string, seed: string, options: PodOptions = {}): Pod {
  chmodSync(dir, 0o755);
  // One pod per scenario and test process (two trees may test at once); a stale one's process is gone.
  const prefix = `osm-krm-${options.name ?? scenario}-`;
  for (const stale of shOk('podman', ['pod', 'ps', '--format', '{{.Name}}']).split('\n')) {
    const pid = stale.startsWith(prefix) ? stale.slice(prefix.length) : '';
    if (/^\d+$/.test(pid) && !isRunning(Number(pid))) sh('podman', ['pod', 'rm', '-f', stale]);
  }
  const name = `${prefix}${process.pid}`;
  // Port 443 for the registry mirror stand-in, which runs as nobody.
  shOk('podman', [
    'pod',
    'create',
    '--name',
    name,
    '--network',
    'none',
    '--hostname',
    'node-1',
    '--sysctl',
    'net.ipv4.ip_unprivileged_port_start=443',
  ]);
  if (options.proxyOnly) {
    // The rules live in the pod's network namespace, which outlives this container and the node's reboots.
    const rule = `-A OUTPUT -o lo -p tcp -m multiport --dports ${DIRECT_PORTS.join(',')} -m owner ! --uid-owner 65534 -j REJECT --reject-with tcp-reset`;
    shOk('podman', [
      'run',
      '--rm',
      '--pod',
      name,
      '--cap-add',
      'NET_ADMIN',
      '--entrypoint',
      'sh',
      BOOT_IMAGE,
      '-c',
      `iptables ${rule} && ip6tables ${rule}`,
    ]);
  }
  const servers = `${name}-servers`;
  const node = `${name}-node`;
  for (const f of ['servers.mjs', 'registry.mjs']) copyFileSync(join(STANDINS, f), join(dir, f));
  writeFileSync(join(dir, 'hosts'), `127.0.0.1 localhost ${REGISTRY_NAMES.join(' ')}\n::1 localhost\n`);
  const serverControl = options.control === undefined ? [] : ['-v', `${join(options.control, 'servers')}:/control:ro`];
  shOk('podman', [
    'run',
    '-d',
    '--name',
    servers,
    '--pod',
    name,
    '--user',
    'nobody',
    '--read-only',
    '-v',
    `${dir}:/standin:ro`,
    ...serverControl,
    '-v',
    `${join(dir, 'hosts')}:/etc/hosts:ro`,
    '--entrypoint',
    'node',
    SERVER_IMAGE,
    '/standin/servers.mjs',
    '/standin',
    ...(options.control === undefined ? [] : ['/control']),
  ]);
  // As a VM's root could: NET_ADMIN for the test-network unit (node addresses and default routes, see
  // test/boot/image/), SYS_ADMIN for the hostname (setup's hostnamectl). Both act on the pod's own namespaces.
  const tools = existsSync(join(dir, 'node-tools')) ? ['-v', `${join(dir, 'node-tools')}:/opt/osm-krm-test:ro`] : [];
  const nodeControl =
    options.control === undefined ? [] : ['-v', `${join(options.control, 'node')}:/osm-krm-test-control`];
  shOk('podman', [
    'run',
    '-d',
    '--name',
    node,
    '--pod',
    name,
    '--systemd=always',
    '--cap-add',
    'NET_ADMIN',
    '--cap-add',
    'SYS_ADMIN',
    '-v',
    `${seed}:/var/lib/cloud/seed/nocloud:ro`,
    ...tools,
    ...nodeControl,
    BOOT_IMAGE,
    '/sbin/init',
  ]);
  const exec = (cmd: string) => sh('podman', ['exec', node, 'bash', '-c', cmd]);
  return {
    name,
    node,
    servers,
    exec,
    execOk: (cmd) => {
      const r = exec(cmd);
      if (r.status !== 0) throw new Error(`in the node: ${cmd} exited ${r.status}\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    },
    requests: () =>
      shOk('podman', ['logs', servers])
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l)),
    remove: () => {
      sh('podman', ['pod', 'rm', '-f', '-t', '2', name]);
    },
  };
}

/**
 * Polls `cmd` in the node until it prints `want` (hang guard: `timeoutMs`); returns the last output. `onPoll` runs
 * before each poll (it may throw to give up early).
 */
export function waitFor(pod: Pod, cmd: string, want: RegExp, timeoutMs: number, onPoll?: () => void): string {
  const end = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < end) {
    onPoll?.();
    last = pod.exec(cmd).stdout;
    if (want.test(last)) return last;
    spawnSync('sleep', ['2']);
  }
  throw new Error(
    `timed out waiting for ${want} from \`${cmd}\`; last output:\n${last}\njournal:\n${pod.exec('journalctl --no-pager -n 150').stdout}`,
  );
}
