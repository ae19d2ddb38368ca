// The worked overlay (examples/overlays: a company CA, a sysctl, a containerd drop-in, on osp-ubuntu) on a booted
// node, added to a scenario's run (test/boot/ubuntuBoot.test.ts): the CA is trusted by the system (curl, without
// --cacert, to a stand-in HTTPS server on the node's loopback whose certificate that CA signed; a server with a
// certificate of another CA is refused), the sysctl file is in place and setup applied it, containerd runs with
// the drop-in.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';
import { makeCA, waitFor, type Pod } from './bootNode.ts';
import type { Scenario } from './ubuntuScenario.ts';

const EXAMPLE_CA = /(-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----\n)/;

/** The example's overlay, with a CA made for the test (whose key signs the stand-in's certificate). */
function overlayWith(caCert: string): Record<string, any> {
  const o = parse(readFileSync(join(REPO_ROOT, 'examples/overlays/overlay.yaml'), 'utf8'));
  const ca = o.spec.files.find((f: any) => f.path === '/usr/local/share/ca-certificates/company-ca.crt');
  assert.match(ca.content.literal, EXAMPLE_CA);
  ca.content.literal = caCert;
  return o;
}

/** An HTTPS server on the node's 127.0.0.1:PORT with this certificate (python3: cloud-init's, in every image). */
function serveOnNode(pod: Pod, port: number, cert: string, key: string): void {
  const put = (path: string, text: string) =>
    pod.execOk(`echo ${Buffer.from(text).toString('base64')} | base64 -d > ${path}`);
  put(`/run/company-${port}.crt`, cert);
  put(`/run/company-${port}.key`, key);
  const py = `import http.server,ssl\ns=http.server.HTTPServer(('127.0.0.1',${port}),http.server.SimpleHTTPRequestHandler)\nc=ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)\nc.load_cert_chain('/run/company-${port}.crt','/run/company-${port}.key')\ns.socket=c.wrap_socket(s.socket,server_side=True)\ns.serve_forever()\n`;
  put(`/run/company-${port}.py`, py);
  pod.execOk(
    `mkdir -p /run/company-www && echo company > /run/company-www/index.html && cd /run/company-www && (setsid python3 /run/company-${port}.py >/run/company-${port}.log 2>&1 &)`,
  );
  waitFor(pod, `ss -ltn 'sport = :${port}' | tail -n +2`, /LISTEN/, 30_000);
}

export function companyOverlayScenario(): Pick<Scenario, 'profile' | 'prepareItems' | 'check'> {
  let company: ReturnType<typeof makeCA>;
  let other: ReturnType<typeof makeCA>;
  return {
    profile: 'ubuntu-company',
    prepareItems: (dir) => {
      company = makeCA(dir, 'company');
      other = makeCA(dir, 'not-company');
      return [overlayWith(company.caCert)];
    },
    check: (pod) => {
      // The CA file, and the system's bundle holding it (update-ca-certificates, before setup).
      assert.equal(
        pod.execOk('cat /usr/local/share/ca-certificates/company-ca.crt'),
        company.caCert.replace(/\n$/, ''),
      );
      serveOnNode(pod, 8443, company.cert, company.key);
      assert.equal(pod.execOk('curl -fsS https://127.0.0.1:8443/index.html').trim(), 'company');
      // A certificate of a CA the overlay did not bring is refused: the trust comes from the overlay's CA.
      serveOnNode(pod, 8444, other.cert, other.key);
      const refused = pod.exec('curl -fsS https://127.0.0.1:8444/index.html');
      assert.notEqual(refused.status, 0);
      assert.match(refused.stderr, /certificate|SSL/);
      // The sysctl file, applied by setup's `sysctl --system` (the container's /proc/sys is read-only: the
      // image's sysctl shim logs each key it could not write).
      assert.match(pod.execOk('cat /etc/sysctl.d/90-company.conf'), /^vm\.max_map_count = 262144$/m);
      assert.match(pod.execOk('cat /run/osm-krm-test/sysctl.log'), /Applying \/etc\/sysctl\.d\/90-company\.conf/);
      // containerd runs with the drop-in.
      assert.match(
        pod.execOk('systemctl show -p DropInPaths --value containerd.service'),
        /\/etc\/systemd\/system\/containerd\.service\.d\/50-company\.conf/,
      );
      assert.equal(pod.execOk('systemctl show -p OOMScoreAdjust --value containerd.service').trim(), '-999');
      // The overlay's commands ran in setup.service, before the base's setup.
      assert.match(
        pod.execOk('systemctl show -p DropInPaths --value setup.service'),
        /overlay-01-ubuntu-company\.conf/,
      );
    },
  };
}
