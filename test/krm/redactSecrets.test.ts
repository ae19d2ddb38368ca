// The registry finds secret values through their first characters; it must redact exactly as replacing every
// value in the text, longest first, one after the other (including occurrences that an earlier replacement
// creates next to its `[redacted]`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodedForms, REDACTED, registerInputSecrets, SecretRegistry } from '../../src/krm/redactSecrets.ts';

function redactEveryValue(values: string[], text: string): string {
  // Each value stands for itself and the forms our syntaxes give it (quoted, base64...).
  const kept = [
    ...new Set(
      values
        .filter((v) => v.length >= 4)
        .flatMap(encodedForms)
        .filter((v) => v.length >= 4),
    ),
  ].sort((a, b) => b.length - a.length);
  let out = text;
  for (const v of kept) out = out.split(v).join('[redacted]');
  return out;
}

// A small alphabet (with the characters of `[redacted]`) makes values overlap each other and the marker.
const piece = fc.string({
  unit: fc.constantFrom('a', 'b', 'd', 'e', '[', ']', 'r', 'c', 't', ' '),
  minLength: 0,
  maxLength: 9,
});

test('redaction equals replacing each value, longest first', () => {
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), fc.array(piece, { maxLength: 8 }), (values, parts) => {
      const registry = new SecretRegistry();
      for (const v of values) registry.add(v);
      const text = parts.join(values[0] ?? 'x');
      assert.equal(registry.redact(text), redactEveryValue(values, text));
    }),
    { numRuns: 3000, seed: 6 },
  );
});

test('a value added after a redaction is redacted too; short values never are', () => {
  const registry = new SecretRegistry();
  registry.add('s3cr3t-token');
  assert.equal(registry.redact('token s3cr3t-token here'), 'token [redacted] here');
  registry.add('here');
  registry.add('abc');
  assert.equal(registry.redact('token s3cr3t-token here abc'), 'token [redacted] [redacted] abc');
});

test('a value that appears only next to a [redacted] is redacted as well', () => {
  const registry = new SecretRegistry();
  registry.add('xxsecretxx');
  registry.add('d]yy');
  assert.equal(registry.redact('axxsecretxxyy'), 'a[redacte[redacted]');
});

test('a bootstrap token Secret registers its token, not its public keys', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const registry = new SecretRegistry();
  registerInputSecrets(registry, [
    {
      object: {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'bootstrap.kubernetes.io/token',
        data: {
          description: b64('bootstrap token for kube-system-md-1'),
          'token-id': b64('abcdef'),
          'token-secret': b64('0123456789abcdef'),
          'usage-bootstrap-authentication': b64('true'),
        },
      },
    },
    { object: { apiVersion: 'v1', kind: 'Secret', stringData: { password: 'hunter2-password' } } },
  ]);
  assert.equal(
    registry.redact(
      'kube-system-md-1: usage true, token abcdef.0123456789abcdef, secret 0123456789abcdef, hunter2-password',
    ),
    'kube-system-md-1: usage true, token [redacted], secret [redacted], [redacted]',
  );
});

test('secrets longer than 16,383 characters are registered by digest: each found, the same one once, linear in number', () => {
  // V8 hashes a longer string by its length alone: 2,000 such values of an input Secret took 9 s in a Set.
  const registry = new SecretRegistry();
  const values = Array.from({ length: 2000 }, (_, i) => `${'a'.repeat(16_380)}${String(i).padStart(5, '0')}`);
  const started = process.hrtime.bigint();
  for (const v of values) registry.add(v);
  for (const v of values) registry.add(v); // seen already
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  assert.ok(seconds < 20, `registering took ${seconds.toFixed(1)} s`); // a guard against the quadratic cost, not a target
  for (const i of [0, 999, 1999]) {
    assert.equal(registry.redact(`x ${values[i]} y`), `x ${REDACTED} y`);
  }
  // A short value that starts with NUL cannot stand for a long one (lookupKey escapes it).
  const nul = `\0#${'0'.repeat(64)}`;
  registry.add(nul);
  assert.equal(registry.redact(`<${nul}>`), `<${REDACTED}>`);
  assert.equal(registry.holds('a'.repeat(16_385)), false);
});

test("many values sharing a long prefix, in a text that repeats it: the mask's bound masks the text whole, at once", () => {
  // 100 values of 4,005 characters sharing 4,000 and a 20,000-character text of the prefix took 39 s.
  const registry = new SecretRegistry();
  for (let i = 0; i < 100; i++) registry.add(`${'a'.repeat(4000)}${String(i).padStart(5, '0')}`);
  const text = `${'a'.repeat(20_000)}\n`;
  const started = process.hrtime.bigint();
  assert.equal(registry.holds(text), true, 'past its bound, the mask takes a text to hold a secret');
  const redacted = registry.redact(text);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  assert.ok(seconds < 30, `took ${seconds.toFixed(1)} s`); // a guard against the quadratic scan, not a target
  assert.equal(
    redacted,
    `${REDACTED} (20001 characters masked whole: checking them for secrets went past the mask's bound)\n`,
  );
  assert.equal(registry.boundReached, true);
  // Below the bound, the same values are found and masked as before, each in its place.
  const fresh = new SecretRegistry();
  for (let i = 0; i < 100; i++) fresh.add(`${'a'.repeat(4000)}${String(i).padStart(5, '0')}`);
  assert.equal(fresh.redact(`x ${'a'.repeat(4000)}00042 y`), `x ${REDACTED} y`);
  assert.equal(fresh.holds('nothing secret here'), false);
  assert.equal(fresh.boundReached, false);
});

test('the bound grows with the text checked: an ordinary run of many messages never reaches it', () => {
  const registry = new SecretRegistry();
  const secrets = Array.from({ length: 500 }, (_, i) => `token-${i}-${'x'.repeat(40)}`);
  for (const s of secrets) registry.add(s);
  for (let i = 0; i < 20_000; i++) {
    const s = secrets[i % secrets.length]!;
    assert.equal(registry.redact(`line ${i}: ${s} and token-${i}-y`), `line ${i}: ${REDACTED} and token-${i}-y`);
  }
  assert.equal(registry.boundReached, false);
});

test('a message holding thousands of distinct secrets: redact scans again after each, within the bound', () => {
  // 10,000 values of 8 letters, all in one message, took 75 s through the function (a scan per value found).
  const registry = new SecretRegistry();
  const values = Array.from({ length: 10_000 }, (_, i) => `v${String(i).padStart(7, 'q')}`);
  for (const v of values) registry.add(v);
  const started = process.hrtime.bigint();
  const out = registry.redact(values.join(' '));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  assert.ok(seconds < 30, `took ${seconds.toFixed(1)} s`); // a guard against the quadratic rescans, not a target
  assert.ok(!values.some((v) => out.includes(v)), 'no value is printed');
  assert.equal(registry.boundReached, true);
  // Fewer values: each masked in place, and the bound is not reached.
  const fewer = new SecretRegistry();
  for (const v of values.slice(0, 300)) fewer.add(v);
  const message = values.slice(0, 300).join(' ');
  assert.equal(
    fewer.redact(message),
    values
      .slice(0, 300)
      .map(() => REDACTED)
      .join(' '),
  );
  assert.equal(fewer.boundReached, false);
});
