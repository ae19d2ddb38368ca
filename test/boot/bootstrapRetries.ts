// The bootstrap's retries (#28), run on a booted node (boot scenario A) against an API server that refuses: down
// (its stand-in stopped: connection refused), answering without a cloud-config, and refusing the token (401).
// `sleep` is a stand-in on the script's PATH that records each delay and returns at once, so the whole schedule
// (growth, bound, jitter) is checked in seconds; it stops the loop after ATTEMPTS attempts.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shOk, type Pod } from './bootNode.ts';

const ATTEMPTS = 12;
const BIN = '/run/osm-krm-test/retry-bin';

/** Runs /opt/bin/bootstrap until its ATTEMPTS-th failure: its stderr lines and the delays it slept. */
function runBootstrap(pod: Pod): { lines: string[]; delays: number[] } {
  pod.execOk(
    [
      `mkdir -p ${BIN}`,
      `rm -f ${BIN}/delays`,
      // The loop's shell is sleep's parent: stopped once it has slept ATTEMPTS times.
      `printf '#!/bin/sh\\necho "$1" >>${BIN}/delays\\n[ "$(wc -l <${BIN}/delays)" -lt ${ATTEMPTS} ] || kill "$PPID"\\n' >${BIN}/sleep`,
      `chmod 0755 ${BIN}/sleep`,
    ].join(' && '),
  );
  const r = pod.exec(`PATH=${BIN}:$PATH timeout 120 /opt/bin/bootstrap`);
  // Killed by the stand-in sleep (SIGTERM), not by the hang guard.
  assert.equal(r.status, 143, `bootstrap exited ${r.status}:\n${r.stderr}`);
  return {
    lines: r.stderr.split('\n').filter(Boolean),
    delays: pod.execOk(`cat ${BIN}/delays`).trim().split('\n').map(Number),
  };
}

/** One line per attempt naming `cause`, announcing the delay it then slept: 2 s doubling to 32 s, plus jitter. */
function assertBackOff(run: { lines: string[]; delays: number[] }, cause: RegExp): void {
  assert.equal(run.lines.length, ATTEMPTS, `one line per attempt, nothing else:\n${run.lines.join('\n')}`);
  assert.equal(run.delays.length, ATTEMPTS);
  run.lines.forEach((line, i) => {
    const m = /^bootstrap: (.*); retrying in (\d+)s$/.exec(line);
    assert.ok(m, line);
    assert.match(m[1]!, cause);
    assert.equal(Number(m[2]), run.delays[i], 'the delay announced is the delay slept');
    const base = Math.min(2 ** (i + 1), 32);
    assert.ok(
      run.delays[i]! >= base && run.delays[i]! < 2 * base,
      `attempt ${i + 1}: ${run.delays[i]}s, not in [${base}, ${2 * base})`,
    );
  });
  // Jitter: the node draws the delays (eight at the bound of [32, 64) cannot all be equal but by a 1 in 32^7 chance).
  assert.ok(new Set(run.delays.slice(4)).size > 1, `no jitter: ${run.delays.join(' ')}`);
}

export function bootstrapRetryTests(dir: () => string): Array<{ name: string; run: (pod: Pod) => void }> {
  return [
    {
      name: 'the bootstrap retries an API server that is down, answers without a cloud-config or refuses the token: one line per attempt naming the cause, bounded back-off with jitter',
      run: (pod) => {
        const secrets = join(dir(), 'secrets.json');
        const served = readFileSync(secrets, 'utf8');
        const provisioning = Object.keys(JSON.parse(served)).find((name) => name.endsWith('-provisioning-config'))!;
        // The stand-ins read secrets.json as they start.
        const restartServers = () => {
          shOk('podman', ['restart', '-t', '0', pod.servers]);
          pod.execOk(
            'for i in $(seq 50); do curl -s -o /dev/null -k https://127.0.0.1:6443/ && exit 0; sleep 0.2; done; exit 1',
          );
        };
        try {
          // Down: nothing listens on 6443.
          shOk('podman', ['stop', '-t', '0', pod.servers]);
          const down = runBootstrap(pod);
          assertBackOff(down, /^curl: \(7\) Failed to connect to 127\.0\.0\.1 port 6443\b/);
          // Up, with a Secret that holds no cloud-config.
          const withoutConfig = JSON.parse(served);
          withoutConfig[provisioning] = { other: Buffer.from('x').toString('base64') };
          writeFileSync(secrets, JSON.stringify(withoutConfig));
          restartServers();
          assertBackOff(runBootstrap(pod), new RegExp(`^no cloud-config in ${provisioning}$`));
          writeFileSync(secrets, served);
          restartServers();
          // A token the API server refuses.
          pod.execOk(
            'cp -p /etc/osm/cloud-init-getter-token /root/getter-token && echo not-the-token >/etc/osm/cloud-init-getter-token',
          );
          let refused;
          try {
            refused = runBootstrap(pod);
          } finally {
            pod.execOk('mv /root/getter-token /etc/osm/cloud-init-getter-token');
          }
          assertBackOff(refused, /^curl: \(22\) The requested URL returned error: 401$/);
          // The node draws the delays as it runs: another run, another schedule.
          assert.notDeepEqual(refused.delays, down.delays);
        } finally {
          writeFileSync(secrets, served);
          restartServers();
          pod.exec(`rm -rf ${BIN}`);
        }
      },
    },
  ];
}
