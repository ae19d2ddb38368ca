// The boot test's stand-in servers, run with Node.js in the node's pod (so on its loopback only):
//   https://127.0.0.1:6443  the API server: GET /api/v1/namespaces/cloud-init-settings/secrets/NAME answered as
//                           kube-apiserver answers (a v1 Secret as JSON), only with the getter token as bearer
//                           token (401 Unauthorized otherwise); certificate from the test's cluster CA
//   https://127.0.0.1:6444  an impostor: the same answers, with a certificate from another CA
//   http://127.0.0.1:8080   the artifact mirror: the files below DIR/mirror
//   http://127.0.0.1:3128   an HTTP proxy (absolute-URI requests and CONNECT), to loopback targets only (names
//                           resolving to loopback included: the pod's /etc/hosts maps the registry names there)
//   https://127.0.0.1:443   when DIR/registry exists: the registry mirror (registry.mjs)
//                           POST /apis/certificates.k8s.io/v1/certificatesigningrequests (the kubelet's TLS
//                           bootstrap) only with a bootstrap token, checked as kube-apiserver's bootstrap token
//                           authenticator checks it (plugin/pkg/auth/authenticator/token/bootstrap): the Secret
//                           kube-system/bootstrap-token-<id> of DIR/bootstrap-tokens.json, its type, token-secret
//                           and usage-bootstrap-authentication, and its `expiration` against the stand-in's clock:
//                           DIR/clock (seconds since the epoch) when it exists, read at each request, else the time.
//                           A refusal is 401 with a message naming why (kube-apiserver only logs it).
// DIR (argv[2]) holds api.crt/api.key, impostor.crt/impostor.key, token and secrets.json ({name: {key: base64}}).
// CONTROL (argv[3], optional) is where the test steers the mirror: while CONTROL/stall names a path, the mirror
// sends that file but its last KiB (or half, if smaller) and holds the rest back (logging {server: "mirror",
// stalled: path}), so that the test can cut the node's power in the middle of the download; the rest follows
// once the file no longer names it.
// One JSON line per request on stdout: {server, method, path, bearer: "getter" | "bootstrap-token" | "other" |
// "none", status}.
import { lookup } from 'node:dns/promises';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer as createHttp, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createServer as createHttps } from 'node:https';
import { join, normalize } from 'node:path';
import { startRegistry } from './registry.mjs';

const dir = process.argv[2];
const control = process.argv[3];
const token = readFileSync(join(dir, 'token'), 'utf8').trim();
const secrets = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8'));
const log = (entry) => process.stdout.write(JSON.stringify(entry) + '\n');

const BOOTSTRAP_TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const CSR_PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

/** Why kube-apiserver would refuse the bootstrap token `id.secret`, or undefined when it accepts it. */
function bootstrapTokenRefusal(id, secret) {
  const file = join(dir, 'bootstrap-tokens.json');
  if (!existsSync(file)) return undefined; // a scenario that does not check tokens
  const found = JSON.parse(readFileSync(file, 'utf8')).find(
    (s) => s.metadata?.name === `bootstrap-token-${id}` && s.metadata?.namespace === 'kube-system',
  );
  if (found === undefined) return `no Secret kube-system/bootstrap-token-${id}`;
  const value = (k) =>
    found.data?.[k] === undefined ? undefined : Buffer.from(found.data[k], 'base64').toString('utf8');
  if (found.type !== 'bootstrap.kubernetes.io/token')
    return `Secret bootstrap-token-${id} is not of type bootstrap.kubernetes.io/token`;
  if (value('token-secret') !== secret || value('token-id') !== id)
    return `bootstrap token ${id} does not match its Secret`;
  const expiration = value('expiration');
  const now = existsSync(join(dir, 'clock'))
    ? Number(readFileSync(join(dir, 'clock'), 'utf8').trim())
    : Math.floor(Date.now() / 1000);
  if (expiration !== undefined && Date.parse(expiration) / 1000 <= now) {
    return `bootstrap token ${id} expired at ${expiration} (API server time ${new Date(now * 1000).toISOString().replace('.000Z', 'Z')})`;
  }
  if (value('usage-bootstrap-authentication') !== 'true') return `bootstrap token ${id} is not for authentication`;
  return undefined;
}

function apiServer(name) {
  return (req, res) => {
    const auth = req.headers.authorization;
    const presented = auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined;
    const bearer =
      auth === undefined
        ? 'none'
        : presented === token
          ? 'getter'
          : BOOTSTRAP_TOKEN.test(presented ?? '')
            ? 'bootstrap-token'
            : 'other';
    const send = (status, body) => {
      log({ server: name, method: req.method, path: req.url, bearer, status });
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const status = (code, reason, message) =>
      send(code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });
    if (req.method === 'POST' && req.url === CSR_PATH && bearer === 'bootstrap-token') {
      const [, id, secret] = BOOTSTRAP_TOKEN.exec(presented);
      const refusal = bootstrapTokenRefusal(id, secret);
      if (refusal !== undefined) return status(401, 'Unauthorized', `Unauthorized: ${refusal}`);
      return send(201, {
        kind: 'CertificateSigningRequest',
        apiVersion: 'certificates.k8s.io/v1',
        metadata: { name: `node-csr-${id}` },
        status: {},
      });
    }
    if (bearer !== 'getter') return status(401, 'Unauthorized', 'Unauthorized');
    const m = /^\/api\/v1\/namespaces\/cloud-init-settings\/secrets\/([a-z0-9.-]+)$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !m) return status(404, 'NotFound', 'the server could not find the requested resource');
    const data = secrets[m[1]];
    if (data === undefined) return status(404, 'NotFound', `secrets "${m[1]}" not found`);
    send(200, {
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: m[1], namespace: 'cloud-init-settings' },
      data,
      type: 'Opaque',
    });
  };
}

const tls = (prefix) => ({
  cert: readFileSync(join(dir, `${prefix}.crt`)),
  key: readFileSync(join(dir, `${prefix}.key`)),
});
createHttps(tls('api'), apiServer('api')).listen(6443, '127.0.0.1');
createHttps(tls('impostor'), apiServer('impostor')).listen(6444, '127.0.0.1');

const mirror = join(dir, 'mirror');
const stalled = (path) => {
  try {
    return control !== undefined && readFileSync(join(control, 'stall'), 'utf8').trim() === path;
  } catch {
    return false;
  }
};
createHttp(async (req, res) => {
  const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]));
  const file = join(mirror, path);
  let status = 404;
  try {
    if (!path.startsWith('/') || path.includes('..') || !statSync(file).isFile()) throw new Error('not a file');
    const body = readFileSync(file);
    status = 200;
    res.writeHead(200, { 'Content-Length': body.length });
    if (req.method !== 'HEAD' && stalled(path)) {
      const sent = Math.max(body.length >> 1, body.length - 1024);
      res.write(body.subarray(0, sent));
      log({ server: 'mirror', stalled: path, sent });
      while (stalled(path)) await new Promise((resolve) => setTimeout(resolve, 100));
      res.end(body.subarray(sent));
    } else {
      res.end(req.method === 'HEAD' ? undefined : body);
    }
  } catch {
    res.writeHead(404);
    res.end();
  }
  log({ server: 'mirror', method: req.method, path, status });
}).listen(8080, '127.0.0.1');
const loopback = async (host) => {
  try {
    return (await lookup(host.replace(/^\[(.*)\]$/, '$1'), { all: true })).every(
      (a) => a.address === '127.0.0.1' || a.address === '::1',
    );
  } catch {
    return false;
  }
};
const proxy = createHttp(async (req, res) => {
  let target;
  try {
    target = new URL(req.url ?? '');
  } catch {
    target = undefined;
  }
  log({ server: 'proxy', method: req.method, target: req.url });
  if (!target || target.protocol !== 'http:' || !(await loopback(target.hostname))) {
    res.writeHead(403);
    return res.end();
  }
  const upstream = httpRequest(
    {
      host: target.hostname,
      port: target.port || 80,
      method: req.method,
      path: target.pathname + target.search,
      headers: req.headers,
    },
    (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    },
  );
  upstream.on('error', () => {
    res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
});
proxy.on('connect', async (req, socket, head) => {
  const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
  log({ server: 'proxy', method: 'CONNECT', target: req.url });
  if (!(await loopback(host))) return socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  const upstream = connect(Number(port), host, () => {
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  socket.on('error', () => upstream.destroy());
});
proxy.listen(3128, '127.0.0.1');
if (existsSync(join(dir, 'registry'))) startRegistry(dir, log);
log({ ready: true });
