// hydrate's SOPS mode (spec.sops): nothing secret is written in clear. Every object holding a secret (the
// Secrets, the OSCs with the getter token, bootstrap kubeconfig and registry credentials in their files, the
// MachineDeployment copy with the RHEL subscription secrets) is written as a SOPS file for age recipients, read
// back here by readers that are not ours: Debian's `age` CLI unwraps the data key, the `sops-age` package
// decrypts the values. sops-age does not check the MAC (nor does Flux: kustomize-controller v1.9.4 never sets
// checkSopsMac), so the MAC is checked here as sops computes it (SHA-512 over every value in document order,
// sops' ToBytes; AES-256-GCM with lastmodified as associated data), with node:crypto and the data key from `age`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createDecipheriv, createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { decryptSops } from 'sops-age';
import { REPO_ROOT } from '../support/paths.ts';
import { runHydrateCommand } from '../../src/cli/hydrateCommand.ts';
import { parseFunctionConfig } from '../../src/config/operatingSystemManagerConfig.ts';
import { encodedForms } from '../../src/krm/redactSecrets.ts';
import { stringifyForOutput } from '../../src/krm/yamlSchema.ts';
import {
  BUNDLE,
  EXAMPLE_SECRETS,
  EXAMPLES,
  changedPaths,
  copyTree,
  mkdirp,
  run,
  runOk,
  snapshot,
  tempDir,
  toolEnv,
} from './support.ts';

const SEED = 'test-seed-0123456789abcdefghijklmnopqrstuvwxyz';
// The examples' bootstrap token (abcdef.0123456789abcdef) has its secret half inside their VPC ids
// (vpc-0123456789abcdef0): the MachineDeployments would hold it too. A token as random as real ones.
const BOOTSTRAP_TOKEN = 'k7d2xq.r8m4w1p9z3t6v0ns';
const SECRETS = { ...EXAMPLE_SECRETS, OSM_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN };
const OSM_RHSM_USER = 'rhsm-sops-user';
const OSM_RHSM_PASSWORD = 'rhsm-sops-password-9c1e';
const REGISTRY_PASSWORD = 'registry-sops-pw"\\x';

interface Identity {
  file: string;
  secretKey: string;
  recipient: string;
}

function ageIdentity(dir: string, name: string): Identity {
  const file = join(dir, `${name}.txt`);
  runOk('age-keygen', ['-o', file]);
  const text = readFileSync(file, 'utf8');
  return {
    file,
    secretKey: text.match(/AGE-SECRET-KEY-1\S+/)![0],
    recipient: text.match(/public key: (age1\S+)/)![1]!,
  };
}

const SOPS_SPEC = (recipients: string[]) =>
  `  sops:\n    ageRecipients: [${recipients.join(', ')}]\n    dataKeySeed: {env: OSM_SOPS_SEED}\n`;

/** The Flux example with spec.sops added to its config. */
function sopsSource(dir: string, recipients: string[]): string {
  const src = copyTree(join(EXAMPLES, 'flux', 'source'), join(dir, 'source'));
  const config = join(src, 'osm-config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').trimEnd() + `\n${SOPS_SPEC(recipients)}`);
  return src;
}

const RHEL_MD = `apiVersion: cluster.k8s.io/v1alpha1
kind: MachineDeployment
metadata:
  name: rhel-workers
  namespace: kube-system
  annotations:
    k8c.io/operating-system-profile: osp-rhel
    config.kubernetes.io/local-config: "true"
spec:
  replicas: 1
  template:
    spec:
      providerSpec:
        value:
          cloudProvider: aws
          cloudProviderSpec: {region: eu-central-1}
          operatingSystem: rhel
          operatingSystemSpec: {attachSubscription: true}
      versions:
        kubelet: 1.34.2
`;

const REGISTRY_SECRET = `apiVersion: v1
kind: Secret
metadata:
  name: registry-credentials
  namespace: kube-system
  annotations:
    config.kubernetes.io/local-config: "true"
stringData:
  registry.example:5000: ${JSON.stringify(JSON.stringify({ username: 'puller', password: REGISTRY_PASSWORD }))}
`;

/**
 * The Flux example plus every kind of secret the OSC and a generated MachineDeployment can carry: a RHEL
 * MachineDeployment with subscription secrets from env and a file, and registry credentials from a
 * local-config Secret. `sops` adds spec.sops.
 */
/** Where the sources' secret files are: outside SRC, so hydrate reads them only from a listed root (the file gate). */
const fileRoots: string[] = [];

function fullSource(dir: string, name: string, recipients?: string[]): string {
  const src = copyTree(join(EXAMPLES, 'flux', 'source'), join(dir, name));
  const secrets = mkdirp(join(dir, `${name}-secrets`));
  fileRoots.push(secrets);
  writeFileSync(join(secrets, 'password'), `${OSM_RHSM_PASSWORD}\n`);
  writeFileSync(join(src, 'machinedeployment-rhel.yaml'), RHEL_MD);
  writeFileSync(join(src, 'registry-credentials.yaml'), REGISTRY_SECRET);
  const config = join(src, 'osm-config.yaml');
  writeFileSync(
    config,
    readFileSync(config, 'utf8').trimEnd() +
      `
  nodeRegistryCredentialsSecret: kube-system/registry-credentials
  rhelSubscription:
    all:
      rhelSubscriptionManagerUser: {env: OSM_RHSM_USER}
      rhelSubscriptionManagerPassword: {file: ${join(secrets, 'password')}}
${recipients ? SOPS_SPEC(recipients) : ''}`,
  );
  return src;
}

async function hydrate(args: string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const code = runHydrateCommand(args, {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    env: {
      ...toolEnv(),
      ...SECRETS,
      OSM_SOPS_SEED: SEED,
      OSM_RHSM_USER,
      OSM_KRM_FILE_ROOTS: fileRoots.join(':'),
      ...env,
    },
    cwd: REPO_ROOT,
  });
  return { code, stdout, stderr };
}

/** Whether a written file is a SOPS document. */
function isSops(text: string): boolean {
  const doc = parse(text) as unknown;
  return doc !== null && typeof doc === 'object' && 'sops' in doc;
}

const secretFiles = (files: Map<string, string>) => [...files.keys()].filter((f) => /\/secret_[^/]+\.yaml$/.test(f));

/** The data key, unwrapped by Debian's age CLI. */
function dataKey(doc: any, id: Identity, dir: string): Buffer {
  const entry = doc.sops.age.find((a: any) => a.recipient === id.recipient);
  const enc = join(dir, 'enc.age');
  writeFileSync(enc, entry.enc);
  const r = spawnSync('age', ['-d', '-i', id.file, enc], { timeout: 60_000 });
  assert.equal(r.status, 0, String(r.stderr));
  return r.stdout;
}

/** sops' MAC of a decrypted document: SHA-512 over every value (ToBytes) in document order; nulls skipped. */
function sopsMac(doc: unknown): string {
  const h = createHash('sha512');
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(walk);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, e] of Object.entries(v)) if (k !== 'sops') walk(e);
    } else if (v !== null) {
      h.update(typeof v === 'boolean' ? (v ? 'True' : 'False') : String(v));
    }
  };
  walk(doc);
  return h.digest('hex').toUpperCase();
}

function decryptMac(doc: any, key: Buffer): string {
  const m = /^ENC\[AES256_GCM,data:([^,]*),iv:([^,]*),tag:([^,]*),type:str\]$/.exec(doc.sops.mac)!;
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(m[2]!, 'base64'));
  d.setAAD(Buffer.from(doc.sops.lastmodified));
  d.setAuthTag(Buffer.from(m[3]!, 'base64'));
  return Buffer.concat([d.update(Buffer.from(m[1]!, 'base64')), d.final()]).toString('utf8');
}

/** A written file without its ciphertexts: what anyone reading the repository sees in clear. */
const clearPart = (text: string) =>
  text
    .replace(/ENC\[AES256_GCM,[^\]]*\]/g, '')
    .replace(/-----BEGIN AGE ENCRYPTED FILE-----[^]*?-----END AGE ENCRYPTED FILE-----/g, '');

/** Asserts that no secret, in any form our syntaxes give it, is in `text`. */
function assertNoSecret(text: string, secrets: Record<string, string>, where: string): void {
  for (const [name, s] of Object.entries(secrets)) {
    for (const form of encodedForms(s).filter((f) => f.length >= 8))
      assert.ok(!text.includes(form), `${name} in clear (as ${JSON.stringify(form)}) in ${where}`);
  }
}

test('SOPS mode: every object holding a secret is encrypted, decrypts (age, sops-age) to the plain render byte for byte, and no written byte holds a secret in clear', async () => {
  const dir = tempDir('osm-krm-sops-');
  const alice = ageIdentity(dir, 'alice');
  const bob = ageIdentity(dir, 'bob');
  const plainOut = join(dir, 'plain');
  const plain = await hydrate([fullSource(dir, 'plain-source'), plainOut]);
  assert.equal(plain.code, 0, plain.stderr);
  const out = join(dir, 'out');
  const r = await hydrate([fullSource(dir, 'source', [alice.recipient, bob.recipient]), out]);
  assert.equal(r.code, 0, r.stderr);

  const files = snapshot(out);
  const clear = snapshot(plainOut);
  assert.deepEqual([...files.keys()].sort(), [...clear.keys()].sort());
  const encrypted = [...files.keys()].filter((f) => isSops(files.get(f)!)).sort();
  // Every Secret, every OSC, and the MachineDeployment copy with the subscription secrets: nothing else.
  const expected = [...files.keys()]
    .filter(
      (f) =>
        /\/(secret|operatingsystemconfig)_[^/]+\.yaml$/.test(f) ||
        f.endsWith('/rhel-workers/machinedeployment_rhel-workers.yaml'),
    )
    .sort();
  assert.deepEqual(encrypted, expected);
  assert.equal(secretFiles(files).length, 9);

  for (const f of files.keys()) {
    if (f === '.osm-krm-hydrate') continue; // the files' hashes
    if (!encrypted.includes(f)) {
      assert.equal(files.get(f), clear.get(f), `${f}: an object without secrets is written as in the plain render`);
      continue;
    }
    const doc = parse(files.get(f)!);
    const expectedDoc = parse(clear.get(f)!);
    assert.deepEqual(
      doc.metadata,
      expectedDoc.metadata,
      `${f}: metadata stays readable (Flux and kustomize read it before decrypting)`,
    );
    if (doc.kind === 'Secret') assert.equal(doc.sops.encrypted_regex, '^(data|stringData)$');
    // The files' contents (getter token, bootstrap kubeconfig, config.toml), and the rh_subscription module.
    if (doc.kind === 'OperatingSystemConfig')
      assert.equal(
        doc.sops.encrypted_regex,
        f.includes('/rhel-workers/') ? '^(data|password|username)$' : '^(data)$',
        f,
      );
    if (doc.kind === 'MachineDeployment')
      assert.equal(doc.sops.encrypted_regex, '^(rhelSubscriptionManagerPassword|rhelSubscriptionManagerUser)$');
    assert.deepEqual(
      doc.sops.age.map((a: any) => a.recipient),
      [alice.recipient, bob.recipient],
    );
    for (const id of [alice, bob]) {
      const key = dataKey(doc, id, dir);
      assert.equal(key.length, 32);
      const decrypted = await decryptSops(files.get(f)!, { secretKey: id.secretKey, fileType: 'yaml' });
      assert.deepEqual(decrypted, expectedDoc, f);
      assert.equal(stringifyForOutput(decrypted), clear.get(f), `${f}: byte for byte once decrypted`);
      assert.equal(decryptMac(doc, key), sopsMac(decrypted), `${f}: MAC`);
      // The check has teeth: another value gives another MAC.
      assert.notEqual(decryptMac(doc, key), sopsMac({ ...decrypted, kind: 'changed' }));
    }
  }
  // The OSC is OSM's again once decrypted: the getter token, not a placeholder.
  const osc = [...files.keys()].find((f) => f.includes('/workers-a/operatingsystemconfig_'))!;
  assert.match(clear.get(osc)!, new RegExp(`Authorization: Bearer ${EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN}`));
  const rhelOsc = [...files.keys()].find((f) => f.includes('/rhel-workers/operatingsystemconfig_'))!;
  assert.ok(
    clear.get(rhelOsc)!.includes('password = "registry-sops-pw\\"\\\\x"'),
    'config.toml in the plain OSC (osp-rhel) holds the registry password',
  );

  // No secret in clear anywhere in OUT, nor on stdout/stderr.
  const secrets = {
    ...SECRETS,
    SEED,
    OSM_RHSM_USER,
    OSM_RHSM_PASSWORD,
    REGISTRY_PASSWORD,
    TOKEN_SECRET: BOOTSTRAP_TOKEN.split('.')[1]!,
  };
  for (const [f, text] of files) assertNoSecret(clearPart(text), secrets, f);
  assertNoSecret(r.stdout + r.stderr, secrets, 'stdout/stderr');
  // Flux builds the directory with kustomize: the SOPS metadata must survive it.
  const built = runOk('kubectl', ['kustomize', out]).stdout;
  assert.equal((built.match(/^ {2}mac: ENC\[AES256_GCM,/gm) ?? []).length, encrypted.length);
});

test('SOPS mode is deterministic: an unchanged re-render keeps every file; a changed secret gets new ciphertext where it is held', async () => {
  const dir = tempDir('osm-krm-sops-');
  const alice = ageIdentity(dir, 'alice');
  const src = sopsSource(dir, [alice.recipient]);
  const out = join(dir, 'out');
  assert.equal((await hydrate([src, out])).code, 0);
  const once = snapshot(out);
  const again = await hydrate([src, out]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stdout, /0 written, 0 removed/);
  assert.deepEqual(changedPaths(once, snapshot(out)), []);

  // Into an empty OUT the age wrapping is new (age is randomized), every value's ciphertext is the same.
  const fresh = join(dir, 'fresh');
  assert.equal((await hydrate([src, fresh])).code, 0);
  const other = snapshot(fresh);
  for (const f of [...once.keys()].filter((f) => isSops(once.get(f)!))) {
    const a = parse(once.get(f)!);
    const b = parse(other.get(f)!);
    assert.deepEqual({ ...a, sops: undefined }, { ...b, sops: undefined });
    assert.equal(a.sops.mac, b.sops.mac);
    assert.notEqual(a.sops.age[0].enc, b.sops.age[0].enc);
  }

  // A new getter token changes what holds it (the bootstrap Secrets and the OSCs) and nothing else.
  const changed = await hydrate([src, out], { OSM_CLOUD_INIT_GETTER_TOKEN: 'another-getter-token' });
  assert.equal(changed.code, 0, changed.stderr);
  const diff = changedPaths(once, snapshot(out)).filter((f) => f !== '.osm-krm-hydrate');
  const holders = [...once.keys()].filter(
    (f) => (f.endsWith('-bootstrap-config.yaml') && !f.includes('kubelet')) || f.includes('/operatingsystemconfig_'),
  );
  assert.deepEqual(diff.sort(), holders.sort());
  const plainOut = join(dir, 'plain');
  const env = { OSM_CLOUD_INIT_GETTER_TOKEN: 'another-getter-token' };
  assert.equal(
    (await hydrate([copyTree(join(EXAMPLES, 'flux', 'source'), join(dir, 'plain-source')), plainOut], env)).code,
    0,
  );
  const now = snapshot(out);
  for (const f of diff) {
    const decrypted = await decryptSops(now.get(f)!, { secretKey: alice.secretKey, fileType: 'yaml' });
    assert.deepEqual(decrypted, parse(snapshot(plainOut).get(f)!));
  }
});

test('SOPS mode: a secret where sops cannot encrypt it is refused, naming the file and field, and nothing is written', async () => {
  const dir = tempDir('osm-krm-sops-');
  const alice = ageIdentity(dir, 'alice');
  const src = sopsSource(dir, [alice.recipient]);
  // A ConfigMap of the user's that carries the getter token in an annotation (Flux reads metadata in clear).
  writeFileSync(
    join(src, 'leaky.yaml'),
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leaky\n  namespace: default\n  annotations:\n    note: "token ${EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN}"\ndata:\n  a: b\n`,
  );
  const out = join(dir, 'out');
  const r = await hydrate([src, out]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    /cannot write inputs\/default\/configmap_leaky\.yaml in SOPS mode: metadata\.annotations\.note holds a secret value, and sops cannot encrypt it there/,
  );
  assert.match(r.stderr, /nothing written to /);
  assert.ok(!existsSync(out), 'OUT is not created');
  assertNoSecret(r.stdout + r.stderr, EXAMPLE_SECRETS, 'stderr');

  // Anywhere else in the user's object, the key holding it is encrypted.
  writeFileSync(
    join(src, 'leaky.yaml'),
    `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leaky\n  namespace: default\ndata:\n  a: b\n  note: "token ${EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN}"\n`,
  );
  const ok = await hydrate([src, out]);
  assert.equal(ok.code, 0, ok.stderr);
  const doc = parse(readFileSync(join(out, 'inputs/default/configmap_leaky.yaml'), 'utf8'));
  assert.equal(doc.sops.encrypted_regex, '^(note)$');
  assert.equal(doc.data.a, 'b');
  assert.match(doc.data.note, /^ENC\[AES256_GCM,/);
});

test('SOPS mode: a missing or short seed is an error naming the field, never the value', async () => {
  const dir = tempDir('osm-krm-sops-');
  const alice = ageIdentity(dir, 'alice');
  const src = sopsSource(dir, [alice.recipient]);
  const short = await hydrate([src, join(dir, 'out')], { OSM_SOPS_SEED: 'short-seed-value' });
  assert.equal(short.code, 1);
  assert.match(short.stderr, /spec\.sops\.dataKeySeed must be a secret of at least 32 characters/);
  assert.ok(!short.stderr.includes('short-seed-value'));
  const unset = await hydrate([src, join(dir, 'out')], { OSM_SOPS_SEED: undefined });
  assert.equal(unset.code, 1);
  assert.match(unset.stderr, /OSM_SOPS_SEED/);
});

test('SOPS mode under an address-space limit (ulimit -v): written, no WebAssembly loaded, no trace', () => {
  const dir = tempDir('osm-krm-sops-');
  const alice = ageIdentity(dir, 'alice');
  const src = sopsSource(dir, [alice.recipient]);
  const out = join(dir, 'out');
  // Node's HTTP client (which the age-encryption package's `Response` loaded) reserves gigabytes for its
  // WebAssembly parser; 1.5 GB of address space is plenty for hydrate itself.
  const r = run('sh', ['-c', 'ulimit -v 1500000 && exec "$0" "$@"', process.execPath, BUNDLE, 'hydrate', src, out], {
    env: toolEnv({ ...SECRETS, OSM_SOPS_SEED: SEED }),
  });
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /WebAssembly|at /);
  const secret = [...snapshot(out).entries()].find(([f]) => f.endsWith('-bootstrap-config.yaml'))!;
  assert.match(secret[1], /^ {2}mac: ENC\[AES256_GCM,/m);
});

test('spec.sops on a route that cannot honour it: the function (stdin, kpt) and generate refuse it, naming the setting and hydrate', () => {
  const dir = tempDir('osm-krm-sops-');
  const alice = ageIdentity(dir, 'alice');
  const src = sopsSource(dir, [alice.recipient]);
  const env = toolEnv({ ...EXAMPLE_SECRETS, OSM_SOPS_SEED: SEED });
  const named =
    /spec\.sops: SOPS encryption is done by `osm-krm hydrate` \(Flux\), which encrypts the files it writes; on this route .* Render with `osm-krm hydrate SRC OUT`, or remove spec\.sops from this config/;

  // Argo CD's generate: nothing printed, the reason on stderr.
  const generate = run(process.execPath, [BUNDLE, 'generate'], { cwd: src, env });
  assert.equal(generate.status, 1);
  assert.equal(generate.stdout, '');
  assert.match(generate.stderr, named);

  // kpt fn eval with the config as functionConfig: the package is left as it was.
  const pkg = copyTree(src, join(dir, 'pkg'));
  const before = snapshot(pkg);
  const kpt = run('kpt', ['fn', 'eval', pkg, '--exec', BUNDLE, '--fn-config', join(pkg, 'osm-config.yaml')], { env });
  assert.notEqual(kpt.status, 0);
  assert.match(kpt.stdout + kpt.stderr, /spec\.sops: SOPS encryption is done by `osm-krm hydrate`/);
  assert.deepEqual(changedPaths(before, snapshot(pkg)), []);

  // The ConfigMap flag form names its key.
  const list = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: osm}\n  data:\n    sops-age-recipients: ${alice.recipient}\n    sops-data-key-seed-env: OSM_SOPS_SEED\nitems: []\n`;
  const stdin = run(process.execPath, [BUNDLE], { env, input: list });
  assert.equal(stdin.status, 1);
  const results = parse(stdin.stdout).results;
  assert.equal(results.length, 1);
  assert.match(results[0].message, /^data\.sops-age-recipients: SOPS encryption is done by `osm-krm hydrate`/);
  assert.equal(results[0].field.path, 'data.sops-age-recipients');
});

test('SOPS mode in the ConfigMap flag form', () => {
  const recipient = 'age1lw6kegqmhuc89y5hqcw4u4x62cjwpth7ul70n5sj8qx837r3cuzs3favvt';
  const config = (data: Record<string, string>) =>
    parseFunctionConfig({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'osm' }, data });
  assert.deepEqual(config({ 'sops-age-recipients': recipient, 'sops-data-key-seed-env': 'OSM_SEED' }).sops, {
    ageRecipients: [recipient],
    dataKeySeed: { env: 'OSM_SEED' },
  });
  assert.throws(
    () => config({ 'sops-age-recipients': recipient }),
    /sops-data-key-seed-env or sops-data-key-seed-file must be set/,
  );
  assert.throws(
    () => config({ 'sops-age-recipients': 'age1nope', 'sops-data-key-seed-file': '/seed' }),
    /is not an age recipient/,
  );
});
