// Paths below a directory the user named (SRC, an Argo CD app directory, OUT) that never lead out of it.
// A symbolic link that stays inside is followed, as Argo CD allows; one that leads outside, or in a loop,
// is refused with an error naming the link. Repositories are input: a link is as hostile as any byte.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { join, sep } from 'node:path';
import { CommandError } from './commandIO.ts';

export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * The real location of `rel` (slash-separated) below `root`: every existing component resolved, the missing
 * rest appended. Refuses a symbolic link that leads outside `root` (`label` names the root in the error),
 * that loops, or that points nowhere.
 */
export function containedPath(root: string, rel: string, label: string): string {
  const realRoot = realpathSync(root);
  const parts = rel.split('/');
  let current = realRoot;
  for (let i = 0; i < parts.length; i++) {
    const next = join(current, parts[i]!);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch (e) {
      // Missing (or a name too long to exist): nothing to follow; a write there fails with its own reason.
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENAMETOOLONG' || code === 'ENOTDIR') return join(next, ...parts.slice(i + 1));
      throw new CommandError(`cannot read ${label}/${parts.slice(0, i + 1).join('/')}: ${errnoReason(e)}`);
    }
    if (!isLink) {
      current = next;
      continue;
    }
    const link = `${label}/${parts.slice(0, i + 1).join('/')}`;
    current = followLink(next, link, realRoot, label);
  }
  return current;
}

/** Where a symbolic link leads, when that is inside `realRoot`; otherwise an error naming the link. */
export function followLink(path: string, link: string, realRoot: string, label: string): string {
  let target: string;
  try {
    target = realpathSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new CommandError(`symbolic link loop at ${link}: refusing to follow it`);
    throw new CommandError(`symbolic link ${link} -> ${readlinkSync(path)} points nowhere (${code}): refusing to follow it`);
  }
  if (!isInside(target, realRoot)) {
    throw new CommandError(`symbolic link ${link} -> ${readlinkSync(path)} leads outside ${label}: refusing to follow it`);
  }
  return target;
}

/** `ENOSPC: no space left on device` from a Node file-system error (without the paths it names). */
export function errnoReason(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (typeof err?.code !== 'string') return String((e as Error)?.message ?? e);
  const message = String(err.message ?? '');
  const reason = message.startsWith(`${err.code}: `) ? message.slice(err.code.length + 2).split(',')[0] : '';
  return reason ? `${err.code}: ${reason}` : err.code;
}
