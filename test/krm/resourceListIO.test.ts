import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import {
  generatedEntry,
  parseResourceList,
  ResourceListParseError,
  serializeResourceList,
} from '../../src/krm/resourceList.ts';

const INPUT = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- # head comment
  apiVersion: v1
  kind: ConfigMap # inline
  metadata:
    name: a
    annotations:
      config.kubernetes.io/path: 'a.yaml'
  data:
    mode: 0644
    flow: {x: 1}
    on: on
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: b}
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: function-input}
`;

test('passthrough items keep their exact text', () => {
  const list = parseResourceList(INPUT);
  assert.equal(list.items.length, 2);
  const out = serializeResourceList(list, { kept: list.items, generated: [], results: [] });
  assert.ok(
    out.includes(`- # head comment
  apiVersion: v1
  kind: ConfigMap # inline
  metadata:
    name: a
    annotations:
      config.kubernetes.io/path: 'a.yaml'
  data:
    mode: 0644
    flow: {x: 1}
    on: on
`),
    out,
  );
  assert.ok(out.includes('- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n'));
  // Values are read as kyaml reads them: 0644 is octal, `on` stays a string.
  assert.equal((list.items[0]!.object as any).data.mode, 420);
  assert.equal((list.items[0]!.object as any).data.on, 'on');
});

test('generated items and results are valid YAML that YAML 1.1 readers keep as strings', () => {
  const list = parseResourceList(INPUT);
  const out = serializeResourceList(list, {
    kept: [],
    generated: [
      generatedEntry(list, {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'g' },
        data: { a: 'yes', b: '0644', c: 'line1\nline2\n', d: '1.20', e: 'y' },
      }),
    ],
    results: [{ severity: 'warning', message: 'careful: on' }],
  });
  assert.ok(
    out.includes('a: "yes"') && out.includes('b: "0644"') && out.includes('d: "1.20"') && out.includes('e: "y"'),
    out,
  );
  assert.ok(out.includes('c: |\n'), out);
  const back = parse(out);
  assert.deepEqual(back.items[0].data, { a: 'yes', b: '0644', c: 'line1\nline2\n', d: '1.20', e: 'y' });
  assert.equal(back.results[0].severity, 'warning');
});

test('JSON input is accepted', () => {
  const list = parseResourceList(
    JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'j' } }],
    }),
  );
  assert.equal(list.items.length, 1);
  const out = parse(serializeResourceList(list, { kept: list.items, generated: [], results: [] }));
  assert.equal(out.items[0].metadata.name, 'j');
});

test('malformed input is a parse error, not an exception of another kind', () => {
  for (const bad of [
    '',
    'a: [',
    'kind: Deployment',
    'kind: ResourceList\nitems: 3',
    'kind: ResourceList\nitems:\n- 3',
    '{"kind":',
    'a: 1\na: 2\nkind: ResourceList',
  ]) {
    assert.throws(() => parseResourceList(bad), ResourceListParseError, JSON.stringify(bad));
  }
});
