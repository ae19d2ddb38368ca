// The example scheduled re-render (examples/github-actions/osm-krm-rerender.yaml) runs as written: its render step's
// script, against a copy of the Flux example, renders the current token window, lints clean, and a second run in
// the same window changes nothing (so the job commits only when a window turns). Its schedule is well within the
// rotation's overlap.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { REPO_ROOT } from '../support/paths.ts';
import { EXAMPLES, objectsInFiles, tempDir, toolEnv } from './support.ts';
import { parseGoDuration } from '../../src/go/time/duration.ts';

const workflow = parse(readFileSync(join(EXAMPLES, 'github-actions', 'osm-krm-rerender.yaml'), 'utf8')) as any;
const rotation = parse(readFileSync(join(EXAMPLES, 'flux', 'rotation', 'osm-config.yaml'), 'utf8')).spec.cluster
  .bootstrapTokenRotation;

test('the schedule renders more often than the overlap lets tokens outlive their window', () => {
  const [cron] = workflow.on.schedule.map((s: any) => s.cron as string);
  // "M * * * *": hourly.
  assert.match(cron, /^\d{1,2} \* \* \* \*$/);
  const overlapHours = Number(parseGoDuration(rotation.overlap) / 3_600_000_000_000n);
  assert.ok(overlapHours >= 6, `an hourly job leaves ${overlapHours - 1}h of margin`);
});

test(
  'the render step runs as written: tokens of the current window, lint clean, a second run writes nothing',
  { timeout: 300_000 },
  () => {
    const step = workflow.jobs.hydrate.steps.find((s: any) => s.name === 'Render for the current token window');
    const repo = tempDir();
    mkdirSync(join(repo, 'examples'));
    cpSync(join(EXAMPLES, 'flux'), join(repo, 'examples', 'flux'), { recursive: true });
    symlinkSync(join(REPO_ROOT, 'dist'), join(repo, 'dist'));
    const env = toolEnv({
      OSM_CLOUD_INIT_GETTER_TOKEN: 'example-cloud-init-getter-token',
      OSM_BOOTSTRAP_TOKEN_KEY: 'example-bootstrap-token-key-0123456789',
    });
    const runStep = () => spawnSync('bash', ['-euo', 'pipefail', '-c', step.run], { cwd: repo, env, encoding: 'utf8' });
    const first = runStep();
    assert.equal(first.status, 0, first.stdout + first.stderr);
    const deploy = join(repo, 'examples', 'flux', 'deploy');
    const tokens = objectsInFiles(deploy, () => true).filter((o: any) => o.type === 'bootstrap.kubernetes.io/token');
    assert.equal(tokens.length, 4, "the current and the previous window's token per MachineDeployment");
    const now = Date.now() / 1000;
    const expirations = tokens.map(
      (t: any) => Date.parse(Buffer.from(t.data.expiration, 'base64').toString('utf8')) / 1000,
    );
    assert.ok(
      expirations.every((e: number) => e > now),
      'no committed token has expired',
    );
    assert.ok(
      Math.max(...expirations) - now > Number(parseGoDuration(rotation.overlap) / 1_000_000_000n),
      'the newest token outlives the overlap',
    );
    const second = runStep();
    assert.equal(second.status, 0, second.stderr);
    // Unless the hour turned a window between the two runs (then the job commits the new window, as it should).
    if (Math.floor(now / 86400) === Math.floor(Date.now() / 1000 / 86400))
      assert.match(second.stdout, / 0 written, 0 removed/);
  },
);
