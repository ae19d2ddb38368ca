// issue 17 §5: a parse error never quotes the input near it (a token written without its quotes sits exactly
// there; V8's JSON.parse and the `yaml` package both quote that text). It gives the line and column instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseDocument } from 'yaml';
import fc from 'fast-check';
import { runFunction } from '../../src/cli/runFunction.ts';
import { parseManifests } from '../../src/cli/manifestDirectory.ts';
import { NodeBudget } from '../../src/krm/inputBounds.ts';
import { readPluginSettings } from '../../src/cli/argocdParameters.ts';
import { readClusterInfoKubeconfig } from '../../src/cluster/kubeconfig.ts';
import { parseJsonData } from '../../src/cli/jsonData.ts';
import { noEnvironment } from '../support/runInProcess.ts';

const TOKEN = 'Sk3tchT0ken98765';
// Each fragment of the token a message could quote (V8 quotes about ten characters).
const leaks = (message: string) =>
  [TOKEN, TOKEN.slice(0, 6), TOKEN.slice(-6), 'Sk3t'].some((part) => message.includes(part));

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    return (e as Error).message;
  }
  assert.fail('no error');
}

test('the readers we replace do quote the token (so the tests below can fail)', () => {
  assert.ok(leaks(messageOf(() => JSON.parse(`[{"name": "t", "string": ${TOKEN}}]`))));
  assert.ok(leaks(messageOf(() => parse(`users:\n- user:\n    token: ]${TOKEN}\n`))));
  assert.ok(
    leaks(
      parseDocument(`a: b\nc: d e: ]${TOKEN}\n`, { prettyErrors: false })
        .errors.map((e) => e.message)
        .join('\n'),
    ),
  );
});

test('a malformed ResourceList: error result with line and column, no input text', () => {
  for (const text of [
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- kind: Secret\n  stringData:\n    token: ]${TOKEN}\n`,
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- kind: Secret\n  stringData: {token: ${TOKEN}}}\n`,
    `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- kind: Secret\n  stringData:\n    token: "${TOKEN}\\q"\n`,
  ]) {
    let stdout = '';
    let stderr = '';
    const code = runFunction(text, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: noEnvironment });
    assert.equal(code, 1);
    assert.ok(!leaks(stdout) && !leaks(stderr), `${stdout}\n${stderr}`);
    assert.match(stdout, /malformed YAML at line [56], column \d+: /);
  }
});

test('manifests, the cluster-info kubeconfig, Argo CD parameters and template data: line and column only', () => {
  const cases: Array<[string, string, RegExp]> = [
    [
      'manifest',
      messageOf(() => parseManifests(`kind: Secret\nstringData:\n  token: ]${TOKEN}\n`, 'a.yaml', new NodeBudget())),
      /a\.yaml: document 1 is not valid YAML at line 3, column 10: /,
    ],
    [
      'kubeconfig',
      messageOf(() =>
        readClusterInfoKubeconfig(
          `clusters:\n- cluster:\n    server: https://x\nusers:\n- user:\n    token: ]${TOKEN}\n`,
          'data.kubeconfig',
        ),
      ),
      /not valid YAML at line 6, column 12: /,
    ],
    [
      'ARGOCD_APP_PARAMETERS',
      messageOf(() => readPluginSettings({ ARGOCD_APP_PARAMETERS: `[{"name": "token",\n "string": ${TOKEN}}]` })),
      /not JSON: at line 2, column 12: unexpected character, expected a value/,
    ],
    [
      'template data',
      messageOf(() => parseJsonData(`{"token": ${TOKEN}}`)),
      /line 1, column 11: unexpected character, expected a value/,
    ],
  ];
  for (const [what, message, expected] of cases) {
    assert.ok(!leaks(message), `${what}: ${message}`);
    assert.match(message, expected, what);
  }
});

// An unquoted token that starts with a YAML indicator is read as syntax (`*t` an alias, `&t` an anchor, `!t` a
// tag, `%t`, `@t`, `` `t ``, `|t`, `>t` errors): the message must still name a place, not the token.
test('a token written unquoted after any YAML indicator is never quoted by an error, wherever it sits', () => {
  const INDICATORS = [
    '*',
    '&',
    '!',
    '!!',
    '%',
    '@',
    '`',
    '|',
    '>',
    ']',
    '}',
    '{',
    '[',
    '"',
    "'",
    '#',
    '? ',
    ': ',
    ',',
    '-',
    '<<: *',
  ];
  fc.assert(
    fc.property(
      fc.stringMatching(/^[A-Za-z0-9]{12,20}$/),
      fc.constantFrom(...INDICATORS),
      fc.constantFrom('secret', 'name', 'rhel', 'json'),
      (token, indicator, where) => {
        const value = `${indicator}${token}`;
        const text =
          where === 'secret'
            ? `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: Secret\n  metadata: {name: s, namespace: kube-system}\n  stringData:\n    token: ${value}\n`
            : where === 'name'
              ? `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: ${value}\n`
              : where === 'rhel'
                ? `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: cluster.k8s.io/v1alpha1\n  kind: MachineDeployment\n  metadata: {name: md, namespace: kube-system}\n  spec:\n    template:\n      spec:\n        providerSpec:\n          value:\n            operatingSystemSpec:\n              rhelSubscriptionManagerPassword: ${value}\n`
                : `{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "stringData": {"token": ${value}}}]}`;
        let stdout = '';
        let stderr = '';
        runFunction(text, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: noEnvironment });
        const parts = [token, token.slice(0, 6), token.slice(-6)];
        const results = stdout.includes('\nresults:') ? stdout.slice(stdout.indexOf('\nresults:')) : stdout;
        for (const [what, out] of [
          ['stderr', stderr],
          ['results', results],
        ] as const) {
          assert.ok(
            !parts.some((p) => out.includes(p)),
            `${JSON.stringify(value)} in ${where}: ${what} quotes it:\n${out}`,
          );
        }
      },
    ),
    { seed: Number(process.env.PROPERTY_SEED ?? 2026), numRuns: Number(process.env.PROPERTY_RUNS ?? 300) },
  );
});
