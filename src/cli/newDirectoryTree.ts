// A tree of files written into a directory that must be new or empty (`render --out`), all or nothing: every
// path is checked first (a path that is a file for one entry and a directory for another is an error naming
// both), the tree is built in a temporary directory beside DIR and moved into place with one rename, so a
// failure (a name the file system refuses, a full disk) leaves nothing behind.
import { mkdirSync, mkdtempSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CommandError } from './commandIO.ts';
import { directoryNames, errnoReason } from './fileGate.ts';

/** `files`: relative path (`/`-separated, no `.` or `..` parts) -> content. */
export function writeNewDirectoryTree(dir: string, label: string, files: ReadonlyMap<string, string>): void {
  let existing: string[] | undefined;
  try {
    existing = directoryNames(dir);
  } catch {
    // a new directory
  }
  if (existing !== undefined && existing.length > 0)
    throw new CommandError(`${label} ${dir} is not empty; give a new or empty directory`);
  checkNoFileIsADirectory(files, label);

  // The parent is made if missing, and removed again on failure (mkdirSync gives the first directory it made).
  let madeParent: string | undefined;
  let tmp: string | undefined;
  let done = false;
  try {
    // A destination that cannot be made (a read-only or full file system) is said as such, not as a bug.
    try {
      madeParent = mkdirSync(dirname(dir), { recursive: true });
      tmp = mkdtempSync(join(dirname(dir), `.${basename(dir)}.osm-krm-`));
    } catch (e) {
      throw new CommandError(`cannot create ${label} ${dir}: ${errnoReason(e)}`);
    }
    for (const [rel, content] of files) {
      const target = join(tmp, rel);
      try {
        mkdirSync(dirname(target), { recursive: true });
        // 'wx': never through a file or link that is already there.
        writeFileSync(target, content, { flag: 'wx' });
      } catch (e) {
        throw new CommandError(`${label}: cannot write ${rel}: ${errnoReason(e)}; nothing written to ${dir}`);
      }
    }
    // An empty DIR is replaced by the new tree in the same rename (rename(2) takes an empty directory's place).
    try {
      renameSync(tmp, dir);
    } catch (e) {
      throw new CommandError(`${label}: cannot move the written tree to ${dir}: ${errnoReason(e)}; nothing written`);
    }
    tmp = undefined;
    done = true;
  } finally {
    if (tmp !== undefined) rmSync(tmp, { recursive: true, force: true });
    if (!done && madeParent !== undefined) removeMade(madeParent, dirname(dir));
  }
}

/** A path that another one needs as a directory cannot be a file: error naming both, before anything is written. */
function checkNoFileIsADirectory(files: ReadonlyMap<string, string>, label: string): void {
  for (const rel of files.keys()) {
    const parts = rel.split('/');
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i).join('/');
      if (files.has(prefix)) {
        throw new CommandError(
          `${label}: ${prefix} would be both a file and the directory holding ${rel} (the node configuration has a file at a path that another file lies under); nothing written`,
        );
      }
    }
  }
}

/** Removes the directories mkdirSync made, from `deepest` up to `first`, while they are empty. */
function removeMade(first: string, deepest: string): void {
  for (let d = deepest; d.length >= first.length; d = dirname(d)) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
  }
}
