// Lexer for Go's text/template language, shaped like Go's parse/lex.go state machine so that items,
// positions, trim markers and error texts come out exactly as Go's do. Positions are UTF-16 indices into
// the JS string (errors convert them to Go's byte columns); lines count '\n' like Go.
import { goQuote, isGoPrintable } from '../go/strconv/format.ts';
import { lazyRegExp } from '../go/internal/lazyRegExp.ts';
import type { Meter } from '../go/internal/meter.ts';

export type ItemType =
  | 'error'
  | 'bool'
  | 'char'
  | 'charConstant'
  | 'complex'
  | 'assign'
  | 'declare'
  | 'eof'
  | 'field'
  | 'identifier'
  | 'leftDelim'
  | 'leftParen'
  | 'number'
  | 'pipe'
  | 'rawString'
  | 'rightDelim'
  | 'rightParen'
  | 'space'
  | 'string'
  | 'text'
  | 'variable'
  // Keywords (Go prints these as <word> in errors).
  | 'block'
  | 'break'
  | 'continue'
  | 'dot'
  | 'define'
  | 'else'
  | 'end'
  | 'if'
  | 'nil'
  | 'range'
  | 'template'
  | 'with';

export interface Item {
  readonly type: ItemType;
  readonly pos: number;
  readonly val: string;
  readonly line: number;
}

const KEYWORDS: ReadonlyMap<string, ItemType> = new Map<string, ItemType>([
  ['.', 'dot'],
  ['block', 'block'],
  ['break', 'break'],
  ['continue', 'continue'],
  ['define', 'define'],
  ['else', 'else'],
  ['end', 'end'],
  ['if', 'if'],
  ['range', 'range'],
  ['nil', 'nil'],
  ['template', 'template'],
  ['with', 'with'],
]);

const KEYWORD_TYPES = new Set<ItemType>(KEYWORDS.values());

export function isKeyword(t: ItemType): boolean {
  return KEYWORD_TYPES.has(t);
}

/** Go's item.String(), used in "unexpected X in Y" parse errors. */
export function itemString(it: Item): string {
  if (it.type === 'eof') return 'EOF';
  if (it.type === 'error') return it.val;
  if (isKeyword(it.type)) return `<${it.val}>`;
  const runes = [...it.val];
  if (runes.length > 10) return goQuote(runes.slice(0, 10).join('')) + '...';
  return goQuote(it.val);
}

/** The item after the lexer has stopped: Go's zero item (an error with no text). */
export const ZERO_ITEM: Item = Object.freeze({ type: 'error', pos: 0, val: '', line: 0 });

const EOF = -1;
const LEFT_DELIM = '{{';
const RIGHT_DELIM = '}}';
const LEFT_COMMENT = '/*';
const RIGHT_COMMENT = '*/';
const TRIM_MARKER_LEN = 2; // marker plus the space before or after it

type StateFn = ((l: Lexer) => StateFn) | null;

const isSpace = (r: number) => r === 0x20 || r === 0x09 || r === 0x0d || r === 0x0a;
const LETTER_OR_DIGIT = lazyRegExp('^[\\p{L}\\p{Nd}]$', 'u');
function isAlphaNumeric(r: number): boolean {
  if (r === 0x5f) return true;
  if (r < 0) return false;
  if (r < 0x80) return (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(r));
}
const isSpaceChar = (s: string, i: number) => i < s.length && isSpace(s.charCodeAt(i));
const hasLeftTrimMarker = (s: string, i: number) => s.charCodeAt(i) === 0x2d && isSpaceChar(s, i + 1);
const hasRightTrimMarker = (s: string, i: number) => isSpaceChar(s, i) && s.charCodeAt(i + 1) === 0x2d;

/** Go's %#U: U+0021 '!' (the quoted form only for printable runes). */
export function goUnicodeRune(cp: number): string {
  const hex = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  return isGoPrintable(cp) ? `${hex} '${String.fromCodePoint(cp)}'` : hex;
}

class Lexer {
  readonly items: Item[] = [];
  pos = 0;
  start = 0;
  atEOF = false;
  parenDepth = 0;
  line = 1;
  startLine = 1;

  constructor(
    readonly input: string,
    readonly breakOK: boolean,
    readonly continueOK: boolean,
    /** Charged for each item, before it is made (the parse tree built from it costs in proportion). */
    readonly meter: Meter,
  ) {}

  next(): number {
    if (this.pos >= this.input.length) {
      this.atEOF = true;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos)!;
    this.pos += r > 0xffff ? 2 : 1;
    if (r === 0x0a) this.line++;
    // A raw byte (src/go/reflect/byteString.ts) reads as utf8.RuneError.
    return r >= 0xdc80 && r <= 0xdcff ? 0xfffd : r;
  }

  peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  backup(): void {
    if (!this.atEOF && this.pos > 0) {
      const lo = this.input.charCodeAt(this.pos - 1);
      const pair =
        lo >= 0xdc00 && lo <= 0xdfff && this.pos > 1 && (this.input.charCodeAt(this.pos - 2) & 0xfc00) === 0xd800;
      this.pos -= pair ? 2 : 1;
      if (lo === 0x0a) this.line--;
    }
  }

  emit(t: ItemType): void {
    this.meter.build(ITEM_BYTES);
    this.meter.spend(ITEM_UNITS);
    if (LITERALS.has(t)) {
      // The parser converts a literal (unquotes it, reads it as a number) and keeps a string's value.
      const length = this.pos - this.start;
      this.meter.spend(LITERAL_UNITS_PER_CHAR * length);
      if (t === 'string' || t === 'rawString') this.meter.build(length);
    }
    this.items.push({ type: t, pos: this.start, val: this.input.slice(this.start, this.pos), line: this.startLine });
    this.start = this.pos;
    this.startLine = this.line;
  }

  ignore(): void {
    // Skipped text (a comment, trimmed spaces) costs what an item does to find, though nothing is made.
    this.meter.spend(ITEM_UNITS);
    this.line += countNewlines(this.input, this.start, this.pos);
    this.start = this.pos;
    this.startLine = this.line;
  }

  // The valid sets are ASCII.
  accept(valid: string): boolean {
    const r = this.next();
    if (r >= 0 && r < 0x80 && valid.includes(String.fromCharCode(r))) return true;
    this.backup();
    return false;
  }

  acceptRun(valid: string): void {
    for (;;) {
      const r = this.next();
      if (r < 0 || r >= 0x80 || !valid.includes(String.fromCharCode(r))) break;
    }
    this.backup();
  }

  errorf(message: string): StateFn {
    this.items.push({ type: 'error', pos: this.start, val: message, line: this.startLine });
    return null;
  }

  atRightDelim(): { delim: boolean; trimSpaces: boolean } {
    if (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(RIGHT_DELIM, this.pos + TRIM_MARKER_LEN)) {
      return { delim: true, trimSpaces: true };
    }
    if (this.input.startsWith(RIGHT_DELIM, this.pos)) return { delim: true, trimSpaces: false };
    return { delim: false, trimSpaces: false };
  }

  /** Whether the input is at a character that may follow an identifier (so `.X.Y` splits, `$x+2` does not). */
  atTerminator(): boolean {
    const r = this.peek();
    if (isSpace(r)) return true;
    switch (r) {
      case EOF:
      case 0x2e:
      case 0x2c:
      case 0x7c:
      case 0x3a:
      case 0x29:
      case 0x28:
        return true;
    }
    return this.input.startsWith(RIGHT_DELIM, this.pos);
  }

  scanNumber(): boolean {
    this.accept('+-');
    let digits = '0123456789_';
    if (this.accept('0')) {
      // A leading 0 does not mean octal in floats.
      if (this.accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (this.accept('oO')) digits = '01234567_';
      else if (this.accept('bB')) digits = '01_';
    }
    this.acceptRun(digits);
    if (this.accept('.')) this.acceptRun(digits);
    if (digits.length === 11 && this.accept('eE')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    if (digits.length === 23 && this.accept('pP')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    this.accept('i');
    if (isAlphaNumeric(this.peek())) {
      this.next();
      return false;
    }
    return true;
  }
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 0x0a) n++;
  return n;
}

function rightTrimLength(s: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(s.charCodeAt(i - 1))) i--;
  return to - i;
}

function leftTrimLength(s: string, from: number): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i - from;
}

// ---- state functions ----

function lexText(l: Lexer): StateFn {
  const x = l.input.indexOf(LEFT_DELIM, l.pos);
  if (x >= 0) {
    l.pos = x;
    const trimLength = hasLeftTrimMarker(l.input, l.pos + LEFT_DELIM.length)
      ? rightTrimLength(l.input, l.start, l.pos)
      : 0;
    l.pos -= trimLength;
    if (l.pos > l.start) {
      l.line += countNewlines(l.input, l.start, l.pos);
      l.emit('text');
    }
    l.pos += trimLength;
    l.ignore();
    return lexLeftDelim;
  }
  l.pos = l.input.length;
  if (l.pos > l.start) {
    l.line += countNewlines(l.input, l.start, l.pos);
    l.emit('text');
  }
  l.emit('eof');
  return null;
}

function lexLeftDelim(l: Lexer): StateFn {
  l.pos += LEFT_DELIM.length;
  const trimSpace = hasLeftTrimMarker(l.input, l.pos);
  const afterMarker = trimSpace ? TRIM_MARKER_LEN : 0;
  if (l.input.startsWith(LEFT_COMMENT, l.pos + afterMarker)) {
    l.pos += afterMarker;
    l.ignore();
    return lexComment;
  }
  l.emit('leftDelim');
  l.pos += afterMarker;
  l.ignore();
  l.parenDepth = 0;
  return lexInsideAction;
}

// Comments are dropped, as Go does when not asked to keep them.
function lexComment(l: Lexer): StateFn {
  l.pos += LEFT_COMMENT.length;
  const i = l.input.indexOf(RIGHT_COMMENT, l.pos);
  if (i < 0) return l.errorf('unclosed comment');
  l.pos = i + RIGHT_COMMENT.length;
  const { delim, trimSpaces } = l.atRightDelim();
  if (!delim) return l.errorf('comment ends before closing delimiter');
  if (trimSpaces) l.pos += TRIM_MARKER_LEN;
  l.pos += RIGHT_DELIM.length;
  if (trimSpaces) l.pos += leftTrimLength(l.input, l.pos);
  l.ignore();
  return lexText;
}

function lexRightDelim(l: Lexer): StateFn {
  const trimSpace = hasRightTrimMarker(l.input, l.pos);
  if (trimSpace) {
    l.pos += TRIM_MARKER_LEN;
    l.ignore();
  }
  l.pos += RIGHT_DELIM.length;
  l.emit('rightDelim');
  if (trimSpace) {
    l.pos += leftTrimLength(l.input, l.pos);
    l.ignore();
  }
  return lexText;
}

function lexInsideAction(l: Lexer): StateFn {
  const { delim } = l.atRightDelim();
  if (delim) {
    if (l.parenDepth === 0) return lexRightDelim;
    return l.errorf('unclosed left paren');
  }
  const r = l.next();
  if (r === EOF) return l.errorf('unclosed action');
  if (isSpace(r)) {
    l.backup(); // Put the space back in case it starts " -}}".
    return lexSpace;
  }
  switch (r) {
    case 0x3d: // =
      l.emit('assign');
      return lexInsideAction;
    case 0x3a: // :
      if (l.next() !== 0x3d) return l.errorf('expected :=');
      l.emit('declare');
      return lexInsideAction;
    case 0x7c: // |
      l.emit('pipe');
      return lexInsideAction;
    case 0x22: // "
      return lexQuote;
    case 0x60: // `
      return lexRawQuote;
    case 0x24: // $
      return lexVariable;
    case 0x27: // '
      return lexChar;
    case 0x2e: {
      // .
      // Look ahead for ".field" so backup stays simple; a digit makes it a number.
      if (l.pos < l.input.length) {
        const c = l.input.charCodeAt(l.pos);
        if (c < 0x30 || c > 0x39) return lexField;
      }
      l.backup();
      return lexNumber;
    }
    case 0x28: // (
      l.emit('leftParen');
      l.parenDepth++;
      return lexInsideAction;
    case 0x29: // )
      l.emit('rightParen');
      l.parenDepth--;
      if (l.parenDepth < 0) return l.errorf(`unexpected right paren ${goUnicodeRune(r)}`);
      return lexInsideAction;
  }
  if (r === 0x2b || r === 0x2d || (r >= 0x30 && r <= 0x39)) {
    l.backup();
    return lexNumber;
  }
  if (isAlphaNumeric(r)) {
    l.backup();
    return lexIdentifier;
  }
  if (r <= 0x7f && isGoPrintable(r)) {
    l.emit('char');
    return lexInsideAction;
  }
  return l.errorf(`unrecognized character in action: ${goUnicodeRune(r)}`);
}

function lexSpace(l: Lexer): StateFn {
  let numSpaces = 0;
  while (isSpace(l.peek())) {
    l.next();
    numSpaces++;
  }
  // A trim-marked right delimiter starts with a space: leave that space to it.
  if (hasRightTrimMarker(l.input, l.pos - 1) && l.input.startsWith(RIGHT_DELIM, l.pos - 1 + TRIM_MARKER_LEN)) {
    l.backup();
    if (numSpaces === 1) return lexRightDelim;
  }
  l.emit('space');
  return lexInsideAction;
}

function lexIdentifier(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (isAlphaNumeric(r)) continue;
    l.backup();
    const word = l.input.slice(l.start, l.pos);
    if (!l.atTerminator()) return l.errorf(`bad character ${goUnicodeRune(r)}`);
    const key = KEYWORDS.get(word);
    if (key !== undefined && key !== 'dot') {
      if ((key === 'break' && !l.breakOK) || (key === 'continue' && !l.continueOK)) l.emit('identifier');
      else l.emit(key);
    } else if (word[0] === '.') l.emit('field');
    else if (word === 'true' || word === 'false') l.emit('bool');
    else l.emit('identifier');
    return lexInsideAction;
  }
}

function lexField(l: Lexer): StateFn {
  return lexFieldOrVariable(l, 'field');
}

function lexVariable(l: Lexer): StateFn {
  if (l.atTerminator()) {
    l.emit('variable');
    return lexInsideAction;
  }
  return lexFieldOrVariable(l, 'variable');
}

function lexFieldOrVariable(l: Lexer, typ: 'field' | 'variable'): StateFn {
  if (l.atTerminator()) {
    l.emit(typ === 'variable' ? 'variable' : 'dot');
    return lexInsideAction;
  }
  let r: number;
  for (;;) {
    r = l.next();
    if (!isAlphaNumeric(r)) {
      l.backup();
      break;
    }
  }
  if (!l.atTerminator()) return l.errorf(`bad character ${goUnicodeRune(r)}`);
  l.emit(typ);
  return lexInsideAction;
}

function lexChar(l: Lexer): StateFn {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 0x0a) continue;
      return l.errorf('unterminated character constant');
    }
    if (r === EOF || r === 0x0a) return l.errorf('unterminated character constant');
    if (r === 0x27) break;
  }
  l.emit('charConstant');
  return lexInsideAction;
}

// Like Go's, not a perfect number scanner: what it wrongly accepts the parser (via strconv) rejects.
function lexNumber(l: Lexer): StateFn {
  if (!l.scanNumber()) return l.errorf(`bad number syntax: ${goQuote(l.input.slice(l.start, l.pos))}`);
  const sign = l.peek();
  if (sign === 0x2b || sign === 0x2d) {
    // Complex: 1+2i. No spaces, must end in 'i'.
    if (!l.scanNumber() || l.input.charCodeAt(l.pos - 1) !== 0x69) {
      return l.errorf(`bad number syntax: ${goQuote(l.input.slice(l.start, l.pos))}`);
    }
    l.emit('complex');
  } else l.emit('number');
  return lexInsideAction;
}

function lexQuote(l: Lexer): StateFn {
  for (;;) {
    let r = l.next();
    if (r === 0x5c) {
      r = l.next();
      if (r !== EOF && r !== 0x0a) continue;
      return l.errorf('unterminated quoted string');
    }
    if (r === EOF || r === 0x0a) return l.errorf('unterminated quoted string');
    if (r === 0x22) break;
  }
  l.emit('string');
  return lexInsideAction;
}

function lexRawQuote(l: Lexer): StateFn {
  for (;;) {
    const r = l.next();
    if (r === EOF) return l.errorf('unterminated raw quoted string');
    if (r === 0x60) break;
  }
  l.emit('rawString');
  return lexInsideAction;
}

/**
 * Lexes the whole input. The item list ends with an EOF or an error item, as Go's channel does before it
 * closes; `breakOK`/`continueOK` are false when a function of that name shadows the keyword.
 */
/**
 * Memory of one item and the parse nodes made from it, and the work of lexing and parsing it (measured with the
 * meter's calibration: a number or field action is a few microseconds to parse).
 */
export const ITEM_BYTES = 256;
export const ITEM_UNITS = 2048;
/**
 * Work per character of a literal the parser converts: reading a long number (strconv's port, BigInt) or
 * unquoting escapes took up to 200 ns a character (test/robustness/templateLiteralCost.test.ts).
 */
export const LITERAL_UNITS_PER_CHAR = 32;
const LITERALS: ReadonlySet<ItemType> = new Set(['string', 'rawString', 'number', 'complex', 'charConstant']);

export function lex(input: string, breakOK: boolean, continueOK: boolean, meter: Meter): Item[] {
  meter.spend(input.length);
  const l = new Lexer(input, breakOK, continueOK, meter);
  for (let state: StateFn = lexText; state !== null;) state = state(l);
  return l.items;
}
