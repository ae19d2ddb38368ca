// Every template of every upstream default OSP parses. Their templates use only Go's builtins and sprig's
// semverCompare, so a function map with a stub semverCompare is enough (any other function would be a
// "function not defined" parse error).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { CONSTANT, goFunc, newTemplate } from '../../../src/template/index.ts';

const ospDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/upstream/osm/deploy/osps/default');
const funcs = { semverCompare: goFunc(['string', 'string'], CONSTANT, () => true) };

/** Every string of the document that contains an action, with where it was found. */
function templates(v: unknown, path: string, out: { path: string; text: string }[]): typeof out {
  if (typeof v === 'string') {
    if (v.includes('{{')) out.push({ path, text: v });
  } else if (Array.isArray(v)) v.forEach((e, i) => templates(e, `${path}[${i}]`, out));
  else if (v !== null && typeof v === 'object')
    for (const [k, e] of Object.entries(v)) templates(e, `${path}.${k}`, out);
  return out;
}

const files = readdirSync(ospDir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

test('the six upstream default OSPs are there', () => {
  assert.equal(files.length, 6);
});

for (const file of files) {
  test(`every template of ${file} parses`, () => {
    const found = templates(parse(readFileSync(join(ospDir, file), 'utf8')), 'spec', []);
    assert.ok(found.length >= 10, `only ${found.length} templates in ${file}`);
    for (const t of found) {
      assert.doesNotThrow(() => newTemplate(t.path, { funcs }).parse(t.text), t.path);
    }
  });
}
