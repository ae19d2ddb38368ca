// Strings made of what breaks the syntaxes values are placed into: every Unicode line break, quotes, YAML
// indicators, `#`, `:`, shell metacharacters, control bytes, and ordinary text around them.
import fc from 'fast-check';

export const HOSTILE_PIECES = [
  '\n',
  '\r',
  '\r\n',
  '\u0085',
  '\u2028',
  '\u2029',
  '\t',
  '\v',
  '\f',
  '\x00',
  '\x1b',
  '\x7f',
  '\u009f',
  '\ufeff',
  '\ud800',
  "'",
  '"',
  '\\',
  '#',
  ' #',
  ':',
  ': ',
  '-',
  '- ',
  '?',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&',
  '*',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  '$',
  '$(reboot)',
  '`id`',
  '${IFS}',
  ';',
  '&&',
  '||',
  '(',
  ')',
  '<',
  '>',
  '~',
  ' ',
  '  ',
  '\nruncmd: [reboot]\n',
  '\u2028runcmd: [reboot]',
  '\u0085- path: /etc/evil',
  '---',
  '...',
  'true',
  'null',
  '1',
  '0x1f',
  '2001-12-14',
  '=',
  '<<',
  '1:20',
  'y',
  'a',
  'b',
  'x',
  'ssh-ed25519',
  'é',
  '😀',
  '[Service]',
  'ExecStart=/bin/sh',
  '%i',
] as const;

export function hostileString(options: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom(...HOSTILE_PIECES), { minLength: options.minLength ?? 0, maxLength: options.maxLength ?? 6 })
    .map((parts) => parts.join(''));
}

/** The pieces without line breaks and control characters: strings most renders accept, indicators and all. */
export function oneLineString(): fc.Arbitrary<string> {
  const pieces = HOSTILE_PIECES.filter((p) => !/[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800]/.test(p));
  return fc.array(fc.constantFrom(...pieces), { maxLength: 6 }).map((parts) => parts.join(''));
}
