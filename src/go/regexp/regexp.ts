// Go's regexp (RE2 syntax, leftmost-first matching) for sprig's regex functions and semver's constraint
// grammar. JavaScript's RegExp differs from RE2 in syntax ((?i) mid-pattern, \z, \Q..\E, [[:alpha:]]),
// in semantics (\s and \w are ASCII-only in Go, $ is end-of-text only, empty matches after a match are
// skipped by FindAll/ReplaceAll) and, above all, it backtracks: a hostile pattern can hang it. So we parse
// Go's syntax ourselves (with Go's error messages) and run a Pike VM, whose cost is linear in the input
// times the program size, like Go's own NFA. Only match tests (regexMatch) may take a JS RegExp instead,
// where it provably answers the same within a bounded cost (jsRegExp.ts).
//
// Go's own limits (regexp/syntax): at most 1000 copies from counted repetitions, a program of at most
// 3,355,443 instructions as Go estimates its size, a tree at most 1000 levels high. They are checked on our
// tree, which keeps apart a few nodes Go merges (literal strings, one-rune classes, common prefixes of an
// alternation), so a pattern within a hair of a limit can be judged differently; Go's limit on the runes of
// character classes (32M) is not checked (ours hold Unicode classes by reference). The work is charged on the
// caller's meter: the parse by the pattern's length, the program by its size before it is made, and a run
// by the input length times the program size, a position at a time, so any pattern Go accepts runs until
// the meter says stop. Unicode tables are Node's (newer than Go 1.19's).
// Follows Go 1.19 (the differential oracle) and current Go where it changed since (OSM builds with go 1.26;
// test/template/engine/newerGo.test.ts).

import { TextBuilder } from '../internal/textBuilder.ts';
import { jsMatcher, MAX_JS_BACKTRACKING, type JsMatcher } from './jsRegExp.ts';
import type { CharClass, ClassItem, EmptyKind, RegexpNode as Node } from './syntaxTree.ts';
import { canonicalGoString } from '../reflect/byteString.ts';
import { ELEMENT_BYTES, type Meter } from '../internal/meter.ts';
import { lookupKey } from '../internal/hashableKey.ts';

export class GoRegexpError extends Error {
  constructor(
    readonly code: string,
    readonly expr: string,
  ) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
    this.name = 'GoRegexpError';
  }
}

const ERR = {
  invalidCharRange: 'invalid character class range',
  invalidEscape: 'invalid escape sequence',
  invalidNamedCapture: 'invalid named capture',
  invalidPerlOp: 'invalid or unsupported Perl syntax',
  invalidRepeatOp: 'invalid nested repetition operator',
  invalidRepeatSize: 'invalid repeat count',
  missingBracket: 'missing closing ]',
  missingParen: 'missing closing )',
  missingRepeatArgument: 'missing argument to repetition operator',
  trailingBackslash: 'trailing backslash at end of expression',
  unexpectedParen: 'unexpected )',
  nestingDepth: 'expression nests too deeply',
  large: 'expression too large',
} as const;

const MAX_RUNE = 0x10ffff;
/** Go's maxSize: 128 MB of 40-byte instructions. */
const MAX_SIZE = Math.floor((128 << 20) / 40);
/** Go's maxHeight. */
const MAX_HEIGHT = 1000;
/** Go's maxRepeat: the count of one repetition, and the product of nested ones. */
const MAX_REPEAT = 1000;

// What a regexp costs (units of src/go/internal/meter.ts), measured by the calibration test.
/** Work per character of the pattern, parsing it. */
const PARSE_UNITS = 64;
/** Memory per instruction of a compiled program (an object, and a closure for a character test). */
const INST_BYTES = 256;
/** Work per instruction and input position of a run (a thread of the Pike VM visited). */
const RUN_UNITS = 64;
/**
 * Memory of a piece of a replacement's result (a slice of the input, and its place in the list); a piece's text
 * is charged twice, as it is copied again when the pieces are joined.
 */
const PIECE_BYTES = 32;
/** Work per step of the JS RegExp fast path's backtracking bound. */
const JS_UNITS = 2;

// ---------------------------------------------------------------------------------------------------
// Character classes (their types are in syntaxTree.ts)

const ascii = (spec: string): Array<[number, number]> => {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < spec.length; i++) {
    const lo = spec.charCodeAt(i);
    if (spec[i + 1] === '-' && i + 2 < spec.length) {
      out.push([lo, spec.charCodeAt(i + 2)]);
      i += 2;
    } else out.push([lo, lo]);
  }
  return out;
};

const PERL_GROUPS: Record<string, Array<[number, number]>> = {
  d: ascii('0-9'),
  s: [
    [9, 10],
    [12, 13],
    [32, 32],
  ],
  w: ascii('0-9A-Z_a-z'),
};

const POSIX_GROUPS: Record<string, Array<[number, number]>> = {
  alnum: ascii('0-9A-Za-z'),
  alpha: ascii('A-Za-z'),
  ascii: [[0, 0x7f]],
  blank: [
    [9, 9],
    [32, 32],
  ],
  cntrl: [
    [0, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: ascii('0-9'),
  graph: [[0x21, 0x7e]],
  lower: ascii('a-z'),
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [9, 13],
    [32, 32],
  ],
  upper: ascii('A-Z'),
  word: ascii('0-9A-Z_a-z'),
  xdigit: ascii('0-9A-Fa-f'),
};

// Unicode classes Go knows: general categories and scripts (Go 1.19's names plus the scripts added by
// Unicode 14 and 15, which newer Go versions have). Membership is tested with JS's \p{...}.
const CATEGORIES = new Set(
  'C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '),
);
const SCRIPTS = new Set(
  (
    'Adlam Ahom Anatolian_Hieroglyphs Arabic Armenian Avestan Balinese Bamum Bassa_Vah Batak Bengali Bhaiksuki ' +
    'Bopomofo Brahmi Braille Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham Cherokee ' +
    'Chorasmian Common Coptic Cuneiform Cypriot Cypro_Minoan Cyrillic Deseret Devanagari Dives_Akuru Dogra Duployan ' +
    'Egyptian_Hieroglyphs Elbasan Elymaic Ethiopic Georgian Glagolitic Gothic Grantha Greek Gujarati Gunjala_Gondi ' +
    'Gurmukhi Han Hangul Hanifi_Rohingya Hanunoo Hatran Hebrew Hiragana Imperial_Aramaic Inherited ' +
    'Inscriptional_Pahlavi Inscriptional_Parthian Javanese Kaithi Kannada Katakana Kawi Kayah_Li Kharoshthi ' +
    'Khitan_Small_Script Khmer Khojki Khudawadi Lao Latin Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian ' +
    'Mahajani Makasar Malayalam Mandaic Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui ' +
    'Meroitic_Cursive Meroitic_Hieroglyphs Miao Modi Mongolian Mro Multani Myanmar Nabataean Nag_Mundari ' +
    'Nandinagari New_Tai_Lue Newa Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Old_Hungarian Old_Italic ' +
    'Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur Oriya Osage ' +
    'Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang Runic Samaritan ' +
    'Saurashtra Sharada Shavian Siddham SignWriting Sinhala Sogdian Sora_Sompeng Soyombo Sundanese Syloti_Nagri ' +
    'Syriac Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Takri Tamil Tangsa Tangut Telugu Thaana Thai Tibetan ' +
    'Tifinagh Tirhuta Toto Ugaritic Vai Vithkuqi Wancho Warang_Citi Yezidi Yi Zanabazar_Square'
  ).split(' '),
);

const propCache = new Map<string, RegExp>();
function unicodeProp(name: string): RegExp | undefined {
  let re = propCache.get(name);
  if (re !== undefined) return re;
  if (name === 'Any') re = /[\s\S]/u;
  // Go's C is Cc|Cf|Co|Cs: unassigned code points (Cn) are not in it.
  else if (name === 'C') re = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/u;
  else if (CATEGORIES.has(name)) re = new RegExp(`\\p{gc=${name}}`, 'u');
  else if (SCRIPTS.has(name)) re = new RegExp(`\\p{Script=${name}}`, 'u');
  else return undefined;
  propCache.set(name, re);
  return re;
}

function itemHasRaw(item: ClassItem, c: number): boolean {
  if ('ranges' in item) return item.ranges.some(([lo, hi]) => c >= lo && c <= hi);
  return item.prop.test(String.fromCodePoint(c));
}

function itemHas(item: ClassItem, c: number, fold: boolean): boolean {
  const hit = fold ? orbit(c).some((o) => itemHasRaw(item, o)) : itemHasRaw(item, c);
  return hit !== item.negated;
}

// Case folding: Go folds with unicode.SimpleFold orbits. We build the orbits once, lazily, from JS case
// mappings (upper then lower; multi-character mappings do not count), which agree with Unicode simple
// case folding except for dotless i, which folds to nothing else.
let orbits: Map<number, number[]> | undefined;
function foldKey(c: number): number {
  if (c === 0x131 || c === 0x130) return c;
  const s = String.fromCodePoint(c);
  const up = s.toUpperCase();
  const base = [...up].length === 1 ? up : s;
  const low = base.toLowerCase();
  return [...low].length === 1 ? low.codePointAt(0)! : c;
}
// The blocks that hold every code point with a case mapping (checked against a full scan in the tests).
const CASED_BLOCKS: ReadonlyArray<readonly [number, number]> = [
  [0x0000, 0x058f],
  [0x10a0, 0x10ff],
  [0x13a0, 0x13ff],
  [0x1c80, 0x1cbf],
  [0x1d00, 0x1fff],
  [0x2100, 0x218f],
  [0x24b0, 0x24ff],
  [0x2c00, 0x2d2f],
  [0xa640, 0xa7ff],
  [0xab30, 0xabbf],
  [0xfb00, 0xfb17],
  [0xff20, 0xff5f],
  [0x10400, 0x104ff],
  [0x10570, 0x105bf],
  [0x10c80, 0x10cff],
  [0x10d40, 0x10d8f],
  [0x118a0, 0x118ff],
  [0x16e40, 0x16edf],
  [0x1e900, 0x1e95f],
];

export function* casedCodePoints(all = false): Generator<number> {
  for (const [lo, hi] of all
    ? [
        [0, 0xd7ff],
        [0xe000, 0x10ffff],
      ]
    : CASED_BLOCKS)
    for (let x = lo!; x <= hi!; x++) yield x;
}

/** Fold orbits as built from `points` (exported for the test that checks CASED_BLOCKS). */
export function foldOrbitsOf(points: Iterable<number>): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const x of points) {
    const k = foldKey(x);
    if (k === x && String.fromCodePoint(x).toUpperCase() === String.fromCodePoint(x)) continue;
    let g = groups.get(k);
    if (g === undefined) groups.set(k, (g = [k]));
    if (x !== k) g.push(x);
  }
  const out = new Map<number, number[]>();
  for (const g of groups.values()) if (g.length > 1) for (const x of g) out.set(x, g);
  return out;
}

export function orbit(c: number): readonly number[] {
  orbits ??= foldOrbitsOf(casedCodePoints());
  return orbits.get(c) ?? [c];
}

function classHas(cls: CharClass, c: number): boolean {
  return cls.items.some((it) => itemHas(it, c, cls.fold)) !== cls.negated;
}

// ---------------------------------------------------------------------------------------------------
// Parser (the tree it builds is in syntaxTree.ts)

interface Flags {
  fold: boolean;
  multiLine: boolean;
  dotNL: boolean;
  nonGreedy: boolean;
}

interface Frame {
  /** 0 for a non-capturing group or the top level. */
  capture: number;
  savedFlags: Flags;
  alternatives: Node[][];
  current: Node[];
}

interface Parsed {
  tree: Node;
  numCap: number;
  names: string[];
  /** The program's size as Go estimates it. */
  size: number;
}

const subsOf = (re: Node): readonly Node[] => ('sub' in re ? [re.sub] : 'subs' in re ? re.subs : []);

/** Go's checkSize and checkHeight, with their sizes and heights remembered per node as Go does. */
class Limits {
  private readonly sizes = new WeakMap<Node, number>();
  private readonly heights = new WeakMap<Node, number>();

  constructor(private readonly expr: string) {}

  check(re: Node): void {
    if (this.size(re) > MAX_SIZE) throw new GoRegexpError(ERR.large, this.expr);
    if (this.height(re) > MAX_HEIGHT) throw new GoRegexpError(ERR.nestingDepth, this.expr);
  }

  /** Go's calcSize: the instructions the node compiles to, counting a counted repetition's copies. */
  size(re: Node): number {
    const known = this.sizes.get(re);
    if (known !== undefined) return known;
    let n = 0;
    switch (re.op) {
      case 'literal':
        n = 1;
        break;
      case 'capture':
      case 'star':
        n = 2 + this.size(re.sub);
        break;
      case 'plus':
      case 'quest':
        n = 1 + this.size(re.sub);
        break;
      case 'concat':
        for (const sub of re.subs) n += this.size(sub);
        break;
      case 'alternate':
        for (const sub of re.subs) n += this.size(sub);
        if (re.subs.length > 1) n += re.subs.length - 1;
        break;
      case 'repeat': {
        const sub = this.size(re.sub);
        if (re.max === -1) n = re.min === 0 ? 2 + sub : 1 + re.min * sub;
        else n = re.max * sub + (re.max - re.min);
        break;
      }
      default:
        break;
    }
    n = Math.max(1, n);
    this.sizes.set(re, n);
    return n;
  }

  /** Go's calcHeight; a concatenation of literals is one node in Go's tree (a literal string). */
  private height(re: Node): number {
    const known = this.heights.get(re);
    if (known !== undefined) return known;
    let h = 1;
    if (!(
      re.op === 'concat' &&
      re.subs.every((x) => x.op === 'literal' && x.fold === (re.subs[0] as { fold: boolean }).fold)
    )) {
      for (const sub of subsOf(re)) h = Math.max(h, 1 + this.height(sub));
    }
    this.heights.set(re, h);
    return h;
  }
}

const isAlnum = (c: string) => /^[0-9A-Za-z]$/.test(c);
const unhex = (c: string) => (/^[0-9A-Fa-f]$/.test(c) ? parseInt(c, 16) : -1);

/** Go's regexp/syntax.Parse with the Perl flags regexp.Compile uses. */
function parse(expr: string): Parsed {
  let flags: Flags = { fold: false, multiLine: false, dotNL: false, nonGreedy: false };
  const top: Frame = { capture: 0, savedFlags: flags, alternatives: [], current: [] };
  const frames: Frame[] = [top];
  const names: string[] = [''];
  let numCap = 0;
  let t = expr;
  let lastRepeat = '';
  const limits = new Limits(expr);
  const frame = () => frames[frames.length - 1]!;
  const push = (n: Node) => frame().current.push(n);
  const openGroup = (capture: number) => {
    frames.push({ capture, savedFlags: flags, alternatives: [], current: [] });
  };

  const repeat = (node: (sub: Node, nonGreedy: boolean) => Node, before: string, after: string): string => {
    let nonGreedy = flags.nonGreedy;
    if (after.startsWith('?')) {
      after = after.slice(1);
      nonGreedy = !nonGreedy;
    }
    if (lastRepeat !== '')
      throw new GoRegexpError(ERR.invalidRepeatOp, lastRepeat.slice(0, lastRepeat.length - after.length));
    const cur = frame().current;
    if (cur.length === 0)
      throw new GoRegexpError(ERR.missingRepeatArgument, before.slice(0, before.length - after.length));
    cur[cur.length - 1] = node(cur[cur.length - 1]!, nonGreedy);
    return after;
  };

  while (t !== '') {
    let rep = '';
    const c = t[0]!;
    if (c === '(') {
      if (t.startsWith('(?')) t = parsePerlFlags(t);
      else {
        numCap++;
        names.push('');
        openGroup(numCap);
        t = t.slice(1);
      }
    } else if (c === '|') {
      const f = frame();
      f.alternatives.push(f.current);
      f.current = [];
      t = t.slice(1);
    } else if (c === ')') {
      if (frames.length === 1) throw new GoRegexpError(ERR.unexpectedParen, expr);
      const f = frames.pop()!;
      flags = f.savedFlags;
      const body = finishFrame(f);
      const group: Node = f.capture === 0 ? body : { op: 'capture', index: f.capture, sub: body };
      limits.check(group);
      push(group);
      t = t.slice(1);
    } else if (c === '^') {
      push({ op: 'empty', kind: flags.multiLine ? 'beginLine' : 'beginText' });
      t = t.slice(1);
    } else if (c === '$') {
      push({ op: 'empty', kind: flags.multiLine ? 'endLine' : 'endText' });
      t = t.slice(1);
    } else if (c === '.') {
      push(flags.dotNL ? { op: 'anyChar' } : { op: 'anyCharNotNL' });
      t = t.slice(1);
    } else if (c === '[') {
      t = parseClass(t);
    } else if (c === '*' || c === '+' || c === '?') {
      const op = c === '*' ? 'star' : c === '+' ? 'plus' : 'quest';
      const before = t;
      t = repeat((sub, nonGreedy) => ({ op, sub, nonGreedy }), before, t.slice(1));
      rep = before;
    } else if (c === '{') {
      const r = parseRepeat(t);
      if (r === undefined) {
        push(literal(0x7b));
        t = t.slice(1);
      } else {
        const before = t;
        if (r.min < 0 || r.min > MAX_REPEAT || r.max > MAX_REPEAT || (r.max >= 0 && r.min > r.max)) {
          throw new GoRegexpError(ERR.invalidRepeatSize, before.slice(0, before.length - r.rest.length));
        }
        t = repeat((sub, nonGreedy) => ({ op: 'repeat', sub, min: r.min, max: r.max, nonGreedy }), before, r.rest);
        const cur = frame().current;
        const made = cur[cur.length - 1]!;
        limits.check(made);
        if ((r.min >= 2 || r.max >= 2) && !repeatIsValid(made, MAX_REPEAT)) {
          throw new GoRegexpError(ERR.invalidRepeatSize, before.slice(0, before.length - t.length));
        }
        rep = before;
      }
    } else if (c === '\\') {
      t = parseBackslash(t);
    } else {
      const ch = String.fromCodePoint(t.codePointAt(0)!);
      push(literal(ch.codePointAt(0)!));
      t = t.slice(ch.length);
    }
    lastRepeat = rep;
  }
  if (frames.length !== 1) throw new GoRegexpError(ERR.missingParen, expr);
  const tree = finishFrame(top);
  limits.check(tree);
  return { tree, numCap, names, size: limits.size(tree) };

  function literal(rune: number): Node {
    return { op: 'literal', rune, fold: flags.fold };
  }

  function finishFrame(f: Frame): Node {
    const alts = [...f.alternatives, f.current].map((seq): Node =>
      seq.length === 0 ? { op: 'emptyMatch' } : seq.length === 1 ? seq[0]! : { op: 'concat', subs: seq },
    );
    return alts.length === 1 ? alts[0]! : { op: 'alternate', subs: alts };
  }

  function parsePerlFlags(s: string): string {
    // Named captures: (?P<name>re), and (?<name>re) as Go 1.22+ accepts it.
    const withP = s.length > 4 && s[2] === 'P' && s[3] === '<';
    const bare = s.length > 3 && s[2] === '<';
    if (withP || bare) {
      const end = s.indexOf('>');
      if (end < 0) throw new GoRegexpError(ERR.invalidNamedCapture, s);
      const capture = s.slice(0, end + 1);
      const name = s.slice(withP ? 4 : 3, end);
      if (!/^[0-9A-Za-z_]+$/.test(name)) throw new GoRegexpError(ERR.invalidNamedCapture, capture);
      numCap++;
      names.push(name);
      openGroup(numCap);
      return s.slice(end + 1);
    }
    let rest = s.slice(2);
    const next: Flags = { ...flags };
    let negate = false;
    let sawFlag = false;
    while (rest !== '') {
      const ch = String.fromCodePoint(rest.codePointAt(0)!);
      rest = rest.slice(ch.length);
      if (ch === 'i' || ch === 'm' || ch === 's' || ch === 'U') {
        const on = !negate;
        if (ch === 'i') next.fold = on;
        else if (ch === 'm') next.multiLine = on;
        else if (ch === 's') next.dotNL = on;
        else next.nonGreedy = on;
        sawFlag = true;
      } else if (ch === '-') {
        if (negate) break;
        negate = true;
        sawFlag = false;
      } else if (ch === ':' || ch === ')') {
        if (negate && !sawFlag) break;
        if (ch === ':') openGroup(0);
        flags = next;
        return rest;
      } else break;
    }
    throw new GoRegexpError(ERR.invalidPerlOp, s.slice(0, s.length - rest.length));
  }

  function parseBackslash(s: string): string {
    if (s.length >= 2) {
      switch (s[1]) {
        case 'A':
          push({ op: 'empty', kind: 'beginText' });
          return s.slice(2);
        case 'b':
          push({ op: 'empty', kind: 'wordBoundary' });
          return s.slice(2);
        case 'B':
          push({ op: 'empty', kind: 'noWordBoundary' });
          return s.slice(2);
        case 'C':
          throw new GoRegexpError(ERR.invalidEscape, s.slice(0, 2));
        case 'z':
          push({ op: 'empty', kind: 'endText' });
          return s.slice(2);
        case 'Q': {
          const end = s.indexOf('\\E', 2);
          const lit = end < 0 ? s.slice(2) : s.slice(2, end);
          for (const ch of lit) push(literal(ch.codePointAt(0)!));
          return end < 0 ? '' : s.slice(end + 2);
        }
      }
    }
    const uni = parseUnicodeClass(s);
    if (uni !== undefined) {
      push({ op: 'class', cls: { items: [uni.item], negated: false, fold: flags.fold } });
      return uni.rest;
    }
    const perl = parsePerlClassEscape(s);
    if (perl !== undefined) {
      push({ op: 'class', cls: { items: perl.items, negated: false, fold: flags.fold } });
      return perl.rest;
    }
    const e = parseEscape(s);
    push(literal(e.rune));
    return e.rest;
  }

  function parsePerlClassEscape(s: string): { items: ClassItem[]; rest: string } | undefined {
    if (s.length < 2 || s[0] !== '\\') return undefined;
    if (!/^[dswDSW]$/.test(s[1]!)) return undefined;
    const ranges = PERL_GROUPS[s[1]!.toLowerCase()]!;
    return { items: [{ ranges, negated: s[1] !== s[1]!.toLowerCase() }], rest: s.slice(2) };
  }

  function parseUnicodeClass(s: string): { item: ClassItem; rest: string } | undefined {
    if (s.length < 2 || s[0] !== '\\' || (s[1] !== 'p' && s[1] !== 'P')) return undefined;
    let negated = s[1] === 'P';
    let rest = s.slice(2);
    let seq: string;
    let name: string;
    const ch = rest === '' ? '' : String.fromCodePoint(rest.codePointAt(0)!);
    rest = rest.slice(ch.length);
    if (ch !== '{') {
      seq = s.slice(0, s.length - rest.length);
      name = seq.slice(2);
    } else {
      const end = s.indexOf('}');
      if (end < 0) throw new GoRegexpError(ERR.invalidCharRange, s);
      seq = s.slice(0, end + 1);
      rest = s.slice(end + 1);
      name = s.slice(3, end);
    }
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    const prop = unicodeProp(name);
    if (prop === undefined) throw new GoRegexpError(ERR.invalidCharRange, seq);
    return { item: { prop, negated }, rest };
  }

  function parseEscape(s: string): { rune: number; rest: string } {
    let t = s.slice(1);
    if (t === '') throw new GoRegexpError(ERR.trailingBackslash, '');
    const c = String.fromCodePoint(t.codePointAt(0)!);
    t = t.slice(c.length);
    const bad = () => new GoRegexpError(ERR.invalidEscape, s.slice(0, s.length - t.length));
    if (c >= '1' && c <= '7' && !(t !== '' && t[0]! >= '0' && t[0]! <= '7')) throw bad();
    if (c >= '0' && c <= '7') {
      // Octal: \0 or \1-\7 followed by more octal digits (up to three in all).
      let r = c.charCodeAt(0) - 48;
      for (let i = 1; i < 3 && t !== '' && t[0]! >= '0' && t[0]! <= '7'; i++) {
        r = r * 8 + t.charCodeAt(0) - 48;
        t = t.slice(1);
      }
      return { rune: r, rest: t };
    }
    switch (c) {
      case 'x': {
        if (t === '') throw bad();
        let d = String.fromCodePoint(t.codePointAt(0)!);
        t = t.slice(d.length);
        if (d === '{') {
          let n = 0;
          let r = 0;
          for (;;) {
            if (t === '') throw bad();
            d = String.fromCodePoint(t.codePointAt(0)!);
            t = t.slice(d.length);
            if (d === '}') break;
            const v = unhex(d);
            if (v < 0) throw bad();
            r = r * 16 + v;
            if (r > MAX_RUNE) throw bad();
            n++;
          }
          if (n === 0) throw bad();
          return { rune: r, rest: t };
        }
        const x = unhex(d);
        const e = t === '' ? '' : String.fromCodePoint(t.codePointAt(0)!);
        t = t.slice(e.length);
        const y = e === '' ? -1 : unhex(e);
        if (x < 0 || y < 0) throw bad();
        return { rune: x * 16 + y, rest: t };
      }
      case 'a':
        return { rune: 7, rest: t };
      case 'f':
        return { rune: 12, rest: t };
      case 'n':
        return { rune: 10, rest: t };
      case 'r':
        return { rune: 13, rest: t };
      case 't':
        return { rune: 9, rest: t };
      case 'v':
        return { rune: 11, rest: t };
    }
    // Any other ASCII punctuation escapes itself.
    if (c.length === 1 && c.charCodeAt(0) < 0x80 && !isAlnum(c)) return { rune: c.charCodeAt(0), rest: t };
    throw bad();
  }

  function parseClass(s: string): string {
    let t = s.slice(1);
    let negated = false;
    if (t.startsWith('^')) {
      negated = true;
      t = t.slice(1);
    }
    const items: ClassItem[] = [];
    let first = true;
    while (t === '' || t[0] !== ']' || first) {
      first = false;
      if (t.length > 2 && t[0] === '[' && t[1] === ':') {
        const end = t.indexOf(':]', 2);
        if (end >= 0) {
          const name = t.slice(0, end + 2);
          const m = /^\[:(\^?)([a-z]+):\]$/.exec(name);
          const g = m ? POSIX_GROUPS[m[2]!] : undefined;
          if (g === undefined || !Object.prototype.hasOwnProperty.call(POSIX_GROUPS, m![2]!))
            throw new GoRegexpError(ERR.invalidCharRange, name);
          items.push({ ranges: g, negated: m![1] === '^' });
          t = t.slice(end + 2);
          continue;
        }
      }
      const uni = parseUnicodeClass(t);
      if (uni !== undefined) {
        items.push(uni.item);
        t = uni.rest;
        continue;
      }
      const perl = parsePerlClassEscape(t);
      if (perl !== undefined) {
        items.push(...perl.items);
        t = perl.rest;
        continue;
      }
      const rng = t;
      const lo = classChar(t, s);
      t = lo.rest;
      let hi = lo.rune;
      if (t.length >= 2 && t[0] === '-' && t[1] !== ']') {
        const h = classChar(t.slice(1), s);
        t = h.rest;
        hi = h.rune;
        if (hi < lo.rune) throw new GoRegexpError(ERR.invalidCharRange, rng.slice(0, rng.length - t.length));
      }
      items.push({ ranges: [[lo.rune, hi]], negated: false });
    }
    push({ op: 'class', cls: { items, negated, fold: flags.fold } });
    return t.slice(1);
  }

  function classChar(t: string, wholeClass: string): { rune: number; rest: string } {
    if (t === '') throw new GoRegexpError(ERR.missingBracket, wholeClass);
    if (t[0] === '\\') return parseEscape(t);
    const ch = String.fromCodePoint(t.codePointAt(0)!);
    return { rune: ch.codePointAt(0)!, rest: t.slice(ch.length) };
  }
}

function parseRepeat(s: string): { min: number; max: number; rest: string } | undefined {
  let t = s.slice(1);
  const int = (): number | undefined => {
    const m = /^[0-9]+/.exec(t);
    if (!m || (m[0].length >= 2 && m[0][0] === '0')) return undefined;
    t = t.slice(m[0].length);
    return m[0].length > 8 ? -1 : Number(m[0]);
  };
  let min = int();
  if (min === undefined || t === '') return undefined;
  let max: number;
  if (t[0] !== ',') max = min;
  else {
    t = t.slice(1);
    if (t === '') return undefined;
    if (t[0] === '}') max = -1;
    else {
      const m = int();
      if (m === undefined) return undefined;
      max = m;
      if (max < 0) min = -1;
    }
  }
  if (t === '' || t[0] !== '}') return undefined;
  return { min, max, rest: t.slice(1) };
}

function repeatIsValid(re: Node, n: number): boolean {
  if (re.op === 'repeat') {
    let m = re.max;
    if (m === 0) return true;
    if (m < 0) m = re.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  return subsOf(re).every((s) => repeatIsValid(s, n));
}

/** Go's Simplify: counted repetitions become copies, x** becomes x*. */
function simplify(re: Node): Node {
  switch (re.op) {
    case 'capture':
      return { ...re, sub: simplify(re.sub) };
    case 'concat':
    case 'alternate':
      return { ...re, subs: re.subs.map(simplify) };
    case 'star':
    case 'plus':
    case 'quest':
      return simplify1(re.op, re.nonGreedy, simplify(re.sub));
    case 'repeat': {
      if (re.min === 0 && re.max === 0) return { op: 'emptyMatch' };
      const sub = simplify(re.sub);
      if (re.max === -1) {
        if (re.min === 0) return simplify1('star', re.nonGreedy, sub);
        if (re.min === 1) return simplify1('plus', re.nonGreedy, sub);
        return { op: 'concat', subs: [...Array<Node>(re.min - 1).fill(sub), simplify1('plus', re.nonGreedy, sub)] };
      }
      if (re.min === 1 && re.max === 1) return sub;
      const prefix: Node[] = Array<Node>(re.min).fill(sub);
      if (re.max > re.min) {
        let suffix = simplify1('quest', re.nonGreedy, sub);
        for (let i = re.min + 1; i < re.max; i++)
          suffix = simplify1('quest', re.nonGreedy, { op: 'concat', subs: [sub, suffix] });
        if (prefix.length === 0) return suffix;
        prefix.push(suffix);
      }
      return prefix.length > 0
        ? { op: 'concat', subs: prefix }
        : { op: 'class', cls: { items: [], negated: false, fold: false } };
    }
    default:
      break;
  }
  return re;
}

function simplify1(op: 'star' | 'plus' | 'quest', nonGreedy: boolean, sub: Node): Node {
  if (sub.op === 'emptyMatch') return sub;
  if (sub.op === op && sub.nonGreedy === nonGreedy) return sub;
  return { op, sub, nonGreedy };
}

// ---------------------------------------------------------------------------------------------------
// Program (Go's compile.go shape: the same instruction order gives the same match priorities)

const enum Op {
  Fail,
  Match,
  Rune,
  Alt,
  Empty,
  Capture,
  Nop,
}

const EMPTY_BEGIN_LINE = 1;
const EMPTY_END_LINE = 2;
const EMPTY_BEGIN_TEXT = 4;
const EMPTY_END_TEXT = 8;
const EMPTY_WORD_BOUNDARY = 16;
const EMPTY_NO_WORD_BOUNDARY = 32;
const EMPTY_BITS: Record<EmptyKind, number> = {
  beginLine: EMPTY_BEGIN_LINE,
  endLine: EMPTY_END_LINE,
  beginText: EMPTY_BEGIN_TEXT,
  endText: EMPTY_END_TEXT,
  wordBoundary: EMPTY_WORD_BOUNDARY,
  noWordBoundary: EMPTY_NO_WORD_BOUNDARY,
};

interface Inst {
  op: Op;
  out: number;
  arg: number;
  test?: (c: number) => boolean;
}

interface Frag {
  start: number;
  /** Holes to patch: inst index * 2 (+1 for the arg slot). */
  holes: number[];
  nullable: boolean;
}

class Compiler {
  readonly prog: Inst[] = [{ op: Op.Fail, out: 0, arg: 0 }];

  private inst(op: Op, test?: (c: number) => boolean): number {
    this.prog.push(test === undefined ? { op, out: 0, arg: 0 } : { op, out: 0, arg: 0, test });
    return this.prog.length - 1;
  }

  private patch(holes: number[], to: number): void {
    for (const h of holes) {
      const i = this.prog[h >> 1]!;
      if (h & 1) i.arg = to;
      else i.out = to;
    }
  }

  private single(op: Op, test?: (c: number) => boolean, nullable = true): Frag {
    const i = this.inst(op, test);
    return { start: i, holes: [i * 2], nullable };
  }

  private cat(a: Frag, b: Frag): Frag {
    if (a.start === 0 || b.start === 0) return { start: 0, holes: [], nullable: false };
    this.patch(a.holes, b.start);
    return { start: a.start, holes: b.holes, nullable: a.nullable && b.nullable };
  }

  private alt(a: Frag, b: Frag): Frag {
    if (a.start === 0) return b;
    if (b.start === 0) return a;
    const i = this.inst(Op.Alt);
    this.prog[i]!.out = a.start;
    this.prog[i]!.arg = b.start;
    return { start: i, holes: [...a.holes, ...b.holes], nullable: a.nullable || b.nullable };
  }

  private quest(a: Frag, nonGreedy: boolean): Frag {
    const i = this.inst(Op.Alt);
    let holes: number[];
    if (nonGreedy) {
      this.prog[i]!.arg = a.start;
      holes = [i * 2];
    } else {
      this.prog[i]!.out = a.start;
      holes = [i * 2 + 1];
    }
    return { start: i, holes: [...holes, ...a.holes], nullable: true };
  }

  private loop(a: Frag, nonGreedy: boolean): Frag {
    const i = this.inst(Op.Alt);
    let holes: number[];
    if (nonGreedy) {
      this.prog[i]!.arg = a.start;
      holes = [i * 2];
    } else {
      this.prog[i]!.out = a.start;
      holes = [i * 2 + 1];
    }
    this.patch(a.holes, i);
    return { start: i, holes, nullable: true };
  }

  private plus(a: Frag, nonGreedy: boolean): Frag {
    return { start: a.start, holes: this.loop(a, nonGreedy).holes, nullable: a.nullable };
  }

  private star(a: Frag, nonGreedy: boolean): Frag {
    // A nullable body is compiled as (x+)? to keep Go's priorities (golang.org/issue/46123).
    return a.nullable ? this.quest(this.plus(a, nonGreedy), nonGreedy) : this.loop(a, nonGreedy);
  }

  compile(re: Node): Frag {
    switch (re.op) {
      case 'emptyMatch':
        return this.single(Op.Nop);
      case 'literal': {
        const fold = re.fold ? orbit(re.rune) : [re.rune];
        const r = re.rune;
        return this.single(Op.Rune, fold.length > 1 ? (c) => fold.includes(c) : (c) => c === r, false);
      }
      case 'class': {
        const cls = re.cls;
        return this.single(Op.Rune, (c) => classHas(cls, c), false);
      }
      case 'anyChar':
        return this.single(Op.Rune, () => true, false);
      case 'anyCharNotNL':
        return this.single(Op.Rune, (c) => c !== 10, false);
      case 'empty': {
        const f = this.single(Op.Empty);
        this.prog[f.start]!.arg = EMPTY_BITS[re.kind];
        return f;
      }
      case 'capture': {
        const bra = this.single(Op.Capture);
        this.prog[bra.start]!.arg = re.index * 2;
        const sub = this.compile(re.sub);
        const ket = this.single(Op.Capture);
        this.prog[ket.start]!.arg = re.index * 2 + 1;
        return this.cat(this.cat(bra, sub), ket);
      }
      case 'star':
        return this.star(this.compile(re.sub), re.nonGreedy);
      case 'plus':
        return this.plus(this.compile(re.sub), re.nonGreedy);
      case 'quest':
        return this.quest(this.compile(re.sub), re.nonGreedy);
      case 'concat': {
        let f: Frag | undefined;
        for (const s of re.subs) f = f === undefined ? this.compile(s) : this.cat(f, this.compile(s));
        return f ?? this.single(Op.Nop);
      }
      case 'alternate': {
        let f: Frag = { start: 0, holes: [], nullable: false };
        for (const s of re.subs) f = this.alt(f, this.compile(s));
        return f;
      }
      case 'repeat':
        throw new Error('repeat must be simplified before compiling');
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Matching: a Pike VM over code points, leftmost-first like Go's (non-POSIX) regexp.

const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

function emptyContext(before: number, after: number): number {
  let op = EMPTY_NO_WORD_BOUNDARY;
  let boundary = 0;
  if (isWordChar(before)) boundary = 1;
  else if (before === 10) op |= EMPTY_BEGIN_LINE;
  else if (before < 0) op |= EMPTY_BEGIN_TEXT | EMPTY_BEGIN_LINE;
  if (isWordChar(after)) boundary ^= 1;
  else if (after === 10) op |= EMPTY_END_LINE;
  else if (after < 0) op |= EMPTY_END_TEXT | EMPTY_END_LINE;
  if (boundary !== 0) op ^= EMPTY_WORD_BOUNDARY | EMPTY_NO_WORD_BOUNDARY;
  return op;
}

interface Thread {
  pc: number;
  cap: number[];
}

class Queue {
  readonly sparse: Uint32Array;
  readonly dense: Array<{ pc: number; t: Thread | null }> = [];
  constructor(n: number) {
    this.sparse = new Uint32Array(n);
  }
  has(pc: number): boolean {
    const j = this.sparse[pc]!;
    return j < this.dense.length && this.dense[j]!.pc === pc;
  }
  clear(): void {
    this.dense.length = 0;
  }
}

/**
 * The input: positions are UTF-16 offsets of rune starts (no per-character arrays), so slicing is free. A raw
 * byte (src/go/reflect/byteString.ts) reads as U+FFFD, as Go's regexp decodes invalid UTF-8.
 */
class Input {
  readonly text: string;
  constructor(text: string) {
    this.text = canonicalGoString(text);
  }
  get length(): number {
    return this.text.length;
  }
  slice(a: number, b: number): string {
    return this.text.slice(a, b);
  }
  /** The rune at offset i, or -1 past either end. */
  at(i: number): number {
    if (i < 0 || i >= this.text.length) return -1;
    const c = this.text.codePointAt(i)!;
    return c >= 0xdc80 && c <= 0xdcff ? 0xfffd : c;
  }
  /** The rune that ends at offset i, or -1 at the start. */
  before(i: number): number {
    if (i <= 0) return -1;
    const lo = this.text.charCodeAt(i - 1);
    if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
      const hi = this.text.charCodeAt(i - 2);
      if (hi >= 0xd800 && hi <= 0xdbff) return (hi - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
    }
    return lo >= 0xdc80 && lo <= 0xdcff ? 0xfffd : lo;
  }
  /** The UTF-16 length of the rune at offset i (0 at the end). */
  width(i: number): number {
    if (i >= this.text.length) return 0;
    const c = this.text.charCodeAt(i);
    return c >= 0xd800 && c <= 0xdbff && i + 1 < this.text.length ? 2 : 1;
  }
}

export class GoRegexp {
  private readonly prog: Inst[];
  private readonly start: number;
  /** Anchored at the beginning of text (Go's startCond): no match can start after position 0. */
  private readonly anchored: boolean;
  readonly numSubexp: number;
  readonly subexpNames: readonly string[];
  /** The program's size as Go estimates it (what compiling it was charged for). */
  readonly size: number;
  /** Work charged per input position of a run. */
  private readonly positionUnits: number;

  /** A JS RegExp that matches exactly the same strings, where one can be made safely (see jsRegExp.ts); made on first use. */
  private js: JsMatcher | undefined | null = null;
  private readonly tree: Node;

  constructor(
    readonly expr: string,
    parsed: Parsed,
  ) {
    this.tree = parsed.tree;
    const c = new Compiler();
    const f = c.compile(simplify(parsed.tree));
    const match = c.prog.length;
    c.prog.push({ op: Op.Match, out: 0, arg: 0 });
    for (const h of f.holes) {
      const i = c.prog[h >> 1]!;
      if (h & 1) i.arg = match;
      else i.out = match;
    }
    this.prog = c.prog;
    this.start = f.start;
    this.numSubexp = parsed.numCap;
    this.subexpNames = parsed.names;
    this.size = parsed.size;
    this.positionUnits = RUN_UNITS * c.prog.length;
    this.anchored = this.startsWithBeginText();
  }

  private startsWithBeginText(): boolean {
    // Follow the instructions every match must pass first (Go's EmptyOpContext startCond).
    let pc = this.start;
    for (let guard = 0; guard < this.prog.length; guard++) {
      const i = this.prog[pc]!;
      if (i.op === Op.Empty) {
        if (i.arg & EMPTY_BEGIN_TEXT) return true;
        pc = i.out;
      } else if (i.op === Op.Capture || i.op === Op.Nop) pc = i.out;
      else return false;
    }
    return false;
  }

  /**
   * One leftmost-first match starting the search at `pos`; capture positions as UTF-16 offsets, or null. Each
   * input position is charged for the whole program before its threads run.
   */
  private exec(input: Input, pos: number, ncap: number, meter: Meter, queues?: [Queue, Queue]): number[] | null {
    if (this.anchored && pos !== 0) return null;
    const n = this.prog.length;
    let [runq, nextq] = queues ?? [new Queue(n), new Queue(n)];
    runq.clear();
    nextq.clear();
    let matched: number[] | null = null;
    const matchcap: number[] = new Array<number>(ncap).fill(-1);

    const add = (q: Queue, pc0: number, at: number, cap: number[], cond: number): void => {
      const stack: Array<{ pc: number; cap: number[] }> = [{ pc: pc0, cap }];
      while (stack.length > 0) {
        let { pc, cap: c } = stack.pop()!;
        for (;;) {
          if (pc === 0 || q.has(pc)) break;
          q.sparse[pc] = q.dense.length;
          const entry: { pc: number; t: Thread | null } = { pc, t: null };
          q.dense.push(entry);
          const i = this.prog[pc]!;
          if (i.op === Op.Alt) {
            // Explore out first (higher priority), arg afterwards.
            stack.push({ pc: i.arg, cap: c });
            pc = i.out;
            continue;
          }
          if (i.op === Op.Empty) {
            if ((i.arg & ~cond) === 0) {
              pc = i.out;
              continue;
            }
            break;
          }
          if (i.op === Op.Nop) {
            pc = i.out;
            continue;
          }
          if (i.op === Op.Capture) {
            if (i.arg < c.length) {
              c = c.slice();
              c[i.arg] = at;
            }
            pc = i.out;
            continue;
          }
          if (i.op === Op.Match || i.op === Op.Rune) entry.t = { pc, cap: c };
          break;
        }
      }
    };

    for (let p = pos; ;) {
      if (runq.dense.length === 0 && matched !== null) break;
      if (runq.dense.length === 0 && this.anchored && p !== 0) break;
      meter.spend(this.positionUnits);
      const c = input.at(p);
      const w = input.width(p);
      const cond = emptyContext(input.before(p), c);
      if (matched === null && (p === 0 || !this.anchored)) {
        const cap = matchcap.slice();
        if (cap.length > 0) cap[0] = p;
        add(runq, this.start, p, cap, cond);
      }
      const nextCond = emptyContext(c, input.at(p + w));
      for (let j = 0; j < runq.dense.length; j++) {
        const t = runq.dense[j]!.t;
        if (t === null) continue;
        const i = this.prog[t.pc]!;
        if (i.op === Op.Match) {
          const cap = t.cap.slice();
          if (cap.length > 1) cap[1] = p;
          matched = cap;
          // Leftmost-first: lower-priority threads are cut off.
          break;
        }
        if (c >= 0 && i.test!(c)) add(nextq, i.out, p + w, t.cap, nextCond);
      }
      runq.clear();
      if (c < 0) break;
      [runq, nextq] = [nextq, runq];
      p += w;
    }
    return matched;
  }

  private queues(): [Queue, Queue] {
    return [new Queue(this.prog.length), new Queue(this.prog.length)];
  }

  matchString(s: string, meter: Meter): boolean {
    if (this.js === null) this.js = jsMatcher(this.tree, orbit);
    if (this.js !== undefined) {
      const work = this.js.bound(s);
      if (work <= MAX_JS_BACKTRACKING) {
        meter.spend(JS_UNITS * work);
        return this.js.re.test(s);
      }
    }
    return this.matchStringWithVM(s, meter);
  }

  /** matchString without the JS fast path: the reference the fast path is tested against. */
  matchStringWithVM(s: string, meter: Meter): boolean {
    return this.exec(new Input(s), 0, 0, meter) !== null;
  }

  findString(s: string, meter: Meter): string {
    const input = new Input(s);
    const m = this.exec(input, 0, 2, meter);
    return m === null ? '' : input.slice(m[0]!, m[1]!);
  }

  /** FindStringSubmatch: the match and its groups ("" for a group that did not take part), or null. */
  findStringSubmatch(s: string, meter: Meter): string[] | null {
    const input = new Input(s);
    const m = this.exec(input, 0, 2 * (this.numSubexp + 1), meter);
    return m === null ? null : this.groups(input, m, meter);
  }

  findAllStringSubmatch(s: string, n: number, meter: Meter): string[][] {
    const input = new Input(s);
    const out: string[][] = [];
    if (n === 0) return out;
    this.allMatches(input, n, 2 * (this.numSubexp + 1), meter, (m) => out.push(this.groups(input, m, meter)));
    return out;
  }

  private groups(input: Input, m: number[], meter: Meter): string[] {
    meter.build((this.numSubexp + 2) * ELEMENT_BYTES);
    const out: string[] = [];
    for (let i = 0; i <= this.numSubexp; i++) out.push(m[2 * i]! >= 0 ? input.slice(m[2 * i]!, m[2 * i + 1]!) : '');
    return out;
  }

  /** Go's allMatches: an empty match right after the previous match is skipped. */
  private allMatches(input: Input, n: number, ncap: number, meter: Meter, deliver: (m: number[]) => void): void {
    const end = input.length;
    const queues = this.queues();
    for (let pos = 0, i = 0, prevMatchEnd = -1; (n < 0 || i < n) && pos <= end;) {
      const m = this.exec(input, pos, ncap, meter, queues);
      if (m === null) break;
      let accept = true;
      if (m[1] === pos) {
        if (m[0] === prevMatchEnd) accept = false;
        const w = input.width(pos);
        pos = w > 0 ? pos + w : end + 1;
      } else pos = m[1]!;
      prevMatchEnd = m[1]!;
      if (accept) {
        // A match is a slice of the input (or a copy of a short one) in a list.
        meter.build(ELEMENT_BYTES);
        deliver(m);
        i++;
      }
    }
  }

  /** FindAllString; Go returns nil for no match, which we give as an empty list. */
  findAllString(s: string, n: number, meter: Meter): string[] {
    const input = new Input(s);
    const out: string[] = [];
    if (n === 0) return out;
    this.allMatches(input, n, 2, meter, (m) => out.push(input.slice(m[0]!, m[1]!)));
    return out;
  }

  split(s: string, n: number, meter: Meter): string[] {
    if (n === 0) return [];
    if (this.expr.length > 0 && s.length === 0) return [''];
    const input = new Input(s);
    const matches: number[][] = [];
    this.allMatches(input, n, 2, meter, (m) => matches.push(m));
    const out: string[] = [];
    let beg = 0;
    let end = 0;
    meter.build((matches.length + 1) * ELEMENT_BYTES);
    for (const m of matches) {
      if (n > 0 && out.length === n - 1) break;
      end = m[0]!;
      if (m[1] !== 0) out.push(input.slice(beg, end));
      beg = m[1]!;
    }
    if (end !== input.length) out.push(input.slice(beg, input.length));
    return out;
  }

  replaceAllString(src: string, repl: string, meter: Meter): string {
    // The template is read once (Go reads it again for each match: the same pieces).
    meter.spend(PARSE_UNITS * repl.length);
    const pieces = this.templatePieces(repl);
    const ncap = repl.includes('$') ? 2 * (this.numSubexp + 1) : 2;
    return this.replaceAll(src, ncap, meter, (input, m, out) => {
      for (const p of pieces) {
        if (typeof p === 'string') {
          meter.build(2 * p.length + PIECE_BYTES);
          out.push(p);
        } else if (2 * p + 1 < m.length && m[2 * p]! >= 0) {
          meter.build(2 * (m[2 * p + 1]! - m[2 * p]!) + PIECE_BYTES);
          out.push(input.slice(m[2 * p]!, m[2 * p + 1]!));
        }
      }
    });
  }

  replaceAllLiteralString(src: string, repl: string, meter: Meter): string {
    return this.replaceAll(src, 2, meter, (_, __, out) => {
      meter.build(2 * repl.length + PIECE_BYTES);
      out.push(repl);
    });
  }

  /** Each piece of the result is charged before it is added to it; the pieces are joined at the end. */
  private replaceAll(
    src: string,
    ncap: number,
    meter: Meter,
    repl: (input: Input, m: number[], out: string[]) => void,
  ): string {
    const input = new Input(src);
    const end = input.length;
    const out: string[] = [];
    let lastMatchEnd = 0;
    const queues = this.queues();
    for (let searchPos = 0; searchPos <= end;) {
      const m = this.exec(input, searchPos, ncap, meter, queues);
      if (m === null) break;
      meter.build(m[0]! - lastMatchEnd + PIECE_BYTES);
      out.push(input.slice(lastMatchEnd, m[0]!));
      // No replacement for an empty match right after the previous match.
      if (m[1]! > lastMatchEnd || m[0] === 0) repl(input, m, out);
      lastMatchEnd = m[1]!;
      const w = input.width(searchPos);
      if (searchPos + w > m[1]!) searchPos += w;
      else if (searchPos + 1 > m[1]!) searchPos++;
      else searchPos = m[1]!;
    }
    meter.build(2 * (end - lastMatchEnd));
    out.push(input.slice(lastMatchEnd, end));
    return out.join('');
  }

  /**
   * Go's Regexp.Expand template as pieces: text, and group numbers ($1, ${1}, $name, ${name}; -1 for a name
   * no group has); $$ is a dollar; a malformed reference is kept as is.
   */
  private templatePieces(template: string): Array<string | number> {
    const pieces: Array<string | number> = [];
    let text = '';
    let t = template;
    for (;;) {
      const i = t.indexOf('$');
      if (i < 0) break;
      text += t.slice(0, i);
      t = t.slice(i + 1);
      if (t.startsWith('$')) {
        text += '$';
        t = t.slice(1);
        continue;
      }
      const ref = extractRef(t);
      if (ref === undefined) {
        text += '$';
        continue;
      }
      t = ref.rest;
      if (text !== '') pieces.push(text);
      text = '';
      pieces.push(ref.num >= 0 ? ref.num : ((k) => (k > 0 ? k : -1))(this.subexpNames.indexOf(ref.name)));
    }
    text += t;
    if (text !== '') pieces.push(text);
    return pieces;
  }
}

function extractRef(s: string): { name: string; num: number; rest: string } | undefined {
  let t = s;
  const brace = t.startsWith('{');
  if (brace) t = t.slice(1);
  const m = /^[\p{L}\p{Nd}_]+/u.exec(t);
  if (!m) return undefined;
  const name = m[0];
  t = t.slice(name.length);
  if (brace) {
    if (!t.startsWith('}')) return undefined;
    t = t.slice(1);
  }
  let num = /^[0-9]+$/.test(name) && name.length <= 9 ? Number(name) : -1;
  if (name.length > 1 && name[0] === '0') num = -1;
  return { name, num, rest: t };
}

/** regexp.QuoteMeta. */
export function quoteMeta(s: string): string {
  if (!META.test(s)) return s;
  // A character at a time into a buffer (a replace with a million matches is slow and makes a rope).
  const out = new TextBuilder();
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80 && META_CHARS[c] === 1) out.unit(0x5c);
    out.unit(c);
  }
  return out.toString();
}

const META = /[\\.+*?()|[\]{}^$]/;
const META_CHARS = Uint8Array.from({ length: 0x80 }, (_, c) =>
  '\\.+*?()|[]{}^$'.includes(String.fromCharCode(c)) ? 1 : 0,
);

// Compiled programs are kept for the next compile of the same pattern (a template compiles its patterns in
// every call), up to a total size: small patterns only, and the cache starts over when full. Whether a
// program came from the cache changes nothing, the charge included.
const CACHED_MAX_SIZE = 10_000;
const CACHE_SIZE = 200_000;
const cache = new Map<string, GoRegexp | GoRegexpError>();
let cachedSize = 0;

function remember(expr: string, re: GoRegexp | GoRegexpError, size: number): void {
  if (size > CACHED_MAX_SIZE) return;
  if (cachedSize + size > CACHE_SIZE || cache.size >= 500) {
    cache.clear();
    cachedSize = 0;
  }
  cache.set(lookupKey(expr), re);
  cachedSize += size;
}

/**
 * regexp.Compile; throws GoRegexpError with Go's message. Charged on `meter` before the work: the parse by the
 * pattern's length, the program by its size (Go's estimate) before it is made.
 */
export function compileGoRegexp(expr: string, meter: Meter): GoRegexp {
  meter.spend(PARSE_UNITS * expr.length);
  const known = cache.get(lookupKey(expr));
  if (known instanceof GoRegexpError) throw known;
  if (known !== undefined) {
    meter.build(INST_BYTES * known.size);
    return known;
  }
  let parsed: Parsed;
  try {
    parsed = parse(expr);
  } catch (e) {
    if (e instanceof GoRegexpError) remember(expr, e, 1 + Math.ceil(expr.length / 64));
    throw e;
  }
  meter.build(INST_BYTES * parsed.size);
  const re = new GoRegexp(expr, parsed);
  remember(expr, re, parsed.size);
  return re;
}
