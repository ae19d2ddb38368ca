// How Ignition 2.3 checks unit and drop-in contents: go-systemd's unit.Deserialize (the version vendored by
// ct v0.9.4). Only its verdict and the sections of its options matter here (an enabled unit without an
// [Install] option draws a warning, which OSM turns into an error), but both depend on its lexer's quirks:
// text before the first section is skipped rune by rune, a comment may start anywhere there, and the
// "line too long" check looks at the 2048 bytes ahead of each lexer step only while a bufio.Reader (4096
// bytes, filled from a strings.Reader) happens to hold that many. That reader is modelled here exactly.
import { goTrimSpace } from '../../../go/strings/strings.ts';
import { isSpace } from '../../../go/unicode/unicode.ts';

/** An option as go-systemd reports it; its value is left out, nothing here needs it. */
export interface UnitOption {
  section: string;
  name: string;
}

export type UnitParse = { ok: true; options: UnitOption[] } | { ok: false; error: string };

const LINE_MAX = 2048;
const BUFFER_SIZE = 4096;
const EOF = 'EOF';

class LexError extends Error {}

/** bufio.Reader over a fully available source, tracking only what its read/write positions need. */
class BufferedBytes {
  private base = 0; // source offset of buf[0]
  private r = 0;
  private w = 0;
  private eof = false;
  private lastRuneSize = -1;

  constructor(private readonly src: Uint8Array) {}

  buffered(): number {
    return this.w - this.r;
  }

  /** The next n buffered bytes (callers only peek what is buffered). */
  peek(n: number): Uint8Array {
    return this.src.subarray(this.base + this.r, this.base + this.r + n);
  }

  private fill(): void {
    if (this.r > 0) {
      this.base += this.r;
      this.w -= this.r;
      this.r = 0;
    }
    // strings.Reader hands over everything that fits; only a read at the very end reports EOF.
    const n = Math.min(BUFFER_SIZE - this.w, this.src.length - (this.base + this.w));
    if (n === 0) this.eof = true;
    else this.w += n;
  }

  readRune(): number | undefined {
    while (
      this.r + 4 > this.w &&
      !fullRune(this.src, this.base + this.r, this.base + this.w) &&
      !this.eof &&
      this.w - this.r < BUFFER_SIZE
    )
      this.fill();
    this.lastRuneSize = -1;
    if (this.r === this.w) return undefined;
    const [rune, size] = decodeRune(this.src, this.base + this.r, this.base + this.w);
    this.r += size;
    this.lastRuneSize = size;
    return rune;
  }

  unreadRune(): void {
    if (this.lastRuneSize < 0 || this.r < this.lastRuneSize) throw new LexError('bufio: invalid use of UnreadRune');
    this.r -= this.lastRuneSize;
    this.lastRuneSize = -1;
  }

  /** ReadBytes(delim): the bytes up to and including delim, and whether the source ended first. */
  readBytes(delim: number): { bytes: Uint8Array; eof: boolean } {
    const start = this.base + this.r;
    let s = 0;
    for (;;) {
      const from = this.base + this.r + s;
      const to = this.base + this.w;
      const i = this.src.subarray(from, to).indexOf(delim);
      if (i >= 0) {
        this.r += s + i + 1;
        this.lastRuneSize = -1;
        return { bytes: this.src.subarray(start, this.base + this.r), eof: false };
      }
      if (this.eof) {
        this.r = this.w;
        this.lastRuneSize = -1;
        return { bytes: this.src.subarray(start, this.base + this.r), eof: true };
      }
      if (this.buffered() >= BUFFER_SIZE) {
        // A full buffer is handed out as a fragment and reading goes on.
        this.r = this.w;
        s = 0;
        continue;
      }
      s = this.w - this.r;
      this.fill();
    }
  }
}

function runeLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1; // invalid lead byte: RuneError of width 1
}

function fullRune(b: Uint8Array, from: number, to: number): boolean {
  if (from >= to) return false;
  return to - from >= runeLength(b[from]!);
}

function decodeRune(b: Uint8Array, from: number, to: number): [number, number] {
  const lead = b[from]!;
  const n = runeLength(lead);
  if (n === 1) return [lead < 0x80 ? lead : 0xfffd, 1];
  if (to - from < n) return [0xfffd, 1];
  let cp = lead & (0xff >> (n + 1));
  for (let i = 1; i < n; i++) {
    const c = b[from + i]!;
    if ((c & 0xc0) !== 0x80) return [0xfffd, 1];
    cp = (cp << 6) | (c & 0x3f);
  }
  return [cp, n];
}

const NL = 0x0a;
const CR = 0x0d;
const isComment = (r: number) => r === 0x23 /* # */ || r === 0x3b; /* ; */

function decode(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
}

/** bytes.TrimSpace: Unicode White_Space on both ends. */
function trimSpaceBytes(b: Uint8Array): Uint8Array {
  let start = 0;
  let end = b.length;
  while (start < end) {
    const [r, n] = decodeRune(b, start, end);
    if (!isSpace(r)) break;
    start += n;
  }
  while (end > start) {
    let k = end - 1;
    while (k > start && (b[k]! & 0xc0) === 0x80) k--;
    const [r] = decodeRune(b, k, end);
    if (!isSpace(r)) break;
    end = k;
  }
  return b.subarray(start, end);
}

/** Go's %v of a []byte: "[104 105]". */
const formatByteSlice = (b: Uint8Array): string => '[' + Array.from(b).join(' ') + ']';

type Step = (() => Step | null) | null;

export function parseUnitContent(content: string): UnitParse {
  const src = new Uint8Array(Buffer.from(content, 'utf8'));
  const buf = new BufferedBytes(src);
  const options: UnitOption[] = [];

  const toEOL = (): { line: Uint8Array; eof: boolean } => {
    const { bytes, eof } = buf.readBytes(NL);
    let end = bytes.length;
    if (end > 0 && bytes[end - 1] === CR) end--;
    if (end > 0 && bytes[end - 1] === NL) end--;
    return { line: bytes.subarray(0, end), eof };
  };

  const nextSection: Step = () => {
    const r = buf.readRune();
    if (r === undefined) return null;
    if (r === 0x5b /* [ */) return sectionName;
    if (isComment(r)) return ignoreLine(nextSection);
    return nextSection;
  };

  const sectionName: Step = () => {
    const { bytes, eof } = buf.readBytes(0x5d /* ] */);
    if (eof) throw new LexError('unable to find end of section');
    return sectionSuffix(decode(bytes.subarray(0, bytes.length - 1)));
  };

  const sectionSuffix =
    (section: string): Step =>
    () => {
      const garbage = trimSpaceBytes(toEOL().line);
      // go-systemd prints its (never set) current-section field here, hence the empty name.
      if (garbage.length > 0) throw new LexError(`found garbage after section name : ${formatByteSlice(garbage)}`);
      return nextSectionOrOption(section);
    };

  const ignoreLine =
    (next: Step): Step =>
    () => {
      for (;;) {
        let { line } = toEOL();
        if (line.length > 0 && line[line.length - 1] === 0x20) line = line.subarray(0, line.length - 1);
        if (!(line.length > 0 && line[line.length - 1] === 0x5c /* \ */)) break;
      }
      return next;
    };

  const nextSectionOrOption =
    (section: string): Step =>
    () => {
      const r = buf.readRune();
      if (r === undefined) return null;
      if (isSpace(r)) return nextSectionOrOption(section);
      if (r === 0x5b) return sectionName;
      if (isComment(r)) return ignoreLine(nextSectionOrOption(section));
      buf.unreadRune();
      return optionName(section);
    };

  const optionName =
    (section: string): Step =>
    () => {
      let name = '';
      for (;;) {
        const r = buf.readRune();
        if (r === undefined) throw new LexError(EOF);
        if (r === NL || r === CR) throw new LexError('unexpected newline encountered while parsing option name');
        if (r === 0x3d /* = */) break;
        name += String.fromCodePoint(r);
      }
      return optionValue(section, goTrimSpace(name));
    };

  // One line per step; a trailing backslash continues the value on the next line (a further step).
  const optionValue =
    (section: string, name: string): Step =>
    () => {
      const { line } = toEOL();
      if (trimSpaceBytes(line).length !== 0 && line.lastIndexOf(0x5c /* \ */) === line.length - 1)
        return optionValue(section, name);
      options.push({ section, name });
      return nextSectionOrOption(section);
    };

  try {
    let step: Step = nextSection;
    while (step !== null) {
      if (buf.buffered() >= LINE_MAX) {
        const ahead = buf.peek(LINE_MAX);
        if (!ahead.includes(NL) && !ahead.includes(CR)) throw new LexError(`line too long (max ${LINE_MAX} bytes)`);
      }
      step = step();
    }
  } catch (e) {
    if (e instanceof LexError) return { ok: false, error: e.message };
    throw e;
  }
  return { ok: true, options };
}
