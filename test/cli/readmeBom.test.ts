// README.md, "Air-gapped sites": the command it shows prints what it shows (lines in order; `…` stands for lines
// left out), with the environment it exports.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runBomCommand } from '../../src/cli/bomCommand.ts';
import { REPO_ROOT } from '../support/paths.ts';
import { runCommand } from '../review/reviewSupport.ts';

test("the README's bom --mirror-check example prints what the README shows", () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Air-gapped sites'));
  const block = /```\n\$ export ([^\n]*)\n\$ osm-krm bom ([^\n]*)\n([\s\S]*?)```/.exec(section);
  assert.ok(block, 'the example block');
  const env = Object.fromEntries(block[1]!.split(' ').map((kv) => kv.split('=') as [string, string]));
  const r = runCommand(runBomCommand, block[2]!.split(' '), REPO_ROOT, { PATH: process.env.PATH, ...env });
  assert.equal(r.code, 0, r.stderr);
  const actual = r.stdout.split('\n');
  let at = 0;
  for (const line of block[3]!.trimEnd().split('\n')) {
    if (line === '…') continue;
    const found = actual.indexOf(line, at);
    assert.ok(found >= 0, `not printed (in this order): ${line}`);
    at = found + 1;
  }
});
