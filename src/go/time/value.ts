// time.Time, time.Duration and *time.Location as template values: what a template can call on them (the
// methods of current Go's time package that have template-callable signatures), how they print (String,
// GoString for %#v) and compare (== on time.Time compares wall clock, seconds and location pointer, so the
// struct carries those fields). Pointer-receiver methods (UnmarshalJSON, GobDecode...) are absent: a time
// reached through a map or a method result is not addressable, so Go cannot call them either.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).
import { goFunc, GoCallError, type FuncMap, type GoFunction } from '../reflect/func.ts';
import { CONSTANT, lengthOf, sizeOf, type CallCost } from '../reflect/callCost.ts';
import { goBytes } from '../reflect/byteString.ts';
import {
  atInstant,
  DAYS,
  formatGoTime,
  goDate,
  goTimeString,
  inUTC,
  LOCAL,
  LOCAL_LOC,
  locationOf,
  MONTHS,
  RFC3339_NANO,
  unixSeconds,
  UTC_LOC,
  weekday,
  yearDay,
  type GoLocation,
  type GoTime,
} from './time.ts';
import { formatGoDuration } from './duration.ts';
import { GoInt, GoPointer, GoStringer, GoStruct } from '../reflect/value.ts';

const NS = 1_000_000_000n;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;
/** Seconds from January 1 of year 1 to 1970 (Go's internal epoch is year 1). */
const YEAR1_TO_UNIX = 62_135_596_800n;

const int = (n: number) => BigInt(n);
const int64 = (n: bigint) => new GoInt('int64', n);
const clampInt64 = (n: bigint) => (n < MIN_INT64 ? MIN_INT64 : n > MAX_INT64 ? MAX_INT64 : n);
/** A method with more results than a template can take. */
/**
 * Format and AppendFormat: a layout element writes at most a few times its own length ("Mon" a weekday's name,
 * ".000000000" nine digits), and text between elements as is; AppendFormat copies the slice it appends to.
 */
const FORMAT_COST: CallCost = (m, args) => {
  const layout = lengthOf(args[args.length - 1]);
  const appended = args.length > 1 ? sizeOf(args[0]) : 0;
  m.spend(16 * layout + 4 * appended);
  m.build(4 * layout + 64 + appended);
};
/** AppendText and AppendBinary: a copy of the slice, and a timestamp. */
const APPEND_COST: CallCost = (m, args) => m.build(sizeOf(args[0]) + 64);
const badResults = (n: number): GoFunction => ({ params: [], cost: CONSTANT, call: () => undefined, results: n });

// ---------------------------------------------------------------- time.Duration

/** A time.Duration parameter: an integer constant (bigint) or a Duration value. */
const nanos = (d: unknown): bigint => (d instanceof GoStringer ? (d.value as GoInt).value : (d as bigint));

/** Go's lessThanHalf: x + x < y as unsigned integers. */
const lessThanHalf = (x: bigint, y: bigint) => BigInt.asUintN(64, x + x) < BigInt.asUintN(64, y);

export function durationValue(ns: bigint): GoStringer {
  const per = (unit: bigint) => Number(ns / unit) + Number(ns % unit) / Number(unit);
  const methods: FuncMap = {
    String: goFunc([], CONSTANT, () => formatGoDuration(ns)),
    Nanoseconds: goFunc([], CONSTANT, () => int64(ns)),
    Microseconds: goFunc([], CONSTANT, () => int64(ns / 1000n)),
    Milliseconds: goFunc([], CONSTANT, () => int64(ns / 1_000_000n)),
    Seconds: goFunc([], CONSTANT, () => per(NS)),
    Minutes: goFunc([], CONSTANT, () => per(60n * NS)),
    Hours: goFunc([], CONSTANT, () => per(3600n * NS)),
    Abs: goFunc([], CONSTANT, () => durationValue(ns >= 0n ? ns : ns === MIN_INT64 ? MAX_INT64 : -ns)),
    Truncate: goFunc(['time.Duration'], CONSTANT, (m: unknown) => {
      const by = nanos(m);
      return durationValue(by <= 0n ? ns : ns - (ns % by));
    }),
    Round: goFunc(['time.Duration'], CONSTANT, (m: unknown) => durationValue(roundDuration(ns, nanos(m)))),
  };
  // A Stringer but no TextMarshaler: JSON writes the integer (YAML and TOML encoders ask for String()).
  return new GoStringer('time.Duration', formatGoDuration(ns), int64(ns), methods, false);
}

/** Duration.Round: halves away from zero, saturating at the int64 range. */
function roundDuration(d: bigint, m: bigint): bigint {
  if (m <= 0n) return d;
  let r = d % m;
  if (d < 0n) {
    r = -r;
    if (lessThanHalf(r, m)) return d + r;
    const d1 = d - m + r;
    return d1 < MIN_INT64 ? MIN_INT64 : d1;
  }
  if (lessThanHalf(r, m)) return d - r;
  const d1 = d + m - r;
  return d1 > MAX_INT64 ? MAX_INT64 : d1;
}

// ---------------------------------------------------------------- *time.Location

// UTC and Local have one value each for the life of the process; a fixed zone made by a parse has one per time
// value that holds it, kept no longer than it (a map keyed by zone name would grow with every parse).
const NAMED_LOCATIONS = new Map<string, GoStringer>();
const FIXED_LOCATIONS = new WeakMap<GoLocation, GoStringer>();
const WHERE = new WeakMap<GoStringer, GoLocation>();

/** Location.String(): Local is named UTC when TZ is unset (without /etc/localtime) or UTC; Parse's zones are "". */
const locationName = (loc: string) =>
  loc === UTC_LOC || loc === LOCAL_LOC ? 'UTC' : loc.startsWith('fixed#') ? '' : loc;

/** The *time.Location of a zone (Go compares locations by pointer: a time value's location is one value). */
export function locationValue(where: GoLocation): GoStringer {
  const named = where.loc === UTC_LOC || where.loc === LOCAL_LOC;
  let v = named ? NAMED_LOCATIONS.get(where.loc) : FIXED_LOCATIONS.get(where);
  if (v === undefined) {
    const name = locationName(where.loc);
    // Its fields are unexported: JSON and YAML write {}; reflect.DeepEqual compares them.
    const struct = new GoPointer('*time.Location', new GoStruct('time.Location', { name, offset: int(where.offset) }));
    v = new GoStringer('*time.Location', name, struct, { String: goFunc([], CONSTANT, () => name) }, false);
    if (named) NAMED_LOCATIONS.set(where.loc, v);
    else FIXED_LOCATIONS.set(where, v);
    WHERE.set(v, where);
  }
  return v;
}

// ---------------------------------------------------------------- time.Time

const TIMES = new WeakMap<GoStruct, GoTime>();

/** The GoTime of a time.Time template value. */
export function goTimeOf(v: unknown): GoTime | undefined {
  return v instanceof GoStruct ? TIMES.get(v) : undefined;
}

const nsOf = (t: GoTime) => unixSeconds(t) * NS + BigInt(t.nsec);
const otherTime = (u: unknown) => nsOf(TIMES.get(u as GoStruct)!);
const atNs = (ns: bigint, where: GoLocation) => {
  const sec = ns / NS - (ns % NS < 0n ? 1n : 0n);
  return atInstant(sec, Number(ns - sec * NS), where);
};

/** Time.GoString, what %#v prints. */
function timeGoString(t: GoTime): string {
  const loc =
    t.loc === UTC_LOC
      ? 'time.UTC'
      : t.loc === LOCAL_LOC
        ? 'time.Local'
        : `time.Location(${JSON.stringify(locationName(t.loc))})`;
  return `time.Date(${t.year}, time.${MONTHS[t.month - 1]}, ${t.day}, ${t.hour}, ${t.min}, ${t.sec}, ${t.nsec}, ${loc})`;
}

/** appendStrictRFC3339: RFC 3339 text, refused where RFC 3339 cannot say it (current Go). */
function strictRfc3339(t: GoTime, method: string): Uint8Array {
  const s = formatGoTime(t, RFC3339_NANO);
  if (t.year < 0 || t.year > 9999) throw new GoCallError(`Time.${method}: year outside of range [0,9999]`);
  if (!s.endsWith('Z') && Math.abs(Math.trunc(t.offset / 3600)) >= 24)
    throw new GoCallError(`Time.${method}: timezone hour outside of range [0,23]`);
  return goBytes(s);
}

/** Time.MarshalBinary: version, seconds since year 1, nanoseconds, zone offset in minutes (-1 for UTC). */
function marshalBinary(t: GoTime): Uint8Array {
  const utc = t.loc === UTC_LOC;
  const offsetSec = t.offset % 60;
  const offsetMin = Math.trunc(t.offset / 60);
  if (!utc && (offsetMin < -32768 || offsetMin === -1 || offsetMin > 32767))
    throw new GoCallError('Time.MarshalBinary: unexpected zone offset');
  const out = Buffer.alloc(!utc && offsetSec !== 0 ? 16 : 15);
  out[0] = out.length === 16 ? 2 : 1;
  out.writeBigInt64BE(BigInt.asIntN(64, unixSeconds(t) + YEAR1_TO_UNIX), 1);
  out.writeInt32BE(t.nsec, 9);
  out.writeInt16BE(utc ? -1 : offsetMin, 13);
  if (out.length === 16) out.writeInt8(offsetSec, 15);
  return new Uint8Array(out);
}

const concat = (b: Uint8Array | null, more: Uint8Array) =>
  new Uint8Array(Buffer.concat([b ?? new Uint8Array(0), more]));

/** A time.Time as templates see it: printed as String(), with time.Time's methods. */
export function goTimeValue(t: GoTime): GoStruct {
  const text = goTimeString(t);
  const unix = unixSeconds(t);
  const ns = nsOf(t);
  const where = locationOf(t);
  const time = (u: GoTime) => goTimeValue(u);
  const methods: FuncMap = {
    String: goFunc([], CONSTANT, () => text),
    GoString: goFunc([], CONSTANT, () => timeGoString(t)),
    Format: goFunc(['string'], FORMAT_COST, (layout: string) => formatGoTime(t, layout)),
    AppendFormat: goFunc(['[]byte', 'string'], FORMAT_COST, (b: Uint8Array | null, layout: string) =>
      concat(b, goBytes(formatGoTime(t, layout))),
    ),
    MarshalText: goFunc([], CONSTANT, () => strictRfc3339(t, 'MarshalText')),
    AppendText: goFunc(['[]byte'], APPEND_COST, (b: Uint8Array | null) => concat(b, strictRfc3339(t, 'MarshalText'))),
    MarshalJSON: goFunc([], CONSTANT, () =>
      concat(goBytes('"'), concat(strictRfc3339(t, 'MarshalJSON'), goBytes('"'))),
    ),
    MarshalBinary: goFunc([], CONSTANT, () => marshalBinary(t)),
    AppendBinary: goFunc(['[]byte'], APPEND_COST, (b: Uint8Array | null) => concat(b, marshalBinary(t))),
    GobEncode: goFunc([], CONSTANT, () => marshalBinary(t)),
    Year: goFunc([], CONSTANT, () => int(t.year)),
    Month: goFunc(
      [],
      CONSTANT,
      () => new GoStringer('time.Month', MONTHS[t.month - 1]!, int(t.month), undefined, false),
    ),
    Day: goFunc([], CONSTANT, () => int(t.day)),
    Weekday: goFunc(
      [],
      CONSTANT,
      () => new GoStringer('time.Weekday', DAYS[weekday(t)]!, int(weekday(t)), undefined, false),
    ),
    YearDay: goFunc([], CONSTANT, () => int(yearDay(t))),
    Hour: goFunc([], CONSTANT, () => int(t.hour)),
    Minute: goFunc([], CONSTANT, () => int(t.min)),
    Second: goFunc([], CONSTANT, () => int(t.sec)),
    Nanosecond: goFunc([], CONSTANT, () => int(t.nsec)),
    Unix: goFunc([], CONSTANT, () => int64(unix)),
    UnixMilli: goFunc([], CONSTANT, () => int64(unix * 1000n + BigInt(Math.floor(t.nsec / 1e6)))),
    UnixMicro: goFunc([], CONSTANT, () => int64(unix * 1_000_000n + BigInt(Math.floor(t.nsec / 1e3)))),
    UnixNano: goFunc([], CONSTANT, () => int64(BigInt.asIntN(64, ns))),
    IsZero: goFunc([], CONSTANT, () => unix === -YEAR1_TO_UNIX && t.nsec === 0),
    IsDST: goFunc([], CONSTANT, () => false), // every zone here has a fixed offset
    Location: goFunc([], CONSTANT, () => locationValue(where)),
    UTC: goFunc([], CONSTANT, () => time(inUTC(t))),
    Local: goFunc([], CONSTANT, () => time(atInstant(unix, t.nsec, LOCAL))),
    In: goFunc(['*time.Location'], CONSTANT, (loc: GoStringer | null) => {
      if (loc === null) throw new GoCallError('time: missing Location in call to Time.In');
      return time(atInstant(unix, t.nsec, WHERE.get(loc)!));
    }),
    Add: goFunc(['time.Duration'], CONSTANT, (d: unknown) => time(atNs(ns + nanos(d), where))),
    AddDate: goFunc(['int', 'int', 'int'], CONSTANT, (y: bigint, m: bigint, d: bigint) =>
      time(goDate(t.year + Number(y), t.month + Number(m), t.day + Number(d), t.hour, t.min, t.sec, t.nsec, where)),
    ),
    Sub: goFunc(['time.Time'], CONSTANT, (u: unknown) => durationValue(clampInt64(ns - otherTime(u)))),
    After: goFunc(['time.Time'], CONSTANT, (u: unknown) => ns > otherTime(u)),
    Before: goFunc(['time.Time'], CONSTANT, (u: unknown) => ns < otherTime(u)),
    Equal: goFunc(['time.Time'], CONSTANT, (u: unknown) => ns === otherTime(u)),
    Compare: goFunc(['time.Time'], CONSTANT, (u: unknown) => {
      const o = otherTime(u);
      return ns < o ? -1n : ns > o ? 1n : 0n;
    }),
    // Rounding is relative to the zero time (January 1, year 1 UTC), not to 1970.
    Truncate: goFunc(['time.Duration'], CONSTANT, (d: unknown) => {
      const by = nanos(d);
      return by <= 0n ? time(t) : time(atNs(ns - sinceYear1Mod(ns, by), where));
    }),
    Round: goFunc(['time.Duration'], CONSTANT, (d: unknown) => {
      const by = nanos(d);
      if (by <= 0n) return time(t);
      const r = sinceYear1Mod(ns, by);
      return time(atNs(lessThanHalf(r, by) ? ns - r : ns + by - r, where));
    }),
    Date: badResults(3),
    Clock: badResults(3),
    ISOWeek: badResults(2),
    Zone: badResults(2),
    ZoneBounds: badResults(2),
  };
  // The fields of Go's struct: wall clock (nanoseconds here), seconds since year 1, location (nil for UTC).
  const fields = {
    wall: new GoInt('uint64', int(t.nsec)),
    ext: int64(unix + YEAR1_TO_UNIX),
    loc: t.loc === UTC_LOC ? null : locationValue(where).value,
  };
  const v = new GoStruct('time.Time', fields, text, methods);
  TIMES.set(v, t);
  return v;
}

/** The time since January 1 of year 1, modulo d (non-negative). */
function sinceYear1Mod(ns: bigint, d: bigint): bigint {
  const r = (ns + YEAR1_TO_UNIX * NS) % d;
  return r < 0n ? r + d : r;
}
