// Invalid Unicode (a lone surrogate, which JavaScript strings can hold and YAML's \u escapes can make) is never
// written: UTF-8 has no bytes for it, so writing would replace it with U+FFFD behind the user's back. Every
// output syntax refuses it instead, naming the field.
/** String.prototype.isWellFormed (ES2024, native in Node 20). */
export function isWellFormed(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** A lone surrogate as the text `\u{d800}`, for messages and field paths that name where one sits. */
export function escapeIllFormed(s: string): string {
  return isWellFormed(s)
    ? s
    : s.replace(
        /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
        (c) => `\\u{${c.charCodeAt(0).toString(16)}}`,
      );
}

/**
 * The path (`metadata.annotations.x`, `spec.files[0]`) of the first key or string in `v` that is not valid
 * Unicode; keys in it are escaped (escapeIllFormed), so the path itself can be written.
 */
export function illFormedPath(v: unknown, path = ''): string | undefined {
  if (typeof v === 'string') return isWellFormed(v) ? undefined : path;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = illFormedPath(v[i], `${path}[${i}]`);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  if (v !== null && typeof v === 'object') {
    for (const [k, e] of Object.entries(v)) {
      const at = path === '' ? escapeIllFormed(k) : `${path}.${escapeIllFormed(k)}`;
      if (!isWellFormed(k)) return at;
      const p = illFormedPath(e, at);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}

/** A string that is not valid Unicode reached a writer; the caller names the field (illFormedPath). */
export class InvalidUnicodeError extends Error {
  override name = 'InvalidUnicodeError';
  constructor() {
    super('not valid Unicode (a lone surrogate): it has no UTF-8 bytes, and is never written as U+FFFD');
  }
}

/** `what` at `path` (from illFormedPath) as one message. */
export function invalidUnicodeMessage(what: string, path: string | undefined): string {
  return `${what}${path ? ` would hold at ${path}` : ' would hold'} a string that is not valid Unicode (a lone surrogate, e.g. from a "\\ud800" escape in the inputs): UTF-8 has no bytes for it, and it is never written as U+FFFD`;
}
