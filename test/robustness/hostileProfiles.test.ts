// A hostile OSP is stopped with an error within the limits set in the config: deep recursion, huge ranges,
// huge output, prototype access. Nothing is generated and the process does not hang or crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runOn } from '../support/runInProcess.ts';
import { BASE_CONFIG, baseItems, SMALL_OSP } from './inputCorpus.ts';

function withTemplate(data: string, limits: Record<string, number> = {}) {
  const items = baseItems();
  items[0] = {
    ...SMALL_OSP,
    spec: { ...SMALL_OSP.spec, provisioningConfig: { files: [{ path: '/hostile', content: { inline: { data } } }] } },
  };
  return runOn({
    apiVersion: 'config.kubernetes.io/v1',
    kind: 'ResourceList',
    items,
    functionConfig: { ...BASE_CONFIG, spec: { ...BASE_CONFIG.spec, templateLimits: limits } },
  });
}

function expectStopped(data: string, limits: Record<string, number>, message: RegExp): void {
  const started = Date.now();
  const r = withTemplate(data, limits);
  assert.ok(Date.now() - started < 5000, 'took too long');
  assert.equal(r.exitCode, 1);
  assert.ok(
    r.results.some(
      (x: any) => x.severity === 'error' && message.test(x.message) && x.resourceRef?.kind === 'OperatingSystemProfile',
    ),
    JSON.stringify(r.results),
  );
  assert.ok(
    !r.items.some((i: any) =>
      String(i.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '').startsWith('osm-generated/'),
    ),
  );
}

test('unbounded recursion stops at the configured depth', () =>
  expectStopped(
    '{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}',
    { maxDepth: 50 },
    /exceeded maximum template depth \(50\)/,
  ));

test('a huge range stops at the configured iteration count', () =>
  expectStopped('{{ range 100000000 }}x{{ end }}', { maxRangeIterations: 1000 }, /range exceeded 1000 iterations/));

test('huge output stops at the configured size', () =>
  expectStopped(
    '{{ range 100000 }}0123456789{{ end }}',
    { maxOutputBytes: 4096 },
    /template output exceeds 4096 bytes/,
  ));

test('endless work stops at the configured step count', () =>
  expectStopped('{{ range 10000 }}{{ range 10000 }}{{ end }}{{ end }}', { maxSteps: 100000 }, /exceeded 100000 steps/));

test('prototype and constructor access are just missing fields', () => {
  for (const t of [
    '{{ .constructor }}',
    '{{ .__proto__ }}',
    '{{ .Token.constructor }}',
    '{{ index . "constructor" }}',
  ]) {
    const r = withTemplate(t);
    assert.equal(r.exitCode, 1, t);
    assert.ok(
      r.results.some((x: any) => /can't evaluate field|can't index item|error calling index/.test(x.message)),
      `${t}: ${JSON.stringify(r.results)}`,
    );
  }
});

test('limits are validated in the config', () => {
  const r = withTemplate('x', { maxDepth: 0 });
  assert.equal(r.exitCode, 1);
  assert.ok(r.results.some((x: any) => x.field?.path === 'spec.templateLimits.maxDepth'));
});
