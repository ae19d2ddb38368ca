// hydrate's SOPS writer checks every byte it would write in clear against the mask. When that check goes past the
// mask's bound (many secret values sharing a long prefix that the file repeats), the file is not written: a
// bounded answer that puts nothing in clear, and says why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encryptManifests } from '../../src/sops/encryptManifests.ts';
import { SecretRegistry } from '../../src/krm/redactSecrets.ts';
import { SopsError } from '../../src/sops/sopsDocument.ts';

const SETTINGS = {
  ageRecipients: ['age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p'],
  dataKeySeed: 'a seed of at least thirty-two characters, for the test',
};

function registryOfSharedPrefix(): SecretRegistry {
  const secrets = new SecretRegistry();
  for (let i = 0; i < 100; i++) secrets.add(`${'a'.repeat(4000)}${String(i).padStart(5, '0')}`);
  return secrets;
}

test("a value whose check goes past the mask's bound is encrypted, as if it held a secret", () => {
  const secrets = registryOfSharedPrefix();
  const files = new Map([
    ['cm.yaml', `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: ${'a'.repeat(20_000)}\n`],
  ]);
  const started = process.hrtime.bigint();
  const written = encryptManifests(files, () => undefined, SETTINGS, secrets).get('cm.yaml')!;
  assert.ok(Number(process.hrtime.bigint() - started) / 1e9 < 30); // a guard against the quadratic scan
  assert.match(written, /k: ENC\[AES256_GCM,/);
  assert.doesNotMatch(written, /aaaa/);
  assert.equal(secrets.boundReached, true, 'hydrate says so when it is');
});

test("text no encrypted key reaches, checked past the mask's bound: the file is refused, naming the bound", () => {
  const secrets = registryOfSharedPrefix();
  const files = new Map([
    [
      'cm.yaml',
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    note: ${'a'.repeat(20_000)}\n`,
    ],
  ]);
  assert.throws(
    () => encryptManifests(files, () => undefined, SETTINGS, secrets),
    (e: Error) =>
      e instanceof SopsError &&
      /cannot write cm\.yaml in SOPS mode: metadata\.annotations\.note could not be checked for secrets within the mask's bound/.test(
        e.message,
      ),
  );
});
