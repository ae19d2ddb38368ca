// Duplicate mapping keys (src/go/yaml.v3/decode.ts): found by grouping equal keys, the errors are yaml.v3's,
// in its order (each key against every later one), whatever the keys and their repeats.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { decodeYaml } from '../../../src/go/yaml.v3/decode.ts';
import { UNMETERED } from '../../../src/go/internal/meter.ts';

test('duplicate keys: the errors of yaml.v3 pairwise comparison, in its order', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('a', 'b', 'c', '"a"', '1', 'x y'), { minLength: 1, maxLength: 12 }),
      (keys) => {
        const doc = keys.map((k, i) => `${k}: ${i}`).join('\n');
        // yaml.v3: line N's key against every later line's; a quoted "a" has the value a.
        const value = (k: string) => (k === '"a"' ? 'a' : k);
        const expected: string[] = [];
        for (let i = 0; i < keys.length; i++) {
          for (let j = i + 1; j < keys.length; j++) {
            if (value(keys[i]!) === value(keys[j]!))
              expected.push(`line ${j + 1}: mapping key "${value(keys[j]!)}" already defined at line ${i + 1}`);
          }
        }
        const r = decodeYaml(doc, 'map', UNMETERED);
        if (expected.length === 0) assert.equal(r.error, undefined);
        else for (const e of expected) assert.ok(r.error?.includes(e), `${r.error} lacks ${e}`);
        if (expected.length > 0) {
          const at = expected.map((e) => r.error!.indexOf(e));
          assert.deepEqual(
            at,
            [...at].sort((x, y) => x - y),
            'in order',
          );
        }
      },
    ),
    { numRuns: 300 },
  );
});
