// strings.Index in linear time. V8's own search (indexOf, includes, split) can compare every position with
// most of a long needle (n × m); Go's strings.Index searches a short needle by brute force and a long one
// with Rabin-Karp. So do we: a needle of at most SHORT_NEEDLE code units (or bytes) goes to the engine, whose
// worst case is then n × SHORT_NEEDLE, and a longer one to Knuth-Morris-Pratt. Callers charge n × min(m,
// SHORT_NEEDLE) + m (searchUnits).
// Follows Go 1.26 (OSM's go.mod) in what it answers; the algorithm is ours.

export const SHORT_NEEDLE = 32;

/** The work of searching a text of n for a needle of m, in the units callers charge it in. */
export const searchUnits = (n: number, m: number): number => n * Math.min(m, SHORT_NEEDLE) + m;

/** A needle, ready to be looked for in many places of a text (its failure table made once). */
export class TextSearch {
  private readonly fail: Int32Array | undefined;

  constructor(private readonly needle: string) {
    if (needle.length > SHORT_NEEDLE) this.fail = failureTable(needle.length, (i) => needle.charCodeAt(i));
  }

  /** The first offset of the needle in s at or after `from`, or -1. */
  indexIn(s: string, from = 0): number {
    if (this.fail === undefined) return s.indexOf(this.needle, from);
    return kmp(
      s.length,
      (i) => s.charCodeAt(i),
      this.needle.length,
      (i) => this.needle.charCodeAt(i),
      this.fail,
      from,
    );
  }
}

/** The same for bytes. */
export class ByteSearch {
  private readonly fail: Int32Array | undefined;

  constructor(private readonly needle: Uint8Array) {
    if (needle.length > SHORT_NEEDLE) this.fail = failureTable(needle.length, (i) => needle[i]!);
  }

  indexIn(b: Buffer, from = 0): number {
    if (this.fail === undefined) return b.indexOf(this.needle, from);
    return kmp(
      b.length,
      (i) => b[i]!,
      this.needle.length,
      (i) => this.needle[i]!,
      this.fail,
      from,
    );
  }
}

function failureTable(m: number, at: (i: number) => number): Int32Array {
  const f = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && at(i) !== at(k)) k = f[k - 1]!;
    if (at(i) === at(k)) k++;
    f[i] = k;
  }
  return f;
}

function kmp(
  n: number,
  text: (i: number) => number,
  m: number,
  pat: (i: number) => number,
  f: Int32Array,
  from: number,
): number {
  if (m === 0) return Math.min(from, n);
  for (let i = from, k = 0; i < n; i++) {
    const c = text(i);
    while (k > 0 && c !== pat(k)) k = f[k - 1]!;
    if (c === pat(k)) k++;
    if (k === m) return i - m + 1;
  }
  return -1;
}
