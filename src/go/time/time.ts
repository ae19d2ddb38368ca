// Go's time.Time as templates meet it (fromToml's datetimes, fromYaml's timestamps): civil time in a zone
// of fixed offset, the calendar, layout formatting (Format, String, RFC 3339 in JSON and YAML) and the
// parsing of the layouts BurntSushi/toml and yaml.v3 try. time.Local is taken to be UTC, as in OSM's
// container. The template values (methods, Duration, Location) are in value.ts.
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).

export interface GoTime {
  /** Civil time in the time's zone. */
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly min: number;
  readonly sec: number;
  readonly nsec: number;
  /** Seconds east of UTC. */
  readonly offset: number;
  /** Zone abbreviation; "" for a zone Parse made up from an offset. */
  readonly zone: string;
  /** Which *time.Location it is (Go compares times by location pointer). */
  readonly loc: string;
}

export const UTC_LOC = 'utc';
export const LOCAL_LOC = 'local';

// ---------------------------------------------------------------- calendar

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): { y: number; m: number; d: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const daysIn = (m: number, y: number) =>
  m === 2 ? (isLeap(y) ? 29 : 28) : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;

export const unixSeconds = (t: GoTime) =>
  BigInt(daysFromCivil(t.year, t.month, t.day)) * 86400n + BigInt(t.hour * 3600 + t.min * 60 + t.sec - t.offset);
export const weekday = (t: GoTime) => ((daysFromCivil(t.year, t.month, t.day) % 7) + 11) % 7; // 1970-01-01 was a Thursday
export const yearDay = (t: GoTime) => daysFromCivil(t.year, t.month, t.day) - daysFromCivil(t.year, 1, 1) + 1;

/** The time at an instant (seconds since 1970 and nanoseconds), in a zone. */
export function atInstant(unix: bigint, nsec: number, where: GoLocation): GoTime {
  const local = unix + BigInt(where.offset);
  const days = local / 86400n - (local % 86400n < 0n ? 1n : 0n);
  const rest = Number(local - days * 86400n);
  const { y, m, d } = civilFromDays(Number(days));
  return {
    year: y,
    month: m,
    day: d,
    hour: Math.floor(rest / 3600),
    min: Math.floor(rest / 60) % 60,
    sec: rest % 60,
    nsec,
    offset: where.offset,
    zone: where.zone,
    loc: where.loc,
  };
}

export const inUTC = (t: GoTime): GoTime => atInstant(unixSeconds(t), t.nsec, UTC);

/** time.Date: the fields normalised (a month or day out of range carries over), in a zone. */
export function goDate(
  year: number,
  month: number,
  day: number,
  hour: number,
  min: number,
  sec: number,
  nsec: number,
  where: GoLocation,
): GoTime {
  const m0 = month - 1;
  year += Math.floor(m0 / 12);
  const days = daysFromCivil(year, (((m0 % 12) + 12) % 12) + 1, 1) + day - 1;
  return atInstant(BigInt(days) * 86400n + BigInt(hour * 3600 + min * 60 + sec - where.offset), nsec, where);
}

/** The zone a time is in. */
export const locationOf = (t: GoTime): GoLocation => ({ loc: t.loc, zone: t.zone, offset: t.offset });

// ---------------------------------------------------------------- layouts

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Chunk =
  | 'Jan'
  | 'January'
  | 'Mon'
  | 'Monday'
  | 'MST'
  | '1'
  | '01'
  | '2'
  | '02'
  | '_2'
  | '__2'
  | '002'
  | '06'
  | '2006'
  | '15'
  | '3'
  | '03'
  | '4'
  | '04'
  | '5'
  | '05'
  | 'PM'
  | 'pm'
  | '-070000'
  | '-07:00:00'
  | '-0700'
  | '-07:00'
  | '-07'
  | 'Z070000'
  | 'Z07:00:00'
  | 'Z0700'
  | 'Z07:00'
  | 'Z07'
  | { frac: '0' | '9'; digits: number; sep: string };

/** Go's nextStdChunk: the literal text before the first layout element, the element, and the rest. */
function nextChunk(layout: string): { prefix: string; chunk?: Chunk; rest: string } {
  const at = (i: number, s: string) => layout.startsWith(s, i);
  for (let i = 0; i < layout.length; i++) {
    const found = (chunk: Chunk, len: number) => ({ prefix: layout.slice(0, i), chunk, rest: layout.slice(i + len) });
    switch (layout[i]) {
      case 'J':
        if (at(i, 'January')) return found('January', 7);
        // "Jan" and "Mon" followed by a lower-case letter are words, not elements.
        if (at(i, 'Jan') && !/^[a-z]/.test(layout.slice(i + 3))) return found('Jan', 3);
        break;
      case 'M':
        if (at(i, 'Monday')) return found('Monday', 6);
        if (at(i, 'Mon') && !/^[a-z]/.test(layout.slice(i + 3))) return found('Mon', 3);
        if (at(i, 'MST')) return found('MST', 3);
        break;
      case '0':
        if (/^0[1-6]/.test(layout.slice(i))) return found(layout.slice(i, i + 2) as Chunk, 2);
        if (at(i, '002')) return found('002', 3);
        break;
      case '1':
        if (at(i, '15')) return found('15', 2);
        return found('1', 1);
      case '2':
        if (at(i, '2006')) return found('2006', 4);
        return found('2', 1);
      case '_':
        if (at(i, '_2')) {
          // "_2006" is a literal underscore and a year.
          if (at(i + 1, '2006')) return { prefix: layout.slice(0, i + 1), chunk: '2006', rest: layout.slice(i + 5) };
          return found('_2', 2);
        }
        if (at(i, '__2')) return found('__2', 3);
        break;
      case '3':
      case '4':
      case '5':
        return found(layout[i] as Chunk, 1);
      case 'P':
        if (at(i, 'PM')) return found('PM', 2);
        break;
      case 'p':
        if (at(i, 'pm')) return found('pm', 2);
        break;
      case '-':
        for (const z of ['-070000', '-07:00:00', '-0700', '-07:00', '-07'] as const)
          if (at(i, z)) return found(z, z.length);
        break;
      case 'Z':
        for (const z of ['Z070000', 'Z07:00:00', 'Z0700', 'Z07:00', 'Z07'] as const)
          if (at(i, z)) return found(z, z.length);
        break;
      case '.':
      case ',': {
        const c = layout[i + 1];
        if (c === '0' || c === '9') {
          let j = i + 1;
          while (layout[j] === c) j++;
          // Only a run of digits that ends the number is a fraction.
          if (!/[0-9]/.test(layout[j] ?? '')) return found({ frac: c, digits: j - i - 1, sep: layout[i]! }, j - i);
        }
        break;
      }
    }
  }
  return { prefix: layout, rest: '' };
}

const pad = (n: number, width: number) =>
  n < 0 ? '-' + String(-n).padStart(width, '0') : String(n).padStart(width, '0');

function formatZone(t: GoTime, chunk: string): string {
  if (chunk[0] === 'Z' && t.offset === 0) return 'Z';
  const zone = Math.trunc(t.offset / 60);
  const abs = Math.abs(t.offset);
  let s = (zone < 0 ? '-' : '+') + pad(Math.floor(Math.abs(zone) / 60), 2);
  const colon = chunk.includes(':');
  if (chunk !== '-07' && chunk !== 'Z07') s += (colon ? ':' : '') + pad(Math.abs(zone) % 60, 2);
  if (chunk.endsWith('0000') || chunk.endsWith(':00:00')) s += (colon ? ':' : '') + pad(abs % 60, 2);
  return s;
}

/** Time.Format. */
export function formatGoTime(t: GoTime, layout: string): string {
  let out = '';
  for (;;) {
    const { prefix, chunk, rest } = nextChunk(layout);
    out += prefix;
    if (chunk === undefined) return out;
    layout = rest;
    if (typeof chunk === 'object') {
      let digits = String(t.nsec)
        .padStart(9, '0')
        .slice(0, chunk.frac === '9' ? 9 : chunk.digits);
      if (chunk.frac === '9') {
        digits = digits.slice(0, chunk.digits).replace(/0+$/, '');
        if (digits !== '') out += chunk.sep + digits;
      } else out += chunk.sep + digits;
      continue;
    }
    const hour12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
    switch (chunk) {
      case '06':
        out += pad(t.year % 100, 2);
        break;
      case '2006':
        out += pad(t.year, 4);
        break;
      case 'Jan':
        out += MONTHS[t.month - 1]!.slice(0, 3);
        break;
      case 'January':
        out += MONTHS[t.month - 1];
        break;
      case '1':
        out += t.month;
        break;
      case '01':
        out += pad(t.month, 2);
        break;
      case 'Mon':
        out += DAYS[weekday(t)]!.slice(0, 3);
        break;
      case 'Monday':
        out += DAYS[weekday(t)];
        break;
      case '2':
        out += t.day;
        break;
      case '_2':
        out += String(t.day).padStart(2, ' ');
        break;
      case '02':
        out += pad(t.day, 2);
        break;
      case '__2':
        out += String(yearDay(t)).padStart(3, ' ');
        break;
      case '002':
        out += pad(yearDay(t), 3);
        break;
      case '15':
        out += pad(t.hour, 2);
        break;
      case '3':
        out += hour12;
        break;
      case '03':
        out += pad(hour12, 2);
        break;
      case '4':
        out += t.min;
        break;
      case '04':
        out += pad(t.min, 2);
        break;
      case '5':
        out += t.sec;
        break;
      case '05':
        out += pad(t.sec, 2);
        break;
      case 'PM':
        out += t.hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += t.hour >= 12 ? 'pm' : 'am';
        break;
      case 'MST': {
        if (t.zone !== '') out += t.zone;
        else {
          const zone = Math.trunc(t.offset / 60);
          out += (zone < 0 ? '-' : '+') + pad(Math.floor(Math.abs(zone) / 60), 2) + pad(Math.abs(zone) % 60, 2);
        }
        break;
      }
      default:
        out += formatZone(t, chunk);
    }
  }
}

export const RFC3339_NANO = '2006-01-02T15:04:05.999999999Z07:00';

/** Time.String (no monotonic clock reading). */
export const goTimeString = (t: GoTime) => formatGoTime(t, '2006-01-02 15:04:05.999999999 -0700 MST');

// ---------------------------------------------------------------- parsing

/** getnum: one or two digits (exactly two when `fixed`). */
function getnum(s: string, fixed: boolean): { n: number; rest: string } | undefined {
  if (!/^[0-9]/.test(s)) return undefined;
  if (!/^[0-9]{2}/.test(s)) return fixed ? undefined : { n: Number(s[0]), rest: s.slice(1) };
  return { n: Number(s.slice(0, 2)), rest: s.slice(2) };
}

/** The location time.ParseInLocation is given: its id, zone name and offset. */
export interface GoLocation {
  readonly loc: string;
  readonly zone: string;
  readonly offset: number;
}

export const LOCAL: GoLocation = { loc: LOCAL_LOC, zone: 'UTC', offset: 0 };

let fabricatedZones = 0;

/** Go's skip: layout text must match, a space matching any run of spaces (and the end of the value). */
function skipLiteral(value: string, prefix: string): string | undefined {
  while (prefix.length > 0) {
    if (prefix[0] === ' ') {
      if (value.length > 0 && value[0] !== ' ') return undefined;
      prefix = prefix.replace(/^ +/, '');
      value = value.replace(/^ +/, '');
      continue;
    }
    if (value.length === 0 || value[0] !== prefix[0]) return undefined;
    prefix = prefix.slice(1);
    value = value.slice(1);
  }
  return value;
}

export const UTC: GoLocation = { loc: UTC_LOC, zone: 'UTC', offset: 0 };

/**
 * time.ParseInLocation (time.Parse: `where` UTC and `local` Local) for layouts made of 2006 01 1 02 2 15
 * 04 4 05 5 .999999999 Z07:00 and literal text, the ones BurntSushi/toml and yaml.v3 use; undefined where
 * Go returns an error.
 */
export function parseGoTime(
  layout: string,
  value: string,
  where: GoLocation,
  local: GoLocation = where,
): GoTime | undefined {
  let year = 0;
  let month = -1;
  let day = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let utc = false;
  let zoneOffset: number | undefined;
  const fraction = (v: string): { ns: number; rest: string } => {
    let i = 1;
    while (/[0-9]/.test(v[i] ?? '')) i++;
    return { ns: Number(v.slice(1, Math.min(i, 10)).padEnd(9, '0')), rest: v.slice(i) };
  };
  for (;;) {
    const { prefix, chunk, rest } = nextChunk(layout);
    const after = skipLiteral(value, prefix);
    if (after === undefined) return undefined;
    value = after;
    if (chunk === undefined) {
      if (value !== '') return undefined; // extra text
      break;
    }
    layout = rest;
    let r: { n: number; rest: string } | undefined;
    if (typeof chunk === 'object') {
      if (chunk.frac !== '9') return undefined;
      if (value.length < 2 || (value[0] !== '.' && value[0] !== ',') || !/[0-9]/.test(value[1]!)) continue;
      const f = fraction(value);
      nsec = f.ns;
      value = f.rest;
      continue;
    }
    switch (chunk) {
      case '2006':
        if (!/^[0-9]{4}/.test(value)) return undefined;
        year = Number(value.slice(0, 4));
        value = value.slice(4);
        continue;
      case '01':
      case '02':
      case '15':
      case '04':
      case '05':
      case '1':
      case '2':
      case '4':
      case '5':
        // Two digits where the layout has a leading zero; one or two otherwise.
        r = getnum(value, chunk.length === 2 && chunk !== '15');
        if (r === undefined) return undefined;
        value = r.rest;
        break;
      case 'Z07:00':
        if (value[0] === 'Z') {
          value = value.slice(1);
          utc = true;
          continue;
        }
        if (value.length < 6 || value[3] !== ':') return undefined;
        {
          const hh = getnum(value.slice(1, 3), true);
          const mm = getnum(value.slice(4, 6), true);
          if (hh === undefined || mm === undefined) return undefined;
          // Offsets are range-checked with > (24 hours and 60 minutes are accepted).
          if (hh.n > 24 || mm.n > 60) return undefined;
          const off = (hh.n * 60 + mm.n) * 60;
          if (value[0] === '+') zoneOffset = off;
          else if (value[0] === '-') zoneOffset = -off;
          else return undefined;
          value = value.slice(6);
        }
        continue;
      default:
        return undefined;
    }
    const n = r.n;
    switch (chunk) {
      case '01':
      case '1':
        if (n <= 0 || n > 12) return undefined;
        month = n;
        break;
      case '02':
      case '2':
        day = n;
        break;
      case '15':
        if (n >= 24) return undefined;
        hour = n;
        break;
      case '04':
      case '4':
        if (n >= 60) return undefined;
        min = n;
        break;
      case '05':
      case '5': {
        if (n >= 60) return undefined;
        sec = n;
        // A fraction the layout does not name is still read.
        if (
          typeof nextChunk(layout).chunk !== 'object' &&
          value.length >= 2 &&
          (value[0] === '.' || value[0] === ',') &&
          /[0-9]/.test(value[1]!)
        ) {
          const f = fraction(value);
          nsec = f.ns;
          value = f.rest;
        }
        break;
      }
    }
  }
  if (month < 0) month = 1;
  if (day < 0) day = 1;
  if (day < 1 || day > daysIn(month, year)) return undefined;
  const civil = { year, month, day, hour, min, sec, nsec };
  if (utc) return { ...civil, offset: 0, zone: 'UTC', loc: UTC_LOC };
  if (zoneOffset !== undefined) {
    const parsed = { ...civil, offset: zoneOffset, zone: '', loc: '' };
    // The local zone when its offset matches, else a zone made up for the offset.
    const z = zoneOffset === local.offset ? local : { loc: `fixed#${++fabricatedZones}`, zone: '', offset: zoneOffset };
    return inLocation(parsed, z);
  }
  return { ...civil, offset: where.offset, zone: where.zone, loc: where.loc };
}

function inLocation(t: GoTime, where: GoLocation): GoTime {
  return atInstant(unixSeconds(t), t.nsec, where);
}
