// Every reader of input YAML checks map keys the one way (src/krm/mapKeys.ts): two keys that become the same
// property are a repeated key, whatever their spelling, and a key that is a map or a sequence is refused. The
// `yaml` package compared scalars by typed value, so `1: a` with `"1": b` passed and the values kept only "1": b
// (exit 0 through generate); it wrote `{[a]: 0}` as the key "[ a ]"; and its check was quadratic (100,000 keys
// of one map: 266 s through render).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { readInputYaml } from '../../src/krm/inputYaml.ts';
import { NodeBudget } from '../../src/krm/inputBounds.ts';
import { parseDocuments } from '../../src/cli/manifestDirectory.ts';
import { parseResourceList } from '../../src/krm/resourceList.ts';
import { PARSE_OPTIONS } from '../../src/krm/yamlSchema.ts';

/** Each reader of input YAML, on a text whose root is the map `data` of one ConfigMap. */
const READERS: Record<string, (map: string) => unknown> = {
  'a YAML text of the inputs': (map) => (readInputYaml(`data: ${map}\n`, 'x', new NodeBudget()) as any).data,
  "a file's documents": (map) => (parseDocuments(`data: ${map}\n`, 'f.yaml', new NodeBudget())[0] as any).data,
  'the ResourceList': (map) =>
    parseResourceList(
      `{apiVersion: config.kubernetes.io/v1, kind: ResourceList, items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: x}, data: ${map}}]}`,
    ).items[0]!.object.data,
};

// Spellings of keys, several of which name the same property: 1, "1", 01 (octal), 1.0; true and "true"; ~, null,
// "" and an absent key.
const KEYS = ['1', '"1"', "'1'", '01', '1.0', '2', 'true', '"true"', 'True', '~', 'null', '""', 'a', '"a"', "'b'", 'b'];

/**
 * The property name each key spelling becomes, by an oracle apart from the code under test: the `yaml`
 * package's own values for a map of that key alone.
 */
function propertyNames(keys: readonly string[]): string[] {
  return keys.map((k) => Object.keys(parseDocument(`{${k}: x}\n`, PARSE_OPTIONS).toJS() as object)[0]!);
}

test('keys that become the same property are refused by every reader, whatever their spelling; others all kept', () => {
  fc.assert(
    fc.property(fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 5 }), (keys) => {
      const map = `{${keys.map((k, i) => `${k}: v${i}`).join(', ')}}`;
      const names = propertyNames(keys);
      const repeated = new Set(names).size < names.length;
      for (const [reader, read] of Object.entries(READERS)) {
        if (repeated) {
          assert.throws(
            () => read(map),
            (e: Error) => /a map key is repeated/.test(e.message),
            `${reader}: ${map} (${names.join(' ')})`,
          );
        } else {
          const value = read(map) as Record<string, string>;
          assert.deepEqual(Object.keys(value).sort(), [...names].sort(), `${reader}: ${map}`);
          names.forEach((name, i) => assert.equal(value[name], `v${i}`, `${reader}: ${map}`));
        }
      }
    }),
    { seed: 20261129, numRuns: 300 },
  );
});

test('a key that is a map or a sequence, or an alias of one, is refused by every reader at its place', () => {
  for (const map of ['{[a]: 0}', '{? {k: v} : 0}', '{x: &k [a], *k : 1}', '{a: 0, [b, c]: 1}']) {
    for (const [reader, read] of Object.entries(READERS)) {
      assert.throws(
        () => read(map),
        (e: Error) => /line \d+, column \d+: a map key is a map or a sequence/.test(e.message),
        `${reader}: ${map}`,
      );
    }
  }
  // A block spelling, through a file.
  assert.throws(
    () => parseDocuments('data:\n  ? - a\n  : 0\n', 'f.yaml', new NodeBudget()),
    /f\.yaml: document 1 is not valid YAML at line 2, column 5: a map key is a map or a sequence/,
  );
});

test(
  'the keys of one large map are checked in one pass (a guard against the quadratic check, not a speed target)',
  { timeout: 120_000 },
  () => {
    // 200,000 keys: the package's own check would compare 2e10 pairs (hours); these are read in seconds.
    const keys = Array.from({ length: 200_000 }, (_, i) => `  k${i}: v\n`).join('');
    const [doc] = parseDocuments(`data:\n${keys}`, 'f.yaml', new NodeBudget()) as Array<{ data: object }>;
    assert.equal(Object.keys(doc!.data).length, 200_000);
    assert.throws(
      () => parseDocuments(`data:\n${keys}  k7: again\n`, 'f.yaml', new NodeBudget()),
      /line 200002, column 3: a map key is repeated/,
    );
  },
);

test('a key, an anchor, an alias or a tag longer than 16,383 characters is refused by every reader, however it is written', () => {
  // V8 hashes a longer string by its length alone: 2,000 such keys of one map cost 7.8 s through the function.
  const FORMS: Record<string, (key: string) => string> = {
    'a flow key': (k) => `{${k}: v}`,
    'a double-quoted flow key': (k) => `{"${k}": v}`,
    'an explicit block key': (k) => `\n  ? ${k}\n  : v`,
    'an alias of a long scalar': (k) => `{a: &x ${k}, *x : v}`,
    'an anchor': (k) => `{a: &${k} v}`,
    'an anchor and its alias': (k) => `{a: &${k} v, b: *${k}}`,
    'a tag': (k) => `{a: !${k.replaceAll('é', 'e')} v}`, // a tag's characters are URI characters
  };
  fc.assert(
    fc.property(
      fc.constantFrom(...Object.keys(FORMS)),
      fc.constantFrom(16_382, 16_383, 16_384, 16_385, 40_000),
      fc.constantFrom('k', 'é', '0'),
      (form, length, fill) => {
        const key = `${fill.repeat(length - 1)}z`;
        const map = FORMS[form]!(key);
        for (const [reader, read] of Object.entries(READERS)) {
          if (reader === 'the ResourceList' && form === 'an explicit block key') continue; // a flow text
          // An anchor, alias or tag is counted with its indicator (&, *, !).
          if (length > (/anchor|tag/.test(form) ? 16_382 : 16_383)) {
            assert.throws(
              () => read(map),
              (e: Error) => /longer than 16,383 characters/.test(e.message),
              `${reader}, ${form} of ${length}`,
            );
          } else {
            const value = read(map) as Record<string, string>;
            if (!/anchor|tag/.test(form)) assert.equal(value[key], 'v', `${reader}, ${form} of ${length}`);
            else assert.equal(value.a, 'v', `${reader}, ${form} of ${length}`);
          }
        }
      },
    ),
    { seed: 20261130, numRuns: 60 },
  );
});
