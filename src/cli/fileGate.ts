// The one module that reads the file system (test/architecture/fileGate.test.ts holds every other module to it).
//
// A read names an allowed root and a path below it. The path is resolved one component at a time: `..` may not
// climb above the root, a component named `.git` is refused (a checkout keeps its credentials there), and every
// symbolic link is followed only while each hop stays inside the root (an absolute target must lie in it, a
// relative one is resolved from the link's directory), at most 40 hops (a loop ends there). Dot-directories get
// no exemption: a link in `.hidden/` is resolved like any other. The file is then opened without following a
// final link (O_NOFOLLOW) and without waiting on a FIFO (O_NONBLOCK), and the open file is checked, not the
// path: it must be a regular file (fstat), of at most the size bound, on a file system that holds files
// (procfs, sysfs and their kin are refused: their "regular files" are the process's environment and the
// kernel's state), and where the kernel says the descriptor points (/proc/self/fd) must be the path that was
// resolved, so a directory or link swapped in between the check and the open cannot lead out.
//
// Reads of stdin, of a path the user named on the command line (followed: the user's choice), of tools on
// PATH, and the metadata the writers of OUT need for their own bookkeeping are here too, so no other module
// needs node:fs to read.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  statfsSync,
  statSync,
  type Stats,
} from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { decodeUtf8, InputLimitError, MAX_INPUT_BYTES } from '../krm/inputBounds.ts';
import { CommandError } from './commandIO.ts';

/** A directory reads may not leave: `real` is its real path, `label` how messages name it. */
export interface Root {
  readonly real: string;
  /** The path as named (before links were resolved): an absolute path below it counts as inside. */
  readonly named: string;
  readonly label: string;
}

/** A read the gate refuses; `reason` says why without the path (for messages that name the path themselves). */
export class FileRefusedError extends CommandError {
  readonly reason: string;
  readonly code: string | undefined;
  constructor(message: string, reason: string, code?: string) {
    super(message);
    this.name = 'FileRefusedError';
    this.reason = reason;
    this.code = code;
  }
}

const MAX_LINK_HOPS = 40;

/** A root at a path the user or the operator named: links in the path itself are the namer's choice. */
export function rootAt(path: string, label: string): Root {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (e) {
    throw new FileRefusedError(
      `${label} ${errnoCode(e) === 'ENOENT' ? 'does not exist' : `cannot be read (${errnoReason(e)})`}`,
      errnoReason(e),
      errnoCode(e),
    );
  }
  return { real, named: normalize(path), label };
}

/** Whether `path` is `root` or below it (both absolute, normalised). */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** How a path below `root` (relative, slash-separated) is shown in messages. */
export function shownPath(root: Root, rel: string): string {
  if (rel === '' || rel === '.') return root.label;
  return root.label === '.' ? rel : `${root.label.replace(/\/+$/, '')}/${rel}`;
}

/** The relative path (slash-separated) of a real path inside `root`. */
export function relativeInside(root: Root, real: string): string {
  return relative(root.real, real).split(sep).join('/');
}

/**
 * The real location of `rel` (slash-separated, relative to `from`, a real directory inside `root`): every
 * existing component resolved as described at the top. A missing component ends the walk: the rest is appended
 * unresolved (reading it then fails with ENOENT; writing creates it). `shown` names `rel` in errors.
 */
export function resolveInside(
  root: Root,
  from: string,
  rel: string,
  shown = shownPath(root, relativeInside(root, join(from, rel))),
): string {
  if (!isInside(from, root.real)) throw outside(root, shown, `${shown} is outside ${root.label}`);
  const parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  let current = from;
  let hops = 0;
  // Each link met is named by the path it was reached by, for the messages.
  let reachedBy = relativeInside(root, from);
  while (parts.length > 0) {
    const part = parts.shift()!;
    if (part === '..') {
      if (current === root.real)
        throw outside(root, shown, `${shown} leads outside ${root.label} (through ..): refusing to read it`);
      current = dirname(current);
      reachedBy = reachedBy === '' ? '..' : `${reachedBy}/..`;
      continue;
    }
    if (part.toLowerCase() === '.git')
      throw new FileRefusedError(
        `${shown} is inside a .git directory, which osm-krm never reads (a checkout keeps its credentials there)`,
        'inside a .git directory',
        'EACCES',
      );
    const next = join(current, part);
    reachedBy = reachedBy === '' ? part : `${reachedBy}/${part}`;
    let st: Stats;
    try {
      st = lstatSync(next);
    } catch (e) {
      const code = errnoCode(e);
      if (code === 'ENOENT' || code === 'ENAMETOOLONG' || code === 'ENOTDIR') return join(next, parts.join('/'));
      throw new FileRefusedError(`cannot read ${shown}: ${errnoReason(e)}`, errnoReason(e), code);
    }
    if (!st.isSymbolicLink()) {
      if (parts.length > 0 && !st.isDirectory()) return join(next, parts.join('/')); // reading it fails with ENOTDIR
      current = next;
      continue;
    }
    const link = shownPath(root, reachedBy);
    if (++hops > MAX_LINK_HOPS)
      throw new FileRefusedError(
        `symbolic link loop at ${link}: refusing to follow it`,
        'a symbolic link loop',
        'ELOOP',
      );
    let target: string;
    try {
      target = readlinkSync(next);
    } catch (e) {
      throw new FileRefusedError(`cannot read symbolic link ${link}: ${errnoReason(e)}`, errnoReason(e), errnoCode(e));
    }
    if (isAbsolute(target)) {
      const t = normalize(target);
      const inRoot = isInside(t, root.real) ? root.real : isInside(t, root.named) ? root.named : undefined;
      if (inRoot === undefined)
        throw outside(
          root,
          shown,
          `symbolic link ${link} -> ${target} leads outside ${root.label}: refusing to follow it`,
        );
      parts.unshift(
        ...relative(inRoot, t)
          .split(sep)
          .filter((p) => p !== ''),
      );
      current = root.real;
      reachedBy = '';
    } else {
      parts.unshift(...target.split('/'));
      reachedBy = relativeInside(root, current);
      // A relative target that climbs out is refused by the `..` rule above, naming the link.
      const climbs = target.split('/').filter((p) => p !== '' && p !== '.');
      let depth = reachedBy === '' ? 0 : reachedBy.split('/').length;
      for (const p of climbs) {
        depth += p === '..' ? -1 : 1;
        if (depth < 0)
          throw outside(
            root,
            shown,
            `symbolic link ${link} -> ${target} leads outside ${root.label}: refusing to follow it`,
          );
      }
    }
  }
  return current;
}

function outside(root: Root, shown: string, message: string): FileRefusedError {
  return new FileRefusedError(message, `outside ${root.label}`, 'EACCES');
}

export type EntryKind =
  'file' | 'directory' | 'link' | 'fifo' | 'socket' | 'character device' | 'block device' | 'missing';

function kindOf(st: Stats): EntryKind {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isSymbolicLink()) return 'link';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice()) return 'character device';
  return 'block device';
}

const ARTICLE: Record<EntryKind, string> = {
  file: 'a regular file',
  directory: 'a directory',
  link: 'a symbolic link',
  fifo: 'a FIFO',
  socket: 'a socket',
  'character device': 'a character device',
  'block device': 'a block device',
  missing: 'missing',
};

/** What is at a path, without following a final link (missing when nothing is). */
export function entryKind(path: string): EntryKind {
  try {
    return kindOf(lstatSync(path));
  } catch {
    return 'missing';
  }
}

/** What a path leads to, following links (missing when nothing, or a dangling link). */
export function targetKind(path: string): EntryKind {
  try {
    return kindOf(statSync(path));
  } catch {
    return 'missing';
  }
}

/** The names in a directory (the writers' own directories, and directory listings below a root). */
export function directoryNames(path: string): string[] {
  return readdirSync(path);
}

export interface DirectoryEntry {
  name: string;
  kind: EntryKind;
}

/** The entries of a real directory inside `root`, sorted by name (kinds as lstat sees them: links unresolved). */
export function listDirectory(root: Root, dir: string, shown: string): DirectoryEntry[] {
  if (!isInside(dir, root.real)) throw outside(root, shown, `${shown} is outside ${root.label}`);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (e) {
    throw new FileRefusedError(`cannot read directory ${shown}: ${errnoReason(e)}`, errnoReason(e), errnoCode(e));
  }
  // Listed as resolved: still a real directory, not something swapped in meanwhile.
  if (entryKind(dir) !== 'directory')
    throw new FileRefusedError(`${shown} changed while it was read`, 'changed while it was read', 'EAGAIN');
  return names.map((name) => ({ name, kind: entryKind(join(dir, name)) }));
}

/** The bytes of a real path inside `root` (from resolveInside), checked on the open file as described at the top. */
export function readBytesInside(root: Root, real: string, shown: string, limit = MAX_INPUT_BYTES): Buffer {
  if (!isInside(real, root.real)) throw outside(root, shown, `${shown} is outside ${root.label}`);
  if (
    real.split(sep).some((p) => p.toLowerCase() === '.git') &&
    !root.real.split(sep).some((p) => p.toLowerCase() === '.git')
  ) {
    throw new FileRefusedError(
      `${shown} is inside a .git directory, which osm-krm never reads (a checkout keeps its credentials there)`,
      'inside a .git directory',
      'EACCES',
    );
  }
  const before = entryKind(real);
  if (before === 'missing')
    throw new FileRefusedError(`${shown} does not exist`, 'ENOENT: no such file or directory', 'ENOENT');
  if (before !== 'file') throw notRegular(shown, before);
  return readOpened(real, shown, limit, (fd) => {
    const opened = openedPath(fd);
    if (opened !== undefined && opened !== real)
      throw new FileRefusedError(
        `${shown} changed while it was read (it now leads to another file): refusing it`,
        'changed while it was read',
        'EAGAIN',
      );
  });
}

/** The text (UTF-8, bounded) of `rel` below `root`, resolved and read through the gate. */
export function readTextInside(root: Root, rel: string, shown = shownPath(root, rel), limit = MAX_INPUT_BYTES): string {
  return decodeText(readBytesInside(root, resolveInside(root, root.real, rel, shown), shown, limit), shown);
}

/**
 * A file the user or the operator named (a --config file elsewhere, the template command's FILE and DATA, a
 * tool's first line): its links are followed (the namer chose it), the rest of the gate's checks apply.
 */
export function readNamedFile(path: string, shown: string, limit = MAX_INPUT_BYTES): Buffer {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (e) {
    throw new FileRefusedError(`cannot read ${shown}: ${errnoReason(e)}`, errnoReason(e), errnoCode(e));
  }
  return readBytesInside({ real: dirname(real), named: dirname(real), label: dirname(shown) }, real, shown, limit);
}

export function decodeText(bytes: Uint8Array, shown: string): string {
  try {
    return decodeUtf8(bytes, shown);
  } catch (e) {
    if (e instanceof InputLimitError) throw new FileRefusedError(e.message, 'not valid UTF-8', 'EILSEQ');
    throw e;
  }
}

function notRegular(shown: string, kind: EntryKind): FileRefusedError {
  return new FileRefusedError(
    `${shown} is ${ARTICLE[kind]}, not a regular file: refusing to read it`,
    `${ARTICLE[kind]}, not a regular file`,
    kind === 'directory' ? 'EISDIR' : 'EINVAL',
  );
}

// File systems whose "regular files" are not files: the process's environment and memory (procfs), kernel
// state (sysfs, debugfs, tracefs, securityfs, configfs, efivarfs, bpf, cgroup).
const PSEUDO_FILE_SYSTEMS = new Set([
  0x9fa0, 0x62656572, 0x64626720, 0x74726163, 0x73636673, 0x62656570, 0xde5e81e4, 0xcafe4a11, 0x27e0eb, 0x63677270,
]);
const PSEUDO_PREFIXES = ['/proc', '/sys', '/dev'];

function readOpened(path: string, shown: string, limit: number, verify: (fd: number) => void): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ELOOP')
      throw new FileRefusedError(
        `${shown} changed while it was read (it is now a symbolic link): refusing it`,
        'changed while it was read',
        'EAGAIN',
      );
    throw new FileRefusedError(`cannot read ${shown}: ${errnoReason(e)}`, errnoReason(e), code);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(shown, kindOf(st));
    verify(fd);
    const real = openedPath(fd) ?? path;
    if (PSEUDO_PREFIXES.some((p) => isInside(real, p)) || isPseudoFileSystem(fd)) {
      throw new FileRefusedError(
        `${shown} is on a kernel pseudo file system (${real.split(sep).slice(0, 2).join(sep) || real}), not a file: refusing to read it`,
        'on a kernel pseudo file system, not a file',
        'EINVAL',
      );
    }
    if (st.size > limit)
      throw new FileRefusedError(
        `${shown} is larger than ${mib(limit)}, the most osm-krm reads from one file`,
        `larger than ${mib(limit)}`,
        'EFBIG',
      );
    return readAll(fd, shown, limit);
  } finally {
    closeSync(fd);
  }
}

const mib = (n: number) => `${Math.floor(n / (1024 * 1024))} MiB`;

let procFd: boolean | undefined;

/** Where the kernel says an open descriptor points (Linux), or undefined where /proc is not there. */
function openedPath(fd: number): string | undefined {
  procFd ??= existsSync('/proc/self/fd');
  if (!procFd) return undefined;
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function isPseudoFileSystem(fd: number): boolean {
  if (!procFd) return false;
  try {
    return PSEUDO_FILE_SYSTEMS.has(statfsSync(`/proc/self/fd/${fd}`).type);
  } catch {
    return false;
  }
}

/** All bytes of a descriptor, refusing more than `limit` without reading them all. */
function readAll(fd: number, where: string, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  let chunk = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = errnoCode(e);
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1); // a non-blocking pipe not yet written
        continue;
      }
      if (code === 'EOF') break; // Windows pipes
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > limit)
      throw new InputLimitError(
        `${where} is larger than ${mib(limit)}, the most osm-krm reads (to stay within 2 GiB of memory); split the package`,
      );
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    if (n === chunk.length) chunk = Buffer.allocUnsafe(Math.min(chunk.length * 2, 1 << 24));
    else chunk = chunk.subarray(n);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}

/** All bytes of an open descriptor the process was given (stdin), refusing more than `limit`. */
export function readDescriptor(fd: number, where: string, limit = MAX_INPUT_BYTES): Buffer {
  return readAll(fd, where, limit);
}

/** The real path of a path the user named (its links are theirs to choose); undefined when it does not exist. */
export function namedRealPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The real path of a path that may not exist yet: its closest existing ancestor resolved, the rest appended. */
export function realPathOfMaybeMissing(path: string): string {
  let q = path;
  const rest: string[] = [];
  for (;;) {
    const real = namedRealPath(q);
    if (real !== undefined) return join(real, rest.join('/'));
    const parent = dirname(q);
    if (parent === q) return path;
    rest.unshift(basename(q));
    q = parent;
  }
}

/**
 * The git work tree holding a real path: the closest ancestor (or itself) with a `.git` entry (a directory, or
 * the file a worktree or submodule has), or undefined.
 */
export function workTreeOf(real: string): string | undefined {
  for (let d = real; ; d = dirname(d)) {
    if (entryKind(join(d, '.git')) !== 'missing') return d;
    if (dirname(d) === d) return undefined;
  }
}

/** The first executable regular file called `name` in the directories of a PATH value. */
export function findExecutable(name: string, pathValue: string | undefined): string | undefined {
  for (const d of (pathValue ?? '').split(delimiter)) {
    if (d === '') continue;
    const p = join(d, name);
    if (targetKind(p) === 'file') return p;
  }
  return undefined;
}

/** "ENOSPC: no space left on device" from a Node file-system error (without the paths it names). */
export function errnoReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (e instanceof FileRefusedError) return e.reason;
  if (typeof err?.code !== 'string') return String((e as Error)?.message ?? e);
  const message = String(err.message ?? '');
  const reason = message.startsWith(`${err.code}: `) ? message.slice(err.code.length + 2).split(',')[0] : '';
  return reason ? `${err.code}: ${reason}` : err.code;
}

function errnoCode(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The real location of `rel` below the directory `dir` (named `label` in messages): resolveInside from a root there. */
export function containedPath(dir: string, rel: string, label: string): string {
  const root = rootAt(dir, label);
  return resolveInside(root, root.real, rel, shownPath(root, rel));
}
