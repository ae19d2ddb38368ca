// Bad input never crashes the function: random and mutated ResourceLists, profiles, MachineDeployments and
// configs, bounded in count and time (FUZZ_SEED / FUZZ_COUNT to replay or extend).
import { test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASE_CONFIG, baseItems, resourceList, rng } from './inputCorpus.ts';
import { checkInvariants } from './invariants.ts';
import { TESTDATA } from '../support/paths.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const COUNT = Number(process.env.FUZZ_COUNT ?? 250);
const BUDGET_MS = 20_000;

test('crafted hostile inputs in testdata/robustness', () => {
  const dir = join(TESTDATA, 'robustness');
  for (const f of readdirSync(dir).sort()) checkInvariants(readFileSync(join(dir, f)), f);
});

test('degenerate inputs', () => {
  const cases: Record<string, string> = {
    empty: '',
    whitespace: '   \n\t\n',
    binary: '\u0000\u0001\u00ff\u00fe' + 'x'.repeat(100),
    'not a list': 'apiVersion: v1\nkind: ConfigMap\n',
    'items scalar': 'kind: ResourceList\nitems: 5\n',
    'items of scalars': 'kind: ResourceList\nitems: [1, "a", null]\n',
    'json garbage': '{"kind": "ResourceList", "items": [',
    'deep nesting': 'kind: ResourceList\nitems:\n- ' + '['.repeat(5000) + ']'.repeat(5000) + '\n',
    'huge string': resourceList([
      ...baseItems(),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { x: 'y'.repeat(2_000_000) } },
    ]),
    'duplicate keys': 'kind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  kind: Secret\n',
    'alias bomb':
      'kind: ResourceList\na: &a ["x","x","x","x","x","x","x","x","x"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nitems: []\n',
    'unknown kinds': resourceList([{ apiVersion: 'x/v1', kind: 'Weird' }, { kind: 'NoApiVersion' }, {}]),
    'no config': resourceList(baseItems(), undefined),
    'config of wrong kind': resourceList(baseItems(), { apiVersion: 'v1', kind: 'Secret' }),
  };
  for (const [label, input] of Object.entries(cases)) checkInvariants(input, label);
});

const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 63,
  '',
  ' ',
  '$(reboot)',
  '`id`',
  "a'b",
  'a"b',
  'line\nbreak',
  '\u0000',
  '{{ .Token }}',
  '{{',
  '}}',
  '../../etc/passwd',
  'x'.repeat(100_000),
  [],
  [[[]]],
  {},
  { a: { b: { c: {} } } },
  ['a', 1, null],
  '__proto__',
  'constructor',
];

function mutate(value: any, random: () => number, depth = 0): any {
  if (value === null || typeof value !== 'object' || depth > 12) {
    return random() < 0.5 ? HOSTILE_VALUES[Math.floor(random() * HOSTILE_VALUES.length)] : value;
  }
  const copy: any = Array.isArray(value) ? [...value] : { ...value };
  const keys = Object.keys(copy);
  if (keys.length === 0) return HOSTILE_VALUES[Math.floor(random() * HOSTILE_VALUES.length)];
  const k = keys[Math.floor(random() * keys.length)]!;
  const r = random();
  if (r < 0.15) delete copy[k];
  else if (r < 0.3) copy[k] = HOSTILE_VALUES[Math.floor(random() * HOSTILE_VALUES.length)];
  else if (r < 0.35 && !Array.isArray(copy)) copy['__proto__x' + k] = 1;
  else copy[k] = mutate(copy[k], random, depth + 1);
  return copy;
}

function mutateText(text: string, random: () => number): string {
  const lines = text.split('\n');
  const i = Math.floor(random() * lines.length);
  const r = random();
  if (r < 0.25) lines.splice(i, 1);
  else if (r < 0.5) lines.splice(i, 0, lines[Math.floor(random() * lines.length)]!);
  else if (r < 0.7) lines[i] = lines[i]!.slice(0, Math.floor(random() * lines[i]!.length));
  else if (r < 0.85) lines[i] = ' '.repeat(Math.floor(random() * 6)) + lines[i];
  else lines[i] = lines[i] + String.fromCharCode(Math.floor(random() * 128));
  return lines.join('\n');
}

test(`mutated ResourceLists (seed ${SEED}, ${COUNT} cases)`, () => {
  const random = rng(SEED);
  const started = Date.now();
  for (let n = 0; n < COUNT && Date.now() - started < BUDGET_MS; n++) {
    const label = `FUZZ_SEED=${SEED} case ${n}`;
    const items = baseItems();
    let input: string;
    if (random() < 0.6) {
      const which = Math.floor(random() * (items.length + 1));
      if (which === items.length) input = resourceList(items, mutate(BASE_CONFIG, random));
      else {
        items[which] = mutate(items[which], random);
        input = resourceList(items);
      }
    } else {
      input = resourceList(items);
      const edits = 1 + Math.floor(random() * 3);
      for (let e = 0; e < edits; e++) input = mutateText(input, random);
    }
    checkInvariants(input, label);
  }
});
