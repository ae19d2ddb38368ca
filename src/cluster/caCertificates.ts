// CA inputs (the Kubernetes CA, the host CA bundle, the API server's CA) end up in files on every node, where
// kubelet, curl and update-ca-certificates read them. Each must be PEM holding certificates that parse; a
// wrong value (a path pasted where the content belongs, a key, a token) is refused with what it looks like,
// never with its text: a mis-pasted secret must not reach the results.
import { ResourceError } from '../krm/results.ts';
import { isX509Certificate } from './x509Structure.ts';

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/g;
const PEM_ONLY_CERTIFICATES =
  /^(?:\s*-----BEGIN CERTIFICATE-----\r?\n(?:[A-Za-z0-9+/=]+\r?\n)+-----END CERTIFICATE-----)+\s*$/;
// Padding only at the end, as a PEM decoder wants it (Buffer.from would skip what it cannot read).
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const EXPECTED =
  'expected PEM certificates (one or more -----BEGIN CERTIFICATE----- blocks and nothing else), inline, {file: PATH} or {env: NAME}';

/**
 * Checks that `text` is PEM certificates only, each parseable. `what` names the input for the message, e.g.
 * `spec.hostCABundle (file /etc/osm/ca.crt)`; `field` is the result's field path.
 */
export function checkCACertificates(text: string, what: string, field: string): void {
  const why = describeProblem(text);
  if (why !== undefined) throw new ResourceError(`${what} ${why}: ${EXPECTED}`, field);
}

function describeProblem(text: string): string | undefined {
  if (text.trim() === '') return 'is empty';
  const blocks = [...text.matchAll(BLOCK)];
  if (blocks.length === 0) {
    const one = text.trim();
    if (!/\s/.test(one) && one.length <= 4096 && /^(?:\/|\.{1,2}\/|~\/)|\.(?:pem|crt|cer|ca-bundle)$/i.test(one)) {
      return `looks like a file path (${one}), not a certificate; to read the file, write {file: ${one}}`;
    }
    return `is not PEM (${text.length} characters, no -----BEGIN CERTIFICATE----- block)`;
  }
  const others = [...new Set(blocks.map((b) => b[1]!).filter((t) => t !== 'CERTIFICATE'))];
  if (others.length > 0) return `holds PEM ${others.join(', ')} block(s), which are not certificates`;
  if (!PEM_ONLY_CERTIFICATES.test(text))
    return 'holds text besides the certificate blocks, or a block that is not base64 lines';
  for (let i = 0; i < blocks.length; i++) {
    const base64 = blocks[i]![2]!.replace(/\r?\n/g, '');
    if (!BASE64.test(base64) || base64.length % 4 !== 0 || !isX509Certificate(Buffer.from(base64, 'base64'))) {
      return `certificate ${i + 1} of ${blocks.length} cannot be parsed as X.509`;
    }
  }
  return undefined;
}
