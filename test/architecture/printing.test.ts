// The mask (src/krm/redactSecrets.ts) by construction, read from the code: only the entry point touches the
// process's stdout and stderr, its stderr writer masks every byte with the process's secret registry, and
// every command prints through the io runSubcommand hands it (stderr masked, stdout masked for the commands
// that print for people), with the unmasked one shadowed. A new module that prints some other way fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { REPO_ROOT } from '../support/paths.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter(
      (e) =>
        e.isFile() && /\.(ts|js|mjs|cjs)$/.test(e.name) && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts'),
    )
    .map((e) => posix.relative(REPO_ROOT, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

const FILES = [...sourceFiles('src'), ...sourceFiles('functions')];
const text = (f: string) => readFileSync(join(REPO_ROOT, f), 'utf8').replace(/^\s*\/\/.*$/gm, '');

const ENTRY = 'functions/osm-krm/main.ts';
const WRITER = 'src/cli/writeAllSync.ts';

test("only the entry point writes to the process's stdout and stderr", () => {
  const direct =
    /\bprocess\.(stdout|stderr)\b|\bconsole\.[a-z]+\(|\bwriteAllSync\(|\bwriteSync\(\s*[12]\b|\bprocess\.(_rawDebug|emitWarning)\(/;
  const offenders = FILES.filter((f) => f !== ENTRY && f !== WRITER && direct.test(text(f)));
  assert.deepEqual(offenders, []);
  // The check sees what it looks for.
  assert.match(text(ENTRY), direct);
});

test('the entry point masks every stderr byte with the one registry it hands every command', () => {
  const main = text(ENTRY);
  const toStderr = [...main.matchAll(/writeAllSync\(2,[^\n]*/g)].map((m) => m[0]);
  assert.deepEqual(toStderr, ['writeAllSync(2, secrets.redact(s));']);
  assert.match(main, /^const secrets = new SecretRegistry\(\[untrustedLine\]\);$/m);
  // Every command and the function get it; the internal-error line goes through the masked writer.
  assert.match(main, /const io: CommandIO = \{[^}]*\bsecrets \}/);
  assert.match(main, /runFunctionOnFd\(0, \{[^}]*\bsecrets \}\)/);
  assert.match(main, /function internalError[^]*?\berr\(`osm-krm: internal error:/);
  assert.doesNotMatch(main.replace(/^const err = .*$/m, ''), /writeAllSync\(2\b/);
});

test("the entry point takes Node's warning printer and the console over, through the masked writer", () => {
  const main = text(ENTRY);
  // Node's own listener prints warnings unmasked: it is removed before ours is added
  // (test/cli/libraryOutputMasked.test.ts runs both doors through the bundle).
  assert.match(main, /^process\.removeAllListeners\('warning'\);\nprocess\.on\('warning', \(w\) => err\(/m);
  assert.match(
    main,
    /for \(const level of \['log', 'info', 'warn', 'error', 'debug', 'trace'\] as const\)\n\s+console\[level\] = \(\.\.\.parts: unknown\[\]\) => err\(/,
  );
});

test('every command prints through the masked io runSubcommand gives it, the unmasked one shadowed', () => {
  const commands = FILES.filter((f) => /^src\/cli\/[a-zA-Z]+Command\.ts$/.test(f));
  assert.ok(commands.length >= 6, commands.join(', '));
  for (const f of commands) {
    const src = text(f);
    const exported = [...src.matchAll(/export function (run\w+Command)\(/g)].map((m) => m[1]);
    assert.ok(exported.length === 1, `${f}: one run…Command`);
    // The callback names its io parameter `io`, shadowing the outer one.
    assert.match(src, /runSubcommand\([^;]*?\(opts, io\) =>/, `${f}: runSubcommand(..., (opts, io) => ...)`);
  }
  const frame = text('src/cli/commandIO.ts');
  assert.match(frame, /const stderr = \(s: string\) => rawIO\.stderr\(secrets\.redact\(s\)\);/);
  assert.match(frame, /run\(opts, io\)/);
  const fn = text('src/cli/runFunction.ts');
  assert.match(fn, /stderr: \(s: string\) => rawIO\.stderr\(secrets\.redact\(s\)\)/);
});
