// Attacks the parse side of the template meter from every place that parses a template text, not only the
// render run (templateRunBudget.test.ts): a profile overlay's own templates are parsed when the overlay is
// resolved (render, lint, generate, hydrate), and `osm-krm template` parses its file. A text dense in actions
// makes a parse tree far larger than the text (an overlay template of 60 MB of `{{.}}` took the bundle past
// 1 GiB and to a V8 out-of-memory abort), so every parse is charged, item by item before the item is made, to a
// meter with the template's limits (spec.templateLimits in a run), and a text past them is refused naming the
// limit, whichever entry point brought it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { runOn } from '../support/runInProcess.ts';
import { BASE_CONFIG, baseItems, machineDeployment } from './inputCorpus.ts';
import { newTemplate, TemplateError } from '../../src/template/index.ts';
import { runTemplateCommand } from '../../src/cli/templateCommand.ts';

const SEED = 20261128;
const LIMITS = { maxWork: 2_000_000, maxMemoryBytes: 256 * 1024 };

/** One action, in the shapes whose parse trees cost most per byte of text. */
const unitArb = fc.constantFrom(
  '{{.}}',
  'a{{.}}',
  '{{.|print}}',
  '{{if .}}{{end}}',
  '{{.a.b.c.d.e.f.g.h}}',
  '{{((((1))))}}',
  '{{- . -}}',
  '{{1 2 3 4 5 6 7 8}}',
  '{{$x := 1}}',
);
/** Enough of them to pass LIMITS, few enough to stay fast when refused. */
const textArb = fc.record({ unit: unitArb, n: fc.integer({ min: 20_000, max: 60_000 }) });

const LIMIT_MESSAGE = /(work|memory) limit of \d+/;

function overlayItems(where: 'templates' | 'files', text: string, used: boolean): any[] {
  const overlay = {
    apiVersion: 'osm-krm.dev/v1alpha1',
    kind: 'OperatingSystemProfileOverlay',
    metadata: {
      name: 'osp-dense',
      namespace: 'kube-system',
      annotations: { 'config.kubernetes.io/local-config': 'true', 'config.kubernetes.io/path': 'overlay.yaml' },
    },
    spec: {
      base: 'osp-small',
      ...(where === 'templates'
        ? { templates: [{ name: 'dense', template: text }] }
        : { files: [{ path: '/etc/dense', content: { template: text } }] }),
    },
  };
  const items = [...baseItems(), overlay];
  if (used) items.push(machineDeployment('dense', { annotations: { 'k8c.io/operating-system-profile': 'osp-dense' } }));
  return items;
}

function params<T extends unknown[]>(numRuns: number): fc.Parameters<T> {
  return {
    seed: SEED,
    numRuns,
    reporter: (r) => {
      if (r.failed)
        throw new Error(
          `seed ${r.seed} path ${r.counterexamplePath}: ${JSON.stringify(r.counterexample).slice(0, 300)}: ${String(r.errorInstance).slice(0, 800)}`,
        );
    },
  };
}

test('Template.parse without a meter is charged to one with the template limits, before the items are made', () => {
  fc.assert(
    fc.property(textArb, ({ unit, n }) => {
      const t = newTemplate('dense', { limits: LIMITS });
      assert.throws(
        () => t.parse(unit.repeat(n)),
        (e: unknown) => e instanceof TemplateError && e.limit && LIMIT_MESSAGE.test(e.message),
      );
      assert.equal(t.lookup('dense'), false);
    }),
    params(8),
  );
});

test("an overlay's own templates are parsed on its run's limits: refused on the overlay's field, used or not", () => {
  fc.assert(
    fc.property(
      textArb,
      fc.constantFrom('templates' as const, 'files' as const),
      fc.boolean(),
      ({ unit, n }, where, used) => {
        const run = runOn({
          apiVersion: 'config.kubernetes.io/v1',
          kind: 'ResourceList',
          items: overlayItems(where, unit.repeat(n), used),
          functionConfig: { ...BASE_CONFIG, spec: { ...BASE_CONFIG.spec, templateLimits: LIMITS } },
        });
        assert.doesNotMatch(run.stderr, /internal error|RangeError/);
        assert.notEqual(run.exitCode, 0);
        const result = run.results.find(
          (r) => r.severity === 'error' && r.resourceRef?.kind === 'OperatingSystemProfileOverlay',
        );
        assert.ok(result, JSON.stringify(run.results).slice(0, 1500));
        assert.match(String(result.message), LIMIT_MESSAGE);
        assert.equal(
          result.field?.path,
          where === 'templates' ? 'spec.templates[0].template' : 'spec.files[0].content.template',
        );
      },
    ),
    params(6),
  );
});

test('`osm-krm template` parses its file on the default limits: a text past them exits 1 naming the limit', () => {
  // The default work limit (5e8 units) is passed by about 50,000 actions.
  const source = '{{.}}'.repeat(120_000);
  let stderr = '';
  const code = runTemplateCommand(['t.tmpl'], {
    stdout: () => {},
    stdoutBytes: () => {},
    stderr: (s) => (stderr += s),
    readFile: () => source,
  });
  assert.equal(code, 1, stderr);
  assert.match(stderr, LIMIT_MESSAGE);
});
