// A string built a code point at a time without a string per step (`out += ch` makes a rope node of
// tens of bytes for every character): code units gather in a buffer and become a string a chunk at a time.
// The buffer starts small and grows to CHUNK, so that a builder used for a few characters costs little.
// Ours: no Go counterpart (Go appends to a []byte).

const FIRST = 64;
const CHUNK = 8192;

export class TextBuilder {
  private buf = new Uint16Array(FIRST);
  private n = 0;
  private readonly chunks: string[] = [];

  /** Appends a code point (two code units beyond the BMP; a lone surrogate as it is). */
  push(cp: number): void {
    if (this.n >= this.buf.length - 1) this.grow();
    if (cp > 0xffff) {
      cp -= 0x10000;
      this.buf[this.n++] = 0xd800 + (cp >> 10);
      this.buf[this.n++] = 0xdc00 + (cp & 0x3ff);
    } else this.buf[this.n++] = cp;
  }

  /** Appends a string. */
  append(s: string): void {
    if (s.length < 16) for (let i = 0; i < s.length; i++) this.unit(s.charCodeAt(i));
    else {
      this.flush();
      this.chunks.push(s);
    }
  }

  /** Appends one UTF-16 code unit. */
  unit(u: number): void {
    if (this.n >= this.buf.length) this.grow();
    this.buf[this.n++] = u;
  }

  toString(): string {
    this.flush();
    return this.chunks.length === 1 ? this.chunks[0]! : this.chunks.join('');
  }

  /** Makes room: a bigger buffer while it is small, else the buffer's text becomes a chunk. */
  private grow(): void {
    if (this.buf.length < CHUNK) {
      const bigger = new Uint16Array(this.buf.length * 4);
      bigger.set(this.buf.subarray(0, this.n));
      this.buf = bigger;
    } else this.flush();
  }

  private flush(): void {
    if (this.n === 0) return;
    // Decoded natively, lone surrogates kept (String.fromCharCode.apply is many times slower).
    this.chunks.push(Buffer.from(this.buf.buffer, this.buf.byteOffset, 2 * this.n).toString('utf16le'));
    this.n = 0;
  }
}
