// issue 22, the mask attacked generatively from every entry point: a secret given through every value source
// (a MachineDeployment's operatingSystemSpec under every key spelling Go's decoder folds to a secret field, the
// config inline, env and file, a local-config Secret as stringData or base64 data, RHEL subscription sources,
// registry credentials JSON under folded keys, a bootstrap token key and the tokens derived from it, the SOPS
// seed), rendered by a profile that prints it or fails with it (the whole template data with %#v, %v, toJson),
// through every command (the function on stdin, render --explain, diff, hydrate plain and SOPS, generate).
// No form of the secret (raw, quoted as JSON, Go, TOML, YAML, base64 at any alignment, URL-encoded) may appear
// in any printed byte, nor in any written byte outside a ciphertext in SOPS mode; where output is meant to hold
// it (the function's and generate's manifests, hydrate's plain files), only in the objects that must hold it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { runFunction } from '../../src/cli/runFunction.ts';
import { runRenderCommand } from '../../src/cli/renderCommand.ts';
import { runDiffCommand } from '../../src/cli/diffCommand.ts';
import { runHydrateCommand } from '../../src/cli/hydrateCommand.ts';
import { runArgoCDGenerateCommand } from '../../src/cli/argocdGenerateCommand.ts';
import type { CommandIO } from '../../src/cli/commandIO.ts';
import { deriveBootstrapToken } from '../../src/cluster/derivedBootstrapToken.ts';
import { encodedForms } from '../../src/krm/redactSecrets.ts';
import { untrustedLine } from '../../src/cli/untrustedText.ts';
import { BASE_CONFIG, SMALL_OSP, baseItems, machineDeployment } from './inputCorpus.ts';

const SEED = Number(process.env.PROPERTY_SEED ?? 2207);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 24);

// ---------------------------------------------------------------------------------------------------------------
// Secrets and the key spellings Go's encoding/json decodes into a field

const ALNUM = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789'.split('');
/**
 * Secrets of at least 14 characters: half of them as tokens are (letters, digits and the punctuation a token
 * may hold, so that rendering succeeds and prints them), half printable with what quoting changes (`"`, `\`,
 * `'`, space, `<>&`, non-ASCII), which some fields refuse (then the error path is attacked).
 */
const secretArb = fc
  .oneof(
    fc.array(fc.constantFrom(...ALNUM, '-', '.', '_', '=', '+', '/', '%', ':', '@'), { minLength: 12, maxLength: 24 }),
    fc.array(
      fc.constantFrom(...ALNUM, '"', '\\', "'", ' ', '<', '&', '%', 'é', 'ſ', '😀', '=', '\u00a0', '\u202e', '##['),
      { minLength: 12, maxLength: 24 },
    ),
  )
  .map((cs) => 'S' + cs.join('') + 'z');

// Go folds each rune with unicode.ToUpper(unicode.ToLower(r)); four non-ASCII runes fold onto ASCII letters.
const FOLDS_TO: Record<string, string[]> = { s: ['ſ'], k: ['\u212a'], i: ['\u0130', '\u0131'] };

/** A spelling of `name` that Go's decoder matches to the field `name`: each letter in any case, or its fold. */
function spellingArb(name: string): fc.Arbitrary<string> {
  return fc
    .tuple(
      ...[...name].map((ch) =>
        fc.constantFrom(ch, ch.toUpperCase(), ch.toLowerCase(), ...(FOLDS_TO[ch.toLowerCase()] ?? [])),
      ),
    )
    .map((cs) => cs.join(''));
}

const RHEL_FIELDS = [
  'rhelSubscriptionManagerPassword',
  'rhsmOfflineToken',
  'rhelActivationKey',
  'rhelSubscriptionManagerUser',
] as const;

// ---------------------------------------------------------------------------------------------------------------
// Where the secret comes from, and what the profile does with it

type Source =
  | { kind: 'md-inline'; field: (typeof RHEL_FIELDS)[number]; key: string }
  | { kind: 'getter'; via: 'env' | 'file' | 'inline' | 'secret-stringData' | 'secret-data' }
  | { kind: 'rhel-config'; via: 'env' | 'file' | 'secretKeyRef' }
  | { kind: 'registry'; key: string; dockerConfig: boolean }
  | { kind: 'token-key' }
  | { kind: 'sops-seed' };

const sourceArb: fc.Arbitrary<Source> = fc.oneof(
  fc
    .constantFrom(...RHEL_FIELDS)
    .chain((field) => spellingArb(field).map((key) => ({ kind: 'md-inline' as const, field, key }))),
  fc
    .constantFrom('env', 'file', 'inline', 'secret-stringData', 'secret-data')
    .map((via) => ({ kind: 'getter' as const, via })),
  fc.constantFrom('env', 'file', 'secretKeyRef').map((via) => ({ kind: 'rhel-config' as const, via })),
  fc
    .tuple(fc.oneof(spellingArb('password'), spellingArb('auth'), spellingArb('identityToken')), fc.boolean())
    .map(([key, dockerConfig]) => ({ kind: 'registry' as const, key, dockerConfig })),
  fc.constant({ kind: 'token-key' as const }),
  fc.constant({ kind: 'sops-seed' as const }),
);

/** What the profile does with the template data: prints it into a file, or fails with it in the message. */
const vectorArb = fc.oneof(
  { weight: 4, arbitrary: fc.constant('print') },
  { weight: 4, arbitrary: fc.constantFrom('fail %#v', 'fail %v', 'fail toJson', 'fail Token') },
);
const VECTORS: Record<string, string> = {
  print: '{{ printf "%#v" . }}\n{{ .Token }}\n{{ .ContainerRuntimeConfig }}\n',
  'fail %#v': '{{ fail (printf "%#v" .) }}',
  'fail %v': '{{ fail (printf "%v" .) }}',
  'fail toJson': '{{ fail (toJson .) }}',
  'fail Token': '{{ fail (printf "%q %s" .Token .Token) }}',
};

interface Case {
  source: Source;
  secret: string;
  vector: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The scenario: inputCorpus's base, a RHEL MachineDeployment, the secret placed by its source

const ENV_NAME = 'OSM_MASK_SECRET';

interface Scenario {
  items: any[];
  config: any;
  env: Record<string, string>;
  /** Every value that must stay masked: the secret and what is derived from it. */
  secrets: string[];
  /** The source can only be honoured by hydrate (the SOPS seed). */
  hydrateOnly: boolean;
}

function scenario(c: Case, dir: string, vector = c.vector): Scenario {
  const osp = (name: string, osName: string) => ({
    ...SMALL_OSP,
    metadata: { ...SMALL_OSP.metadata, name },
    spec: {
      ...SMALL_OSP.spec,
      osName,
      provisioningConfig: {
        files: [
          ...SMALL_OSP.spec.provisioningConfig.files,
          { path: '/etc/leak', permissions: 600, content: { inline: { data: VECTORS[vector] } } },
        ],
      },
    },
  });
  const rhel = machineDeployment('rhel-md', {
    operatingSystem: 'rhel',
    operatingSystemSpec: { attachSubscription: true },
  });
  rhel.metadata.annotations['k8c.io/operating-system-profile'] = 'osp-rhel-small';
  const items: any[] = [
    osp('osp-small', 'ubuntu'),
    osp('osp-rhel-small', 'rhel'),
    ...baseItems().filter((i) => i.kind !== 'OperatingSystemProfile'),
    rhel,
  ];
  const config = structuredClone(BASE_CONFIG) as any;
  const env: Record<string, string> = { [ENV_NAME]: c.secret };
  const secrets = [c.secret];
  const local = { 'config.kubernetes.io/local-config': 'true' };
  const s = c.source;
  const getter = items.find((i) => i.kind === 'Secret' && i.metadata.name === 'cloud-init-getter-token');
  switch (s.kind) {
    case 'md-inline':
      rhel.spec.template.spec.providerSpec.value.operatingSystemSpec[s.key] = c.secret;
      break;
    case 'getter': {
      if (s.via === 'secret-stringData') getter.stringData.token = c.secret;
      else if (s.via === 'secret-data') {
        delete getter.stringData;
        getter.data = { token: Buffer.from(c.secret).toString('base64') };
      } else {
        items.splice(items.indexOf(getter), 1);
        const file = join(dir, 'getter-token');
        writeFileSync(file, c.secret);
        config.spec.cluster.cloudInitGetterToken =
          s.via === 'env' ? { env: ENV_NAME } : s.via === 'file' ? { file } : c.secret;
      }
      break;
    }
    case 'rhel-config': {
      rhel.metadata.annotations = { ...rhel.metadata.annotations, ...local };
      const file = join(dir, 'rhsm-password');
      writeFileSync(file, `${c.secret}\n`);
      if (s.via === 'secretKeyRef')
        items.push({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'rhsm', namespace: 'osm', annotations: local },
          stringData: { password: c.secret },
        });
      const src =
        s.via === 'env'
          ? { env: ENV_NAME }
          : s.via === 'file'
            ? { file }
            : { secretKeyRef: { namespace: 'osm', name: 'rhsm', key: 'password' } };
      config.spec.rhelSubscription = { all: { rhelSubscriptionManagerPassword: src } };
      break;
    }
    case 'registry': {
      const auth = { username: 'puller', [s.key]: c.secret };
      const doc = s.dockerConfig ? JSON.stringify({ auths: { 'registry.example:5000': auth } }) : JSON.stringify(auth);
      items.push({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'registry-credentials', namespace: 'kube-system', annotations: local },
        ...(s.dockerConfig
          ? { type: 'kubernetes.io/dockerconfigjson', stringData: { '.dockerconfigjson': doc } }
          : { stringData: { 'registry.example:5000': doc } }),
      });
      config.spec.nodeRegistryCredentialsSecret = 'kube-system/registry-credentials';
      break;
    }
    case 'token-key':
      delete config.spec.cluster.bootstrapToken;
      config.spec.cluster.bootstrapTokenKey = { env: ENV_NAME };
      for (const md of ['workers-a', 'workers-b', 'rhel-md']) {
        const t = deriveBootstrapToken(c.secret, `kube-system-${md}`);
        secrets.push(t.token, t.token.split('.')[1]!);
      }
      break;
    case 'sops-seed':
      break;
  }
  return { items, config, env, secrets, hydrateOnly: s.kind === 'sops-seed' };
}

/** The scenario as a manifest directory (one file per object, the config local-config) for the directory commands. */
function writeDirectory(dir: string, sc: Scenario, extraConfig: Record<string, unknown> = {}): string {
  mkdirSync(dir, { recursive: true });
  sc.items.forEach((o, i) =>
    writeFileSync(join(dir, `${i}-${o.kind.toLowerCase()}.yaml`), stringify(o, { lineWidth: 0 })),
  );
  const config = {
    ...sc.config,
    metadata: { name: 'osm', annotations: { 'config.kubernetes.io/local-config': 'true' } },
    spec: { ...sc.config.spec, ...extraConfig },
  };
  writeFileSync(join(dir, 'osm-config.yaml'), stringify(config, { lineWidth: 0 }));
  return dir;
}

// ---------------------------------------------------------------------------------------------------------------
// Looking for the secret

/** The forms of each secret that must never be printed (short forms could occur by chance in other text). */
// A secret printed through untrustedLine (the review tools' and stderr's escaping) can be read back exactly.
const formsOf = (secrets: readonly string[]) =>
  secrets.flatMap((s) => [...encodedForms(s), untrustedLine(s)]).filter((f) => f.length >= 10);

function leak(text: string, forms: readonly string[]): string | undefined {
  return forms.find((f) => text.includes(f));
}

function assertMasked(text: string, forms: readonly string[], where: string, label: string): void {
  const found = leak(text, forms);
  assert.equal(found, undefined, `${where} prints a secret (as ${JSON.stringify(found)})\n${label}`);
}

/** Objects that may hold the secret in manifests we print or write in clear: Secrets, OSCs, MachineDeployments. */
const MAY_HOLD = new Set(['Secret', 'OperatingSystemConfig', 'MachineDeployment']);

function assertOnlyInHolders(objects: readonly any[], forms: readonly string[], where: string, label: string): void {
  for (const o of objects) {
    if (o === null || typeof o !== 'object' || MAY_HOLD.has(o.kind)) continue;
    const found = leak(JSON.stringify(o) + stringify(o), forms);
    assert.equal(found, undefined, `${where}: ${o.kind} ${o.metadata?.name} holds a secret\n${label}`);
  }
}

function files(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

const clearPart = (text: string) =>
  text
    .replace(/ENC\[AES256_GCM,[^\]]*\]/g, '')
    .replace(/-----BEGIN AGE ENCRYPTED FILE-----[^]*?-----END AGE ENCRYPTED FILE-----/g, '');

function command(
  run: (args: string[], io: CommandIO) => number | Promise<number>,
  args: string[],
  cwd: string,
  env: Record<string, string>,
) {
  let stdout = '';
  let stderr = '';
  const code = run(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd,
  });
  return { code, stdout, stderr };
}

// ---------------------------------------------------------------------------------------------------------------

// A bootstrap token key needs 16 characters, a SOPS seed 32.
const caseArb: fc.Arbitrary<Case> = fc.record({ source: sourceArb, secret: secretArb, vector: vectorArb }).map((c) => ({
  ...c,
  secret: c.source.kind === 'sops-seed' || c.source.kind === 'token-key' ? c.secret.padEnd(40, 'q') : c.secret,
}));

test('no secret from any source, in any form, is printed by any command or written in clear in SOPS mode', () => {
  const root = mkdtempSync(join(tmpdir(), 'osm-krm-mask-'));
  const identity = join(root, 'age.txt');
  execFileSync('age-keygen', ['-o', identity], { stdio: 'ignore' });
  const recipient = /public key: (age1\S+)/.exec(readFileSync(identity, 'utf8'))![1]!;
  let n = 0;
  const seen = new Set<string>();
  try {
    fc.assert(
      fc.property(caseArb, (c) => {
        const dir = join(root, String(n++));
        mkdirSync(dir);
        const sc = scenario(c, dir);
        const forms = formsOf(sc.secrets);
        const label = JSON.stringify(c);
        const envFn = { env: (k: string) => sc.env[k], readFile: (p: string) => readFileSync(p, 'utf8') };
        seen.add(`${c.source.kind}/${c.vector}`);

        if (!sc.hydrateOnly) {
          // The KRM function (kpt, kustomize, stdin): results and stderr masked; the secret only in its holders.
          let stdout = '';
          let stderr = '';
          runFunction(
            stringify(
              {
                apiVersion: 'config.kubernetes.io/v1',
                kind: 'ResourceList',
                items: sc.items,
                functionConfig: sc.config,
              },
              { lineWidth: 0 },
            ),
            { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: envFn },
          );
          const out = parse(stdout);
          assertMasked(stderr, forms, "the function's stderr", label);
          assertMasked(stringify(out.results ?? []), forms, "the function's results", label);
          assertOnlyInHolders(out.items ?? [], forms, "the function's items", label);

          // render --explain and diff (HEAD adds the profile's use of the data): stdout and stderr masked.
          const head = writeDirectory(join(dir, 'head'), sc);
          const render = command(runRenderCommand, ['.', '--explain'], head, sc.env);
          assertMasked(render.stdout + render.stderr, forms, 'render --explain', label);
          const base = writeDirectory(join(dir, 'base'), scenario(c, join(dir), 'print'));
          const diff = command(runDiffCommand, [base, head], dir, sc.env);
          assertMasked(diff.stdout + diff.stderr, forms, 'diff', label);

          // generate (Argo CD): stderr masked, the manifests hold the secret only in its holders.
          const generate = command(runArgoCDGenerateCommand, [], head, sc.env);
          assertMasked(generate.stderr, forms, "generate's stderr", label);
          assertOnlyInHolders(
            parseAllDocuments(generate.stdout).map((d) => d.toJS()),
            forms,
            "generate's manifests",
            label,
          );

          // hydrate, plain: stdout and stderr masked; written files hold the secret only in its holders.
          const plainOut = join(dir, 'plain-out');
          const plain = command(runHydrateCommand, [head, plainOut], dir, sc.env);
          assertMasked(plain.stdout + plain.stderr, forms, "hydrate's output", label);
          if (plain.code === 0)
            for (const [f, t] of files(plainOut))
              if (f.endsWith('.yaml'))
                assertOnlyInHolders(
                  parseAllDocuments(t).map((d) => d.toJS()),
                  forms,
                  `hydrate's ${f}`,
                  label,
                );
        }

        // hydrate, SOPS mode: nothing printed, no byte written outside a ciphertext holds a secret.
        const sopsSrc = writeDirectory(join(dir, 'sops-src'), sc, {
          sops: { ageRecipients: [recipient], dataKeySeed: { env: sc.hydrateOnly ? ENV_NAME : 'MASK_SEED' } },
        });
        const sopsOut = join(dir, 'sops-out');
        const sops = command(runHydrateCommand, [sopsSrc, sopsOut], dir, {
          ...sc.env,
          MASK_SEED: 'mask-seed-0123456789abcdefghijklmnopqrstuv',
        });
        assertMasked(sops.stdout + sops.stderr, forms, "hydrate (SOPS)'s output", label);
        if (sops.code === 0)
          for (const [f, t] of files(sopsOut))
            assertMasked(clearPart(t), forms, `hydrate (SOPS)'s ${f} outside ciphertexts`, label);
        rmSync(dir, { recursive: true, force: true });
      }),
      { seed: SEED, numRuns: RUNS, includeErrorInReport: true },
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  assert.ok(seen.size >= Math.min(RUNS / 3, 8), `the generator reached only ${[...seen].join(', ')}`);
});
