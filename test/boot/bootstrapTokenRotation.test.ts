// Boot test T (#24 §3): osp-ubuntu with rotating bootstrap tokens (24h windows, 6h overlap), rendered late in a
// window (SOURCE_DATE_EPOCH). The API server stand-in judges the kubelet's bootstrap token against its own clock
// (test/boot/standins/servers.mjs, DIR/clock): booted after the token's window ended but within the overlap, the
// node joins; with the clock past the token's expiration, the kubelet's TLS bootstrap is refused and the kubelet
// fails with the API server's reason, which names the expiry.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootScenario } from './ubuntuScenario.ts';
import { waitFor } from './bootNode.ts';

const HOUR = 3600;
const T0 = 1796083200; // 2026-12-01T00:00:00Z, a window edge
const RENDERED_AT = T0 + 20 * HOUR; // the window [T0, T0+24h): its token expires at T0+30h = 2026-12-02T06:00:00Z
const IN_OVERLAP = T0 + 27 * HOUR;
const EXPIRED = T0 + 30 * HOUR + 1;

const setClock = (dir: string, seconds: number) => writeFileSync(join(dir, 'clock'), `${seconds}\n`);

bootScenario({
  name: 'boot-token',
  ipFamily: 'IPv4',
  spec: {
    cluster: {
      bootstrapTokenKey: 'boot-test-bootstrap-token-key-0123456789',
      bootstrapTokenRotation: { period: '24h', overlap: '6h' },
    },
  },
  renderEnv: { SOURCE_DATE_EPOCH: String(RENDERED_AT) },
  // The node boots after its token's window ended, within the overlap.
  prepare: (dir) => {
    setClock(dir, IN_OVERLAP);
    return {};
  },
  check: (pod) => {
    const bootstrap = pod.requests().filter((r) => r.bearer === 'bootstrap-token');
    assert.deepEqual(
      bootstrap.map((r) => r.status),
      [201],
      'the token of the ended window still joined, in the overlap',
    );
  },
  tests: (dir) => [
    {
      name: "with the API server's clock past the token's expiration, the kubelet's TLS bootstrap fails naming the expiry",
      run: (pod) => {
        setClock(dir(), EXPIRED);
        // A node booting now: no client certificate yet, the kubelet bootstraps with the token from its kubeconfig.
        pod.execOk(
          'systemctl stop kubelet.service && rm -f /etc/kubernetes/pki/kubelet-client-current.pem /run/kubelet-standin/report.json && systemctl reset-failed kubelet.service; systemctl start --no-block kubelet.service',
        );
        const journal = waitFor(
          pod,
          'journalctl --no-pager -u kubelet.service -n 50',
          /TLS bootstrap: the API server refused the bootstrap token/,
          120_000,
        );
        assert.match(
          journal,
          /refused the bootstrap token \(HTTP 401\): Unauthorized: bootstrap token [a-z0-9]{6} expired at 2026-12-02T06:00:00Z \(API server time 2026-12-02T06:00:01Z\)/,
        );
        assert.equal(
          pod.exec('test -e /run/kubelet-standin/report.json').status,
          1,
          'the kubelet did not get past the bootstrap',
        );
        assert.ok(pod.requests().some((r) => r.bearer === 'bootstrap-token' && r.status === 401));
        // Back in the overlap (a re-render would have brought the next window's token): it joins again.
        setClock(dir(), IN_OVERLAP);
        pod.execOk('systemctl restart kubelet.service');
        waitFor(
          pod,
          'test -s /run/kubelet-standin/report.json && systemctl is-active kubelet.service',
          /^active/m,
          120_000,
        );
      },
    },
  ],
});
