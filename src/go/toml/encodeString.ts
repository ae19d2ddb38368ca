// Keys and strings as BurntSushi/toml's Encoder writes them: keys bare when they only hold [A-Za-z0-9_-]
// (else quoted), basic strings escaped with the encoder's replacer. Follows github.com/BurntSushi/toml v1.6.0
// (OSM's go.mod).

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

export function tomlKey(k: string): string {
  return BARE_KEY.test(k) ? k : tomlString(k);
}

/** A dotted table name, e.g. ['plugins', 'io.containerd.cri.v1.images'] -> plugins."io.containerd.cri.v1.images". */
export function tomlKeyPath(keys: readonly string[]): string {
  return keys.map(tomlKey).join('.');
}

/** Only `"`, `\` and control characters are escaped; \b \t \n \f \r by name, the rest (and DEL) as \u00xx. */
const NEEDS_ESCAPE = /["\\\x00-\x1f\x7f]/;

export function tomlString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        break;
      case '\\':
        out += '\\\\';
        break;
      case '\b':
        out += '\\b';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\n':
        out += '\\n';
        break;
      case '\f':
        out += '\\f';
        break;
      case '\r':
        out += '\\r';
        break;
      default:
        out += c < 0x20 || c === 0x7f ? '\\u' + c.toString(16).padStart(4, '0') : ch;
    }
  }
  return out + '"';
}
