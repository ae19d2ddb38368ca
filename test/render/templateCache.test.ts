// Parse once per run: rendering an OSP for many MachineDeployments parses each of its templates once, and
// sharing parsed templates never leaks one MachineDeployment's output into another's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TemplateCache } from '../../src/render/templateCache.ts';
import { renderOperatingSystemConfigSpec } from '../../src/render/renderOperatingSystemConfig.ts';
import { osmTemplateFuncs } from '../../src/sprig/index.ts';
import type { OperatingSystemProfileSpec } from '../../src/model/operatingSystemProfile.ts';
import type { MachineDeployment } from '../../src/machineDeployment/machineDeployment.ts';

const osp = {
  osName: 'ubuntu',
  osVersion: '24.04',
  version: 'v1',
  provisioningUtility: 'cloud-init',
  supportedCloudProviders: [{ name: 'aws' }],
  bootstrapConfig: {
    templates: { greeting: 'hello {{ .Pool }}', fixed: 'always the same' },
    files: [
      { path: '/a', content: { inline: { data: '{{ template "greeting" }} / {{ template "fixed" }}' } } },
      { path: '/b', content: { inline: { data: 'pool={{ .Pool | quote }} n={{ len .Items }}' } } },
    ],
  },
  provisioningConfig: { files: [{ path: '/c', content: { inline: { data: '{{ range .Items }}{{ . }};{{ end }}' } } }] },
} as unknown as OperatingSystemProfileSpec;

const md = { providerConfig: { cloudProvider: 'aws', cloudProviderSpec: {} } } as unknown as MachineDeployment;

function render(cache: TemplateCache, data: unknown) {
  return renderOperatingSystemConfigSpec(osp, md, {
    templates: cache,
    rendered: { bytes: 0 },
    containerRuntime: 'containerd',
    data,
    registryHostFiles: [],
  });
}

test('each template is parsed once for many MachineDeployments with the same data shape', () => {
  const cache = new TemplateCache(osmTemplateFuncs, {});
  for (let i = 0; i < 50; i++) render(cache, { Pool: 'same', Items: [1n, 2n] });
  // 2 named templates + 3 files; the files of the second pass include the named outputs, identical here.
  assert.equal(cache.parses, 5);
});

test('outputs that differ per MachineDeployment are parsed per distinct output and never mixed up', () => {
  const shared = new TemplateCache(osmTemplateFuncs, {});
  for (let i = 0; i < 20; i++) {
    const data = { Pool: `pool-${i % 4}`, Items: Array.from({ length: i % 3 }, (_, k) => BigInt(k)) };
    const fresh = render(new TemplateCache(osmTemplateFuncs, {}), data);
    const cached = render(shared, data);
    assert.deepEqual(cached, fresh);
    // OSM re-wraps each named output as `{{- define "n" }}\n<output>\n{{- end }}`, so it starts with a newline.
    assert.equal(cached.bootstrapConfig.files![0]!.content.inline!.data, `\nhello pool-${i % 4} / \nalways the same`);
  }
  // Named templates: "fixed" once, "greeting" per pool (4); files: /a per pool, /b per (pool, length), /c per length.
  assert.ok(shared.parses <= 1 + 4 + 4 + 12 + 3, `parses: ${shared.parses}`);
});

test('the cache key cannot confuse (name, texts) pairs', () => {
  const cache = new TemplateCache(osmTemplateFuncs, {});
  // A later non-empty text replaces the main template, as Go's Parse does.
  assert.equal(cache.get('t', ['a\u0000', 'b']).execute(null), 'b');
  assert.equal(cache.get('t', ['a', '\u0000b']).execute(null), '\u0000b');
  assert.equal(cache.parses, 2);
});

test('past its bound the cache still renders correctly, parsing what it can no longer keep', () => {
  const cache = new TemplateCache(osmTemplateFuncs, {});
  for (let i = 0; i < 4200; i++) assert.equal(cache.get('t', [`n{{ ${i} }}`]).execute(null), `n${i}`);
  assert.equal(cache.get('t', ['n{{ 1 }}']).execute(null), 'n1');
  const before = cache.parses;
  cache.get('t', ['n{{ 4199 }}']);
  assert.equal(cache.parses, before + 1, 'entries beyond the bound are not kept');
});
