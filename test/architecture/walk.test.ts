// The walk of one ResourceList through the code (docs/architecture.md, "One MachineDeployment, file by file"),
// measured by scripts/measure-walk.ts on examples/basic: the climbs back to a higher layer may not grow. Issue
// #25's target is 8 for each walk; the limits are what the code reaches today, lowered as it gets there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

const LIMITS: Readonly<Record<string, number>> = { 'the run': 15, 'one MachineDeployment': 9 };

test('the walk of examples/basic climbs back up no more often than it does today, for the run and for one MachineDeployment', () => {
  // A child process: the measurement compiles src/ with its own module hooks.
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts/measure-walk.ts')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(r.status, 0, r.stderr);
  for (const [walk, limit] of Object.entries(LIMITS)) {
    const m = new RegExp(`^${walk}: \\d+ stops in \\d+ files, (\\d+) climbs`, 'm').exec(r.stdout);
    assert.ok(m, `no figure for ${walk} in:\n${r.stdout}`);
    const climbs = Number(m[1]);
    assert.ok(
      climbs <= limit,
      `${walk}: ${climbs} climbs back to a higher layer, more than ${limit}; see node --import tsx scripts/measure-walk.ts --list`,
    );
  }
});
