// The lexer of github.com/BurntSushi/toml v1.6.0 (what OSM's fromToml parses with), as a state machine
// with the same states, items, line numbers and error texts. Go's lexer is lazy (the parser pulls items);
// this one runs ahead and stops at its first error, which is the same as long as the parser handles
// the items in order: the parser stops at an error item, or at an earlier item it rejects itself.
import { goQuote, goQuoteRune } from '../strconv/format.ts';
import { lazyRegExp } from '../internal/lazyRegExp.ts';

export type TomlItemType =
  | 'error'
  | 'eof'
  | 'text'
  | 'string'
  | 'stringEsc'
  | 'rawString'
  | 'multilineString'
  | 'rawMultilineString'
  | 'bool'
  | 'integer'
  | 'float'
  | 'datetime'
  | 'array'
  | 'arrayEnd'
  | 'tableStart'
  | 'tableEnd'
  | 'arrayTableStart'
  | 'arrayTableEnd'
  | 'keyStart'
  | 'keyEnd'
  | 'commentStart'
  | 'inlineTableStart'
  | 'inlineTableEnd';

export interface TomlItem {
  readonly typ: TomlItemType;
  readonly val: string;
  /** Line of the lexer when the item was emitted (Go's Position.Line). */
  readonly line: number;
}

type State = ((lx: Lexer) => State) | null;

const EOF = 0;

/** Thrown after an error item: nothing the lexer does afterwards reaches the parser. */
class Stop extends Error {}

const isWhitespace = (r: number) => r === 0x09 || r === 0x20;
const isNL = (r: number) => r === 0x0a || r === 0x0d;
const isControl = (r: number) => r !== 0x09 && r !== 0x0a && r !== 0x0d && (r <= 0x1f || r === 0x7f);
const isDigit = (r: number) => r >= 0x30 && r <= 0x39;
const isBinary = (r: number) => r === 0x30 || r === 0x31;
const isOctal = (r: number) => r >= 0x30 && r <= 0x37;
export const isHex = (r: number) => isDigit(r) || ((r | 0x20) >= 0x61 && (r | 0x20) <= 0x66);
const isBareKeyChar = (r: number) =>
  (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a) || isDigit(r) || r === 0x5f || r === 0x2d;
const LETTER = lazyRegExp('^\\p{L}$', 'u');
const isLetter = (r: number) =>
  r < 0x80 ? (r | 0x20) >= 0x61 && (r | 0x20) <= 0x7a : LETTER.test(String.fromCodePoint(r));
const hex2 = (n: number) => n.toString(16).padStart(2, '0');

class Lexer {
  readonly items: TomlItem[] = [];
  start = 0;
  pos = 0;
  line = 1;
  private widths: number[] = [];
  atEOF = false;
  esc = false;
  readonly stack: State[] = [];

  constructor(readonly input: string) {}

  push(s: State): void {
    this.stack.push(s);
  }

  pop(): State {
    if (this.stack.length === 0) throw new Error('BUG in lexer: no states to pop');
    return this.stack.pop()!;
  }

  current(): string {
    return this.input.slice(this.start, this.pos);
  }

  emit(typ: TomlItemType): void {
    this.items.push({ typ, val: this.current(), line: this.line });
    this.start = this.pos;
  }

  emitTrim(typ: TomlItemType): void {
    this.items.push({ typ, val: trimSpace(this.current()), line: this.line });
    this.start = this.pos;
  }

  next(): number {
    if (this.pos >= this.input.length) {
      this.atEOF = true;
      return EOF;
    }
    if (this.input.charCodeAt(this.pos) === 0x0a) this.line++;
    const r = this.input.codePointAt(this.pos)!;
    // A raw byte (src/go/reflect/byteString.ts) is invalid UTF-8.
    if (r >= 0xdc80 && r <= 0xdcff) this.fail(`invalid UTF-8 byte: 0x${hex2(r - 0xdc00)}`);
    if (isControl(r) || (r === 0x0d && this.input.charCodeAt(this.pos + 1) !== 0x0a)) {
      this.fail(`TOML files cannot contain control characters: '0x${hex2(r)}'`);
    }
    const w = r > 0xffff ? 2 : 1;
    this.widths.unshift(w);
    if (this.widths.length > 4) this.widths.length = 4;
    this.pos += w;
    return r;
  }

  ignore(): void {
    this.start = this.pos;
  }

  backup(): void {
    if (this.atEOF) {
      this.atEOF = false;
      return;
    }
    const w = this.widths.shift();
    if (w === undefined) throw new Error('BUG in lexer: backed up too far');
    this.pos -= w;
    if (this.input.charCodeAt(this.pos) === 0x0a) this.line--;
  }

  accept(valid: number): boolean {
    if (this.next() === valid) return true;
    this.backup();
    return false;
  }

  peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  skip(pred: (r: number) => boolean): void {
    for (;;) {
      if (pred(this.next())) continue;
      this.backup();
      this.ignore();
      return;
    }
  }

  private stop(line: number, msg: string): never {
    this.items.push({ typ: 'error', val: msg, line });
    throw new Stop();
  }

  /** Go's lx.error: at EOF it reports on the previous line. */
  fail(msg: string): never {
    return this.stop(this.atEOF ? this.line - 1 : this.line, msg);
  }

  failPrevLine(msg: string): never {
    return this.stop(this.line - 1, msg);
  }

  /** Go's lx.errorf: at EOF only a preceding newline moves it to the previous line. */
  failf(msg: string): never {
    if (this.atEOF && this.pos >= 1 && this.input.charCodeAt(this.pos - 1) === 0x0a)
      return this.stop(this.line - 1, msg);
    return this.stop(this.line, msg);
  }
}

const q = goQuoteRune;
const runeOrEOF = (r: number) => (r === EOF ? 'end of file' : `'${String.fromCodePoint(r)}'`);

function lexTop(lx: Lexer): State {
  const r = lx.next();
  if (isWhitespace(r) || isNL(r)) return skipTo(lx, lexTop);
  switch (r) {
    case 0x23: // #
      lx.push(lexTop);
      return lexCommentStart;
    case 0x5b: // [
      return lexTableStart;
    case EOF:
      if (lx.pos > lx.start) lx.failf('unexpected EOF');
      lx.emit('eof');
      return null;
  }
  lx.backup();
  lx.push(lexTopEnd);
  return lexKeyStart;
}

function lexTopEnd(lx: Lexer): State {
  const r = lx.next();
  if (r === 0x23) {
    lx.push(lexTop);
    return lexCommentStart;
  }
  if (isWhitespace(r)) return lexTopEnd;
  if (isNL(r)) {
    lx.ignore();
    return lexTop;
  }
  if (r === EOF) {
    lx.emit('eof');
    return null;
  }
  return lx.failf(`expected a top-level item to end with a newline, comment, or EOF, but got ${q(r)} instead`);
}

function lexTableStart(lx: Lexer): State {
  if (lx.peek() === 0x5b) {
    lx.next();
    lx.emit('arrayTableStart');
    lx.push(lexArrayTableEnd);
  } else {
    lx.emit('tableStart');
    lx.push(lexTableEnd);
  }
  return lexTableNameStart;
}

function lexTableEnd(lx: Lexer): State {
  lx.emit('tableEnd');
  return lexTopEnd;
}

function lexArrayTableEnd(lx: Lexer): State {
  const r = lx.next();
  if (r !== 0x5d) lx.failf(`expected end of table array name delimiter ']', but got ${q(r)} instead`);
  lx.emit('arrayTableEnd');
  return lexTopEnd;
}

function lexTableNameStart(lx: Lexer): State {
  lx.skip(isWhitespace);
  const r = lx.peek();
  if (r === 0x5d || r === EOF) return lx.failf('unexpected end of table name (table names cannot be empty)');
  if (r === 0x2e) return lx.failf('unexpected table separator (table names cannot be empty)');
  if (r === 0x22 || r === 0x27) {
    lx.ignore();
    lx.push(lexTableNameEnd);
    return lexQuotedName;
  }
  lx.push(lexTableNameEnd);
  return lexBareName;
}

function lexTableNameEnd(lx: Lexer): State {
  lx.skip(isWhitespace);
  const r = lx.next();
  if (r === 0x2e) {
    lx.ignore();
    return lexTableNameStart;
  }
  if (r === 0x5d) return lx.pop();
  return lx.failf(`expected '.' or ']' to end table name, but got ${q(r)} instead`);
}

function lexBareName(lx: Lexer): State {
  if (isBareKeyChar(lx.next())) return lexBareName;
  lx.backup();
  lx.emit('text');
  return lx.pop();
}

function lexQuotedName(lx: Lexer): State {
  const r = lx.next();
  if (r === 0x22) {
    lx.ignore();
    return lexString;
  }
  if (r === 0x27) {
    lx.ignore();
    return lexRawString;
  }
  if (isWhitespace(r)) return skipTo(lx, lexValue);
  if (r === EOF) return lx.failf('unexpected EOF; expected value');
  return lx.failf(`expected value but found ${q(r)} instead`);
}

function lexKeyStart(lx: Lexer): State {
  lx.skip(isWhitespace);
  const r = lx.peek();
  if (r === 0x3d || r === EOF) return lx.failf("unexpected '=': key name appears blank");
  if (r === 0x2e) return lx.failf("unexpected '.': keys cannot start with a '.'");
  if (r === 0x22 || r === 0x27) lx.ignore();
  lx.emit('keyStart');
  return lexKeyNameStart;
}

function lexKeyNameStart(lx: Lexer): State {
  lx.skip(isWhitespace);
  const r = lx.peek();
  if (r === 0x22 || r === 0x27) {
    lx.ignore();
    lx.push(lexKeyEnd);
    return lexQuotedName;
  }
  if (r === 0x3d || r === EOF) return lx.failf("unexpected '='");
  if (r === 0x2e) return lx.failf("unexpected '.'");
  lx.push(lexKeyEnd);
  return lexBareName;
}

function lexKeyEnd(lx: Lexer): State {
  lx.skip(isWhitespace);
  const r = lx.next();
  if (isWhitespace(r)) return skipTo(lx, lexKeyEnd);
  if (r === EOF) return lx.failf("unexpected EOF; expected key separator '='");
  if (r === 0x2e) {
    lx.ignore();
    return lexKeyNameStart;
  }
  if (r === 0x3d) {
    lx.emit('keyEnd');
    return skipTo(lx, lexValue);
  }
  if (r === 0x0a) return lx.failPrevLine(`expected '.' or '=', but got ${q(r)} instead`);
  return lx.failf(`expected '.' or '=', but got ${q(r)} instead`);
}

function lexValue(lx: Lexer): State {
  const r = lx.next();
  if (isWhitespace(r)) return skipTo(lx, lexValue);
  if (isDigit(r)) {
    lx.backup();
    return lexNumberOrDateStart;
  }
  switch (r) {
    case 0x5b: // [
      lx.ignore();
      lx.emit('array');
      return lexArrayValue;
    case 0x7b: // {
      lx.ignore();
      lx.emit('inlineTableStart');
      return lexInlineTableValue;
    case 0x22: // "
      if (lx.accept(0x22)) {
        if (lx.accept(0x22)) {
          lx.ignore();
          return lexMultilineString;
        }
        lx.backup();
      }
      lx.ignore();
      return lexString;
    case 0x27: // '
      if (lx.accept(0x27)) {
        if (lx.accept(0x27)) {
          lx.ignore();
          return lexMultilineRawString;
        }
        lx.backup();
      }
      lx.ignore();
      return lexRawString;
    case 0x2e:
      return lx.failf("floats must start with a digit, not '.'");
    case 0x69:
    case 0x6e: // i, n
      if ((lx.accept(0x6e) && lx.accept(0x66)) || (lx.accept(0x61) && lx.accept(0x6e))) {
        lx.emit('float');
        return lx.pop();
      }
      break;
    case 0x2d:
    case 0x2b:
      return lexDecimalNumberStart;
  }
  if (isLetter(r)) {
    lx.backup();
    return lexBool;
  }
  if (r === EOF) return lx.failf('unexpected EOF; expected value');
  if (r === 0x0a) return lx.failPrevLine(`expected value but found ${q(r)} instead`);
  return lx.failf(`expected value but found ${q(r)} instead`);
}

function lexArrayValue(lx: Lexer): State {
  const r = lx.next();
  if (isWhitespace(r) || isNL(r)) return skipTo(lx, lexArrayValue);
  if (r === 0x23) {
    lx.push(lexArrayValue);
    return lexCommentStart;
  }
  if (r === 0x2c) return lx.failf('unexpected comma');
  if (r === 0x5d) return lexArrayEnd;
  lx.backup();
  lx.push(lexArrayValueEnd);
  return lexValue;
}

function lexArrayValueEnd(lx: Lexer): State {
  const r = lx.next();
  if (isWhitespace(r) || isNL(r)) return skipTo(lx, lexArrayValueEnd);
  if (r === 0x23) {
    lx.push(lexArrayValueEnd);
    return lexCommentStart;
  }
  if (r === 0x2c) {
    lx.ignore();
    return lexArrayValue;
  }
  if (r === 0x5d) return lexArrayEnd;
  return lx.failf(`expected a comma (',') or array terminator (']'), but got ${runeOrEOF(r)}`);
}

function lexArrayEnd(lx: Lexer): State {
  lx.ignore();
  lx.emit('arrayEnd');
  return lx.pop();
}

function lexInlineTableValue(lx: Lexer): State {
  const r = lx.next();
  if (isWhitespace(r) || isNL(r)) return skipTo(lx, lexInlineTableValue);
  if (r === 0x23) {
    lx.push(lexInlineTableValue);
    return lexCommentStart;
  }
  if (r === 0x2c) return lx.failf('unexpected comma');
  if (r === 0x7d) return lexInlineTableEnd;
  lx.backup();
  lx.push(lexInlineTableValueEnd);
  return lexKeyStart;
}

function lexInlineTableValueEnd(lx: Lexer): State {
  const r = lx.next();
  if (isWhitespace(r) || isNL(r)) return skipTo(lx, lexInlineTableValueEnd);
  if (r === 0x23) {
    lx.push(lexInlineTableValueEnd);
    return lexCommentStart;
  }
  if (r === 0x2c) {
    lx.ignore();
    lx.skip(isWhitespace);
    // TOML 1.1: a trailing comma.
    if (lx.peek() === 0x7d) return lexInlineTableValueEnd;
    return lexInlineTableValue;
  }
  if (r === 0x7d) return lexInlineTableEnd;
  return lx.failf(`expected a comma or an inline table terminator '}', but got ${runeOrEOF(r)} instead`);
}

function lexInlineTableEnd(lx: Lexer): State {
  lx.ignore();
  lx.emit('inlineTableEnd');
  return lx.pop();
}

function lexString(lx: Lexer): State {
  const r = lx.next();
  if (r === EOF) return lx.failf(`unexpected EOF; expected '"'`);
  if (isNL(r)) return lx.failPrevLine('strings cannot contain newlines');
  if (r === 0x5c) {
    lx.push(lexString);
    return lexStringEscape;
  }
  if (r === 0x22) {
    lx.backup();
    lx.emit(lx.esc ? 'stringEsc' : 'string');
    lx.esc = false;
    lx.next();
    lx.ignore();
    return lx.pop();
  }
  return lexString;
}

function lexMultilineString(lx: Lexer): State {
  const r = lx.next();
  if (r === EOF) return lx.failf(`unexpected EOF; expected '"""'`);
  if (r === 0x5c) return lexMultilineStringEscape;
  if (r === 0x22 && lx.accept(0x22)) {
    if (lx.accept(0x22)) {
      // Up to two more quotes belong to the string; six in a row are an error.
      if (lx.peek() === 0x22) {
        const cur = lx.current();
        if (cur.endsWith('"""""') && !cur.endsWith('\\"""""')) return lx.failf(`unexpected '""""""'`);
        lx.backup();
        lx.backup();
        return lexMultilineString;
      }
      lx.backup();
      lx.backup();
      lx.backup();
      lx.esc = false;
      lx.emit('multilineString');
      lx.next();
      lx.next();
      lx.next();
      lx.ignore();
      return lx.pop();
    }
    lx.backup();
  }
  return lexMultilineString;
}

function lexRawString(lx: Lexer): State {
  const r = lx.next();
  if (r === EOF) return lx.failf(`unexpected EOF; expected "'"`);
  if (isNL(r)) return lx.failPrevLine('strings cannot contain newlines');
  if (r === 0x27) {
    lx.backup();
    lx.emit('rawString');
    lx.next();
    lx.ignore();
    return lx.pop();
  }
  return lexRawString;
}

function lexMultilineRawString(lx: Lexer): State {
  const r = lx.next();
  if (r === EOF) return lx.failf(`unexpected EOF; expected "'''"`);
  if (r === 0x27 && lx.accept(0x27)) {
    if (lx.accept(0x27)) {
      if (lx.peek() === 0x27) {
        if (lx.current().endsWith("'''''")) return lx.failf(`unexpected "''''''"`);
        lx.backup();
        lx.backup();
        return lexMultilineRawString;
      }
      lx.backup();
      lx.backup();
      lx.backup();
      lx.emit('rawMultilineString');
      lx.next();
      lx.next();
      lx.next();
      lx.ignore();
      return lx.pop();
    }
    lx.backup();
  }
  return lexMultilineRawString;
}

function lexMultilineStringEscape(lx: Lexer): State {
  // A backslash before a newline continues the line.
  if (isNL(lx.next())) return lexMultilineString;
  lx.backup();
  lx.push(lexMultilineString);
  return lexStringEscape(lx);
}

function lexStringEscape(lx: Lexer): State {
  lx.esc = true;
  const r = lx.next();
  switch (r) {
    case 0x65:
    case 0x62:
    case 0x74:
    case 0x6e:
    case 0x66:
    case 0x72:
    case 0x22:
    case 0x20:
    case 0x09:
    case 0x5c:
      return lx.pop();
    case 0x78:
      return hexEscape(2, 'two', 'x');
    case 0x75:
      return hexEscape(4, 'four', 'u');
    case 0x55:
      return hexEscape(8, 'eight', 'U');
  }
  return lx.fail(`invalid escape in string '\\${String.fromCodePoint(r)}'`);
}

function hexEscape(n: number, count: string, letter: string): State {
  return (lx: Lexer) => {
    for (let i = 0; i < n; i++) {
      if (!isHex(lx.next()))
        lx.failf(`expected ${count} hexadecimal digits after '\\${letter}', but got ${goQuote(lx.current())} instead`);
    }
    return lx.pop();
  };
}

function lexNumberOrDateStart(lx: Lexer): State {
  return lx.next() === 0x30 ? lexBaseNumberOrDate : lexNumberOrDate;
}

function lexNumberOrDate(lx: Lexer): State {
  const r = lx.next();
  if (isDigit(r)) return lexNumberOrDate;
  switch (r) {
    case 0x2d:
    case 0x3a:
      return lexDatetime;
    case 0x5f:
      return lexDecimalNumber;
    case 0x2e:
    case 0x65:
    case 0x45:
      return lexFloat;
  }
  lx.backup();
  lx.emit('integer');
  return lx.pop();
}

const DATETIME_CHARS = new Set([0x2d, 0x3a, 0x54, 0x74, 0x20, 0x2e, 0x5a, 0x7a, 0x2b]);

function lexDatetime(lx: Lexer): State {
  const r = lx.next();
  if (isDigit(r) || DATETIME_CHARS.has(r)) return lexDatetime;
  lx.backup();
  lx.emitTrim('datetime');
  return lx.pop();
}

function integerLexer(isDigitOfBase: (r: number) => boolean): (lx: Lexer) => State {
  const self = (lx: Lexer): State => {
    const r = lx.next();
    if (isDigitOfBase(r) || r === 0x5f) return self;
    lx.backup();
    lx.emit('integer');
    return lx.pop();
  };
  return self;
}

const lexHexInteger = integerLexer(isHex);
const lexOctalInteger = integerLexer(isOctal);
const lexBinaryInteger = integerLexer(isBinary);

function lexDecimalNumber(lx: Lexer): State {
  const r = lx.next();
  if (isDigit(r) || r === 0x5f) return lexDecimalNumber;
  if (r === 0x2e || r === 0x65 || r === 0x45) return lexFloat;
  lx.backup();
  lx.emit('integer');
  return lx.pop();
}

function lexDecimalNumberStart(lx: Lexer): State {
  const r = lx.next();
  switch (r) {
    case 0x69: // i
      if (!lx.accept(0x6e) || !lx.accept(0x66)) lx.failf(`invalid float: '${lx.current()}'`);
      lx.emit('float');
      return lx.pop();
    case 0x6e: // n
      if (!lx.accept(0x61) || !lx.accept(0x6e)) lx.failf(`invalid float: '${lx.current()}'`);
      lx.emit('float');
      return lx.pop();
    case 0x30: {
      const p = lx.peek();
      if (p === 0x62 || p === 0x6f || p === 0x78)
        lx.failf(`cannot use sign with non-decimal numbers: '${lx.current()}${String.fromCodePoint(p)}'`);
      break;
    }
    case 0x2e:
      return lx.failf("floats must start with a digit, not '.'");
  }
  if (isDigit(r)) return lexDecimalNumber;
  return lx.failf(`expected a digit but got ${q(r)}`);
}

function lexBaseNumberOrDate(lx: Lexer): State {
  const r = lx.next();
  if (isDigit(r)) return lexNumberOrDate;
  const base = (name: string, ok: (r: number) => boolean, next: State): State => {
    const p = lx.peek();
    if (!ok(p)) lx.failf(`not ${name} number: '${lx.current()}${String.fromCodePoint(p)}'`);
    return next;
  };
  switch (r) {
    case 0x5f:
      return lexDecimalNumber;
    case 0x2e:
    case 0x65:
    case 0x45:
      return lexFloat;
    case 0x62:
      return base('a binary', isBinary, lexBinaryInteger);
    case 0x6f:
      return base('an octal', isOctal, lexOctalInteger);
    case 0x78:
      return base('a hexadecimal', isHex, lexHexInteger);
  }
  lx.backup();
  lx.emit('integer');
  return lx.pop();
}

function lexFloat(lx: Lexer): State {
  const r = lx.next();
  if (isDigit(r) || r === 0x5f || r === 0x2e || r === 0x2d || r === 0x2b || r === 0x65 || r === 0x45) return lexFloat;
  lx.backup();
  lx.emit('float');
  return lx.pop();
}

function lexBool(lx: Lexer): State {
  let word = '';
  for (;;) {
    const r = lx.next();
    if (!isLetter(r)) {
      lx.backup();
      break;
    }
    word += String.fromCodePoint(r);
  }
  if (word === 'true' || word === 'false') {
    lx.emit('bool');
    return lx.pop();
  }
  return lx.failf(`expected value but found ${goQuote(word)} instead`);
}

function lexCommentStart(lx: Lexer): State {
  lx.ignore();
  lx.emit('commentStart');
  return lexComment;
}

function lexComment(lx: Lexer): State {
  const r = lx.next();
  if (isNL(r) || r === EOF) {
    lx.backup();
    lx.emit('text');
    return lx.pop();
  }
  return lexComment;
}

function skipTo(lx: Lexer, next: State): State {
  lx.ignore();
  return next;
}

/** The items of a TOML document, ending with an 'eof' or an 'error' item. */
export function lexToml(input: string): TomlItem[] {
  const lx = new Lexer(input);
  let state: State = lexTop;
  try {
    while (state !== null) state = state(lx);
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
  return lx.items;
}

/** strings.TrimSpace for the lexer's items (a loop: a regular expression for the trailing run is quadratic). */
function trimSpace(s: string): string {
  const space = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0x85 || c === 0xa0;
  let a = 0;
  let z = s.length;
  while (a < z && space(s.charCodeAt(a))) a++;
  while (z > a && space(s.charCodeAt(z - 1))) z--;
  return s.slice(a, z);
}
