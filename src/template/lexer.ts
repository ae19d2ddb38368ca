// Lexer for Go's text/template language: turns template text into typed items with byte positions,
// following Go's rules for delimiters, trim markers ("{{- " and " -}}"), comments and action tokens.

export type ItemType =
  | 'error' | 'eof' | 'text' | 'leftDelim' | 'rightDelim' | 'space' | 'comment'
  | 'bool' | 'char' | 'charConstant' | 'number' | 'string' | 'rawString'
  | 'identifier' | 'field' | 'variable' | 'dot' | 'nil' | 'pipe' | 'leftParen' | 'rightParen'
  | 'declare' | 'assign' | 'keyword';

export interface Item {
  type: ItemType;
  val: string;
  pos: number;
  line: number;
}

export const KEYWORDS = new Set(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'nil', 'template', 'with']);

const LEFT = '{{';
const RIGHT = '}}';
const LEFT_COMMENT = '/*';
const RIGHT_COMMENT = '*/';

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isAlphaNumeric = (c: string) => c === '_' || /^[\p{L}\p{Nd}]$/u.test(c);

/** Lexes the whole input eagerly; the parser reads the items in order. */
export function lex(input: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let start = 0;
  let line = 1;
  let startLine = 1;
  let parenDepth = 0;

  const emit = (type: ItemType, val = input.slice(start, pos)) => {
    items.push({ type, val, pos: start, line: startLine });
    start = pos;
    startLine = line;
  };
  const ignore = () => {
    line += count(input.slice(start, pos), '\n');
    start = pos;
    startLine = line;
  };
  const errorf = (msg: string) => {
    items.push({ type: 'error', val: msg, pos: start, line: startLine });
  };
  const advance = (n: number) => {
    for (let i = 0; i < n; i++) if (input[pos + i] === '\n') line++;
    pos += n;
  };
  const atTrimRight = (p: number) => isSpace(input[p] ?? '') && input.startsWith('-' + RIGHT, p + 1);

  // Returns false when lexing must stop (error or EOF).
  const lexText = (): boolean => {
    const x = input.indexOf(LEFT, pos);
    if (x < 0) {
      advance(input.length - pos);
      if (pos > start) {
        // Text items keep their own start line.
        items.push({ type: 'text', val: input.slice(start, pos), pos: start, line: startLine });
        startLine = line;
        start = pos;
      }
      items.push({ type: 'eof', val: '', pos, line });
      return false;
    }
    let textEnd = x;
    advance(x - pos);
    const trimLeft = input[x + 2] === '-' && isSpace(input[x + 3] ?? '');
    if (trimLeft) textEnd = x - trailingSpaceLength(input.slice(start, x));
    if (textEnd > start) {
      items.push({ type: 'text', val: input.slice(start, textEnd), pos: start, line: startLine });
    }
    start = pos;
    startLine = line;
    return lexLeftDelim(trimLeft);
  };

  const lexLeftDelim = (trimLeft: boolean): boolean => {
    advance(LEFT.length);
    const afterMarker = trimLeft ? 2 : 0;
    if (input.startsWith(LEFT_COMMENT, pos + afterMarker)) {
      advance(afterMarker);
      start = pos;
      startLine = line;
      return lexComment();
    }
    emit('leftDelim', input.slice(start, pos));
    advance(afterMarker);
    ignore();
    parenDepth = 0;
    return lexInsideAction();
  };

  const lexComment = (): boolean => {
    advance(LEFT_COMMENT.length);
    const x = input.indexOf(RIGHT_COMMENT, pos);
    if (x < 0) {
      errorf('unclosed comment');
      return false;
    }
    advance(x + RIGHT_COMMENT.length - pos);
    const delimTrim = atTrimRight(pos);
    if (!delimTrim && !input.startsWith(RIGHT, pos)) {
      errorf('comment ends before closing delimiter');
      return false;
    }
    // Go drops comments in the lexer unless asked to keep them; so do we.
    ignore();
    if (delimTrim) advance(2);
    advance(RIGHT.length);
    if (delimTrim) advance(leadingSpaceLength(input.slice(pos)));
    ignore();
    return true;
  };

  const lexRightDelim = (trimRight: boolean): boolean => {
    if (trimRight) {
      advance(2); // space and '-'
      ignore();
    }
    advance(RIGHT.length);
    emit('rightDelim');
    if (trimRight) {
      advance(leadingSpaceLength(input.slice(pos)));
      ignore();
    }
    return true;
  };

  const lexInsideAction = (): boolean => {
    for (;;) {
      const delimTrim = atTrimRight(pos);
      if (delimTrim || input.startsWith(RIGHT, pos)) {
        if (parenDepth === 0) return lexRightDelim(delimTrim);
        errorf('unclosed left paren');
        return false;
      }
      if (pos >= input.length) {
        errorf('unclosed action');
        return false;
      }
      const r = input[pos]!;
      if (r === '\n' || r === '\r') {
        // Go 1.16+: newlines are allowed inside actions; they are spaces.
        lexSpace();
        continue;
      }
      if (isSpace(r)) {
        lexSpace();
        continue;
      }
      if (r === '=') {
        advance(1);
        emit('assign');
        continue;
      }
      if (r === ':') {
        if (input[pos + 1] !== '=') {
          advance(1);
          errorf('expected :=');
          return false;
        }
        advance(2);
        emit('declare');
        continue;
      }
      if (r === '|') {
        advance(1);
        emit('pipe');
        continue;
      }
      if (r === '"') {
        if (!lexQuote()) return false;
        continue;
      }
      if (r === '`') {
        if (!lexRawQuote()) return false;
        continue;
      }
      if (r === '$') {
        advance(1);
        lexVariableOrField('variable');
        continue;
      }
      if (r === "'") {
        if (!lexChar()) return false;
        continue;
      }
      if (r === '.') {
        const next = input[pos + 1] ?? '';
        if (next < '0' || next > '9') {
          advance(1);
          lexVariableOrField('field');
          continue;
        }
      }
      if (r === '+' || r === '-' || r === '.' || (r >= '0' && r <= '9')) {
        if (!lexNumber()) return false;
        continue;
      }
      if (isAlphaNumeric(r)) {
        lexIdentifier();
        continue;
      }
      if (r === '(') {
        advance(1);
        emit('leftParen');
        parenDepth++;
        continue;
      }
      if (r === ')') {
        advance(1);
        emit('rightParen');
        parenDepth--;
        if (parenDepth < 0) {
          errorf('unexpected right paren');
          return false;
        }
        continue;
      }
      if (r.charCodeAt(0) <= 0x7f && /[\x21-\x7e]/.test(r)) {
        advance(1);
        emit('char');
        continue;
      }
      const cp = input.codePointAt(pos)!;
      errorf(`unrecognized character in action: ${goUnicodeRune(cp)}`);
      return false;
    }
  };

  const lexSpace = () => {
    let n = 0;
    while (pos + n < input.length && isSpace(input[pos + n]!)) {
      // Stop before a trim marker so " -}}" is seen as one unit.
      if (atTrimRight(pos + n)) break;
      n++;
    }
    advance(n);
    emit('space');
  };

  const lexIdentifier = () => {
    while (pos < input.length && isAlphaNumeric(input[pos]!)) advance(1);
    const word = input.slice(start, pos);
    if (KEYWORDS.has(word)) emit(word === 'nil' ? 'nil' : 'keyword');
    else if (word === 'true' || word === 'false') emit('bool');
    else emit('identifier');
  };

  const lexVariableOrField = (type: 'variable' | 'field') => {
    if (atTerminator()) {
      if (type === 'variable') emit('variable');
      else emit('dot');
      return;
    }
    while (pos < input.length && isAlphaNumeric(input[pos]!)) advance(1);
    if (!atTerminator()) {
      errorf(`bad character ${goUnicodeRune(input.codePointAt(pos) ?? 0)}`);
      emitErrorAndStop = true;
      return;
    }
    emit(type);
  };

  let emitErrorAndStop = false;

  const atTerminator = (): boolean => {
    const r = input[pos] ?? '';
    if (r === '' || isSpace(r)) return true;
    if ('.,|:)('.includes(r)) return true;
    return input.startsWith(RIGHT, pos);
  };

  const lexChar = (): boolean => {
    advance(1);
    for (;;) {
      const r = input[pos];
      if (r === '\\') {
        advance(1);
        if (input[pos] !== undefined && input[pos] !== '\n') {
          advance(1);
          continue;
        }
      }
      if (r === undefined || r === '\n') {
        errorf('unterminated character constant');
        return false;
      }
      advance(1);
      if (r === "'") break;
    }
    emit('charConstant');
    return true;
  };

  const lexNumber = (): boolean => {
    if (!scanNumber()) {
      errorf(`bad number syntax: ${JSON.stringify(input.slice(start, pos))}`.replace(/^bad number syntax: "(.*)"$/, 'bad number syntax: "$1"'));
      return false;
    }
    const s = input[pos];
    if (s === '+' || s === '-') {
      // Complex: 1+2i
      if (!scanNumber() || input[pos - 1] !== 'i') {
        errorf(`bad number syntax: "${input.slice(start, pos)}"`);
        return false;
      }
      emit('number');
      return true;
    }
    emit('number');
    return true;
  };

  const scanNumber = (): boolean => {
    const accept = (valid: string) => {
      if (pos < input.length && valid.includes(input[pos]!)) {
        advance(1);
        return true;
      }
      return false;
    };
    const acceptRun = (valid: string) => {
      while (pos < input.length && valid.includes(input[pos]!)) advance(1);
    };
    accept('+-');
    let digits = '0123456789_';
    if (accept('0')) {
      if (accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (accept('oO')) digits = '01234567_';
      else if (accept('bB')) digits = '01_';
    }
    acceptRun(digits);
    if (accept('.')) acceptRun(digits);
    if (digits.length === 11 && accept('eE')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    if (digits.length === 23 && accept('pP')) {
      accept('+-');
      acceptRun('0123456789_');
    }
    accept('i');
    if (pos < input.length && isAlphaNumeric(input[pos]!)) {
      advance(1);
      return false;
    }
    return true;
  };

  const lexQuote = (): boolean => {
    advance(1);
    for (;;) {
      const r = input[pos];
      if (r === '\\') {
        advance(1);
        if (input[pos] !== undefined && input[pos] !== '\n') {
          advance(1);
          continue;
        }
      }
      if (r === undefined || r === '\n') {
        errorf('unterminated quoted string');
        return false;
      }
      advance(1);
      if (r === '"') break;
    }
    emit('string');
    return true;
  };

  const lexRawQuote = (): boolean => {
    advance(1);
    const x = input.indexOf('`', pos);
    if (x < 0) {
      errorf('unterminated raw quoted string');
      return false;
    }
    advance(x + 1 - pos);
    emit('rawString');
    return true;
  };

  while (lexText()) {
    if (items.length > 0 && items[items.length - 1]!.type === 'error') break;
    if (emitErrorAndStop) break;
  }
  return items;
}

function count(s: string, c: string): number {
  let n = 0;
  for (const ch of s) if (ch === c) n++;
  return n;
}

function trailingSpaceLength(s: string): number {
  let i = s.length;
  while (i > 0 && isSpace(s[i - 1]!)) i--;
  return s.length - i;
}

function leadingSpaceLength(s: string): number {
  let i = 0;
  while (i < s.length && isSpace(s[i]!)) i++;
  return i;
}

/** Go's %#U: U+0021 '!' (the quoted form only for printable runes). */
export function goUnicodeRune(cp: number): string {
  const hex = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
  const printable = cp >= 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp < 0xa0);
  return printable ? `${hex} '${String.fromCodePoint(cp)}'` : hex;
}
