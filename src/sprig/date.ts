// sprig's date.go, its hermetic part: duration and durationRound (the clock and local-time-zone functions are
// left out, see index.ts).
import { goFunc, type FuncMap } from '../go/reflect/func.ts';
import { readsStrings } from '../go/reflect/callCost.ts';
import { parseClampedInt64 } from '../go/strconv/parseNumber.ts';
import { GoInt } from '../go/reflect/value.ts';
import { formatGoDuration, parseGoDuration } from '../go/time/duration.ts';

/** sprig's durationRound: the largest unit only (y, mo, d, h, m, s). */
function roundDuration(ns: bigint): string {
  // sprig compares strictly: exactly one hour is "60m", exactly one second "0s".
  const u = ns < 0n ? -ns : ns;
  const s = 1_000_000_000n;
  const units: Array<[bigint, string]> = [
    [31536000n * s, 'y'],
    [2592000n * s, 'mo'],
    [86400n * s, 'd'],
    [3600n * s, 'h'],
    [60n * s, 'm'],
    [s, 's'],
  ];
  for (const [size, label] of units) if (u > size) return `${u / size}${label}`;
  return '0s';
}

export const dateFuncs: FuncMap = {
  duration: goFunc(['any'], readsStrings(32), (v: unknown) => {
    // sprig only understands an int64 and numeric strings; a template int is neither and gives 0s.
    let n = 0n;
    if (v instanceof GoInt && v.type === 'int64') n = v.value;
    // strconv.ParseInt(s, 10, 64) with the error ignored: out of range gives the nearest int64.
    else if (typeof v === 'string' && /^[+-]?[0-9]+$/.test(v)) n = parseClampedInt64(v);
    return formatGoDuration(BigInt.asIntN(64, n * 1_000_000_000n));
  }),
  durationRound: goFunc(['any'], readsStrings(32), (v: unknown) => {
    let ns = 0n;
    // An int64 is nanoseconds.
    if (v instanceof GoInt && v.type === 'int64') ns = v.value;
    else if (typeof v === 'string') {
      try {
        ns = parseGoDuration(v);
      } catch {
        ns = 0n;
      }
    }
    return roundDuration(ns);
  }),
};
