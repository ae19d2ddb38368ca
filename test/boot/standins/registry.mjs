// The boot test's registry mirror stand-in (Registry HTTP API v2, read only), started by servers.mjs when
// DIR/registry exists, on https://127.0.0.1:443 (the names the test maps to 127.0.0.1 in the pod's /etc/hosts):
//   GET|HEAD /v2/                              200 with the right credentials
//   GET|HEAD /v2/NAME/manifests/TAG|DIGEST     the manifest, with Content-Type and Docker-Content-Digest
//   GET|HEAD /v2/NAME/blobs/DIGEST             the blob
// Every request needs HTTP basic auth with the user:password in DIR/registry/credentials (read per request, so the
// test can change it); otherwise 401 with a Basic challenge, as registries answer an anonymous first request.
// DIR/registry holds tls.crt/tls.key, index.json ({"NAME:TAG": {digest, mediaType}}) and blobs/<hex> (manifests too).
// Logs one JSON line per request: {server: "registry", host (the Host header), method, path (query included),
// auth: "right" | "wrong" | "none", status}; never the credentials.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join } from 'node:path';

export function startRegistry(dir, log) {
  const root = join(dir, 'registry');
  const tls = { cert: readFileSync(join(root, 'tls.crt')), key: readFileSync(join(root, 'tls.key')) };
  createServer(tls, (req, res) => {
    const expected = `Basic ${Buffer.from(readFileSync(join(root, 'credentials'), 'utf8').trim()).toString('base64')}`;
    const header = req.headers.authorization;
    const auth = header === undefined ? 'none' : header === expected ? 'right' : 'wrong';
    const send = (status, headers, body) => {
      log({ server: 'registry', host: req.headers.host, method: req.method, path: req.url, auth, status });
      const bytes =
        body ??
        Buffer.from(
          status < 300
            ? '{}'
            : JSON.stringify({
                errors: [{ code: status === 401 ? 'UNAUTHORIZED' : 'NOT_FOUND', message: String(status) }],
              }),
        );
      res.writeHead(status, {
        'Content-Length': bytes.length,
        'Docker-Distribution-API-Version': 'registry/2.0',
        'Content-Type': 'application/json',
        ...headers,
      });
      res.end(req.method === 'HEAD' ? undefined : bytes);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, {});
    if (auth !== 'right') return send(401, { 'WWW-Authenticate': 'Basic realm="osm-krm boot test registry"' });
    const path = (req.url ?? '').split('?')[0];
    if (path === '/v2/') return send(200, {});
    const m = /^\/v2\/([a-z0-9._/-]+)\/(manifests|blobs)\/([A-Za-z0-9._:-]+)$/.exec(path);
    if (!m) return send(404, {});
    const [, name, kind, ref] = m;
    const index = JSON.parse(readFileSync(join(root, 'index.json'), 'utf8'));
    let digest = ref;
    let mediaType = 'application/octet-stream';
    if (kind === 'manifests') {
      const entry = ref.startsWith('sha256:')
        ? Object.values(index).find((e) => e.digest === ref)
        : index[`${name}:${ref}`];
      if (entry === undefined) return send(404, {});
      ({ digest, mediaType } = entry);
    }
    const file = join(root, 'blobs', digest.replace(/^sha256:/, ''));
    if (!/^sha256:[0-9a-f]{64}$/.test(digest) || !existsSync(file)) return send(404, {});
    send(200, { 'Content-Type': mediaType, 'Docker-Content-Digest': digest }, readFileSync(file));
  }).listen(443, '127.0.0.1');
}
