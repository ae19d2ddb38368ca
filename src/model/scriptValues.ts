// The choke point for values from MachineDeployments and the config that OSP templates place into shell
// scripts, systemd units and file paths (through the template data). A template decides the quoting, so the
// values must be safe unquoted: a word has no character a shell, a unit file or a path would act on; a line
// has no line break of any kind (YAML 1.1's NEL, LS and PS included: cloud-init's YAML would split it) and
// no control character; a text may span lines, with "\n" only. Anything else is refused, naming the field.
import { ResourceError } from '../krm/results.ts';

export type ValueKind = 'word' | 'line' | 'text';

// URLs, images, taints, proxy lists, versions: no blanks, quotes, `$`, backticks, `;&|<>(){}\!#~`.
const WORD = /^[A-Za-z0-9._:/@%+=,*[\]-]*$/;
const LINE_UNSAFE = /[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;
const TEXT_UNSAFE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]/;

const DESCRIBE: Record<ValueKind, string> = {
  word: 'may only contain letters, digits and . _ : / @ % + = , * [ ] - (it is placed unquoted into scripts and units)',
  line: 'must be one line of well-formed Unicode without control characters (no line break of any kind, including U+0085, U+2028 and U+2029)',
  text: 'must be well-formed Unicode without control characters other than tab, CR and LF, nor U+0085, U+2028 or U+2029',
};

export function isSafeValue(value: string, kind: ValueKind): boolean {
  if (kind === 'word') return WORD.test(value);
  // A lone surrogate has no UTF-8 form: the node would get U+FFFD instead of the value.
  if (!(value as unknown as { isWellFormed(): boolean }).isWellFormed()) return false; // ES2024, native in Node 20
  return !(kind === 'line' ? LINE_UNSAFE : TEXT_UNSAFE).test(value);
}

/** `value` when it is safe as `kind`; otherwise an error naming `field` (never quoting the value: it may be a secret). */
export function scriptValue(value: string, kind: ValueKind, field: string, label = field): string {
  if (!isSafeValue(value, kind)) throw new ResourceError(`${label} ${DESCRIBE[kind]}`, field);
  return value;
}
