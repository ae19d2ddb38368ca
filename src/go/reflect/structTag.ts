// reflect.StructTag.Get (Go 1.26): a struct field's tag is `key:"value"` pairs separated by spaces; the value
// of the first pair named `key`, unquoted, or "" when there is none or the tag is malformed from there on.
import { GoSyntaxError, unquoteGoString } from '../strconv/unquote.ts';

export function structTagGet(tag: string, key: string): string {
  // The usual tag, just `key:"value"` with nothing to unescape, needs no scan.
  const end = tag.length - 1;
  if (
    tag.startsWith(key) &&
    tag.startsWith(':"', key.length) &&
    tag.indexOf('"', key.length + 2) === end &&
    !tag.includes('\\') &&
    !tag.includes('\n')
  ) {
    return tag.slice(key.length + 2, end);
  }
  let rest = tag;
  while (rest !== '') {
    rest = rest.replace(/^ +/, '');
    // A name is the characters before ':' that are neither spaces, control characters, '"' nor DEL.
    const m = /^[^\x00-\x20":\x7f]+:"/.exec(rest);
    if (m === null) return '';
    const name = m[0].slice(0, -2);
    rest = rest.slice(name.length + 1);
    let i = 1;
    while (i < rest.length && rest[i] !== '"') i += rest[i] === '\\' ? 2 : 1;
    if (i >= rest.length) return '';
    const quoted = rest.slice(0, i + 1);
    rest = rest.slice(i + 1);
    if (name === key) {
      try {
        return unquoteGoString(quoted);
      } catch (e) {
        if (e instanceof GoSyntaxError) return '';
        throw e;
      }
    }
  }
  return '';
}
