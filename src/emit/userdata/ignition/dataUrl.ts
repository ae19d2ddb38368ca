// "data:," URLs as ct writes inline file contents (vincent-petithory/dataurl's EscapeString): bytes in
// [A-Za-z0-9] and -_.!~*'() stay literal, every other byte of the UTF-8 becomes %XX with uppercase hex.
const ESCAPED: readonly string[] = Array.from({ length: 256 }, (_, b) => {
  const c = String.fromCharCode(b);
  return /[A-Za-z0-9\-_.!~*'()]/.test(c) ? c : '%' + b.toString(16).toUpperCase().padStart(2, '0');
});

export function dataUrl(content: string): string {
  // encodeURIComponent keeps exactly the same characters and writes the same %XX of the UTF-8 bytes, natively;
  // it refuses a lone surrogate, which Buffer turns into U+FFFD's bytes as Go would.
  try {
    return 'data:,' + encodeURIComponent(content);
  } catch {
    // fall through
  }
  let out = 'data:,';
  for (const b of Buffer.from(content, 'utf8')) out += ESCAPED[b];
  return out;
}
