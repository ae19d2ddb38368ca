// The readers a node uses, run on many documents in one Python process (read_back.py): PyYAML's safe_load,
// cloud-init's schema validation and `bash -n`.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type ReaderKind = 'yaml' | 'typed' | 'schema' | 'bash';
export type ReadResult = { value: unknown } | { error: string };

/** The interpreter cloud-init runs on (its `cloudinit` package and PyYAML are on its path). */
function cloudInitPython(): string {
  const script = execFileSync('sh', ['-c', 'command -v cloud-init'], { encoding: 'utf8' }).trim();
  return /^#!\s*(\S+)/.exec(readFileSync(script, 'utf8'))?.[1] ?? 'python3';
}

export function readBack(docs: ReadonlyArray<{ kind: ReaderKind; text: string }>): ReadResult[] {
  if (docs.length === 0) return [];
  const stdout = execFileSync(cloudInitPython(), [join(import.meta.dirname, 'read_back.py')], {
    input: JSON.stringify(docs),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 120_000,
  });
  return JSON.parse(stdout) as ReadResult[];
}

export const stripTrailingBreaks = (s: string) => s.replace(/\n+$/, '');

/** What cloud-init reads for a `content: |-` block: the text without its trailing line breaks, and without
 * the first line's indentation on every line (OSM's output shows both). */
export function literalBlockReadBack(text: string): string {
  const lines = text.split('\n');
  const first = lines.find((l) => /[^ ]/.test(l));
  const indent = first === undefined ? 0 : /^ */.exec(first)![0].length;
  return stripTrailingBreaks(
    lines.map((l) => (/^ *$/.test(l) && l.length <= indent ? '' : l.slice(indent))).join('\n'),
  );
}
