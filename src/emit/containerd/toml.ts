// The few TOML shapes OSM writes with BurntSushi/toml (Indent ""): bare or quoted keys and basic strings.

export function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

export function tomlString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; break;
      case '\\': out += '\\\\'; break;
      case '\b': out += '\\b'; break;
      case '\t': out += '\\t'; break;
      case '\n': out += '\\n'; break;
      case '\f': out += '\\f'; break;
      case '\r': out += '\\r'; break;
      default:
        out += c < 0x20 || c === 0x7f ? '\\u' + c.toString(16).padStart(4, '0') : ch;
    }
  }
  return out + '"';
}

export const tomlStringArray = (xs: readonly string[]) => '[' + xs.map(tomlString).join(', ') + ']';
