// Keys and strings as BurntSushi/toml's Encoder writes them: keys bare when they only hold [A-Za-z0-9_-]
// (else quoted), basic strings escaped with the encoder's replacer. Follows github.com/BurntSushi/toml v1.6.0
// (OSM's go.mod).
import { TextBuilder } from '../internal/textBuilder.ts';

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
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0c: '\\f',
  0x0d: '\\r',
};

export function tomlString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  const out = new TextBuilder();
  out.unit(0x22);
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const e =
      c === 0x22
        ? '\\"'
        : c === 0x5c
          ? '\\\\'
          : c < 0x20 || c === 0x7f
            ? (SHORT_ESCAPES[c] ?? '\\u' + c.toString(16).padStart(4, '0'))
            : undefined;
    if (e === undefined) continue;
    if (i > run) out.append(s.slice(run, i));
    out.append(e);
    run = i + 1;
  }
  if (s.length > run) out.append(s.slice(run));
  out.unit(0x22);
  return out.toString();
}
