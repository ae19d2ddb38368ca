// Go's time.ParseDuration and time.Duration.String(), for the ImageMinimumGCAge/ImageMaximumGCAge
// kubelet annotations (OSM parses them into a metav1.Duration, which templates print as e.g. "2m0s").
// Follows Go 1.26 (OSM's go.mod).

const UNITS: Record<string, bigint> = {
  ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1_000_000n, s: 1_000_000_000n, m: 60_000_000_000n, h: 3_600_000_000_000n,
};
const MAX = (1n << 63n) - 1n;

/** Nanoseconds, or an Error with Go's message. */
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
  let total = 0n;
  while (s !== '') {
    const m = /^([0-9]*)(?:\.([0-9]*))?/.exec(s)!;
    if (m[0] === '' || m[0] === '.') throw fail();
    s = s.slice(m[0].length);
    const u = /^[^0-9.]+/.exec(s);
    if (!u) throw new Error(`time: missing unit in duration ${JSON.stringify(orig)}`);
    const unit = UNITS[u[0]];
    if (unit === undefined) throw new Error(`time: unknown unit ${JSON.stringify(u[0])} in duration ${JSON.stringify(orig)}`);
    s = s.slice(u[0].length);
    let v = BigInt(m[1] || '0') * unit;
    const frac = m[2] ?? '';
    if (frac !== '') {
      // Go truncates the fractional part toward zero at nanosecond precision.
      v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    }
    total += v;
    if (total > MAX) throw fail();
  }
  return neg ? -total : total;
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
  let frac = (v % div).toString().padStart(div.toString().length - 1, '0').replace(/0+$/, '');
  return frac === '' || div === 1n ? `${whole}` : `${whole}.${frac}`;
}
