// The CA inputs' X.509 check walks the DER structure in JavaScript (node:crypto costs start-up time). It must
// accept real certificates of every common kind and never accept what OpenSSL (node:crypto's X509Certificate,
// the check it replaces) refuses: seeded truncations, corrupted tags and lengths, corrupted bytes, trailing bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isX509Certificate } from '../../src/cluster/x509Structure.ts';
import { rng } from '../support/rng.ts';
import { TESTDATA } from '../support/paths.ts';

const ders = (pem: string) =>
  [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) =>
    Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64'),
  );
const pem = (der: Uint8Array) =>
  `-----BEGIN CERTIFICATE-----\n${Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;
const openSslAccepts = (der: Uint8Array) => {
  try {
    new X509Certificate(pem(der));
    return true;
  } catch {
    return false;
  }
};

/** Certificates of every common kind, made by openssl (installed for the tests). */
function generated(): Buffer[] {
  const dir = mkdtempSync(join(tmpdir(), 'osm-x509-'));
  try {
    const kinds: string[][] = [
      ['-newkey', 'rsa:2048', '-subj', '/CN=rsa-ca/O=Example'],
      ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-subj', '/CN=ec-ca'],
      ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384', '-subj', '/C=DE/ST=Hamburg/CN=ec384'],
      ['-newkey', 'ed25519', '-subj', '/CN=ed25519-ca'],
      ['-newkey', 'rsa:2048', '-sigopt', 'rsa_padding_mode:pss', '-subj', '/CN=pss'],
      [
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-utf8',
        '-subj',
        '/CN=Zertifizierungsstelle für Knoten/O=Ünïcödé ✓',
        '-addext',
        'subjectAltName=DNS:example.com,IP:10.0.0.1',
      ],
    ];
    return kinds.map((args, i) => {
      const out = join(dir, `${i}.pem`);
      const r = spawnSync(
        'openssl',
        ['req', '-x509', '-nodes', '-days', '30', '-keyout', join(dir, `${i}.key`), '-out', out, ...args],
        { encoding: 'utf8' },
      );
      assert.equal(r.status, 0, r.stderr);
      return ders(readFileSync(out, 'utf8'))[0]!;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SYSTEM_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
const certificates = [
  ...ders(readFileSync(join(TESTDATA, 'profiles', 'cases', 'test-ca.pem'), 'utf8')),
  ...generated(),
  ...(existsSync(SYSTEM_BUNDLE) ? ders(readFileSync(SYSTEM_BUNDLE, 'utf8')) : []),
];

test('real certificates are accepted (the test CA, openssl RSA/EC/Ed25519/PSS/UTF-8 names, the system bundle)', () => {
  assert.ok(certificates.length >= 7);
  for (const der of certificates) {
    assert.ok(openSslAccepts(der));
    assert.ok(isX509Certificate(der), pem(der));
  }
});

/** Offsets of every tag and length byte, inside constructed elements too. */
function headerOffsets(der: Uint8Array, start = 0, end = der.length, out: number[] = []): number[] {
  for (let at = start; at < end;) {
    const tag = der[at]!;
    let length = der[at + 1]!;
    let contents = at + 2;
    out.push(at, at + 1);
    if (length & 0x80) {
      const n = length & 0x7f;
      length = 0;
      for (let i = 0; i < n; i++, contents++) {
        out.push(contents);
        length = length * 256 + der[contents]!;
      }
    }
    if (tag & 0x20) headerOffsets(der, contents, contents + length, out);
    at = contents + length;
  }
  return out;
}

test('nothing OpenSSL refuses is accepted: truncated, corrupted (structure and any byte), with trailing bytes', () => {
  const random = rng(17);
  const pick = (n: number) => Math.floor(random() * n);
  const counts = { refusedByBoth: 0, acceptedByBoth: 0, refusedByUsOnly: 0 };
  for (let k = 0; k < 4000; k++) {
    const der = certificates[pick(certificates.length)]!;
    let mutated: Buffer;
    switch (k % 4) {
      case 0:
        mutated = der.subarray(0, pick(der.length));
        break;
      case 1: {
        const at = headerOffsets(der);
        mutated = Buffer.from(der);
        mutated[at[pick(at.length)]!] = pick(256);
        break;
      }
      case 2:
        mutated = Buffer.from(der);
        mutated[pick(der.length)] = pick(256);
        break;
      default:
        mutated = Buffer.concat([der, Buffer.from([pick(256)])]);
    }
    const ours = isX509Certificate(mutated);
    const theirs = openSslAccepts(mutated);
    assert.ok(!ours || theirs, `accepted what OpenSSL refuses (case ${k}): ${mutated.toString('hex')}`);
    if (ours) counts.acceptedByBoth++;
    else if (theirs) counts.refusedByUsOnly++;
    else counts.refusedByBoth++;
  }
  // The check is meant to refuse garbage: most corruptions are refused by both.
  assert.ok(counts.refusedByBoth > 2000, JSON.stringify(counts));
});
