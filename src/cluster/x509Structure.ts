// The shape of an X.509 certificate (RFC 5280, section 4.1) in DER, checked without node:crypto: loading it
// costs every run ~15 M instructions at start-up, and a CA input only needs to be a certificate, not verified.
// Each field is walked in order with its tag and a definite length that fits its parent, the names are
// SEQUENCE OF SET OF (OID, value), the extensions (OID, optional critical BOOLEAN, OCTET STRING) and nothing
// may follow the certificate. Field contents (key bits, strings, extension values) are not interpreted.

interface Element {
  tag: number;
  /** Content start and end (exclusive) in the buffer. */
  start: number;
  end: number;
}

const SEQUENCE = 0x30;
const SET = 0x31;
const INTEGER = 0x02;
const BIT_STRING = 0x03;
const OCTET_STRING = 0x04;
const OID = 0x06;
const BOOLEAN = 0x01;
const NULL = 0x05;
const UTC_TIME = 0x17;
const GENERALIZED_TIME = 0x18;

class Malformed extends Error {}

/** The element at `at`, which must end by `limit`. */
function element(der: Uint8Array, at: number, limit: number): Element {
  if (at + 2 > limit) throw new Malformed();
  const tag = der[at]!;
  if ((tag & 0x1f) === 0x1f) throw new Malformed(); // multi-byte tags: none in a certificate's structure
  let length = der[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes === 0 || bytes > 4 || start + bytes > limit) throw new Malformed(); // 0: indefinite (BER, not DER)
    length = 0;
    for (let i = 0; i < bytes; i++) length = length * 256 + der[start + i]!;
    start += bytes;
  }
  const end = start + length;
  if (end > limit) throw new Malformed();
  return { tag, start, end };
}

/** The elements of a constructed element's contents, which they must fill exactly. */
function children(der: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.start; at < parent.end;) {
    const e = element(der, at, parent.end);
    out.push(e);
    at = e.end;
  }
  return out;
}

function expect(e: Element | undefined, tag: number): Element {
  if (e === undefined || e.tag !== tag) throw new Malformed();
  return e;
}

function nonEmpty(e: Element): Element {
  if (e.end === e.start) throw new Malformed();
  return e;
}

/** An OBJECT IDENTIFIER: base-128 numbers, each in its shortest form and ended by a byte below 0x80. */
function oid(der: Uint8Array, e: Element | undefined): void {
  const o = nonEmpty(expect(e, OID));
  if (der[o.end - 1]! & 0x80) throw new Malformed();
  for (let i = o.start; i < o.end; i++)
    if (der[i] === 0x80 && (i === o.start || !(der[i - 1]! & 0x80))) throw new Malformed();
}

// The string types a name's attribute may have, with the byte multiple their characters take.
const STRING_UNIT = new Map([
  [0x0c, 1], // UTF8String (checked as UTF-8)
  [0x12, 1], // NumericString
  [0x13, 1], // PrintableString
  [0x14, 1], // T61String
  [0x16, 1], // IA5String
  [0x1c, 4], // UniversalString (UTF-32BE)
  [0x1e, 2], // BMPString
]);

function attributeValue(der: Uint8Array, e: Element): void {
  const unit = STRING_UNIT.get(e.tag);
  if (unit === undefined || (e.end - e.start) % unit !== 0) throw new Malformed();
  if (e.tag === 0x0c && !isUtf8(der, e.start, e.end)) throw new Malformed();
  if (e.tag === 0x1c) {
    for (let i = e.start; i < e.end; i += 4) {
      const cp = ((der[i]! << 24) | (der[i + 1]! << 16) | (der[i + 2]! << 8) | der[i + 3]!) >>> 0;
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) throw new Malformed();
    }
  }
}

/** Well-formed UTF-8: shortest forms, no surrogates, nothing past U+10FFFF. */
function isUtf8(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end;) {
    const c = b[i]!;
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= end) return false;
    let cp = n === 0 ? c : c & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const x = b[i + k]!;
      if ((x & 0xc0) !== 0x80) return false;
      cp = (cp << 6) | (x & 0x3f);
    }
    if ((n === 2 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (n === 3 && (cp < 0x10000 || cp > 0x10ffff)))
      return false;
    i += n + 1;
  }
  return true;
}

function algorithmIdentifier(der: Uint8Array, e: Element | undefined): void {
  const parts = children(der, expect(e, SEQUENCE));
  oid(der, parts[0]);
  if (parts.length > 2) throw new Malformed();
  // Parameters: none, NULL (RSA), a curve's OID (EC keys) or a SEQUENCE (RSASSA-PSS, DSA, explicit curves).
  const parameters = parts[1];
  if (parameters === undefined || parameters.tag === SEQUENCE) return;
  if (parameters.tag === NULL) {
    if (parameters.end !== parameters.start) throw new Malformed();
  } else oid(der, parameters);
}

function name(der: Uint8Array, e: Element | undefined): void {
  for (const rdn of children(der, expect(e, SEQUENCE))) {
    const attributes = children(der, expect(rdn, SET));
    if (attributes.length === 0) throw new Malformed();
    for (const a of attributes) {
      const parts = children(der, expect(a, SEQUENCE));
      oid(der, parts[0]);
      if (parts.length !== 2) throw new Malformed();
      attributeValue(der, parts[1]!);
    }
  }
}

function bitString(der: Uint8Array, e: Element | undefined): void {
  const b = nonEmpty(expect(e, BIT_STRING));
  if (der[b.start]! > 7) throw new Malformed(); // the count of unused bits in the last byte
}

function extensions(der: Uint8Array, e: Element): void {
  const wrapped = children(der, e);
  if (wrapped.length !== 1) throw new Malformed();
  const list = children(der, expect(wrapped[0], SEQUENCE));
  if (list.length === 0) throw new Malformed();
  for (const x of list) {
    const parts = children(der, expect(x, SEQUENCE));
    oid(der, parts[0]);
    let i = 1;
    if (parts[i]?.tag === BOOLEAN) {
      if (parts[i]!.end - parts[i]!.start !== 1) throw new Malformed();
      i++;
    }
    expect(parts[i], OCTET_STRING);
    if (parts.length !== i + 1) throw new Malformed();
  }
}

function tbsCertificate(der: Uint8Array, e: Element | undefined): void {
  const fields = children(der, expect(e, SEQUENCE));
  let i = 0;
  if (fields[i]?.tag === 0xa0) {
    const version = children(der, fields[i]!);
    if (version.length !== 1) throw new Malformed();
    nonEmpty(expect(version[0], INTEGER));
    i++;
  }
  nonEmpty(expect(fields[i++], INTEGER));
  algorithmIdentifier(der, fields[i++]);
  name(der, fields[i++]);
  const validity = children(der, expect(fields[i++], SEQUENCE));
  if (validity.length !== 2) throw new Malformed();
  for (const t of validity) if (t.tag !== UTC_TIME && t.tag !== GENERALIZED_TIME) throw new Malformed();
  name(der, fields[i++]);
  const publicKey = children(der, expect(fields[i++], SEQUENCE));
  if (publicKey.length !== 2) throw new Malformed();
  algorithmIdentifier(der, publicKey[0]);
  bitString(der, publicKey[1]);
  if (fields[i]?.tag === 0x81) i++; // issuerUniqueID
  if (fields[i]?.tag === 0x82) i++; // subjectUniqueID
  if (fields[i]?.tag === 0xa3) extensions(der, fields[i++]!);
  if (i !== fields.length) throw new Malformed();
}

/** Whether `der` is exactly one certificate: Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signatureValue }. */
export function isX509Certificate(der: Uint8Array): boolean {
  try {
    const certificate = element(der, 0, der.length);
    if (certificate.end !== der.length) return false;
    const parts = children(der, expect(certificate, SEQUENCE));
    if (parts.length !== 3) return false;
    tbsCertificate(der, parts[0]);
    algorithmIdentifier(der, parts[1]);
    bitString(der, parts[2]);
    return true;
  } catch (e) {
    if (e instanceof Malformed) return false;
    throw e;
  }
}
