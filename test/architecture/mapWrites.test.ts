// "No key longer than V8 hashes by content", read from the code (src/go/internal/hashableKey.ts): in the Go
// library, sprig and the template engine, a property is put on a map only by src/go/reflect/value.ts (mapSet,
// which refuses such a key, and the symbol-keyed tags it keeps on values). A decoder that defined its keys itself
// was the door a long key came through; test/template/longMapKeys.test.ts attacks the functions themselves.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

const DIRS = ['src/go', 'src/sprig', 'src/template'];
const MAP_WRITER = 'src/go/reflect/value.ts';
// Ways to put a key on an object other than assignment (assignment is left to the functions' test).
const DEFINERS =
  /\bObject\.(defineProperty|defineProperties|fromEntries|assign)\s*\(|\bReflect\.(set|defineProperty)\s*\(/g;

test('in the Go library, sprig and the template engine, only value.ts defines a property on a map', () => {
  const found: string[] = [];
  for (const dir of DIRS) {
    for (const e of readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith('.ts')) continue;
      const file = posix.relative(REPO_ROOT, join(e.parentPath, e.name)).split('\\').join('/');
      if (file === MAP_WRITER) continue;
      const text = readFileSync(join(REPO_ROOT, file), 'utf8');
      for (const m of text.matchAll(DEFINERS)) found.push(`${file}: ${m[0]}`);
    }
  }
  assert.deepEqual(found, [], 'use mapSet (src/go/reflect/value.ts), which refuses a key too long to hash');
  // The writer itself: every key it defines that is not one of its symbols went through the length check.
  const writer = readFileSync(join(REPO_ROOT, MAP_WRITER), 'utf8');
  const defines = [...writer.matchAll(/Object\.defineProperty\((\w+), (\w+)/g)].map((m) => m[2]);
  assert.deepEqual(defines.sort(), ['CONTAINER_TYPE', 'MAP_SIZE', 'key']);
  assert.match(
    writer,
    /export function mapSet\(m: GoMap, key: string, value: unknown\): void \{\n\s+hashableKey\(key\);/,
  );
});
