// Go's time.ParseDuration and time.Duration.String(), for the ImageMinimumGCAge/ImageMaximumGCAge
// kubelet annotations (OSM parses them into a metav1.Duration, which templates print as e.g. "2m0s").
// Follows Go 1.26 (OSM's go.mod).

const UNITS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  'µs': 1000n,
  'μs': 1000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
const MAX = (1n << 63n) - 1n;

const TWO63 = 1n << 63n;

/** Go's leadingInt: the digits at the start of s, or undefined when they overflow (linear, like Go's). */
function leadingInt(s: string): { x: bigint; rest: string } | undefined {
  let i = 0;
  let x = 0n;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    if (x > TWO63 / 10n) return undefined;
    x = x * 10n + BigInt(c - 0x30);
    if (x > TWO63) return undefined;
  }
  return { x, rest: s.slice(i) };
}

/** Go's leadingFraction: the digits while they fit, and 10^(their count) as a float64; the rest are skipped. */
function leadingFraction(s: string): { x: bigint; scale: number; rest: string } {
  let i = 0;
  let x = 0n;
  let scale = 1;
  let overflow = false;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    if (overflow) continue;
    if (x > (TWO63 - 1n) / 10n) {
      overflow = true;
      continue;
    }
    const y = x * 10n + BigInt(c - 0x30);
    if (y > TWO63) {
      overflow = true;
      continue;
    }
    x = y;
    scale *= 10;
  }
  return { x, scale, rest: s.slice(i) };
}

/** time.ParseDuration: nanoseconds, or an Error with Go's message. Linear in the text, like Go's. */
export function parseGoDuration(s: string): bigint {
  const orig = s;
  const fail = () => new Error(`time: invalid duration ${JSON.stringify(orig)}`);
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw fail();
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || (s[0]! >= '0' && s[0]! <= '9'))) throw fail();
    const whole = leadingInt(s);
    if (whole === undefined) throw fail();
    const pre = whole.rest.length !== s.length;
    s = whole.rest;
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s[0] === '.') {
      s = s.slice(1);
      const frac = leadingFraction(s);
      post = frac.rest.length !== s.length;
      ({ x: f, scale } = frac);
      s = frac.rest;
    }
    if (!pre && !post) throw fail();
    let i = 0;
    while (i < s.length && s[i] !== '.' && (s[i]! < '0' || s[i]! > '9')) i++;
    if (i === 0) throw new Error(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const u = s.slice(0, i);
    s = s.slice(i);
    const unit = Object.prototype.hasOwnProperty.call(UNITS, u) ? UNITS[u]! : undefined;
    if (unit === undefined)
      throw new Error(`time: unknown unit ${JSON.stringify(u)} in duration ${JSON.stringify(orig)}`);
    let v = whole.x;
    if (v > TWO63 / unit) throw fail();
    v *= unit;
    if (f > 0n) {
      // float64, as in Go: nanosecond-accurate for fractions of hours.
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO63) throw fail();
    }
    d += v;
    if (d > TWO63) throw fail();
  }
  if (neg) return -d;
  if (d > MAX) throw fail();
  return d;
}

export function formatGoDuration(d: bigint): string {
  if (d === 0n) return '0s';
  const neg = d < 0n;
  let u = neg ? -d : d;
  let out: string;
  if (u < 1_000_000_000n) {
    // Sub-second: use the largest unit that keeps a leading digit.
    const [unit, div] = u < 1000n ? ['ns', 1n] : u < 1_000_000n ? ['µs', 1000n] : ['ms', 1_000_000n];
    out = fixed(u, div) + unit;
  } else {
    const h = u / 3_600_000_000_000n;
    u -= h * 3_600_000_000_000n;
    const m = u / 60_000_000_000n;
    u -= m * 60_000_000_000n;
    out = (h > 0n ? `${h}h` : '') + (h > 0n || m > 0n ? `${m}m` : '') + fixed(u, 1_000_000_000n) + 's';
  }
  return neg ? '-' + out : out;
}

function fixed(v: bigint, div: bigint): string {
  const whole = v / div;
  let frac = (v % div)
    .toString()
    .padStart(div.toString().length - 1, '0')
    .replace(/0+$/, '');
  return frac === '' || div === 1n ? `${whole}` : `${whole}.${frac}`;
}
