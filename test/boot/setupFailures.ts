// How osp-ubuntu's provisioning tells a user what went wrong, run on a booted node (boot scenario A): the two
// failures the #13 trial met, found by users as a wrong message and as a setup retried forever without one.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSigningKey, waitFor, type Pod } from './bootNode.ts';

const MIRROR = 'http://127.0.0.1:8080';

export function setupFailureTests(dir: () => string): Array<{ name: string; run: (pod: Pod) => void }> {
  return [
    {
      name: "the Docker key check says so when gpg is missing, and refuses a key that is not Docker's",
      run: (pod) => {
        const keyFile = join(dir(), 'mirror', 'docker', 'gpg');
        const dockerKey = readFileSync(keyFile);
        // As on a machine whose keyring is not written yet.
        pod.execOk('mv /etc/apt/keyrings/docker.asc /root/docker.asc');
        try {
          pod.execOk('mv /usr/bin/gpg /root/gpg');
          try {
            const r = pod.exec('/opt/bin/install-container-runtime');
            assert.equal(r.status, 1);
            assert.equal(
              r.stderr,
              `install-container-runtime: gpg is needed to check the fingerprint of ${MIRROR}/docker/gpg (apt-get install gpg)\n`,
            );
          } finally {
            pod.execOk('mv /root/gpg /usr/bin/gpg');
          }
          writeFileSync(keyFile, makeSigningKey(join(dir(), 'gnupg-other')).publicKey);
          const r = pod.exec('/opt/bin/install-container-runtime');
          assert.equal(r.status, 1);
          // The verdict last, after gpg's own notes on the keyring it creates in a temporary directory.
          const lines = r.stderr.trimEnd().split('\n');
          assert.match(
            lines.pop()!,
            /^install-container-runtime: http:\/\/127\.0\.0\.1:8080\/docker\/gpg is not Docker's key [0-9A-F]{40}$/,
          );
          assert.deepEqual(
            lines.filter((l) => !l.startsWith('gpg: ')),
            [],
          );
          assert.equal(pod.exec('test -e /etc/apt/keyrings/docker.asc').status, 1, 'the other key was trusted');
        } finally {
          writeFileSync(keyFile, dockerKey);
          pod.execOk('mv /root/docker.asc /etc/apt/keyrings/docker.asc');
        }
      },
    },
    {
      name: 'a kernel module that cannot be loaded is reported by setup, which goes on instead of retrying forever',
      run: (pod) => {
        // A module the kernel cannot load, as systemd-modules-load meets it on a kernel without it: the real
        // systemd-modules-load (a container skips it, ConditionCapability=CAP_SYS_MODULE; the drop-in resets the
        // conditions) finds the module in a modules.dep made by depmod and fails to insert it. setup.service then
        // runs again, as at first boot.
        const dropIn = '/run/systemd/system/systemd-modules-load.service.d/osm-krm-test.conf';
        const modules = '/lib/modules/$(uname -r)';
        assert.equal(pod.exec(`test -e ${modules}`).status, 1, 'the container has no kernel modules of its own');
        pod.execOk(
          [
            `mkdir -p ${dropIn.replace(/\/[^/]+$/, '')} /run/modules-load.d ${modules}/kernel`,
            `printf '[Unit]\\nConditionCapability=\\n' >${dropIn}`,
            `echo 'not an ELF module' >${modules}/kernel/osm_krm_test.ko && depmod -a 2>/dev/null`,
            'echo osm_krm_test >/run/modules-load.d/osm-krm-test.conf && systemctl daemon-reload',
          ].join(' && '),
        );
        try {
          const since = pod.execOk('date +%s').trim();
          const r = pod.exec('timeout 240 systemctl restart setup.service');
          assert.equal(r.status, 0, `setup did not finish: ${r.stderr}`);
          assert.equal(pod.execOk('systemctl is-failed systemd-modules-load.service || true').trim(), 'failed');
          // (journald may store setup's last lines a moment after the unit finished.)
          const journal = waitFor(
            pod,
            `journalctl --unit setup.service --since @${since} --no-pager --output cat`,
            /^Failed to insert module 'osm_krm_test': /m,
            30_000,
          );
          assert.match(
            journal,
            /^setup: not every module of \/etc\/modules-load\.d\/k8s\.conf could be loaded:\n(?:Failed to (?:find|insert) module '\w+'.*\n)*Failed to insert module 'osm_krm_test': Operation not permitted$/m,
          );
          assert.doesNotMatch(journal, /supervise: attempt/);
          assert.equal(pod.execOk('systemctl is-active setup.service kubelet.service').trim(), 'active\nactive');
        } finally {
          pod.execOk(
            `rm -rf ${dropIn} /run/modules-load.d/osm-krm-test.conf ${modules} && systemctl daemon-reload && systemctl reset-failed systemd-modules-load.service`,
          );
        }
      },
    },
  ];
}
