// Power cuts during a boot scenario's setup (#28). Beside the scenario's clean node, a second node of the same
// scenario boots with holds: it stops at chosen points of its setup (the boot image's hold hook,
// test/boot/image/osm-krm-test-hold, or the mirror stand-in's stalled download), where the test checks that the
// cut is where it says and cuts the power (podman kill: every process of the node gone at once, its disk as it
// was, page cache included), then boots it again. Each next boot must get to the next cut, past whatever the cut
// before left; the last one must finish with every file as the clean node has it.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { BOOT_IMAGE, sh, shOk, type Pod } from './bootNode.ts';

export interface PowerCut {
  /** Where the power goes, for the test's name. */
  where: string;
  /**
   * A shell pattern the hold hook matches against its key: "systemctl ARGS", "sysctl ARGS", or "dpkg PACKAGE
   * SCRIPT: systemctl ARGS" from a maintainer script (dpkg has then recorded the package as half-configured).
   */
  hold?: string;
  /** A mirror path whose download stops half-way (the stand-in holds back the rest). */
  stall?: string;
  /** Checks, on the paused node's file system, that the cut is where it says: a problem, or undefined. */
  check?: (root: string) => string | undefined;
}

/** Files that differ between two clean boots of one machine, with why; everything else must be equal. */
const VOLATILE: Array<[RegExp, string]> = [
  [/^\/(run|tmp|proc|sys|dev)(\/|$)/, 'not on disk'],
  [/^\/var\/log\//, 'logs'],
  [/^\/var\/(tmp|cache\/private|lib\/private)(\/|$)/, "systemd's per-boot private directories"],
  [/^\/var\/lib\/systemd\//, "systemd's timers, random seed and credentials"],
  [/^\/var\/lib\/cloud\//, "cloud-init's per-boot state (instance data with times)"],
  [/^\/var\/lib\/containerd\//, "containerd's own databases"],
  [/^\/var\/lib\/dhcp\//, 'leases'],
  [/^\/var\/cache\/(apt\/[^/]*\.bin|debconf\/[^/]*-old|ldconfig\/)/, 'caches apt, debconf and ldconfig regenerate'],
  [
    /^\/var\/lib\/dpkg\/(status-old|diversions-old|statoverride-old|lock(-frontend)?|triggers\/Lock)$/,
    "dpkg's backups of its previous state, its locks",
  ],
  [/^\/var\/lib\/apt\/(lists\/lock|daily_lock)$|^\/var\/cache\/apt\/archives\/lock$/, "apt's locks"],
  [/^\/etc\/ssh\/ssh_host_/, 'host keys: cloud-init makes new ones at each of its first runs'],
  [
    /^\/etc\/sudoers\.d\/90-cloud-init-users$/,
    'cloud-init writes the time it wrote it into it, at each of its first runs',
  ],
  [/^\/etc\/machine-id$/, "a container's machine ID"],
  [/\/__pycache__\//, "Python's compiled modules, written as modules are first imported"],
  [/^\/osm-krm-test-control(\/|$)/, "the test's control directory (a mount)"],
];

const volatile = (path: string) => VOLATILE.some(([re]) => re.test(path));

/** What a path is on a mounted root: type, mode and owner, and the content's SHA-256 or the link's target. */
function fingerprint(root: string, path: string): string {
  let st;
  try {
    st = lstatSync(join(root, path));
  } catch {
    return 'absent';
  }
  const meta = `${(st.mode & 0o7777).toString(8)} ${st.uid}:${st.gid}`;
  if (st.isSymbolicLink()) return `link ${meta} -> ${readlinkSync(join(root, path))}`;
  if (st.isDirectory()) return `dir ${meta}`;
  if (st.isFile())
    return `file ${meta} ${createHash('sha256')
      .update(readFileSync(join(root, path)))
      .digest('hex')}`;
  return `other ${meta}`;
}

/** The paths a container changed from the boot image (podman lists an added directory, not what it holds). */
function changedPaths(container: string, root: string): string[] {
  const diff = JSON.parse(shOk('podman', ['diff', '--format', 'json', container, BOOT_IMAGE])) as Record<
    string,
    string[] | null
  >;
  const out = new Set<string>();
  const add = (path: string, recurse: boolean) => {
    if (volatile(path) || out.has(path)) return;
    out.add(path);
    if (!recurse) return;
    let st;
    try {
      st = lstatSync(join(root, path));
    } catch {
      return;
    }
    if (st.isDirectory()) for (const e of readdirSync(join(root, path))) add(`${path}/${e}`, true);
  };
  for (const p of diff.added ?? []) add(p, true);
  for (const p of [...(diff.changed ?? []), ...(diff.deleted ?? [])]) add(p, false);
  return [...out];
}

/** A container's root on the host (rootful podman), for `use`; unmounted after. */
function withRoot<T>(container: string, use: (root: string) => T): T {
  const root = shOk('podman', ['mount', container]).trim();
  try {
    return use(root);
  } finally {
    sh('podman', ['unmount', container]);
  }
}

/** The files of a node that differ from the boot image: path -> fingerprint. */
export interface NodeFiles {
  files: Map<string, string>;
}

export function nodeFiles(pod: Pod): NodeFiles {
  return withRoot(pod.node, (root) => ({
    files: new Map(changedPaths(pod.node, root).map((p) => [p, fingerprint(root, p)])),
  }));
}

/** Every path whose fingerprint differs between the clean node and another node: "path: clean | other". */
export function differences(clean: NodeFiles, other: Pod): string[] {
  const mine = nodeFiles(other).files;
  const paths = [...new Set([...clean.files.keys(), ...mine.keys()])].sort();
  const image = shOk('podman', ['image', 'mount', BOOT_IMAGE]).trim();
  try {
    // A path one side did not change is as the boot image has it.
    const side = (files: Map<string, string>, p: string) => files.get(p) ?? fingerprint(image, p);
    return paths
      .filter((p) => side(clean.files, p) !== side(mine, p))
      .map((p) => `${p}: ${side(clean.files, p)} | ${side(mine, p)}`);
  } finally {
    sh('podman', ['image', 'unmount', BOOT_IMAGE]);
  }
}

/** The cuts of one scenario, in the order its setup reaches them, and the control directory its pod mounts. */
export class PowerCuts {
  constructor(
    readonly control: string,
    readonly cuts: readonly PowerCut[],
  ) {
    mkdirSync(join(control, 'node'), { recursive: true });
    mkdirSync(join(control, 'servers'), { recursive: true });
    if (cuts.filter((c) => c.stall !== undefined).length > 1) throw new Error('one stalled download per scenario');
    cuts.forEach((cut, i) => {
      if (cut.hold !== undefined) writeFileSync(join(control, 'node', `hold.${i}`), cut.hold);
      if (cut.stall !== undefined) writeFileSync(join(control, 'servers', 'stall'), cut.stall);
    });
  }

  /** How many cuts were made; the first failure of one (its test reports it). */
  private made = 0;
  private failure: Error | undefined;

  /**
   * Makes the next cut if the node is there, without waiting: checks that the cut is where it says, cuts the power
   * and boots the node again, without that hold. Called while other tests wait too, so that the chain goes on
   * while the clean node boots; a failure is kept for the cut's test. Whether it made a cut.
   */
  advance(pod: Pod): boolean {
    const i = this.made;
    const cut = this.cuts[i];
    if (cut === undefined || this.failure !== undefined) return false;
    const reached =
      cut.hold !== undefined
        ? existsSync(join(this.control, 'node', `held.${i}`))
        : pod.requests().some((r) => r.stalled === cut.stall);
    if (!reached) return false;
    try {
      // curl writes what it received to its file (in blocks) while the stand-in holds back the rest.
      if (cut.stall !== undefined) spawnSync('sleep', ['1']);
      const problem = withRoot(pod.node, (root) => cut.check?.(root));
      if (problem !== undefined) throw new Error(`power cut ${cut.where}: ${problem}`);
      shOk('podman', ['kill', '--signal', 'KILL', pod.node]);
      shOk('podman', ['wait', pod.node]);
      this.release(i);
      shOk('podman', ['start', pod.node]);
    } catch (e) {
      this.failure = e instanceof Error ? e : new Error(String(e));
      return false;
    }
    this.made++;
    return true;
  }

  /**
   * Returns once cut `i` is made (hang guard: `timeoutMs`), making the cuts up to it as the node gets there.
   * `onPoll` runs while it waits (it may throw to give up early).
   */
  cut(pod: Pod, i: number, timeoutMs: number, onPoll: () => void): void {
    const end = Date.now() + timeoutMs;
    while (this.made <= i) {
      if (this.advance(pod)) continue;
      if (this.failure !== undefined) throw this.failure;
      if (Date.now() > end) throw new Error(`the node did not get to the power cut ${this.cuts[this.made]!.where}`);
      onPoll();
      spawnSync('sleep', ['2']);
    }
  }

  /** Takes cut `i`'s hold or stall away. */
  release(i: number): void {
    if (this.cuts[i]!.hold !== undefined) sh('rm', ['-f', join(this.control, 'node', `hold.${i}`)]);
    else writeFileSync(join(this.control, 'servers', 'stall'), '');
  }
}
