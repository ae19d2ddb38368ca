// Writing the output directory of `hydrate`: all or nothing, and only files hydrate wrote.
//
// Ownership. OUT/.osm-krm-hydrate lists each file hydrate wrote with its SHA-256 (`sha256sum` format). The list
// is committed to Git like the rest, so it is input: a listed file counts as ours only while its content still
// has the listed hash. An edited list cannot make hydrate replace or delete a file it did not write, and no
// path ever leads out of OUT (every read and path goes through the file gate, fileGate.ts).
//
// All or nothing. The new contents are first written under OUT/.osm-krm-hydrate.swap/new (inside OUT: the
// same file system, so every rename below is atomic, and nothing is written outside OUT; made by mkdir, it
// is also the lock against a second run at the same time). A full disk or a
// file name the file system refuses fails there, with OUT untouched. Then a journal of the swap is committed
// (written, then renamed into place) and each file is swapped by two renames: the old one into .../old, the
// new one into OUT. When the journal is gone the swap is complete. If the process dies in between, the next
// run finds the journal and first moves every file back (recoverInterruptedUpdate), so OUT is as before.
import { mkdirSync, renameSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { sha256Hex } from '../go/crypto/sha256.ts';
import { countJsonValues, JsonValueLimitReached, LONG_KEY } from '../codec/jsonValueCount.ts';
import { MAX_YAML_NODES } from '../codec/nodeLimit.ts';
import { CommandError } from './commandIO.ts';
import {
  containedPath,
  decodeText,
  directoryNames,
  entryKind,
  errnoReason,
  readBytesInside,
  rootAt,
  targetKind,
} from './fileGate.ts';

const existsSync = (path: string) => targetKind(path) !== 'missing';

/** A file below OUT (a real path from containedPath), read through the gate. */
function readOutBytes(path: string): Buffer {
  return readBytesInside(rootAt(dirname(path), dirname(path)), path, path);
}

export const MARKER_FILE = '.osm-krm-hydrate';
export const SWAP_DIR = '.osm-krm-hydrate.swap';
const OWNER_FILE = 'owner'; // the pid of the run that made the swap directory
const MARKER_HEADER =
  '# Files written by `osm-krm hydrate` and their SHA-256; the next run replaces or removes exactly these. Do not edit.';

/** The file-system calls that change OUT: injectable, so tests can fail or interrupt any one of them. */
export interface OutputFileSystem {
  writeFileSync: (path: string, data: string) => void;
  renameSync: (from: string, to: string) => void;
  mkdirSync: (path: string) => void;
}

export const NODE_FILE_SYSTEM: OutputFileSystem = {
  writeFileSync: (path, data) => writeFileSync(path, data),
  renameSync: (from, to) => renameSync(from, to),
  mkdirSync: (path) => mkdirSync(path),
};

export interface OutputUpdate {
  written: number;
  removed: number;
  unchanged: number;
  /** Files of an earlier run that were changed since (so no longer ours): left in place. */
  leftAlone: string[];
}

/**
 * The JSON values the journal may hold: five a file it moves (the op, two keys, two values), so 300,000 files,
 * more than a run within the input's node budget writes and removes. Counted before it is parsed: OUT may be
 * committed, and 31 million `{}` (90 MB) cost JSON.parse 59 s and 3 GB.
 */
const MAX_JOURNAL_VALUES = MAX_YAML_NODES;

interface Journal {
  /** In order: `hash` is the new content's (null: the file is removed). */
  ops: Array<{ rel: string; hash: string | null }>;
  /** Directories the swap creates in OUT, parents first. */
  dirs: string[];
}

/**
 * Makes OUT hold exactly `files` (relative path -> content) among the files hydrate owns: writes new and
 * changed ones, removes owned ones no longer planned, records them in the marker. `label` names OUT in errors.
 */
export function updateOutputDirectory(
  out: string,
  label: string,
  files: ReadonlyMap<string, string>,
  fs: OutputFileSystem = NODE_FILE_SYSTEM,
): OutputUpdate {
  for (const rel of files.keys()) checkRelativePath(rel);
  if (!existsSync(out)) createDirectory(out, label);
  recoverInterruptedUpdate(out, label, fs);
  const owned = readMarker(out, label);
  const at = (rel: string) => containedPath(out, rel, label);

  const ops: Journal['ops'] = [];
  const contents = new Map<string, string>();
  const conflicts: string[] = [];
  const hashes = new Map<string, string>();
  let unchanged = 0;
  for (const [rel, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const hash = sha256Hex(content);
    hashes.set(rel, hash);
    const current = readIfFile(at(rel), rel, conflicts);
    if (current === content) {
      unchanged++;
      continue;
    }
    if (current !== undefined && owned.get(rel) !== sha256Hex(current)) conflicts.push(rel);
    ops.push({ rel, hash });
    contents.set(rel, content);
  }
  const leftAlone: string[] = [];
  for (const [rel, hash] of [...owned].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (files.has(rel)) continue;
    const current = readIfFile(at(rel), rel, []);
    if (current === undefined) continue;
    if (hash !== undefined && sha256Hex(current) === hash) ops.push({ rel, hash: null });
    else leftAlone.push(rel);
  }
  if (conflicts.length > 0) {
    // A file the marker lists but whose content changed was edited after hydrate wrote it: say which is which.
    const list = [...new Set(conflicts)].sort();
    const edited = list.filter((rel) => owned.has(rel));
    const foreign = list.filter((rel) => !owned.has(rel));
    const names = (l: string[]) => `${l.slice(0, 5).join(', ')}${l.length > 5 ? ', ...' : ''}`;
    const parts = [
      ...(foreign.length > 0
        ? [`${foreign.length} file(s) in ${label} that osm-krm hydrate did not write: ${names(foreign)}`]
        : []),
      ...(edited.length > 0
        ? [
            `${edited.length} file(s) in ${label} that were edited after osm-krm hydrate wrote them: ${names(edited)} (hydrate writes OUT from SRC: make the change in SRC, and restore these files)`,
          ]
        : []),
    ];
    throw new CommandError(`refusing to overwrite ${parts.join('; and ')}`);
  }
  const marker =
    [
      MARKER_HEADER,
      ...[...hashes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([rel, hash]) => `${hash}  ${rel}`),
    ].join('\n') + '\n';
  if (readIfFile(at(MARKER_FILE), MARKER_FILE, []) !== marker) {
    ops.push({ rel: MARKER_FILE, hash: sha256Hex(marker) });
    contents.set(MARKER_FILE, marker);
  }
  const result = {
    written: [...contents.keys()].filter((r) => r !== MARKER_FILE).length,
    removed: ops.filter((o) => o.hash === null).length,
    unchanged,
    leftAlone,
  };
  if (ops.length === 0) return result;

  const dirs = missingDirectories(out, label, [...contents.keys()]);
  const swap = join(out, SWAP_DIR);
  stage(swap, contents, label, fs);
  const journal: Journal = { ops, dirs };
  try {
    fs.writeFileSync(join(swap, 'journal.tmp'), JSON.stringify(journal));
    fs.renameSync(join(swap, 'journal.tmp'), join(swap, 'journal'));
  } catch (e) {
    if (!isFileSystemError(e)) throw e;
    discard(swap);
    throw writeError(`${label}/${SWAP_DIR}/journal`, e);
  }
  apply(out, label, journal, fs);
  unlinkSync(join(swap, 'journal')); // the swap is complete
  discard(swap);
  for (const op of ops) if (op.hash === null) removeEmptyParents(out, op.rel);
  return result;
}

/** Writes the new contents under swap/new, with their real names: OUT is not touched yet. */
function stage(swap: string, contents: ReadonlyMap<string, string>, label: string, fs: OutputFileSystem): void {
  try {
    fs.mkdirSync(swap); // also the lock: a second run at the same time fails here
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code === 'EEXIST')
      throw new CommandError(`${label} is being updated by another osm-krm hydrate (${label}/${SWAP_DIR} exists)`);
    if (!isFileSystemError(e)) throw e;
    throw writeError(`${label}/${SWAP_DIR}`, e);
  }
  for (const [rel, content] of [[OWNER_FILE, String(process.pid)] as const, ...contents]) {
    const path = rel === OWNER_FILE ? join(swap, rel) : join(swap, 'new', rel);
    try {
      if (rel !== OWNER_FILE) makeDirectories(join(swap, 'new'), dirname(rel), fs);
      fs.writeFileSync(path, content);
    } catch (e) {
      if (!isFileSystemError(e)) throw e;
      discard(swap);
      throw writeError(rel === OWNER_FILE ? `${label}/${SWAP_DIR}/${OWNER_FILE}` : `${label}/${rel}`, e);
    }
  }
}

function apply(out: string, label: string, journal: Journal, fs: OutputFileSystem): void {
  const swap = join(out, SWAP_DIR);
  try {
    for (const d of journal.dirs) fs.mkdirSync(join(out, d));
    for (const { rel, hash } of journal.ops) {
      const target = join(out, rel);
      if (existsSync(target) || isLink(target)) {
        makeDirectories(join(swap, 'old'), dirname(rel), fs);
        fs.renameSync(target, join(swap, 'old', rel));
      }
      if (hash !== null) fs.renameSync(join(swap, 'new', rel), target);
    }
  } catch (e) {
    if (!isFileSystemError(e)) throw e;
    rollBack(out, label, journal, fs);
    discard(swap);
    throw writeError(label, e);
  }
}

/** After a run that died mid-swap: moves every file back, so OUT is as it was before that run. */
export function recoverInterruptedUpdate(out: string, label: string, fs: OutputFileSystem = NODE_FILE_SYSTEM): void {
  const swap = join(out, SWAP_DIR);
  const kind = entryKind(swap);
  if (kind === 'missing') return;
  if (kind !== 'directory') {
    unlinkSync(swap); // not ours (a link or a file under our reserved name): removed, never followed
    return;
  }
  const owner = Number(readIfFile(join(swap, OWNER_FILE), OWNER_FILE, []) ?? 0);
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
    throw new CommandError(
      `${label} is being updated by another osm-krm hydrate (pid ${owner}); if none is running, remove ${label}/${SWAP_DIR} and run again`,
    );
  }
  const journalPath = join(swap, 'journal');
  if (existsSync(journalPath) && !isLink(journalPath)) {
    let journal: Journal;
    try {
      const text = decodeText(readOutBytes(journalPath), journalPath);
      countJsonValues(text, MAX_JOURNAL_VALUES);
      journal = JSON.parse(text) as Journal;
      if (!Array.isArray(journal.ops) || !Array.isArray(journal.dirs)) throw new Error('not a journal');
      for (const op of journal.ops) checkRelativePath(op.rel);
      for (const d of journal.dirs) checkRelativePath(d);
    } catch (e) {
      const why =
        e instanceof JsonValueLimitReached
          ? e.of === 'key'
            ? `holds ${LONG_KEY}`
            : `holds more than ${MAX_JOURNAL_VALUES} JSON values`
          : 'is unreadable';
      throw new CommandError(
        `${label}/${SWAP_DIR}/journal ${why}: an interrupted run cannot be undone; restore ${label} (e.g. from Git) and remove ${SWAP_DIR}`,
      );
    }
    rollBack(out, label, journal, fs);
  }
  discard(swap);
}

function rollBack(out: string, label: string, journal: Journal, fs: OutputFileSystem): void {
  const swap = join(out, SWAP_DIR);
  for (const { rel, hash } of [...journal.ops].reverse()) {
    const target = containedPath(out, rel, label);
    const staged = join(swap, 'new', rel);
    const old = join(swap, 'old', rel);
    const movedIn = hash !== null && !existsSync(staged);
    if (existsSync(old) || isLink(old)) fs.renameSync(old, join(out, rel));
    else if (movedIn && existsSync(target) && sha256Hex(readOutBytes(target)) === hash) unlinkSync(target);
  }
  for (const d of [...journal.dirs].reverse()) {
    try {
      rmdirSync(containedPath(out, d, label));
    } catch {
      // not empty, or already gone
    }
  }
}

/** The directories (relative to OUT, parents first) that must be made for these files. */
function missingDirectories(out: string, label: string, rels: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const rel of rels) {
    const parts = rel.split('/').slice(0, -1);
    for (let i = 1; i <= parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (dirs.has(d)) continue;
      const real = containedPath(out, d, label);
      const kind = targetKind(real);
      if (kind === 'missing') {
        dirs.add(d);
        continue;
      }
      if (kind !== 'directory')
        throw new CommandError(`cannot write ${label}/${rel}: ${label}/${d} is not a directory`);
    }
  }
  return [...dirs];
}

function makeDirectories(base: string, rel: string, fs: OutputFileSystem): void {
  if (!existsSync(base)) fs.mkdirSync(base);
  if (rel === '.' || rel === '') return;
  let p = base;
  for (const part of rel.split('/')) {
    p = join(p, part);
    if (!existsSync(p)) fs.mkdirSync(p);
  }
}

/** A regular file's content; undefined when missing. Anything else at that path is a conflict. */
function readIfFile(path: string, rel: string, conflicts: string[]): string | undefined {
  const kind = targetKind(path);
  if (kind === 'missing') return undefined;
  if (kind !== 'file') {
    conflicts.push(rel);
    return undefined;
  }
  return readOutBytes(path).toString('utf8');
}

/** Whether a process with this id exists (EPERM: it does, under another user). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isLink(path: string): boolean {
  return entryKind(path) === 'link';
}

function discard(swap: string): void {
  rmSync(swap, { recursive: true, force: true });
}

function removeEmptyParents(out: string, rel: string): void {
  const parts = rel.split('/').slice(0, -1);
  for (let i = parts.length; i > 0; i--) {
    const d = join(out, parts.slice(0, i).join('/'));
    try {
      if (directoryNames(d).length > 0) return;
      rmdirSync(d);
    } catch {
      return;
    }
  }
}

/** Only file-system errors are handled; anything else stands for a process that died mid-swap (tests). */
/**
 * Creates `dir` and its missing parents one by one, so a refusal names its real reason (a recursive mkdir on a
 * read-only file system reports ENOENT); a file-system error is a CommandError, never an internal error.
 */
export function createDirectory(dir: string, label: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.unshift(d);
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException)?.code === 'EEXIST') continue; // made meanwhile
      if (!isFileSystemError(e)) throw e;
      throw new CommandError(`cannot create ${label}: ${errnoReason(e)}`);
    }
  }
}

function isFileSystemError(e: unknown): boolean {
  return typeof (e as NodeJS.ErrnoException)?.code === 'string';
}

function writeError(what: string, e: unknown): CommandError {
  return new CommandError(`cannot write ${what}: ${errnoReason(e)}; nothing in it was changed`);
}

/** The marker: relative path -> SHA-256 of the content written (undefined for an entry without one). */
export function readMarker(out: string, label: string): Map<string, string | undefined> {
  const owned = new Map<string, string | undefined>();
  const p = containedPath(out, MARKER_FILE, label);
  let text: string;
  try {
    text = readOutBytes(p).toString('utf8');
  } catch {
    return owned;
  }
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    const rel = m ? m[2]! : line.trim(); // an older marker: no hash, so no proof that we wrote the file
    checkRelativePath(rel); // a tampered marker must not name anything outside OUT
    owned.set(rel, m ? m[1]! : undefined);
  }
  return owned;
}

/** What Linux file systems allow: a name of 255 bytes (NAME_MAX), a path of 4,096 (PATH_MAX). */
export const MAX_NAME_BYTES = 255;
export const MAX_PATH_BYTES = 4096;

/**
 * Why the file system would refuse `rel` as a path, undefined when it would not. Checked before a path is a Map
 * key: V8 hashes a string of more than 16,383 characters by its length alone, so 3,000 such paths cost the Maps
 * that hold them 38 s before the first write failed.
 */
export function pathLengthProblem(rel: string): string | undefined {
  const bytes = Buffer.byteLength(rel);
  if (bytes > MAX_PATH_BYTES) return `is ${bytes} bytes long, more than the ${MAX_PATH_BYTES} a path may have`;
  for (const part of rel.split('/')) {
    const n = Buffer.byteLength(part);
    if (n > MAX_NAME_BYTES) return `has a name of ${n} bytes, more than the ${MAX_NAME_BYTES} a file name may have`;
  }
  return undefined;
}

export function checkRelativePath(rel: string): void {
  const tooLong = pathLengthProblem(rel);
  if (tooLong !== undefined) throw new CommandError(`an output path ${tooLong}`);
  const parts = rel.split('/');
  if (
    rel.startsWith('/') ||
    rel.includes('\\') ||
    /[\u0000-\u001f\u007f]/.test(rel) ||
    parts.some((p) => p === '' || p === '.' || p === '..') ||
    parts[0] === SWAP_DIR
  ) {
    throw new CommandError(`unsafe output path ${JSON.stringify(rel)}`);
  }
}
