// src/go/: each module says in its opening comment which Go release or library version it follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

const VERSION = /\bGo 1\.\d+|\bgo 1\.\d+|\bGo >= 1\.\d+|\bv\d+\.\d+\.\d+|every Go version|no Go counterpart/;

test('every src/go/ module names the Go or library version it follows in its opening comment', () => {
  const files = readdirSync(join(REPO_ROOT, 'src/go'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => posix.relative(REPO_ROOT, join(e.parentPath, e.name)));
  assert.ok(files.length > 20);
  const opening = (f: string) =>
    readFileSync(join(REPO_ROOT, f), 'utf8')
      .split('\n')
      .filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('//')))
      .join('\n');
  assert.deepEqual(
    files.filter((f) => !VERSION.test(opening(f))),
    [],
  );
});
