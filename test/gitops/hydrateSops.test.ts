// hydrate's SOPS mode (spec.sops): Secrets are written as SOPS files for age recipients, read back here by
// readers that are not ours: Debian's `age` CLI unwraps the data key, the `sops-age` package decrypts the
// values. sops-age does not check the MAC (nor does Flux by default), so the MAC is checked here as sops
// computes it (SHA-512 over every value in document order, sops' ToBytes; AES-256-GCM with lastmodified as
// associated data), with node:crypto and the data key from `age`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createDecipheriv, createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { decryptSops } from 'sops-age';
import { REPO_ROOT } from '../support/paths.ts';
import { runHydrateCommand } from '../../src/cli/hydrateCommand.ts';
import { parseFunctionConfig } from '../../src/config/operatingSystemManagerConfig.ts';
import { EXAMPLE_SECRETS, EXAMPLES, changedPaths, copyTree, runOk, snapshot, tempDir, toolEnv } from './support.ts';

const SEED = 'test-seed-0123456789abcdefghijklmnopqrstuvwxyz';

interface Identity {
  file: string;
  secretKey: string;
  recipient: string;
}

function ageIdentity(dir: string, name: string): Identity {
  const file = join(dir, `${name}.txt`);
  runOk('age-keygen', ['-o', file]);
  const text = readFileSync(file, 'utf8');
  return { file, secretKey: text.match(/AGE-SECRET-KEY-1\S+/)![0], recipient: text.match(/public key: (age1\S+)/)![1]! };
}

/** The Flux example with spec.sops added to its config. */
function sopsSource(dir: string, recipients: string[]): string {
  const src = copyTree(join(EXAMPLES, 'flux', 'source'), join(dir, 'source'));
  const config = join(src, 'osm-config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').trimEnd() + `\n  sops:\n    ageRecipients: [${recipients.join(', ')}]\n    dataKeySeed: {env: OSM_SOPS_SEED}\n`);
  return src;
}

async function hydrate(args: string[], env: Record<string, string | undefined> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runHydrateCommand(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: { ...toolEnv(), ...EXAMPLE_SECRETS, OSM_SOPS_SEED: SEED, ...env }, cwd: REPO_ROOT });
  return { code, stdout, stderr };
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

/** sops' MAC of a decrypted document: SHA-512 over every value (ToBytes) in document order. */
function sopsMac(doc: unknown): string {
  const h = createHash('sha512');
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(walk);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, e] of Object.entries(v)) if (k !== 'sops') walk(e);
    } else {
      h.update(typeof v === 'boolean' ? (v ? 'True' : 'False') : v === null ? '' : String(v));
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

test('SOPS mode: Secrets read back with age and sops-age, the MAC checks, the OSC carries no getter token', async () => {
  const dir = tempDir('osm-krm-sops-');
  const alice = ageIdentity(dir, 'alice');
  const bob = ageIdentity(dir, 'bob');
  const plainOut = join(dir, 'plain');
  const plain = await hydrate([copyTree(join(EXAMPLES, 'flux', 'source'), join(dir, 'plain-source')), plainOut]);
  assert.equal(plain.code, 0, plain.stderr);
  const out = join(dir, 'out');
  const r = await hydrate([sopsSource(dir, [alice.recipient, bob.recipient]), out]);
  assert.equal(r.code, 0, r.stderr);

  const files = snapshot(out);
  const clear = snapshot(plainOut);
  const secrets = secretFiles(files);
  assert.equal(secrets.length, 6);
  for (const f of secrets) {
    const doc = parse(files.get(f)!);
    const expected = parse(clear.get(f)!);
    // Only data/stringData are encrypted; everything else reads as before.
    const { data: _d, sops: _s, ...rest } = doc;
    const { data: _e, ...expectedRest } = expected;
    assert.deepEqual(rest, expectedRest);
    for (const v of Object.values(doc.data)) assert.match(String(v), /^ENC\[AES256_GCM,data:/);
    assert.equal(doc.sops.encrypted_regex, '^(data|stringData)$');
    assert.deepEqual(doc.sops.age.map((a: any) => a.recipient), [alice.recipient, bob.recipient]);
    for (const id of [alice, bob]) {
      const key = dataKey(doc, id, dir);
      assert.equal(key.length, 32);
      const decrypted = await decryptSops(files.get(f)!, { secretKey: id.secretKey, fileType: 'yaml' });
      assert.deepEqual(decrypted, expected, f);
      assert.equal(decryptMac(doc, key), sopsMac(decrypted), `${f}: MAC`);
      // The check has teeth: another value gives another MAC.
      assert.notEqual(decryptMac(doc, key), sopsMac({ ...decrypted, type: 'changed' }));
    }
  }

  // No secret in clear anywhere in OUT (the OSC included), nor on stdout/stderr.
  const everything = [...files.values()].join('\n') + r.stdout + r.stderr;
  for (const [name, s] of Object.entries({ ...EXAMPLE_SECRETS, SEED })) assert.ok(!everything.includes(s), `${name} in clear`);
  const osc = [...files.keys()].find((f) => f.includes('/operatingsystemconfig_'))!;
  assert.match(files.get(osc)!, /Authorization: Bearer redacted-by-osm-krm-see-the-bootstrap-secret/);
  assert.match(clear.get(osc)!, new RegExp(`Authorization: Bearer ${EXAMPLE_SECRETS.OSM_CLOUD_INIT_GETTER_TOKEN}`));
  // Flux builds the directory with kustomize: the SOPS metadata must survive it.
  const built = runOk('kubectl', ['kustomize', out]).stdout;
  assert.equal((built.match(/^ {2}encrypted_regex: \^\(data\|stringData\)\$$/gm) ?? []).length, 6);
});

test('SOPS mode is deterministic: an unchanged re-render keeps every file; a changed Secret gets new ciphertext alone', async () => {
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
  for (const f of secretFiles(once)) {
    const a = parse(once.get(f)!);
    const b = parse(other.get(f)!);
    assert.deepEqual(a.data, b.data);
    assert.equal(a.sops.mac, b.sops.mac);
    assert.notEqual(a.sops.age[0].enc, b.sops.age[0].enc);
  }

  // A new getter token changes the bootstrap Secrets only; the kubelet bootstrap Secrets keep their bytes.
  const changed = await hydrate([src, out], { OSM_CLOUD_INIT_GETTER_TOKEN: 'another-getter-token' });
  assert.equal(changed.code, 0, changed.stderr);
  const diff = changedPaths(once, snapshot(out));
  assert.deepEqual(diff.filter((f) => f.includes('secret_')).sort(), secretFiles(once).filter((f) => f.endsWith('-bootstrap-config.yaml') && !f.includes('kubelet')).sort());
  const plainOut = join(dir, 'plain');
  const env = { OSM_CLOUD_INIT_GETTER_TOKEN: 'another-getter-token' };
  assert.equal((await hydrate([copyTree(join(EXAMPLES, 'flux', 'source'), join(dir, 'plain-source')), plainOut], env)).code, 0);
  const now = snapshot(out);
  for (const f of diff.filter((f) => f.includes('secret_'))) {
    const decrypted = await decryptSops(now.get(f)!, { secretKey: alice.secretKey, fileType: 'yaml' });
    assert.deepEqual(decrypted, parse(snapshot(plainOut).get(f)!));
  }
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

test('SOPS mode in the ConfigMap flag form', () => {
  const recipient = 'age1lw6kegqmhuc89y5hqcw4u4x62cjwpth7ul70n5sj8qx837r3cuzs3favvt';
  const config = (data: Record<string, string>) => parseFunctionConfig({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'osm' }, data });
  assert.deepEqual(config({ 'sops-age-recipients': recipient, 'sops-data-key-seed-env': 'SEED' }).sops, { ageRecipients: [recipient], dataKeySeed: { env: 'SEED' } });
  assert.throws(() => config({ 'sops-age-recipients': recipient }), /sops-data-key-seed-env or sops-data-key-seed-file must be set/);
  assert.throws(() => config({ 'sops-age-recipients': 'age1nope', 'sops-data-key-seed-file': '/seed' }), /is not an age recipient/);
});
