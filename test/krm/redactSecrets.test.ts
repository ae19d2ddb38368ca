// The registry finds secret values through their first characters; it must redact exactly as replacing every
// value in the text, longest first, one after the other (including occurrences that an earlier replacement
// creates next to its `[redacted]`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodedForms, registerInputSecrets, SecretRegistry } from '../../src/krm/redactSecrets.ts';

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
