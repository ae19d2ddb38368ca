// One run cannot change the next run of the same process (`diff` and `lint` render many times in one): the
// embedded profiles every run shares are frozen, and what a run keeps (parsed templates, Ignition's unit
// checks, the checked template values) belongs to that run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseResourceList, serializeResourceList } from '../../src/krm/resourceList.ts';
import { processResourceList, type RenderObserver } from '../../src/function/processResourceList.ts';
import { embeddedProfile } from '../../src/profiles/embeddedProfiles.ts';
import type { ProfileEntry } from '../../src/model/profileEntry.ts';
import { noEnvironment } from '../support/runInProcess.ts';
import { BASE_CONFIG, machineDeployment, resourceList } from '../robustness/inputCorpus.ts';

/** Two MachineDeployments on embedded profiles: Ubuntu (cloud-init) and Flatcar (Ignition). */
function input(config: unknown = BASE_CONFIG): string {
  const ubuntu = machineDeployment('ubuntu-workers');
  ubuntu.metadata.annotations['k8c.io/operating-system-profile'] = 'osp-ubuntu';
  const flatcar = machineDeployment('flatcar-workers', {
    operatingSystem: 'flatcar',
    operatingSystemSpec: { provisioningUtility: 'ignition' },
  });
  flatcar.metadata.annotations['k8c.io/operating-system-profile'] = 'osp-flatcar';
  return resourceList(
    [
      ubuntu,
      flatcar,
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name: 'cloud-init-getter-token',
          namespace: 'cloud-init-settings',
          annotations: { 'config.kubernetes.io/local-config': 'true' },
        },
        stringData: { token: 'getter-token-isolation' },
      },
    ],
    config,
  );
}

function render(text: string, observer?: RenderObserver): { output: string; errors: string[] } {
  const list = parseResourceList(text);
  const out = processResourceList(list, noEnvironment, observer);
  return {
    output: serializeResourceList(list, out),
    errors: out.results.filter((r) => r.severity === 'error').map((r) => r.message),
  };
}

test('a run that tries to change the embedded profiles it rendered from cannot change the next run', () => {
  const profiles: ProfileEntry[] = [];
  const first = render(input(), { templateData: (_md, profile) => void profiles.push(profile) });
  assert.deepEqual(first.errors, []);
  assert.deepEqual(profiles.map((p) => p.name).sort(), ['osp-flatcar', 'osp-ubuntu']);

  // What a careless change to a profile (an overlay merged in place, a default filled in) would do.
  for (const p of profiles) {
    const file = p.spec.provisioningConfig.files![0]!;
    assert.throws(() => (file.content.inline!.data = '#!/bin/sh\nreboot\n'), TypeError);
    assert.throws(() => p.spec.provisioningConfig.files!.push({ ...file, path: '/etc/evil' }), TypeError);
    assert.throws(() => ((p.spec as { version: string }).version = 'v9'), TypeError);
  }
  const raw = embeddedProfile('osp-ubuntu') as any;
  assert.throws(() => (raw.spec.bootstrapConfig.modules = {}), TypeError);
  assert.throws(() => delete raw.metadata.name, TypeError);

  assert.equal(render(input()).output, first.output);
});

test('each run checks its own template values: a run with an unsafe value between two safe ones', () => {
  const safe = render(input());
  assert.deepEqual(safe.errors, []);
  const unsafe = render(
    input({ ...BASE_CONFIG, spec: { ...BASE_CONFIG.spec, initialTaints: 'a=b:NoSchedule;reboot' } }),
  );
  // Reported for each MachineDeployment, as before the check moved to the run.
  assert.equal(unsafe.errors.length, 2);
  for (const e of unsafe.errors) assert.match(e, /^functionConfig spec\.initialTaints may only contain letters/);
  assert.equal(render(input()).output, safe.output);
});
