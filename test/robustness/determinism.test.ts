// Same input, byte-identical output: across runs and across any shuffle of the input items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFunction } from '../../src/cli/runFunction.ts';
import { noEnvironment } from '../support/runInProcess.ts';
import { baseItems, machineDeployment, resourceList, rng } from './inputCorpus.ts';

function run(input: string): { code: number; stdout: string } {
  let stdout = '';
  const code = runFunction(input, { stdout: (s) => (stdout += s), stderr: () => {}, env: noEnvironment });
  return { code, stdout };
}

test('output does not depend on input order (20 shuffles)', () => {
  const items = [
    ...baseItems(),
    machineDeployment('workers-c'),
    machineDeployment('zeta', { cloudProvider: 'openstack' }),
  ];
  const reference = run(resourceList(items));
  assert.equal(reference.code, 0, reference.stdout);
  const random = rng(7);
  for (let i = 0; i < 20; i++) {
    const shuffled = [...items];
    for (let j = shuffled.length - 1; j > 0; j--) {
      const k = Math.floor(random() * (j + 1));
      [shuffled[j], shuffled[k]] = [shuffled[k], shuffled[j]];
    }
    assert.equal(run(resourceList(shuffled)).stdout, reference.stdout, `shuffle ${i}`);
  }
  assert.equal(run(resourceList(items)).stdout, reference.stdout, 'second run');
});

test('error output is deterministic too', () => {
  const items = [
    ...baseItems(),
    machineDeployment('Bad_Name'),
    machineDeployment('also-bad', { sshPublicKeys: ['not a key'] }),
  ];
  const a = run(resourceList(items));
  const b = run(resourceList([...items].reverse()));
  assert.equal(a.code, 1);
  assert.equal(a.stdout, b.stdout);
});
