// osp-ubuntu's /opt/bin/recover-package-manager on a booted node (boot scenario A), for the dpkg state the power
// cuts of the boot (test/boot/powerCuts.ts) do not reach: a package whose unpacking was cut off. dpkg then marks it
// "reinstreq half-installed"; `dpkg --configure -a` cannot finish it, and `apt-get install -f` leaves it so (and
// exits 0), so the next apt-get install of it does nothing either.
import assert from 'node:assert/strict';
import { type Pod } from './bootNode.ts';

/** dpkg's status of containerd.io ("install ok installed" when whole). */
const status = (pod: Pod) => pod.execOk("dpkg-query -W -f='${Status}' containerd.io").trim();

export function packageRecoveryTests(): Array<{ name: string; run: (pod: Pod) => void }> {
  return [
    {
      name: 'a package whose unpacking was cut off is installed again by recover-package-manager',
      run: (pod) => {
        assert.equal(status(pod), 'hold ok installed');
        // dpkg unpacks containerd.io again (from apt's cache) and is killed once its journal records the package
        // half-installed, i.e. while it replaces the files: stopped first, so it cannot finish meanwhile.
        const cut = pod.exec(
          [
            'deb=$(ls /var/cache/apt/archives/containerd.io_*.deb)',
            'for try in 1 2 3; do',
            '  dpkg --unpack "$deb" >/dev/null 2>&1 & pid=$!',
            '  while kill -0 $pid 2>/dev/null; do',
            '    if grep -qs "^Status: .* half-installed$" /var/lib/dpkg/updates/*; then kill -STOP $pid; kill -KILL $pid; wait $pid; exit 0; fi',
            '    sleep 0.02',
            '  done',
            'done',
            'echo "dpkg finished before it could be cut off" >&2; exit 1',
          ].join('\n'),
        );
        assert.equal(cut.status, 0, cut.stderr);
        assert.equal(status(pod), 'install reinstreq half-installed');
        // What setup runs next: install-container-runtime, which repairs first.
        const r = pod.exec('/opt/bin/install-container-runtime');
        assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
        assert.match(r.stderr, /^recover-package-manager: finishing an interrupted package operation:$/m);
        assert.equal(pod.execOk('dpkg --audit').trim(), '');
        // Whole again: every file as the package has it (the configuration files are ours), held, running.
        assert.deepEqual(
          pod
            .execOk('dpkg --verify containerd.io || true')
            .split('\n')
            .filter((l) => l !== '' && !/ c \/etc\//.test(l)),
          [],
        );
        assert.equal(status(pod), 'hold ok installed');
        assert.equal(pod.execOk('systemctl is-active containerd.service').trim(), 'active');
        // With nothing unfinished, it does nothing.
        const again = pod.exec('/opt/bin/recover-package-manager');
        assert.deepEqual([again.status, again.stdout, again.stderr], [0, '', '']);
      },
    },
  ];
}
