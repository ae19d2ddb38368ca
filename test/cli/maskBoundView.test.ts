// A review view (render, diff, lint print through the mask) that went past the mask's bound was printed masked
// whole: the command says so and does not exit 0, since the view asked for was not given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSubcommand } from '../../src/cli/commandIO.ts';
import { SecretRegistry } from '../../src/krm/redactSecrets.ts';

const SPEC = { name: 'view', summary: 's', forms: [{ operands: '' }], description: 'd', operands: [], options: [] };

function runView(text: string): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const secrets = new SecretRegistry();
  for (let i = 0; i < 100; i++) secrets.add(`${'a'.repeat(4000)}${String(i).padStart(5, '0')}`);
  const code = runSubcommand(
    SPEC,
    [],
    { stdout: (s: string) => (stdout += s), stderr: (s: string) => (stderr += s), secrets },
    () => ({}),
    (_opts, io) => {
      io.stdout(text);
      return 0;
    },
    () => true,
  ) as number;
  return { code, stdout, stderr };
}

test("a view masked whole past the mask's bound: exit 1 and a note; an ordinary view: exit 0", () => {
  const past = runView(`${'a'.repeat(20_000)}\n`);
  assert.equal(past.code, 1);
  assert.match(past.stdout, /^<masked> \(20001 characters masked whole/);
  assert.match(past.stderr, /^osm-krm view: some output was printed masked whole/);
  const ordinary = runView(`x ${'a'.repeat(4000)}00042 y\n`);
  assert.equal(ordinary.code, 0, ordinary.stderr);
  assert.equal(ordinary.stdout, 'x <masked> y\n');
});
