// How many values a JSON text makes when it is parsed, counted before it is parsed. A parser builds an object
// for each value whatever the bytes say (`{}` is 2 bytes and a whole object: 90 MB of them took JSON.parse 59 s
// and 3 GB), so bytes alone do not bound what a JSON text costs, as they do not for YAML (nodeLimit.ts). Every
// JSON text osm-krm reads (render state entries, hydrate's journal, template data) is counted here first.
//
// The rule: each object, array, string (a key as well as a value), number and literal counts one. The count is
// a linear scan that keeps nothing, and it does not check syntax: what is not JSON is the parser's to refuse.

/** The text holds more JSON values than `limit`; `offset` is where the one past the limit begins. */
export class JsonValueLimitReached extends Error {
  constructor(
    readonly limit: number,
    readonly offset: number,
  ) {
    super(`more than ${limit} JSON values, at offset ${offset}`);
    this.name = 'JsonValueLimitReached';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A character that starts a value or key of its own (a bracket, a string, a number or a literal). */
function startsValue(c: number): boolean {
  return (
    c === 0x7b || // {
    c === 0x5b || // [
    c === QUOTE ||
    c === 0x2d || // -
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) || // true, false, null (and any other word, which the parser refuses)
    (c >= 0x41 && c <= 0x5a)
  );
}

/** A character that continues a number or a literal. */
function continuesWord(c: number): boolean {
  return (
    c === 0x2b ||
    c === 0x2d ||
    c === 0x2e ||
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0x61 && c <= 0x7a)
  );
}

/** The values of `text` by the rule above; throws JsonValueLimitReached at the one that makes them more than `limit`. */
export function countJsonValues(text: string, limit: number): number {
  let count = 0;
  const n = text.length;
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    if (!startsValue(c)) {
      i++;
      continue;
    }
    if (++count > limit) throw new JsonValueLimitReached(limit, i);
    if (c === QUOTE) {
      i++;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === QUOTE) break;
        i += s === BACKSLASH ? 2 : 1;
      }
      i++;
    } else if (c === 0x7b || c === 0x5b) i++;
    else {
      i++;
      while (i < n && continuesWord(text.charCodeAt(i))) i++;
    }
  }
  return count;
}
