// What must hold for ANY input: exit 0 or 1, a ResourceList on stdout, no stack trace, no secret in
// results or stderr, and on error no generated resource while every input item survives unchanged.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { parse, parseDocument } from 'yaml';
import { runFunction } from '../../src/cli/runFunction.ts';
import { noEnvironment } from '../support/runInProcess.ts';
import { TEST_SECRETS } from './inputCorpus.ts';

const STACK = /^\s+at .+\(.+:\d+:\d+\)$|^\s+at .+:\d+:\d+$/m;

export function checkInvariants(input: string | Uint8Array, label: string): { exitCode: number; out: any } {
  let stdout = '';
  let stderr = '';
  let exitCode: number;
  try {
    exitCode = runFunction(input, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env: noEnvironment });
  } catch (e) {
    assert.fail(`${label}: runFunction threw ${(e as Error)?.stack ?? e}`);
  }
  assert.ok(exitCode === 0 || exitCode === 1, `${label}: exit code ${exitCode}`);
  assert.ok(!STACK.test(stdout) && !STACK.test(stderr), `${label}: stack trace in output:\n${stderr.slice(0, 2000)}`);
  let out: any;
  try {
    out = parse(stdout);
  } catch (e) {
    assert.fail(`${label}: stdout is not YAML: ${(e as Error).message}\n${stdout.slice(0, 500)}`);
  }
  assert.equal(out?.kind, 'ResourceList', `${label}: stdout is not a ResourceList`);
  for (const secret of TEST_SECRETS) {
    assert.ok(!stderr.includes(secret), `${label}: secret on stderr`);
    for (const r of out.results ?? [])
      assert.ok(!String(r.message).includes(secret), `${label}: secret in a result: ${r.message}`);
  }
  const generated = (out.items ?? []).filter((i: any) =>
    String(i?.metadata?.annotations?.['internal.config.kubernetes.io/path'] ?? '').startsWith('osm-generated/'),
  );
  if (exitCode === 1) {
    assert.ok(
      (out.results ?? []).some((r: any) => r.severity === 'error'),
      `${label}: exit 1 without an error result`,
    );
    assert.equal(generated.length, 0, `${label}: error run emitted generated resources`);
  }
  // Bytes that are not UTF-8 are refused whole (never rewritten): no item to find in the output.
  const text = typeof input === 'string' ? input : isUtf8(input) ? Buffer.from(input).toString('utf8') : undefined;
  if (text === undefined) assert.equal(exitCode, 1, `${label}: input that is not UTF-8 was accepted`);
  // Input beyond a bound (size, nesting, aliases, encoding) is refused whole: one error result, no items.
  const refusedWhole =
    exitCode === 1 &&
    (out.items ?? []).length === 0 &&
    out.results?.length === 1 &&
    /^the input /.test(out.results[0].message);
  const inputItems = text === undefined || refusedWhole ? undefined : inputItemsOf(text);
  if (inputItems !== undefined) {
    const outItems = (out.items ?? []).map((i: unknown) => JSON.stringify(i));
    for (const item of inputItems) {
      const owned = String(
        item?.metadata?.annotations?.['internal.config.kubernetes.io/path'] ??
          item?.metadata?.annotations?.['config.kubernetes.io/path'] ??
          '',
      ).startsWith('osm-generated/');
      if (owned && exitCode === 0) continue;
      assert.ok(
        outItems.includes(JSON.stringify(item)),
        `${label}: input item lost or changed: ${JSON.stringify(item).slice(0, 300)}`,
      );
    }
  }
  return { exitCode, out };
}

/** The input's items as the function reads them (YAML 1.1 octal aside, plain JSON comparison works). */
function inputItemsOf(input: string): any[] | undefined {
  try {
    const doc = parseDocument(input, { uniqueKeys: true });
    if (doc.errors.length > 0) return undefined;
    const root = doc.toJS() as any;
    // Input that is not a ResourceList at all is refused whole (exit 1, orchestrators write nothing).
    if (root?.kind !== 'ResourceList' && root?.kind !== 'List') return undefined;
    const items = root?.items;
    return Array.isArray(items) && items.every((i) => i && typeof i === 'object' && !Array.isArray(i))
      ? items
      : undefined;
  } catch {
    return undefined;
  }
}
