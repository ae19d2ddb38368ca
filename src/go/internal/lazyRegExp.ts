// A regular expression made on first use. V8 parses a RegExp when the literal is evaluated, expanding
// Unicode property classes (\p{L} is hundreds of ranges) there and then: as module constants they cost
// about 0.6 ms of every start, mostly for functions a run never calls.
// Ours: no Go counterpart (internal to src/go/, like Go's internal packages).
export interface LazyRegExp {
  test(s: string): boolean;
}

export function lazyRegExp(source: string, flags: string): LazyRegExp {
  let re: RegExp | undefined;
  return { test: (s) => (re ??= new RegExp(source, flags)).test(s) };
}
