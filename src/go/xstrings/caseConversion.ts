// snakecase, kebabcase and camelcase as sprig 3.3.0 computes them with huandu/xstrings v1.5.0
// (ToSnakeCase, ToKebabCase and ToPascalCase; sprig 3.2.3 called xstrings' older ToCamelCase, which
// kept the case of letters inside words: "fooBar_baz" gave "FoobarBaz"... in 1.3.3 and "FooBarBaz" now).
// The word splitter below follows xstrings' rules: runs of upper-case letters, "alphabet" letters
// (letters that are not CJK ideographs), numbers, punctuation, connectors (space, '-' and '_') and
// anything else; "HTTPServer" splits as HTTP + Server, "Bld4Floor" keeps "bld4" together.
import { goRunes, isLetter, isNumber, isPunct, isSpace, isUpper, toLower, toUpper } from '../unicode/unicode.ts';
import { TextBuilder } from '../internal/textBuilder.ts';

const RUNE_ERROR = 0xfffd;

const isConnector = (r: number) => r === 0x2d || r === 0x5f || isSpace(r);

function isAlphabet(r: number): boolean {
  if (!isLetter(r)) return false;
  if (r < 0x3400) return true;
  if (r >= 0x4e00 && r <= 0x9fcc) return false;
  if (r >= 0x3400 && r <= 0x4d85) return false;
  if (r >= 0x20000 && r <= 0x2b81d) return false;
  return true;
}

const enum Word {
  Invalid,
  Number,
  Upper,
  Alphabet,
  Connector,
  Punct,
  Other,
}

interface Next {
  wt: Word;
  /** The word is runes[start, end); the rest starts at `rest`. */
  start: number;
  end: number;
  rest: number;
}

class Words {
  constructor(private readonly r: Int32Array) {}

  /** xstrings' nextValidRune: skips U+FFFD (Go cannot tell it from invalid UTF-8). */
  private valid(at: number, prev: number): [number, number] {
    let size = 0;
    while (at + size < this.r.length) {
      const c = this.r[at + size]!;
      size++;
      if (c !== RUNE_ERROR) return [c, size];
    }
    return [prev, size];
  }

  next(start: number): Next {
    const n = this.r.length;
    if (start >= n) return { wt: Word.Invalid, start, end: start, rest: start };
    let [r, size] = this.valid(start, RUNE_ERROR);
    let end = start + size;
    let rest = start;
    if (r === RUNE_ERROR) return { wt: Word.Invalid, start, end, rest: end };
    const run = (wt: Word, more: (c: number) => boolean): Next => {
      rest += size;
      while (rest < n) {
        [r, size] = this.valid(rest, r);
        if (!more(r)) break;
        end += size;
        rest += size;
      }
      return { wt, start, end, rest };
    };
    if (isConnector(r)) return run(Word.Connector, isConnector);
    if (isPunct(r)) return run(Word.Punct, isPunct);
    if (isUpper(r)) {
      rest += size;
      if (rest >= n) return { wt: Word.Upper, start, end, rest };
      [r, size] = this.valid(rest, r);
      if (isUpper(r)) {
        let prevSize = size;
        end += size;
        rest += size;
        while (rest < n) {
          [r, size] = this.valid(rest, r);
          if (!isUpper(r)) break;
          prevSize = size;
          end += size;
          rest += size;
        }
        // "HTTPStatus": the S starts the next word.
        if (rest < n && isAlphabet(r)) {
          end -= prevSize;
          rest = end;
        }
      } else if (isAlphabet(r)) {
        end += size;
        rest += size;
        while (rest < n) {
          [r, size] = this.valid(rest, r);
          if (!isAlphabet(r) || isUpper(r)) break;
          end += size;
          rest += size;
        }
      }
      return { wt: Word.Upper, start, end, rest };
    }
    if (isAlphabet(r)) return run(Word.Alphabet, (c) => isAlphabet(c) && !isUpper(c));
    if (isNumber(r)) return run(Word.Number, isNumber);
    return run(Word.Other, (c) => !(isConnector(c) || isAlphabet(c) || isNumber(c) || isPunct(c)));
  }
}

/** xstrings' camelCaseToLowerCase. */
function toLowerWords(s: string, connector: string): string {
  const runes = goRunes(s);
  if (runes.length === 0) return '';
  const words = new Words(runes);
  const out = new TextBuilder();
  const sep = connector.charCodeAt(0);
  // A rune at a time (a word can be the whole text).
  const write = (w: Word, start: number, end: number) => {
    if (w !== Word.Upper && w !== Word.Connector) for (let i = start; i < end; i++) out.push(runes[i]!);
    else {
      for (let i = start; i < end; i++) {
        const c = runes[i]!;
        out.push(isConnector(c) ? sep : isUpper(c) ? toLower(c) : c);
      }
    }
  };
  const sepAfter = (w: Word) => w !== Word.Invalid && w !== Word.Punct && w !== Word.Connector;
  let cur = words.next(0);
  while (cur.rest < runes.length) {
    if (cur.wt !== Word.Connector) write(cur.wt, cur.start, cur.end);
    const prev = cur;
    cur = words.next(cur.rest);
    if (prev.wt === Word.Number) {
      while (cur.wt === Word.Alphabet || cur.wt === Word.Number) {
        write(cur.wt, cur.start, cur.end);
        cur = words.next(cur.rest);
      }
      if (sepAfter(cur.wt)) out.push(sep);
    } else if (prev.wt === Word.Connector) {
      write(prev.wt, prev.start, prev.end);
    } else if (prev.wt !== Word.Punct) {
      if (cur.wt !== Word.Number) {
        if (cur.wt !== Word.Connector && cur.wt !== Word.Punct) out.push(sep);
        continue;
      }
      if (cur.rest >= runes.length) continue;
      const num = cur;
      cur = words.next(cur.rest);
      if (cur.wt !== Word.Alphabet) {
        // A number ends the previous word ("Bld4Floor" -> "bld4_floor").
        write(Word.Number, num.start, num.end);
        if (cur.wt !== Word.Connector && cur.wt !== Word.Punct) out.push(sep);
        continue;
      }
      // Lower-case letters after a number start a word with it ("HTTP2xx" -> "http_2xx").
      out.push(sep);
      write(Word.Number, num.start, num.end);
      while (cur.wt === Word.Alphabet || cur.wt === Word.Number) {
        write(cur.wt, cur.start, cur.end);
        cur = words.next(cur.rest);
      }
      if (sepAfter(cur.wt)) out.push(sep);
    }
  }
  write(cur.wt, cur.start, cur.end);
  return out.toString();
}

export const toSnakeCase = (s: string) => toLowerWords(s, '_');
export const toKebabCase = (s: string) => toLowerWords(s, '-');

/** xstrings.ToPascalCase (sprig 3.3.0's camelcase). */
export function toPascalCase(s: string): string {
  const runes = goRunes(s);
  if (runes.length === 0) return '';
  const builder = new TextBuilder();
  const put = (c: number) => builder.push(c);
  let i = 0;
  let r0 = 0;
  let firstUpper = false;
  // Leading connectors are kept.
  while (i < runes.length) {
    r0 = runes[i++]!;
    if (!isConnector(r0)) {
      firstUpper = isUpper(r0);
      r0 = toUpper(r0);
      break;
    }
    put(r0);
  }
  if (i >= runes.length) {
    // xstrings writes the last rune once more here, even when it was a connector already written.
    put(r0);
    return builder.toString();
  }
  while (i < runes.length) {
    const r1 = r0;
    r0 = runes[i++]!;
    if (isConnector(r0) && isConnector(r1)) {
      put(r1);
      continue;
    }
    if (isConnector(r1)) {
      firstUpper = isUpper(r0);
      r0 = toUpper(r0);
    } else {
      if (firstUpper) {
        if (isUpper(r0)) r0 = toLower(r0);
        else firstUpper = false;
      }
      put(r1);
    }
  }
  put(r0);
  return builder.toString();
}
