// Text from the inputs (a pull request's bytes) printed for a person, in a terminal or a CI log. Nothing in it
// may act on what displays it (terminal escape sequences, GitHub Actions workflow commands), hide or reorder
// what is shown (bidi controls, invisible characters, other line breaks), or pass for our own framing (a diff
// header). Such characters print as `\u{HEX}`; a backslash that would read as one prints as `\u{5c}`, so every
// `\u{` shown is an escape and the text can be read back exactly. docs/review-tools.md states the rules.

// C0 controls but TAB, DEL, C1, no-break and other non-ASCII spaces, soft hyphen, Unicode line/paragraph
// separators, bidi and zero-width formatting, BOM, interlinear annotations, lone surrogates.
const UNSAFE =
  /[\u0000-\u0008\u000a-\u001f\u007f-\u00a0\u00ad\u061c\u115f\u1160\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufeff\uffa0\ufff9-\ufffb\ud800-\udfff]/gu;

const escape = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;

/** One line (or a name) as it may be printed; a line break in it is escaped too. */
export function untrustedLine(text: string): string {
  let s = text.replace(/\\(?=u\{)/g, escape).replace(UNSAFE, escape);
  // GitHub Actions runs `##[command]` anywhere in a line and `::command::` at its start (after blanks).
  s = s
    .replaceAll('##[', `##${escape('[')}`)
    .replace(/^([ \t]*):(?=:)/, (_, blanks: string) => `${blanks}${escape(':')}`);
  // A line that would read as a unified diff's `+++ `/`--- ` header once prefixed with `+` or `-`.
  return s.replace(/^(\+\+|--)(?= |$)/, (m) => escape(m[0]!) + m[1]!);
}

/** Multi-line text: each line as `untrustedLine` prints it, the `\n` between them kept. */
export function untrustedText(text: string): string {
  return text.split('\n').map(untrustedLine).join('\n');
}
