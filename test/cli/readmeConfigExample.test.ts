// The README's configuration example is valid (the function accepts it as its config, through the bundle) and
// complete: every field the schema defines appears in it (value sources, which are alternatives, and fields that
// exclude each other, of which it sets one, excepted).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { parseFunctionConfig } from '../../src/config/operatingSystemManagerConfig.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { osmKrm } from './routeSupport.ts';

function readmeExample(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### Configuration (`functionConfig`)'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'a yaml block in the Configuration section');
  return block[1]!;
}

test('the README configuration example is a valid config (the function reports no error on it)', () => {
  const config = parse(readmeExample());
  assert.doesNotThrow(() => parseFunctionConfig(config));
  const list = { apiVersion: 'config.kubernetes.io/v1', kind: 'ResourceList', functionConfig: config, items: [] };
  const r = osmKrm([], { input: JSON.stringify(list) });
  const results = (parse(r.stdout).results ?? []) as any[];
  // Its one per-MachineDeployment entry names a MachineDeployment the (empty) input lacks: said as such; its
  // spec.sops is hydrate's alone, so the function refuses it on its own route (README: "sops is for hydrate
  // alone"): nothing else.
  assert.ok(
    results.some((x) => x.severity === 'error' && x.field?.path === 'spec.sops'),
    'the function refuses spec.sops on its route',
  );
  assert.deepEqual(
    results.filter(
      (x) => x.severity === 'error' && !/kube-system\/rhel-satellite/.test(x.message) && x.field?.path !== 'spec.sops',
    ),
    [],
  );
  assert.doesNotMatch(r.stderr, /invalid functionConfig/);
});

type Schema = Record<string, any>;

test('the README configuration example names every field of the schema', () => {
  const schema = JSON.parse(
    readFileSync(join(REPO_ROOT, 'src/config/operatingSystemManager.schema.json'), 'utf8'),
  ) as Schema;
  const resolve = (s: Schema): { schema: Schema; name?: string } =>
    typeof s.$ref === 'string'
      ? {
          schema: s.$ref
            .slice(2)
            .split('/')
            .reduce((n: Schema, k: string) => n[k], schema),
          name: s.$ref,
        }
      : { schema: s };
  // Per place in the schema (a definition counts as one place wherever it is used): the fields it allows, the fields the example sets.
  const allowed = new Map<string, string[]>();
  const seen = new Map<string, Set<string>>();
  const walk = (raw: Schema, data: unknown, place: string) => {
    const { schema: s, name } = resolve(raw);
    if (name === '#/definitions/valueSource' || name === '#/definitions/secretSource') return; // alternatives: one of them
    const at = name ?? place;
    if (s.properties && data !== null && typeof data === 'object' && !Array.isArray(data)) {
      allowed.set(at, Object.keys(s.properties));
      const set = seen.get(at) ?? new Set<string>();
      seen.set(at, set);
      for (const [k, v] of Object.entries(data)) {
        set.add(k);
        if (s.properties[k]) walk(s.properties[k], v, `${at}.${k}`);
      }
    } else if (
      s.additionalProperties &&
      typeof s.additionalProperties === 'object' &&
      data !== null &&
      typeof data === 'object'
    ) {
      for (const v of Object.values(data)) walk(s.additionalProperties, v, `${at}.*`);
    }
  };
  walk(schema, parse(readmeExample()), '#');
  // Fields that exclude each other: the example sets one, and names the other in a comment.
  const exclusive = [['bootstrapTokenExpiration', 'bootstrapTokenRotation']];
  const alternativeSeen = (at: string, f: string) =>
    exclusive.some((g) => g.includes(f) && g.some((o) => o !== f && seen.get(at)!.has(o)));
  const missing = [...allowed].flatMap(([at, fields]) =>
    fields.filter((f) => !seen.get(at)!.has(f) && !alternativeSeen(at, f)).map((f) => `${at}.${f}`),
  );
  assert.deepEqual(missing, []);
  assert.ok(allowed.get('#/definitions/spec')!.length > 20, 'the walk reached spec');
});
