// gopkg.in/yaml.v3's reader and scanner (its port of libyaml), which OSM's fromYaml and fromYamlArray read
// with: bytes in, tokens out, with the same lookahead, simple-key rules, indentation tokens, comment
// scanning and error problems and marks, so that a document fails where and as yaml.v3 fails. The reader
// decodes the input in 512-byte chunks, as yaml.v3 does; that decides whether a bad byte or an earlier
// syntax error is reported. Marks count characters; the buffer holds the UTF-8 bytes.
// Follows gopkg.in/yaml.v3 v3.0.1 (its latest release, and the differential oracle's).

import type { Meter } from '../internal/meter.ts';

/** Work of walking past one comment to place a block's end (a few property reads and a mark copied). */
const BLOCK_END_COMMENT_UNITS = 64;

/** yaml.v3's reader: #x9 | #xA | #xD | [#x20-#x7E] | #x85 | [#xA0-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]. */
export function isAllowedChar(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

export interface Mark {
  index: number;
  line: number;
  column: number;
}

export const enum Tok {
  StreamStart,
  StreamEnd,
  VersionDirective,
  TagDirective,
  DocumentStart,
  DocumentEnd,
  BlockSequenceStart,
  BlockMappingStart,
  BlockEnd,
  FlowSequenceStart,
  FlowSequenceEnd,
  FlowMappingStart,
  FlowMappingEnd,
  BlockEntry,
  FlowEntry,
  Key,
  Value,
  Alias,
  Anchor,
  Tag,
  Scalar,
}

export const enum ScalarStyle {
  Any,
  Plain,
  SingleQuoted,
  DoubleQuoted,
  Literal,
  Folded,
}

export interface Token {
  typ: Tok;
  start: Mark;
  end: Mark;
  /** Scalar value, anchor or alias name, tag handle, %TAG handle. */
  value?: number[];
  /** Tag suffix. */
  suffix?: number[];
  /** %TAG prefix. */
  prefix?: number[];
  style?: ScalarStyle;
  major?: number;
  minor?: number;
}

export const enum ErrorKind {
  None,
  Reader,
  Scanner,
  Parser,
}

/** yaml.v3's error state: what went wrong and where. */
export interface YamlErrorState {
  kind: ErrorKind;
  problem: string;
  problemMark: Mark;
  context: string;
  contextMark: Mark;
}

interface SimpleKey {
  possible: boolean;
  required: boolean;
  tokenNumber: number;
  mark: Mark;
}

interface Comment {
  scanMark: Mark;
  tokenMark: Mark;
  startMark: Mark;
  endMark: Mark;
  head: number[];
  line: number[];
  foot: number[];
}

const RAW_CHUNK = 512;
const MAX_FLOW_LEVEL = 10000;
const MAX_INDENTS = 10000;

const zeroMark = (): Mark => ({ index: 0, line: 0, column: 0 });
const copyMark = (m: Mark): Mark => ({ index: m.index, line: m.line, column: m.column });

const enum Enc {
  Any,
  Utf8,
  Utf16le,
  Utf16be,
}

/** The UTF-8 length of a sequence from its lead byte (0 for an invalid lead byte). */
function width(b: number): number {
  if ((b & 0x80) === 0) return 1;
  if ((b & 0xe0) === 0xc0) return 2;
  if ((b & 0xf0) === 0xe0) return 3;
  if ((b & 0xf8) === 0xf0) return 4;
  return 0;
}

export class Scanner {
  readonly err: YamlErrorState = {
    kind: ErrorKind.None,
    problem: '',
    problemMark: zeroMark(),
    context: '',
    contextMark: zeroMark(),
  };

  // ---- reader ----
  private inputPos = 0;
  private winStart = 0;
  private rawPos = 0;
  private rawEnd = 0;
  private eof = false;
  private encoding = Enc.Any;
  private offset = 0;

  // ---- decoded buffer ----
  private buf = new Uint8Array(1024);
  private bufLen = 0;
  private pos = 0;
  private unread = 0;

  // ---- scanner ----
  mark: Mark = zeroMark();
  private streamStartProduced = false;
  streamEndProduced = false;
  private flowLevel = 0;
  readonly tokens: Token[] = [];
  tokensHead = 0;
  tokensParsed = 0;
  tokenAvailable = false;
  private indent = 0;
  private readonly indents: number[] = [];
  private simpleKeyAllowed = false;
  private readonly simpleKeys: SimpleKey[] = [];
  private readonly simpleKeysByTok = new Map<number, number>();
  private newlines = 0;
  private readonly comments: Comment[] = [];

  constructor(
    private readonly input: Uint8Array,
    private readonly meter: Meter,
  ) {}

  // ================================================================ reader

  private readerError(problem: string, offset: number, value: number): false {
    this.err.kind = ErrorKind.Reader;
    this.err.problem = problem;
    void offset;
    void value;
    return false;
  }

  private updateRaw(): boolean {
    if (this.rawPos === this.winStart && this.rawEnd - this.winStart === RAW_CHUNK) return true;
    if (this.eof) return true;
    this.winStart = this.rawPos;
    const room = RAW_CHUNK - (this.rawEnd - this.winStart);
    if (this.inputPos === this.input.length) {
      this.eof = true;
      return true;
    }
    const n = Math.min(room, this.input.length - this.inputPos);
    this.inputPos += n;
    this.rawEnd += n;
    return true;
  }

  private determineEncoding(): boolean {
    while (!this.eof && this.rawEnd - this.rawPos < 3) if (!this.updateRaw()) return false;
    const b = this.input;
    const p = this.rawPos;
    const avail = this.rawEnd - p;
    if (avail >= 2 && b[p] === 0xff && b[p + 1] === 0xfe) {
      this.encoding = Enc.Utf16le;
      this.rawPos += 2;
      this.offset += 2;
    } else if (avail >= 2 && b[p] === 0xfe && b[p + 1] === 0xff) {
      this.encoding = Enc.Utf16be;
      this.rawPos += 2;
      this.offset += 2;
    } else if (avail >= 3 && b[p] === 0xef && b[p + 1] === 0xbb && b[p + 2] === 0xbf) {
      this.encoding = Enc.Utf8;
      this.rawPos += 3;
      this.offset += 3;
    } else {
      this.encoding = Enc.Utf8;
    }
    return true;
  }

  private append(byte: number): void {
    if (this.bufLen === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.bufLen++] = byte;
  }

  /** yaml_parser_update_buffer: at least `length` characters decoded ahead of the position. */
  private updateBuffer(length: number): boolean {
    if (this.unread >= length) return true;
    if (this.encoding === Enc.Any && !this.determineEncoding()) return false;
    let first = true;
    while (this.unread < length) {
      if ((!first || this.rawPos === this.rawEnd) && !this.updateRaw()) return false;
      first = false;
      const raw = this.input;
      inner: while (this.rawPos !== this.rawEnd) {
        let value: number;
        let w: number;
        const unread = this.rawEnd - this.rawPos;
        if (this.encoding === Enc.Utf8) {
          const octet = raw[this.rawPos]!;
          w = width(octet);
          if (w === 0) return this.readerError('invalid leading UTF-8 octet', this.offset, octet);
          if (w > unread) {
            if (this.eof) return this.readerError('incomplete UTF-8 octet sequence', this.offset, -1);
            break inner;
          }
          value = w === 1 ? octet & 0x7f : w === 2 ? octet & 0x1f : w === 3 ? octet & 0x0f : octet & 0x07;
          for (let k = 1; k < w; k++) {
            const o = raw[this.rawPos + k]!;
            if ((o & 0xc0) !== 0x80) return this.readerError('invalid trailing UTF-8 octet', this.offset + k, o);
            value = (value << 6) + (o & 0x3f);
          }
          if (!(
            w === 1 ||
            (w === 2 && value >= 0x80) ||
            (w === 3 && value >= 0x800) ||
            (w === 4 && value >= 0x10000)
          )) {
            return this.readerError('invalid length of a UTF-8 sequence', this.offset, -1);
          }
          if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff)
            return this.readerError('invalid Unicode character', this.offset, value);
        } else {
          const [lo, hi] = this.encoding === Enc.Utf16le ? [0, 1] : [1, 0];
          if (unread < 2) {
            if (this.eof) return this.readerError('incomplete UTF-16 character', this.offset, -1);
            break inner;
          }
          value = raw[this.rawPos + lo]! + (raw[this.rawPos + hi]! << 8);
          if ((value & 0xfc00) === 0xdc00) return this.readerError('unexpected low surrogate area', this.offset, value);
          if ((value & 0xfc00) === 0xd800) {
            w = 4;
            if (unread < 4) {
              if (this.eof) return this.readerError('incomplete UTF-16 surrogate pair', this.offset, -1);
              break inner;
            }
            const value2 = raw[this.rawPos + lo + 2]! + (raw[this.rawPos + hi + 2]! << 8);
            if ((value2 & 0xfc00) !== 0xdc00)
              return this.readerError('expected low surrogate area', this.offset + 2, value2);
            value = 0x10000 + ((value & 0x3ff) << 10) + (value2 & 0x3ff);
          } else w = 2;
        }
        if (!isAllowedChar(value)) return this.readerError('control characters are not allowed', this.offset, value);
        this.rawPos += w;
        this.offset += w;
        if (value <= 0x7f) this.append(value);
        else if (value <= 0x7ff) {
          this.append(0xc0 + (value >> 6));
          this.append(0x80 + (value & 0x3f));
        } else if (value <= 0xffff) {
          this.append(0xe0 + (value >> 12));
          this.append(0x80 + ((value >> 6) & 0x3f));
          this.append(0x80 + (value & 0x3f));
        } else {
          this.append(0xf0 + (value >> 18));
          this.append(0x80 + ((value >> 12) & 0x3f));
          this.append(0x80 + ((value >> 6) & 0x3f));
          this.append(0x80 + (value & 0x3f));
        }
        this.unread++;
      }
      if (this.eof) {
        this.append(0);
        this.unread++;
        break;
      }
    }
    return true;
  }

  private cache(length: number): boolean {
    return this.unread >= length || this.updateBuffer(length);
  }

  // ================================================================ character classes

  /** The byte at the position plus i. */
  private b(i = 0): number {
    return this.buf[this.pos + i] ?? 0;
  }

  private isAlpha(i = 0): boolean {
    const c = this.b(i);
    return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
  }

  private isDigit(i = 0): boolean {
    const c = this.b(i);
    return c >= 0x30 && c <= 0x39;
  }

  private isHex(i = 0): boolean {
    const c = this.b(i);
    return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
  }

  private asHex(i = 0): number {
    const c = this.b(i);
    if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
    if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
    return c - 0x30;
  }

  private isZ(i = 0): boolean {
    return this.b(i) === 0;
  }

  private isBOM(): boolean {
    return this.b(0) === 0xef && this.b(1) === 0xbb && this.b(2) === 0xbf;
  }

  private isSpace(i = 0): boolean {
    return this.b(i) === 0x20;
  }

  private isTab(i = 0): boolean {
    return this.b(i) === 0x09;
  }

  private isBlank(i = 0): boolean {
    return this.b(i) === 0x20 || this.b(i) === 0x09;
  }

  private isBreak(i = 0): boolean {
    const c = this.b(i);
    return (
      c === 0x0d ||
      c === 0x0a ||
      (c === 0xc2 && this.b(i + 1) === 0x85) ||
      (c === 0xe2 && this.b(i + 1) === 0x80 && (this.b(i + 2) === 0xa8 || this.b(i + 2) === 0xa9))
    );
  }

  private isCRLF(i = 0): boolean {
    return this.b(i) === 0x0d && this.b(i + 1) === 0x0a;
  }

  private isBreakZ(i = 0): boolean {
    return this.isBreak(i) || this.isZ(i);
  }

  private isBlankZ(i = 0): boolean {
    return this.isBlank(i) || this.isBreakZ(i);
  }

  // ================================================================ moving

  private skip(): void {
    if (!this.isBlank()) this.newlines = 0;
    this.mark.index++;
    this.mark.column++;
    this.unread--;
    this.pos += width(this.b());
  }

  private skipLine(): void {
    if (this.isCRLF()) {
      this.mark.index += 2;
      this.mark.column = 0;
      this.mark.line++;
      this.unread -= 2;
      this.pos += 2;
      this.newlines++;
    } else if (this.isBreak()) {
      this.mark.index++;
      this.mark.column = 0;
      this.mark.line++;
      this.unread--;
      this.pos += width(this.b());
      this.newlines++;
    }
  }

  private read(s: number[]): void {
    if (!this.isBlank()) this.newlines = 0;
    const w = width(this.b());
    if (w === 0) throw new Error('invalid character sequence');
    for (let k = 0; k < w; k++) s.push(this.b(k));
    this.pos += w;
    this.mark.index++;
    this.mark.column++;
    this.unread--;
  }

  private readLine(s: number[]): void {
    const c = this.b();
    if (c === 0x0d && this.b(1) === 0x0a) {
      s.push(0x0a);
      this.pos += 2;
      this.mark.index++;
      this.unread--;
    } else if (c === 0x0d || c === 0x0a) {
      s.push(0x0a);
      this.pos += 1;
    } else if (c === 0xc2 && this.b(1) === 0x85) {
      s.push(0x0a);
      this.pos += 2;
    } else if (c === 0xe2 && this.b(1) === 0x80 && (this.b(2) === 0xa8 || this.b(2) === 0xa9)) {
      s.push(c, this.b(1), this.b(2));
      this.pos += 3;
    } else return;
    this.mark.index++;
    this.mark.column = 0;
    this.mark.line++;
    this.unread--;
    this.newlines++;
  }

  // ================================================================ errors

  private scannerError(context: string, contextMark: Mark, problem: string): false {
    this.err.kind = ErrorKind.Scanner;
    this.err.context = context;
    this.err.contextMark = copyMark(contextMark);
    this.err.problem = problem;
    this.err.problemMark = copyMark(this.mark);
    return false;
  }

  private tagError(directive: boolean, contextMark: Mark, problem: string): false {
    return this.scannerError(
      directive ? 'while parsing a %TAG directive' : 'while parsing a tag',
      contextMark,
      problem,
    );
  }

  // ================================================================ token queue

  private insertToken(pos: number, token: Token): void {
    if (pos < 0) this.tokens.push(token);
    else this.tokens.splice(this.tokensHead + pos, 0, token);
  }

  /** yaml_parser_fetch_more_tokens: a token for the parser, with two tokens of lookahead. */
  fetchMoreTokens(): boolean {
    for (;;) {
      if (this.tokensHead < this.tokens.length - 2) {
        const headIdx = this.simpleKeysByTok.get(this.tokensParsed);
        if (headIdx === undefined) break;
        const v = this.simpleKeyIsValid(this.simpleKeys[headIdx]!);
        if (!v.ok) return false;
        if (!v.valid) break;
      }
      if (!this.fetchNextToken()) return false;
    }
    this.tokenAvailable = true;
    return true;
  }

  private fetchNextToken(): boolean {
    if (this.unread < 1 && !this.updateBuffer(1)) return false;
    if (!this.streamStartProduced) return this.fetchStreamStart();
    const scanMark = copyMark(this.mark);
    if (!this.scanToNextToken()) return false;
    if (!this.unrollIndent(this.mark.column, scanMark)) return false;
    if (this.unread < 4 && !this.updateBuffer(4)) return false;
    if (this.isZ()) return this.fetchStreamEnd();
    const c = this.b();
    if (this.mark.column === 0 && c === 0x25) return this.fetchDirective();
    if (this.mark.column === 0 && c === 0x2d && this.b(1) === 0x2d && this.b(2) === 0x2d && this.isBlankZ(3))
      return this.fetchDocumentIndicator(Tok.DocumentStart);
    if (this.mark.column === 0 && c === 0x2e && this.b(1) === 0x2e && this.b(2) === 0x2e && this.isBlankZ(3))
      return this.fetchDocumentIndicator(Tok.DocumentEnd);
    let commentMark = copyMark(this.mark);
    if (this.tokens.length > 0 && ((this.flowLevel === 0 && c === 0x3a) || (this.flowLevel > 0 && c === 0x2c))) {
      commentMark = this.tokens[this.tokens.length - 1]!.start;
    }
    const ok = this.fetchToken(c);
    if (!ok) return false;
    // A line comment after the token (not after a "-").
    if (this.tokens.length > 0 && this.tokens[this.tokens.length - 1]!.typ === Tok.BlockEntry) return true;
    return this.scanLineComment(commentMark);
  }

  private fetchToken(c: number): boolean {
    switch (c) {
      case 0x5b:
        return this.fetchFlowCollectionStart(Tok.FlowSequenceStart);
      case 0x7b:
        return this.fetchFlowCollectionStart(Tok.FlowMappingStart);
      case 0x5d:
        return this.fetchFlowCollectionEnd(Tok.FlowSequenceEnd);
      case 0x7d:
        return this.fetchFlowCollectionEnd(Tok.FlowMappingEnd);
      case 0x2c:
        return this.fetchFlowEntry();
    }
    if (c === 0x2d && this.isBlankZ(1)) return this.fetchBlockEntry();
    if (c === 0x3f && (this.flowLevel > 0 || this.isBlankZ(1))) return this.fetchKey();
    if (c === 0x3a && (this.flowLevel > 0 || this.isBlankZ(1))) return this.fetchValue();
    if (c === 0x2a) return this.fetchAnchor(Tok.Alias);
    if (c === 0x26) return this.fetchAnchor(Tok.Anchor);
    if (c === 0x21) return this.fetchTag();
    if (c === 0x7c && this.flowLevel === 0) return this.fetchBlockScalar(true);
    if (c === 0x3e && this.flowLevel === 0) return this.fetchBlockScalar(false);
    if (c === 0x27) return this.fetchFlowScalar(true);
    if (c === 0x22) return this.fetchFlowScalar(false);
    const indicator = this.isBlankZ() || '-?:,[]{}#&*!|>\'"%@`'.includes(String.fromCharCode(c));
    if (
      !indicator ||
      (c === 0x2d && !this.isBlank(1)) ||
      (this.flowLevel === 0 && (c === 0x3f || c === 0x3a) && !this.isBlankZ(1))
    ) {
      return this.fetchPlainScalar();
    }
    return this.scannerError(
      'while scanning for the next token',
      this.mark,
      'found character that cannot start any token',
    );
  }

  // ================================================================ simple keys, flow levels, indentation

  private simpleKeyIsValid(key: SimpleKey): { valid: boolean; ok: boolean } {
    if (!key.possible) return { valid: false, ok: true };
    if (key.mark.line < this.mark.line || key.mark.index + 1024 < this.mark.index) {
      if (key.required)
        return {
          valid: false,
          ok: this.scannerError('while scanning a simple key', key.mark, "could not find expected ':'"),
        };
      key.possible = false;
      return { valid: false, ok: true };
    }
    return { valid: true, ok: true };
  }

  private saveSimpleKey(): boolean {
    const required = this.flowLevel === 0 && this.indent === this.mark.column;
    if (this.simpleKeyAllowed) {
      const key: SimpleKey = {
        possible: true,
        required,
        tokenNumber: this.tokensParsed + (this.tokens.length - this.tokensHead),
        mark: copyMark(this.mark),
      };
      if (!this.removeSimpleKey()) return false;
      this.simpleKeys[this.simpleKeys.length - 1] = key;
      this.simpleKeysByTok.set(key.tokenNumber, this.simpleKeys.length - 1);
    }
    return true;
  }

  private removeSimpleKey(): boolean {
    const key = this.simpleKeys[this.simpleKeys.length - 1]!;
    if (key.possible) {
      if (key.required)
        return this.scannerError('while scanning a simple key', key.mark, "could not find expected ':'");
      key.possible = false;
      this.simpleKeysByTok.delete(key.tokenNumber);
    }
    return true;
  }

  private increaseFlowLevel(): boolean {
    this.simpleKeys.push({
      possible: false,
      required: false,
      tokenNumber: this.tokensParsed + (this.tokens.length - this.tokensHead),
      mark: copyMark(this.mark),
    });
    this.flowLevel++;
    if (this.flowLevel > MAX_FLOW_LEVEL) {
      return this.scannerError(
        'while increasing flow level',
        this.simpleKeys[this.simpleKeys.length - 1]!.mark,
        `exceeded max depth of ${MAX_FLOW_LEVEL}`,
      );
    }
    return true;
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel > 0) {
      this.flowLevel--;
      const last = this.simpleKeys.pop()!;
      this.simpleKeysByTok.delete(last.tokenNumber);
    }
  }

  private rollIndent(column: number, number: number, typ: Tok, mark: Mark): boolean {
    if (this.flowLevel > 0) return true;
    if (this.indent < column) {
      this.indents.push(this.indent);
      this.indent = column;
      if (this.indents.length > MAX_INDENTS) {
        return this.scannerError(
          'while increasing indent level',
          this.simpleKeys[this.simpleKeys.length - 1]!.mark,
          `exceeded max depth of ${MAX_INDENTS}`,
        );
      }
      const token: Token = { typ, start: copyMark(mark), end: copyMark(mark) };
      this.insertToken(number > -1 ? number - this.tokensParsed : number, token);
    }
    return true;
  }

  private unrollIndent(column: number, scanMark: Mark): boolean {
    if (this.flowLevel > 0) return true;
    let blockMark = copyMark(scanMark);
    blockMark.index--;
    while (this.indent > column) {
      // A block ends at a comment that starts at its indentation.
      let stopIndex = blockMark.index;
      for (let i = this.comments.length - 1; i >= 0; i--) {
        const comment = this.comments[i]!;
        if (comment.endMark.index < stopIndex) break;
        // Every block that ends walks back over the comments after it: depth times comments, not input.
        this.meter.spend(BLOCK_END_COMMENT_UNITS);
        if (comment.startMark.column === this.indent + 1) blockMark = copyMark(comment.startMark);
        stopIndex = comment.scanMark.index;
      }
      this.insertToken(-1, { typ: Tok.BlockEnd, start: copyMark(blockMark), end: copyMark(blockMark) });
      this.indent = this.indents.pop()!;
    }
    return true;
  }

  // ================================================================ fetchers

  private fetchStreamStart(): boolean {
    this.indent = -1;
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: zeroMark() });
    this.simpleKeyAllowed = true;
    this.streamStartProduced = true;
    this.insertToken(-1, { typ: Tok.StreamStart, start: copyMark(this.mark), end: copyMark(this.mark) });
    return true;
  }

  private fetchStreamEnd(): boolean {
    if (this.mark.column !== 0) {
      this.mark.column = 0;
      this.mark.line++;
    }
    if (!this.unrollIndent(-1, this.mark)) return false;
    if (!this.removeSimpleKey()) return false;
    this.simpleKeyAllowed = false;
    this.insertToken(-1, { typ: Tok.StreamEnd, start: copyMark(this.mark), end: copyMark(this.mark) });
    return true;
  }

  private fetchDirective(): boolean {
    if (!this.unrollIndent(-1, this.mark)) return false;
    if (!this.removeSimpleKey()) return false;
    this.simpleKeyAllowed = false;
    const token = this.scanDirective();
    if (token === undefined) return false;
    this.insertToken(-1, token);
    return true;
  }

  private fetchDocumentIndicator(typ: Tok): boolean {
    if (!this.unrollIndent(-1, this.mark)) return false;
    if (!this.removeSimpleKey()) return false;
    this.simpleKeyAllowed = false;
    const start = copyMark(this.mark);
    this.skip();
    this.skip();
    this.skip();
    this.insertToken(-1, { typ, start, end: copyMark(this.mark) });
    return true;
  }

  /** A one-character token. */
  private simpleToken(typ: Tok): void {
    const start = copyMark(this.mark);
    this.skip();
    this.insertToken(-1, { typ, start, end: copyMark(this.mark) });
  }

  private fetchFlowCollectionStart(typ: Tok): boolean {
    if (!this.saveSimpleKey()) return false;
    if (!this.increaseFlowLevel()) return false;
    this.simpleKeyAllowed = true;
    this.simpleToken(typ);
    return true;
  }

  private fetchFlowCollectionEnd(typ: Tok): boolean {
    if (!this.removeSimpleKey()) return false;
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    this.simpleToken(typ);
    return true;
  }

  private fetchFlowEntry(): boolean {
    if (!this.removeSimpleKey()) return false;
    this.simpleKeyAllowed = true;
    this.simpleToken(Tok.FlowEntry);
    return true;
  }

  private fetchBlockEntry(): boolean {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed)
        return this.scannerError('', this.mark, 'block sequence entries are not allowed in this context');
      if (!this.rollIndent(this.mark.column, -1, Tok.BlockSequenceStart, this.mark)) return false;
    }
    if (!this.removeSimpleKey()) return false;
    this.simpleKeyAllowed = true;
    this.simpleToken(Tok.BlockEntry);
    return true;
  }

  private fetchKey(): boolean {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed)
        return this.scannerError('', this.mark, 'mapping keys are not allowed in this context');
      if (!this.rollIndent(this.mark.column, -1, Tok.BlockMappingStart, this.mark)) return false;
    }
    if (!this.removeSimpleKey()) return false;
    this.simpleKeyAllowed = this.flowLevel === 0;
    this.simpleToken(Tok.Key);
    return true;
  }

  private fetchValue(): boolean {
    const key = this.simpleKeys[this.simpleKeys.length - 1]!;
    const v = this.simpleKeyIsValid(key);
    if (!v.ok) return false;
    if (v.valid) {
      // The simple key becomes a KEY token (and may open a block mapping) before its value.
      this.insertToken(key.tokenNumber - this.tokensParsed, {
        typ: Tok.Key,
        start: copyMark(key.mark),
        end: copyMark(key.mark),
      });
      if (!this.rollIndent(key.mark.column, key.tokenNumber, Tok.BlockMappingStart, key.mark)) return false;
      key.possible = false;
      this.simpleKeysByTok.delete(key.tokenNumber);
      this.simpleKeyAllowed = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed)
          return this.scannerError('', this.mark, 'mapping values are not allowed in this context');
        if (!this.rollIndent(this.mark.column, -1, Tok.BlockMappingStart, this.mark)) return false;
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    this.simpleToken(Tok.Value);
    return true;
  }

  private fetchAnchor(typ: Tok): boolean {
    if (!this.saveSimpleKey()) return false;
    this.simpleKeyAllowed = false;
    const token = this.scanAnchor(typ);
    if (token === undefined) return false;
    this.insertToken(-1, token);
    return true;
  }

  private fetchTag(): boolean {
    if (!this.saveSimpleKey()) return false;
    this.simpleKeyAllowed = false;
    const token = this.scanTag();
    if (token === undefined) return false;
    this.insertToken(-1, token);
    return true;
  }

  private fetchBlockScalar(literal: boolean): boolean {
    if (!this.removeSimpleKey()) return false;
    this.simpleKeyAllowed = true;
    const token = this.scanBlockScalar(literal);
    if (token === undefined) return false;
    this.insertToken(-1, token);
    return true;
  }

  private fetchFlowScalar(single: boolean): boolean {
    if (!this.saveSimpleKey()) return false;
    this.simpleKeyAllowed = false;
    const token = this.scanFlowScalar(single);
    if (token === undefined) return false;
    this.insertToken(-1, token);
    return true;
  }

  private fetchPlainScalar(): boolean {
    if (!this.saveSimpleKey()) return false;
    this.simpleKeyAllowed = false;
    const token = this.scanPlainScalar();
    if (token === undefined) return false;
    this.insertToken(-1, token);
    return true;
  }

  // ================================================================ scanners

  private scanToNextToken(): boolean {
    const scanMark = copyMark(this.mark);
    for (;;) {
      if (this.unread < 1 && !this.updateBuffer(1)) return false;
      if (this.mark.column === 0 && this.isBOM()) this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return false;
      while (this.b() === 0x20 || ((this.flowLevel > 0 || !this.simpleKeyAllowed) && this.b() === 0x09)) {
        this.skip();
        if (this.unread < 1 && !this.updateBuffer(1)) return false;
      }
      // A line comment after "- " on a sequence's first line becomes a head comment.
      if (this.comments.length > 0 && this.tokens.length > 1) {
        const a = this.tokens[this.tokens.length - 2]!;
        const bTok = this.tokens[this.tokens.length - 1]!;
        const comment = this.comments[this.comments.length - 1]!;
        if (
          a.typ === Tok.BlockSequenceStart &&
          bTok.typ === Tok.BlockEntry &&
          comment.line.length > 0 &&
          !this.isBreak()
        ) {
          comment.head = comment.line;
          comment.line = [];
          if (comment.startMark.line === this.mark.line - 1) comment.tokenMark = copyMark(this.mark);
        }
      }
      if (this.b() === 0x23 && !this.scanComments(scanMark)) return false;
      if (this.isBreak()) {
        if (this.unread < 2 && !this.updateBuffer(2)) return false;
        this.skipLine();
        if (this.flowLevel === 0) this.simpleKeyAllowed = true;
      } else break;
    }
    return true;
  }

  private scanDirective(): Token | undefined {
    const start = copyMark(this.mark);
    this.skip();
    const name = this.scanDirectiveName(start);
    if (name === undefined) return undefined;
    let token: Token;
    if (name === 'YAML') {
      const v = this.scanVersionDirectiveValue(start);
      if (v === undefined) return undefined;
      token = { typ: Tok.VersionDirective, start, end: copyMark(this.mark), major: v.major, minor: v.minor };
    } else if (name === 'TAG') {
      const v = this.scanTagDirectiveValue(start);
      if (v === undefined) return undefined;
      token = { typ: Tok.TagDirective, start, end: copyMark(this.mark), value: v.handle, prefix: v.prefix };
    } else {
      this.scannerError('while scanning a directive', start, 'found unknown directive name');
      return undefined;
    }
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    while (this.isBlank()) {
      this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    if (this.b() === 0x23) {
      while (!this.isBreakZ()) {
        this.skip();
        if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      }
    }
    if (!this.isBreakZ()) {
      this.scannerError('while scanning a directive', start, 'did not find expected comment or line break');
      return undefined;
    }
    if (this.isBreak()) {
      if (this.unread < 2 && !this.updateBuffer(2)) return undefined;
      this.skipLine();
    }
    return token;
  }

  private scanDirectiveName(start: Mark): string | undefined {
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    const s: number[] = [];
    while (this.isAlpha()) {
      this.read(s);
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    if (s.length === 0) {
      this.scannerError('while scanning a directive', start, 'could not find expected directive name');
      return undefined;
    }
    if (!this.isBlankZ()) {
      this.scannerError('while scanning a directive', start, 'found unexpected non-alphabetical character');
      return undefined;
    }
    return Buffer.from(s).toString('latin1');
  }

  private scanVersionDirectiveValue(start: Mark): { major: number; minor: number } | undefined {
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    while (this.isBlank()) {
      this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    const major = this.scanVersionDirectiveNumber(start);
    if (major === undefined) return undefined;
    if (this.b() !== 0x2e) {
      this.scannerError('while scanning a %YAML directive', start, "did not find expected digit or '.' character");
      return undefined;
    }
    this.skip();
    const minor = this.scanVersionDirectiveNumber(start);
    if (minor === undefined) return undefined;
    return { major, minor };
  }

  private scanVersionDirectiveNumber(start: Mark): number | undefined {
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    let value = 0;
    let length = 0;
    while (this.isDigit()) {
      length++;
      if (length > 2) {
        this.scannerError('while scanning a %YAML directive', start, 'found extremely long version number');
        return undefined;
      }
      value = value * 10 + (this.b() - 0x30);
      this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    if (length === 0) {
      this.scannerError('while scanning a %YAML directive', start, 'did not find expected version number');
      return undefined;
    }
    return value;
  }

  private scanTagDirectiveValue(start: Mark): { handle: number[]; prefix: number[] } | undefined {
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    while (this.isBlank()) {
      this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    const handle = this.scanTagHandle(true, start);
    if (handle === undefined) return undefined;
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    if (!this.isBlank()) {
      this.scannerError('while scanning a %TAG directive', start, 'did not find expected whitespace');
      return undefined;
    }
    while (this.isBlank()) {
      this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    const prefix = this.scanTagUri(true, undefined, start);
    if (prefix === undefined) return undefined;
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    if (!this.isBlankZ()) {
      this.scannerError('while scanning a %TAG directive', start, 'did not find expected whitespace or line break');
      return undefined;
    }
    return { handle, prefix };
  }

  private scanAnchor(typ: Tok): Token | undefined {
    const s: number[] = [];
    const start = copyMark(this.mark);
    this.skip();
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    while (this.isAlpha()) {
      this.read(s);
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    const end = copyMark(this.mark);
    const c = this.b();
    if (
      s.length === 0 ||
      !(
        this.isBlankZ() ||
        c === 0x3f ||
        c === 0x3a ||
        c === 0x2c ||
        c === 0x5d ||
        c === 0x7d ||
        c === 0x25 ||
        c === 0x40 ||
        c === 0x60
      )
    ) {
      this.scannerError(
        typ === Tok.Anchor ? 'while scanning an anchor' : 'while scanning an alias',
        start,
        'did not find expected alphabetic or numeric character',
      );
      return undefined;
    }
    return { typ, start, end, value: s };
  }

  private scanTag(): Token | undefined {
    let handle: number[] = [];
    let suffix: number[] = [];
    const start = copyMark(this.mark);
    if (this.unread < 2 && !this.updateBuffer(2)) return undefined;
    if (this.b(1) === 0x3c) {
      // A verbatim tag: !<...>
      this.skip();
      this.skip();
      const uri = this.scanTagUri(false, undefined, start);
      if (uri === undefined) return undefined;
      suffix = uri;
      if (this.b() !== 0x3e) {
        this.scannerError('while scanning a tag', start, "did not find the expected '>'");
        return undefined;
      }
      this.skip();
    } else {
      const h = this.scanTagHandle(false, start);
      if (h === undefined) return undefined;
      handle = h;
      if (handle[0] === 0x21 && handle.length > 1 && handle[handle.length - 1] === 0x21) {
        const uri = this.scanTagUri(false, undefined, start);
        if (uri === undefined) return undefined;
        suffix = uri;
      } else {
        const uri = this.scanTagUri(false, handle, start);
        if (uri === undefined) return undefined;
        suffix = uri;
        handle = [0x21];
        if (suffix.length === 0) [handle, suffix] = [suffix, handle];
      }
    }
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    if (!this.isBlankZ()) {
      this.scannerError('while scanning a tag', start, 'did not find expected whitespace or line break');
      return undefined;
    }
    return { typ: Tok.Tag, start, end: copyMark(this.mark), value: handle, suffix };
  }

  private scanTagHandle(directive: boolean, start: Mark): number[] | undefined {
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    if (this.b() !== 0x21) {
      this.tagError(directive, start, "did not find expected '!'");
      return undefined;
    }
    const s: number[] = [];
    this.read(s);
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    while (this.isAlpha()) {
      this.read(s);
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    if (this.b() === 0x21) this.read(s);
    else if (directive && !(s.length === 1 && s[0] === 0x21)) {
      this.tagError(directive, start, "did not find expected '!'");
      return undefined;
    }
    return s;
  }

  private scanTagUri(directive: boolean, head: number[] | undefined, start: Mark): number[] | undefined {
    const s: number[] = [];
    let hasTag = head !== undefined && head.length > 0;
    if (head !== undefined && head.length > 1) append(s, head, 1);
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    const uriChar = (c: number) => ";/?:@&=+$,.!~*'()[]%".includes(String.fromCharCode(c));
    while (this.isAlpha() || uriChar(this.b())) {
      if (this.b() === 0x25) {
        if (!this.scanUriEscapes(directive, start, s)) return undefined;
      } else this.read(s);
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      hasTag = true;
    }
    if (!hasTag) {
      this.tagError(directive, start, 'did not find expected tag URI');
      return undefined;
    }
    return s;
  }

  private scanUriEscapes(directive: boolean, start: Mark, s: number[]): boolean {
    let w = 1024;
    while (w > 0) {
      if (this.unread < 3 && !this.updateBuffer(3)) return false;
      if (!(this.b() === 0x25 && this.isHex(1) && this.isHex(2)))
        return this.tagError(directive, start, 'did not find URI escaped octet');
      const octet = (this.asHex(1) << 4) + this.asHex(2);
      if (w === 1024) {
        w = width(octet);
        if (w === 0) return this.tagError(directive, start, 'found an incorrect leading UTF-8 octet');
      } else if ((octet & 0xc0) !== 0x80)
        return this.tagError(directive, start, 'found an incorrect trailing UTF-8 octet');
      s.push(octet);
      this.skip();
      this.skip();
      this.skip();
      w--;
    }
    return true;
  }

  private scanBlockScalar(literal: boolean): Token | undefined {
    const start = copyMark(this.mark);
    this.skip();
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    let chomping = 0;
    let increment = 0;
    const zeroIndicator = () => {
      this.scannerError('while scanning a block scalar', start, 'found an indentation indicator equal to 0');
      return undefined;
    };
    if (this.b() === 0x2b || this.b() === 0x2d) {
      chomping = this.b() === 0x2b ? 1 : -1;
      this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      if (this.isDigit()) {
        if (this.b() === 0x30) return zeroIndicator();
        increment = this.b() - 0x30;
        this.skip();
      }
    } else if (this.isDigit()) {
      if (this.b() === 0x30) return zeroIndicator();
      increment = this.b() - 0x30;
      this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      if (this.b() === 0x2b || this.b() === 0x2d) {
        chomping = this.b() === 0x2b ? 1 : -1;
        this.skip();
      }
    }
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    while (this.isBlank()) {
      this.skip();
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    }
    if (this.b() === 0x23) {
      if (!this.scanLineComment(start)) return undefined;
      while (!this.isBreakZ()) {
        this.skip();
        if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      }
    }
    if (!this.isBreakZ()) {
      this.scannerError('while scanning a block scalar', start, 'did not find expected comment or line break');
      return undefined;
    }
    if (this.isBreak()) {
      if (this.unread < 2 && !this.updateBuffer(2)) return undefined;
      this.skipLine();
    }
    const endMark = { m: copyMark(this.mark) };
    const indent = { n: 0 };
    if (increment > 0) indent.n = this.indent >= 0 ? this.indent + increment : increment;
    const s: number[] = [];
    let leadingBreak: number[] = [];
    let trailingBreaks: number[] = [];
    if (!this.scanBlockScalarBreaks(indent, trailingBreaks, start, endMark)) return undefined;
    if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
    let leadingBlank = false;
    let trailingBlank = false;
    while (this.mark.column === indent.n && !this.isZ()) {
      trailingBlank = this.isBlank();
      // A folded line break becomes a space, unless a blank line or indentation keeps it.
      if (!literal && !leadingBlank && !trailingBlank && leadingBreak.length > 0 && leadingBreak[0] === 0x0a) {
        if (trailingBreaks.length === 0) s.push(0x20);
      } else append(s, leadingBreak);
      leadingBreak = [];
      append(s, trailingBreaks);
      trailingBreaks = [];
      leadingBlank = this.isBlank();
      while (!this.isBreakZ()) {
        this.read(s);
        if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      }
      if (this.unread < 2 && !this.updateBuffer(2)) return undefined;
      this.readLine(leadingBreak);
      if (!this.scanBlockScalarBreaks(indent, trailingBreaks, start, endMark)) return undefined;
    }
    if (chomping !== -1) append(s, leadingBreak);
    if (chomping === 1) append(s, trailingBreaks);
    return {
      typ: Tok.Scalar,
      start,
      end: endMark.m,
      value: s,
      style: literal ? ScalarStyle.Literal : ScalarStyle.Folded,
    };
  }

  private scanBlockScalarBreaks(indent: { n: number }, breaks: number[], start: Mark, endMark: { m: Mark }): boolean {
    endMark.m = copyMark(this.mark);
    let maxIndent = 0;
    for (;;) {
      if (this.unread < 1 && !this.updateBuffer(1)) return false;
      while ((indent.n === 0 || this.mark.column < indent.n) && this.isSpace()) {
        this.skip();
        if (this.unread < 1 && !this.updateBuffer(1)) return false;
      }
      if (this.mark.column > maxIndent) maxIndent = this.mark.column;
      if ((indent.n === 0 || this.mark.column < indent.n) && this.isTab()) {
        return this.scannerError(
          'while scanning a block scalar',
          start,
          'found a tab character where an indentation space is expected',
        );
      }
      if (!this.isBreak()) break;
      if (this.unread < 2 && !this.updateBuffer(2)) return false;
      this.readLine(breaks);
      endMark.m = copyMark(this.mark);
    }
    if (indent.n === 0) {
      indent.n = maxIndent;
      if (indent.n < this.indent + 1) indent.n = this.indent + 1;
      if (indent.n < 1) indent.n = 1;
    }
    return true;
  }

  private scanFlowScalar(single: boolean): Token | undefined {
    const start = copyMark(this.mark);
    this.skip();
    const s: number[] = [];
    let leadingBreak: number[] = [];
    let trailingBreaks: number[] = [];
    let whitespaces: number[] = [];
    for (;;) {
      if (this.unread < 4 && !this.updateBuffer(4)) return undefined;
      if (
        this.mark.column === 0 &&
        ((this.b() === 0x2d && this.b(1) === 0x2d && this.b(2) === 0x2d) ||
          (this.b() === 0x2e && this.b(1) === 0x2e && this.b(2) === 0x2e)) &&
        this.isBlankZ(3)
      ) {
        this.scannerError('while scanning a quoted scalar', start, 'found unexpected document indicator');
        return undefined;
      }
      if (this.isZ()) {
        this.scannerError('while scanning a quoted scalar', start, 'found unexpected end of stream');
        return undefined;
      }
      let leadingBlanks = false;
      while (!this.isBlankZ()) {
        const c = this.b();
        if (single && c === 0x27 && this.b(1) === 0x27) {
          s.push(0x27);
          this.skip();
          this.skip();
        } else if (single && c === 0x27) break;
        else if (!single && c === 0x22) break;
        else if (!single && c === 0x5c && this.isBreak(1)) {
          // An escaped line break.
          if (this.unread < 3 && !this.updateBuffer(3)) return undefined;
          this.skip();
          this.skipLine();
          leadingBlanks = true;
          break;
        } else if (!single && c === 0x5c) {
          let codeLength = 0;
          const e = this.b(1);
          const simple: Record<number, number[]> = {
            0x30: [0],
            0x61: [7],
            0x62: [8],
            0x74: [9],
            0x09: [9],
            0x6e: [10],
            0x76: [11],
            0x66: [12],
            0x72: [13],
            0x65: [0x1b],
            0x20: [0x20],
            0x22: [0x22],
            0x27: [0x27],
            0x5c: [0x5c],
            0x4e: [0xc2, 0x85],
            0x5f: [0xc2, 0xa0],
            0x4c: [0xe2, 0x80, 0xa8],
            0x50: [0xe2, 0x80, 0xa9],
          };
          if (simple[e] !== undefined) append(s, simple[e]!);
          else if (e === 0x78) codeLength = 2;
          else if (e === 0x75) codeLength = 4;
          else if (e === 0x55) codeLength = 8;
          else {
            this.scannerError('while parsing a quoted scalar', start, 'found unknown escape character');
            return undefined;
          }
          this.skip();
          this.skip();
          if (codeLength > 0) {
            if (this.unread < codeLength && !this.updateBuffer(codeLength)) return undefined;
            let value = 0;
            for (let k = 0; k < codeLength; k++) {
              if (!this.isHex(k)) {
                this.scannerError('while parsing a quoted scalar', start, 'did not find expected hexdecimal number');
                return undefined;
              }
              value = value * 16 + this.asHex(k);
            }
            if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
              this.scannerError('while parsing a quoted scalar', start, 'found invalid Unicode character escape code');
              return undefined;
            }
            append(s, Buffer.from(String.fromCodePoint(value), 'utf8'));
            for (let k = 0; k < codeLength; k++) this.skip();
          }
        } else this.read(s);
        if (this.unread < 2 && !this.updateBuffer(2)) return undefined;
      }
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      if (this.b() === (single ? 0x27 : 0x22)) break;
      while (this.isBlank() || this.isBreak()) {
        if (this.isBlank()) {
          if (!leadingBlanks) this.read(whitespaces);
          else this.skip();
        } else {
          if (this.unread < 2 && !this.updateBuffer(2)) return undefined;
          if (!leadingBlanks) {
            whitespaces = [];
            this.readLine(leadingBreak);
            leadingBlanks = true;
          } else this.readLine(trailingBreaks);
        }
        if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      }
      if (leadingBlanks) {
        if (leadingBreak.length > 0 && leadingBreak[0] === 0x0a) {
          if (trailingBreaks.length === 0) s.push(0x20);
          else append(s, trailingBreaks);
        } else {
          append(s, leadingBreak);
          append(s, trailingBreaks);
        }
        trailingBreaks = [];
        leadingBreak = [];
      } else {
        append(s, whitespaces);
        whitespaces = [];
      }
    }
    this.skip();
    return {
      typ: Tok.Scalar,
      start,
      end: copyMark(this.mark),
      value: s,
      style: single ? ScalarStyle.SingleQuoted : ScalarStyle.DoubleQuoted,
    };
  }

  private scanPlainScalar(): Token | undefined {
    const s: number[] = [];
    let leadingBreak: number[] = [];
    let trailingBreaks: number[] = [];
    let whitespaces: number[] = [];
    let leadingBlanks = false;
    const indent = this.indent + 1;
    const start = copyMark(this.mark);
    let end = copyMark(this.mark);
    for (;;) {
      if (this.unread < 4 && !this.updateBuffer(4)) return undefined;
      if (
        this.mark.column === 0 &&
        ((this.b() === 0x2d && this.b(1) === 0x2d && this.b(2) === 0x2d) ||
          (this.b() === 0x2e && this.b(1) === 0x2e && this.b(2) === 0x2e)) &&
        this.isBlankZ(3)
      )
        break;
      if (this.b() === 0x23) break;
      while (!this.isBlankZ()) {
        const c = this.b();
        if (
          (c === 0x3a && this.isBlankZ(1)) ||
          (this.flowLevel > 0 && (c === 0x2c || c === 0x3f || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d))
        )
          break;
        if (leadingBlanks || whitespaces.length > 0) {
          if (leadingBlanks) {
            if (leadingBreak[0] === 0x0a) {
              if (trailingBreaks.length === 0) s.push(0x20);
              else append(s, trailingBreaks);
            } else {
              append(s, leadingBreak);
              append(s, trailingBreaks);
            }
            trailingBreaks = [];
            leadingBreak = [];
            leadingBlanks = false;
          } else {
            append(s, whitespaces);
            whitespaces = [];
          }
        }
        this.read(s);
        end = copyMark(this.mark);
        if (this.unread < 2 && !this.updateBuffer(2)) return undefined;
      }
      if (!(this.isBlank() || this.isBreak())) break;
      if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      while (this.isBlank() || this.isBreak()) {
        if (this.isBlank()) {
          if (leadingBlanks && this.mark.column < indent && this.isTab()) {
            this.scannerError(
              'while scanning a plain scalar',
              start,
              'found a tab character that violates indentation',
            );
            return undefined;
          }
          if (!leadingBlanks) this.read(whitespaces);
          else this.skip();
        } else {
          if (this.unread < 2 && !this.updateBuffer(2)) return undefined;
          if (!leadingBlanks) {
            whitespaces = [];
            this.readLine(leadingBreak);
            leadingBlanks = true;
          } else this.readLine(trailingBreaks);
        }
        if (this.unread < 1 && !this.updateBuffer(1)) return undefined;
      }
      if (this.flowLevel === 0 && this.mark.column < indent) break;
    }
    if (leadingBlanks) this.simpleKeyAllowed = true;
    return { typ: Tok.Scalar, start, end, value: s, style: ScalarStyle.Plain };
  }

  // ================================================================ comments

  private scanLineComment(tokenMark: Mark): boolean {
    if (this.newlines > 0) return true;
    let startMark = zeroMark();
    const text: number[] = [];
    for (let peek = 0; peek < 512; peek++) {
      if (this.unread < peek + 1 && !this.updateBuffer(peek + 1)) break;
      if (this.isBlank(peek)) continue;
      if (this.b(peek) === 0x23) {
        const seen = this.mark.index + peek;
        for (;;) {
          if (this.unread < 1 && !this.updateBuffer(1)) return false;
          if (this.isBreakZ()) {
            if (this.mark.index >= seen) break;
            if (this.unread < 2 && !this.updateBuffer(2)) return false;
            this.skipLine();
          } else if (this.mark.index >= seen) {
            if (text.length === 0) startMark = copyMark(this.mark);
            this.read(text);
          } else this.skip();
        }
      }
      break;
    }
    if (text.length > 0)
      this.comments.push({
        scanMark: zeroMark(),
        tokenMark: copyMark(tokenMark),
        startMark,
        endMark: zeroMark(),
        head: [],
        line: text,
        foot: [],
      });
    return true;
  }

  private scanComments(scanMarkIn: Mark): boolean {
    let scanMark = copyMark(scanMarkIn);
    let token = this.tokens[this.tokens.length - 1]!;
    if (token.typ === Tok.FlowEntry && this.tokens.length > 1) token = this.tokens[this.tokens.length - 2]!;
    let tokenMark = copyMark(token.start);
    let startMark = zeroMark();
    let nextIndent = Math.max(this.indent, 0);
    let recentEmpty = false;
    let firstEmpty = this.newlines <= 1;
    let line = this.mark.line;
    let column = this.mark.column;
    let text: number[] = [];
    let footLine = -1;
    if (scanMark.line > 0) {
      footLine = this.mark.line - this.newlines + 1;
      if (this.newlines === 0 && this.mark.column > 1) footLine++;
    }
    const foot = (endMark: Mark) => {
      this.comments.push({
        scanMark: copyMark(scanMark),
        tokenMark: copyMark(tokenMark),
        startMark: copyMark(startMark),
        endMark,
        head: [],
        line: [],
        foot: text,
      });
      scanMark = copyMark(endMark);
      tokenMark = copyMark(scanMark);
      text = [];
    };
    let peek = 0;
    for (; peek < 512; peek++) {
      if (this.unread < peek + 1 && !this.updateBuffer(peek + 1)) break;
      column++;
      if (this.isBlank(peek)) continue;
      const c = this.b(peek);
      const closeFlow = this.flowLevel > 0 && (c === 0x5d || c === 0x7d);
      if (closeFlow || this.isBreakZ(peek)) {
        // An empty line, or the end of the input or of a flow collection.
        if (closeFlow || !recentEmpty) {
          if (
            closeFlow ||
            (firstEmpty &&
              ((startMark.line === footLine && token.typ !== Tok.Value) || startMark.column - 1 < nextIndent))
          ) {
            if (text.length > 0) {
              if (startMark.column - 1 < nextIndent) tokenMark = copyMark(startMark);
              foot({ index: this.mark.index + peek, line, column });
            }
          } else if (text.length > 0 && this.b(peek) !== 0) text.push(0x0a);
        }
        if (!this.isBreak(peek)) break;
        firstEmpty = false;
        recentEmpty = true;
        column = 0;
        line++;
        continue;
      }
      if (text.length > 0 && (closeFlow || (column - 1 < nextIndent && column !== startMark.column))) {
        foot({ index: this.mark.index + peek, line, column });
      }
      if (this.b(peek) !== 0x23) break;
      if (text.length === 0) startMark = { index: this.mark.index + peek, line, column };
      else text.push(0x0a);
      recentEmpty = false;
      const seen = this.mark.index + peek;
      for (;;) {
        if (this.unread < 1 && !this.updateBuffer(1)) return false;
        if (this.isBreakZ()) {
          if (this.mark.index >= seen) break;
          if (this.unread < 2 && !this.updateBuffer(2)) return false;
          this.skipLine();
        } else if (this.mark.index >= seen) this.read(text);
        else this.skip();
      }
      peek = 0;
      column = 0;
      line = this.mark.line;
      nextIndent = Math.max(this.indent, 0);
    }
    if (text.length > 0) {
      this.comments.push({
        scanMark: copyMark(scanMark),
        tokenMark: copyMark(startMark),
        startMark: copyMark(startMark),
        endMark: { index: this.mark.index + peek - 1, line, column },
        head: text,
        line: [],
        foot: [],
      });
    }
    return true;
  }
}

/** Bytes appended one by one: a run of blanks or breaks is as long as the input, too long to spread into a call. */
function append(dst: number[], src: ArrayLike<number>, from = 0): void {
  for (let i = from; i < src.length; i++) dst.push(src[i]!);
}
