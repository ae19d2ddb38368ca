// Which strings PyYAML (cloud-init's YAML 1.1 reader) reads back unchanged as a plain scalar: the rule values
// are checked against (src/machineDeployment/validateValues.ts) and the cloud-config writer quotes by
// (src/emit/userdata/cloudConfigYaml.ts).

/** Characters that end a line or that PyYAML refuses, for a value that must stay on one line. */
export const UNSAFE_ON_ONE_LINE = /[^\t\x20-\x7e\u00a0-\u2027\u202a-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** Whether PyYAML reads `value` in block context (after `key: ` or `- `) as one plain scalar with that text. */
export function isPlainToken(value: string): boolean {
  // PyYAML ends a plain scalar at a tab (then refuses the tab), so none may appear in one; and it resolves a
  // plain `=` and `<<` to tags its safe loader cannot construct, which makes the whole document unreadable.
  if (value === '' || value !== value.trim() || value.includes('\t') || value === '=' || value === '<<') return false;
  if (UNSAFE_ON_ONE_LINE.test(value)) return false;
  const first = value[0]!;
  if (',[]{}#&*!|>\'"%@`'.includes(first)) return false;
  if ('-?:'.includes(first) && (value.length === 1 || value[1] === ' ' || value[1] === '\t')) return false;
  // A ": " (or a final ":") makes a mapping, a " #" starts a comment.
  return !/:(?:[ \t]|$)|[ \t]#/.test(value);
}
