// How many values a JSON text makes when it is parsed, counted before it is parsed. A parser builds an object
// for each value whatever the bytes say (`{}` is 2 bytes and a whole object: 90 MB of them took JSON.parse 59 s
// and 3 GB), so bytes alone do not bound what a JSON text costs, as they do not for YAML (nodeLimit.ts). Every
// JSON text osm-krm reads (render state entries, hydrate's journal, template data) is counted here first.
//
// The rule: each object, array, string (a key as well as a value), number and literal counts one. The count is
// a linear scan that keeps nothing, and it does not check syntax: what is not JSON is the parser's to refuse.
// A key longer than V8 hashes by content is refused here too, for every JSON reader.
import { MAX_KEY_LENGTH } from '../go/internal/hashableKey.ts';

/**
 * The text holds more JSON values than `limit`, or (`key`) a key longer than a key may be (hashableKey.ts);
 * `offset` is where that value begins.
 */
export class JsonValueLimitReached extends Error {
  constructor(
    readonly limit: number,
    readonly offset: number,
    readonly of: 'values' | 'key' = 'values',
  ) {
    super(of === 'key' ? `${LONG_KEY}, at offset ${offset}` : `more than ${limit} JSON values, at offset ${offset}`);
    this.name = 'JsonValueLimitReached';
  }
}

/** What a text whose count stopped at a long key holds, for the readers' messages. */
export const LONG_KEY = `a key longer than ${MAX_KEY_LENGTH.toLocaleString('en-US')} characters (longer ones would all share one hash)`;

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

/** Whether a `:` follows offset `i` after blanks: the string before it is a key. */
function isKey(text: string, i: number): boolean {
  let j = i;
  for (let c = text.charCodeAt(j); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++j));
  return text.charCodeAt(j) === 0x3a;
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
      const start = i;
      // The string's length once its escapes are decoded (\uXXXX is one unit, any other escape one).
      let length = 0;
      i++;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === QUOTE) break;
        if (s === BACKSLASH) i += text.charCodeAt(i + 1) === 0x75 ? 6 : 2;
        else i++;
        length++;
      }
      i++;
      if (length > MAX_KEY_LENGTH && isKey(text, i)) throw new JsonValueLimitReached(limit, start, 'key');
    } else if (c === 0x7b || c === 0x5b) i++;
    else {
      i++;
      while (i < n && continuesWord(text.charCodeAt(i))) i++;
    }
  }
  return count;
}
