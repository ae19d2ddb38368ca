// Generates random, mostly valid templates and data for the differential fuzz test. Templates are built
// as a small tree (so failures can be shrunk) and rendered to text. Expressions are typed loosely by
// what they usually produce, so most generated templates execute; some deliberately do not (out of
// range indexes, missing keys, int-vs-float comparisons), and the error text is compared too.

import type { OracleFuncs } from '../oracle/oracle.ts';
import type { Random } from './random.ts';

export type Node =
  | { t: 'text'; s: string }
  | { t: 'comment'; s: string; trim: number }
  | { t: 'action'; pipe: string; trim: number }
  | { t: 'if'; arms: { pipe: string; body: Node[] }[]; els: Node[] | null; trim: number }
  | { t: 'range'; pipe: string; body: Node[]; els: Node[] | null; trim: number }
  | { t: 'with'; pipe: string; body: Node[]; els: Node[] | null; trim: number }
  | { t: 'define'; name: string; body: Node[]; trim: number }
  | { t: 'template'; name: string; arg: string; trim: number }
  | { t: 'loopctl'; word: 'break' | 'continue'; trim: number };

export interface FuzzCase {
  nodes: Node[];
  data: unknown;
  funcs: OracleFuncs;
}

type Kind = 'str' | 'int' | 'float' | 'bool' | 'list' | 'map' | 'any';
/** What dot holds: the root map, an element of .lm, the .m map, or a scalar/unknown value. */
type Dot = 'root' | 'item' | 'mapm' | 'scalar';

interface Scope {
  dot: Dot;
  vars: { name: string; kind: Kind }[];
  inRange: boolean;
  /** Whether `$` is the root data (true everywhere except define bodies called with something else). */
  rootDollar: boolean;
  depth: number;
}

const WORDS = ['a', 'b', 'foo', 'bar', 'x y', 'é', '<b>', '&', '"q"', "it's", '日本', ' ', '', '0', '%d', '\\'];
// No '{' or '}': text that touches a delimiter would change how the template lexes.
const TEXT = ['a', ' ', '\n', '  ', '\t', 'x=', ';', '\n\n', ' - ', 'key: ', 'é', '<', '\r\n'];
const VERSIONS = ['v1.33.0', 'v1.34.2', 'v1.35.1', 'v1.36.0', 'v1.29.0', '1.31.4', 'v1.33.0-rc.1'];

export function generateData(r: Random): Record<string, unknown> {
  const str = (): string => r.pick(WORDS) + (r.chance(0.3) ? r.pick(WORDS) : '');
  const int = (): bigint =>
    BigInt(
      r.weighted([
        [6, r.int(-3, 20)],
        [1, r.int(-1000, 100000)],
        [1, 0],
      ]),
    );
  const float = (): number =>
    r.weighted([
      [3, r.int(-40, 40) / 4],
      [1, 2.0],
      [1, 1e21],
      [1, 0.1],
      [1, -0.0001],
      [1, 0],
    ]);
  const data: Record<string, unknown> = {
    s: str(),
    s2: str(),
    n: int(),
    n2: int(),
    f: float(),
    b: r.chance(0.5),
    e: '',
    z: 0n,
    nil: null,
    ver: r.pick(VERSIONS),
    l: Array.from({ length: r.int(0, 4) }, int),
    ls: Array.from({ length: r.int(0, 3) }, str),
    lm: Array.from({ length: r.int(0, 3) }, () => ({
      name: str(),
      v: int(),
      tags: Array.from({ length: r.int(0, 2) }, str),
    })),
    m: { k: str(), a: int(), b: r.chance(0.5), sub: { x: str() } },
    em: {},
    el: [],
  };
  if (r.chance(0.2)) delete data[r.pick(['s', 'n', 'l', 'm', 'b'])];
  if (r.chance(0.1)) data.f = int();
  return data;
}

class Gen {
  private varCount = 0;
  private defines: string[] = [];
  constructor(
    private readonly r: Random,
    private readonly sprig: boolean,
  ) {}

  // ---- expressions -------------------------------------------------------------------------

  private dollar(scope: Scope): string {
    return scope.rootDollar ? '$' : '.';
  }

  /** A field path of the wanted kind reachable from dot or `$`, or null if none. */
  private field(scope: Scope, kind: Kind): string | null {
    const r = this.r;
    const fromRoot: Record<Kind, string[]> = {
      str: ['.s', '.s2', '.e', '.m.k', '.m.sub.x', '.ver'],
      int: ['.n', '.n2', '.z', '.m.a'],
      float: ['.f'],
      bool: ['.b', '.m.b'],
      list: ['.l', '.ls', '.lm', '.el'],
      map: ['.m', '.em', '.m.sub'],
      any: ['.nil', '.missing', '.m.missing', '.s', '.n', '.f', '.l'],
    };
    const fromItem: Partial<Record<Kind, string[]>> = { str: ['.name'], int: ['.v'], list: ['.tags'] };
    const fromMapm: Partial<Record<Kind, string[]>> = {
      str: ['.k', '.sub.x'],
      int: ['.a'],
      bool: ['.b'],
      map: ['.sub'],
    };
    const opts: string[] = [];
    if (scope.dot === 'root') opts.push(...fromRoot[kind]);
    if (scope.dot === 'item') opts.push(...(fromItem[kind] ?? []));
    if (scope.dot === 'mapm') opts.push(...(fromMapm[kind] ?? []));
    if (scope.rootDollar) opts.push(...fromRoot[kind].map((p) => `$${p}`));
    for (const v of scope.vars) if (v.kind === kind || kind === 'any') opts.push(v.name);
    if (kind === 'map' && scope.dot === 'root') opts.push('.');
    if (kind === 'any' || scope.dot === 'scalar') opts.push('.');
    return opts.length === 0 ? null : r.pick(opts);
  }

  private stringLit(): string {
    const w = this.r.pick(WORDS);
    return this.r.chance(0.1) && !w.includes('`') ? `\`${w}\`` : JSON.stringify(w);
  }

  private intLit(): string {
    return String(
      this.r.weighted([
        [5, this.r.int(0, 9)],
        [1, this.r.int(-5, -1)],
        [1, 100],
      ]),
    );
  }

  /** An operand: either a simple term or a parenthesised expression. */
  private arg(scope: Scope, kind: Kind, depth: number): string {
    const e = this.expr(scope, kind, depth + 1);
    return /^[.$"`\w-][^ ]*$/.test(e) ? e : `(${e})`;
  }

  expr(scope: Scope, kind: Kind, depth = 0): string {
    const r = this.r;
    const simple = depth >= 2 || r.chance(0.45);
    const field = this.field(scope, kind);
    if (simple || field === null) {
      if (field !== null && r.chance(0.7)) return field;
      switch (kind) {
        case 'str':
          return this.stringLit();
        case 'int':
          return this.intLit();
        case 'float':
          return r.pick(['1.5', '0.0', '-2.25', '1e3', '3.0']);
        case 'bool':
          return r.pick(['true', 'false']);
        case 'list':
          return this.sprig ? 'list 1 2' : '.el';
        case 'map':
          return this.sprig ? 'dict "a" 1' : '.em';
        case 'any':
          return r.pick(['.missing', '1', '"s"', 'true', '2.5']);
      }
    }
    const a = (k: Kind): string => this.arg(scope, k, depth);
    const opts: Array<readonly [number, () => string]> = [];
    const add = (w: number, f: () => string, sprigOnly = false): void => {
      if (!sprigOnly || this.sprig) opts.push([w, f]);
    };
    switch (kind) {
      case 'str':
        add(
          3,
          () =>
            `printf ${r.pick(['"%s"', '"%v"', '"%q"', '"[%5s]"', '"%-4v|"', '"%x"', '"%T"', '"%d"', '"%s %s"', '"%.2f"', '"%t"'])} ${a(r.pick(['str', 'int', 'any', 'float', 'bool']))}`,
        );
        add(1, () => `print ${a('any')} ${a('str')}`);
        add(1, () => `${r.pick(['html', 'js', 'urlquery'])} ${a('str')}`);
        add(1, () => `${a('str')} | printf "<%s>"`);
        add(1, () => `slice ${a('str')} ${r.int(0, 2)}`);
        add(
          3,
          () =>
            `${r.pick(['upper', 'lower', 'trim', 'quote', 'squote', 'title', 'b64enc', 'snakecase', 'nospace'])} ${a('str')}`,
          true,
        );
        add(2, () => `${a('str')} | ${r.pick(['upper', 'quote', 'trim', 'lower'])}`, true);
        add(1, () => `replace ${this.stringLit()} ${this.stringLit()} ${a('str')}`, true);
        add(1, () => `default ${this.stringLit()} ${a('any')}`, true);
        add(1, () => `join ${this.stringLit()} ${a('list')}`, true);
        add(1, () => `toJson ${a(r.pick(['any', 'list', 'map', 'str']))}`, true);
        add(1, () => `${r.pick(['indent', 'nindent'])} ${r.int(0, 3)} ${a('str')}`, true);
        add(1, () => `repeat ${r.int(0, 3)} ${a('str')}`, true);
        add(1, () => `cat ${a('any')} ${a('str')}`, true);
        add(1, () => `toString ${a('any')}`, true);
        add(1, () => `${r.pick(['trunc', 'substr 0'])} ${r.int(0, 4)} ${a('str')}`, true);
        add(1, () => `sha256sum ${a('str')} | trunc 8`, true);
        add(1, () => `ternary ${a('str')} ${a('str')} ${a('bool')}`, true);
        add(1, () => `trimPrefix ${this.stringLit()} ${a('str')}`, true);
        break;
      case 'int':
        add(3, () => `len ${a(r.pick(['str', 'list', 'map']))}`);
        add(2, () => `index ${a('list')} ${r.int(0, 2)}`);
        add(2, () => `${r.pick(['add', 'sub', 'mul', 'max', 'min'])} ${a('int')} ${a('int')}`, true);
        add(1, () => `add1 ${a('int')}`, true);
        add(1, () => `atoi ${a('str')}`, true);
        add(1, () => `int ${a(r.pick(['str', 'float', 'int']))}`, true);
        break;
      case 'float':
        add(1, () => `${r.pick(['addf', 'mulf', 'subf'])} ${a('float')} ${a(r.pick(['int', 'float']))}`, true);
        add(1, () => `float64 ${a(r.pick(['int', 'str']))}`, true);
        add(1, () => `index (slice (list 1.5 2.5) 1) 0`, true);
        break;
      case 'bool': {
        const cmp = r.pick(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);
        add(3, () => `${cmp} ${a('int')} ${a(r.chance(0.9) ? 'int' : 'float')}`);
        add(2, () => `${r.pick(['eq', 'ne', 'lt'])} ${a('str')} ${a('str')}`);
        add(1, () => `eq ${a('str')} ${a('str')} ${a('str')}`);
        add(
          2,
          () =>
            `${r.pick(['and', 'or'])} ${a(r.pick(['bool', 'any', 'int', 'str']))} ${a(r.pick(['bool', 'any', 'list']))}`,
        );
        add(2, () => `not ${a(r.pick(['bool', 'any', 'str', 'list']))}`);
        add(1, () => `${r.pick(['contains', 'hasPrefix', 'hasSuffix'])} ${this.stringLit()} ${a('str')}`, true);
        add(1, () => `empty ${a('any')}`, true);
        add(1, () => `has ${a('int')} ${a('list')}`, true);
        add(
          1,
          () => `semverCompare ${r.pick(['"~1.33.0"', '">=1.34"', '"<1.29"', '"~1.36.0"', '"^1.0.0"'])} ${a('str')}`,
          true,
        );
        add(1, () => `kindIs "slice" ${a('any')}`, true);
        break;
      }
      case 'list':
        add(2, () => `slice ${a('list')} ${r.int(0, 1)}`);
        add(2, () => `list ${a('any')} ${a('int')}`, true);
        add(1, () => `until ${r.int(0, 4)}`, true);
        add(1, () => `splitList "," ${a('str')}`, true);
        add(1, () => `${r.pick(['reverse', 'uniq', 'compact', 'sortAlpha', 'rest', 'initial'])} ${a('list')}`, true);
        add(1, () => `append ${a('list')} ${a('any')}`, true);
        add(1, () => `keys ${a('map')} | sortAlpha`, true);
        break;
      case 'map':
        add(2, () => `dict "a" ${a('any')} "b" ${a('str')}`, true);
        add(1, () => `${r.pick(['omit', 'pick'])} ${a('map')} "a" "k"`, true);
        add(1, () => `index . "m"`);
        break;
      case 'any':
        add(2, () => this.expr(scope, r.pick(['str', 'int', 'float', 'bool', 'list', 'map'] as const), depth + 1));
        add(1, () => `index ${a('map')} ${this.stringLit()}`);
        add(1, () => `first ${a('list')}`, true);
        add(1, () => `coalesce ${a('any')} ${a('any')}`, true);
        break;
    }
    if (opts.length === 0) return field ?? this.stringLit();
    return r.weighted(opts)();
  }

  // ---- statements --------------------------------------------------------------------------

  private trim(): number {
    // bit 0/1: trim left/right of the opening tag; 2/3 of the else tag; 4/5 of the end tag; 6: no spaces.
    return this.r.chance(0.55) ? 0 : this.r.int(0, 127);
  }

  private rangeSource(scope: Scope): { pipe: string; dot: Dot; elem: Kind } {
    const r = this.r;
    const opts: Array<{ pipe: string; dot: Dot; elem: Kind }> = [];
    const d = this.dollar(scope);
    if (scope.rootDollar) {
      opts.push({ pipe: `${d}.l`, dot: 'scalar', elem: 'int' });
      opts.push({ pipe: `${d}.ls`, dot: 'scalar', elem: 'str' });
      opts.push({ pipe: `${d}.lm`, dot: 'item', elem: 'map' });
      opts.push({ pipe: `${d}.lm`, dot: 'item', elem: 'map' });
      opts.push({ pipe: `${d}.m`, dot: 'scalar', elem: 'any' });
      opts.push({ pipe: `${d}.el`, dot: 'scalar', elem: 'int' });
      opts.push({ pipe: `${d}.em`, dot: 'scalar', elem: 'any' });
      opts.push({ pipe: `${d}.missing`, dot: 'scalar', elem: 'any' });
    }
    if (scope.dot === 'item') opts.push({ pipe: '.tags', dot: 'scalar', elem: 'str' });
    if (this.sprig) {
      opts.push({ pipe: `until ${r.int(0, 4)}`, dot: 'scalar', elem: 'int' });
      opts.push({
        pipe: `list ${this.expr(scope, 'str', 2)} ${this.expr(scope, 'int', 2)}`,
        dot: 'scalar',
        elem: 'any',
      });
      opts.push({ pipe: `splitList "," ${this.arg(scope, 'str', 1)}`, dot: 'scalar', elem: 'str' });
    }
    if (opts.length === 0) return { pipe: '.', dot: 'scalar', elem: 'any' };
    return r.pick(opts);
  }

  private newVar(): string {
    return `$v${this.varCount++}`;
  }

  private child(scope: Scope, patch: Partial<Scope>): Scope {
    return { ...scope, vars: [...scope.vars], depth: scope.depth + 1, ...patch };
  }

  list(scope: Scope, min: number, max: number): Node[] {
    const out: Node[] = [];
    const n = this.r.int(min, max);
    for (let i = 0; i < n; i++) out.push(this.node(scope));
    return out;
  }

  node(scope: Scope): Node {
    const r = this.r;
    const deep = scope.depth >= 3;
    const choice = r.weighted<string>([
      [4, 'text'],
      [6, 'action'],
      [1, 'comment'],
      [2, 'decl'],
      [deep ? 0 : 2, 'if'],
      [deep ? 0 : 2, 'range'],
      [deep ? 0 : 1, 'with'],
      [scope.rootDollar && this.defines.length > 0 ? 1 : 0, 'template'],
      [scope.inRange ? 1 : 0, 'loopctl'],
    ]);
    switch (choice) {
      case 'text':
        return { t: 'text', s: Array.from({ length: r.int(1, 3) }, () => r.pick(TEXT)).join('') };
      case 'comment':
        return { t: 'comment', s: r.pick([' note ', ' {{ x }} ', '']), trim: this.trim() };
      case 'action': {
        const kind = r.pick(['str', 'str', 'int', 'bool', 'any', 'list', 'map', 'float'] as const);
        return { t: 'action', pipe: this.expr(scope, kind), trim: this.trim() };
      }
      case 'decl': {
        const existing = scope.vars.filter((v) => v.name !== '$');
        if (existing.length > 0 && r.chance(0.3)) {
          const v = r.pick(existing);
          return { t: 'action', pipe: `${v.name} = ${this.expr(scope, v.kind)}`, trim: this.trim() };
        }
        const kind = r.pick(['str', 'int', 'bool', 'list', 'map'] as const);
        const name = this.newVar();
        const pipe = `${name} := ${this.expr(scope, kind)}`;
        scope.vars.push({ name, kind });
        return { t: 'action', pipe, trim: this.trim() };
      }
      case 'if': {
        const arms = Array.from(
          {
            length: r.weighted([
              [6, 1],
              [2, 2],
              [1, 3],
            ]),
          },
          () => {
            const cond = this.expr(scope, r.pick(['bool', 'bool', 'any', 'str', 'int', 'list'] as const));
            return { pipe: cond, body: this.list(this.child(scope, {}), 0, 3) };
          },
        );
        const els = r.chance(0.5) ? this.list(this.child(scope, {}), 0, 3) : null;
        return { t: 'if', arms, els, trim: this.trim() };
      }
      case 'range': {
        const src = this.rangeSource(scope);
        const inner = this.child(scope, { dot: src.dot, inRange: true });
        let decl = '';
        const form = r.pick(['', '', 'one', 'two']);
        if (form === 'one') {
          const e = this.newVar();
          inner.vars.push({ name: e, kind: src.elem });
          decl = `${e} := `;
        } else if (form === 'two') {
          const i = this.newVar();
          const e = this.newVar();
          inner.vars.push({ name: i, kind: 'any' }, { name: e, kind: src.elem });
          decl = `${i}, ${e} := `;
        }
        const body = this.list(inner, 1, 4);
        const els = r.chance(0.3) ? this.list(this.child(scope, {}), 0, 2) : null;
        return { t: 'range', pipe: decl + src.pipe, body, els, trim: this.trim() };
      }
      case 'with': {
        const useMap = scope.rootDollar && r.chance(0.4);
        const pipe = useMap
          ? `${this.dollar(scope)}.m`
          : this.expr(scope, r.pick(['str', 'any', 'int', 'list'] as const));
        const body = this.list(this.child(scope, { dot: useMap ? 'mapm' : 'scalar' }), 1, 3);
        const els = r.chance(0.4) ? this.list(this.child(scope, {}), 0, 2) : null;
        return { t: 'with', pipe, body, els, trim: this.trim() };
      }
      case 'template':
        return {
          t: 'template',
          name: r.pick(this.defines),
          arg: r.weighted([
            [8, '$'],
            [1, '.'],
            [1, ''],
          ]),
          trim: this.trim(),
        };
      case 'loopctl':
        return { t: 'loopctl', word: r.pick(['break', 'continue'] as const), trim: this.trim() };
    }
    throw new Error(`unreachable ${choice}`);
  }

  top(): Node[] {
    const r = this.r;
    const out: Node[] = [];
    const nDefines = r.weighted([
      [6, 0],
      [2, 1],
      [1, 2],
    ]);
    for (let i = 0; i < nDefines; i++) {
      const name = `t${i}`;
      const body = this.list({ dot: 'root', vars: [], inRange: false, rootDollar: true, depth: 1 }, 1, 3);
      out.push({ t: 'define', name, body, trim: this.trim() });
      this.defines.push(name);
    }
    const scope: Scope = { dot: 'root', vars: [], inRange: false, rootDollar: true, depth: 0 };
    out.push(...this.list(scope, 1, 7));
    return r.chance(0.5) ? out : [...out.filter((n) => n.t !== 'define'), ...out.filter((n) => n.t === 'define')];
  }
}

export function generateCase(r: Random): FuzzCase {
  const funcs = r.weighted<OracleFuncs>([
    [5, 'sprig'],
    [2, 'osm'],
    [3, 'builtin'],
  ]);
  const gen = new Gen(r, funcs !== 'builtin');
  return { nodes: gen.top(), data: generateData(r), funcs };
}

// ---- rendering -------------------------------------------------------------------------------

function tag(inner: string, trim: number, which: 0 | 1 | 2): string {
  const left = (trim >> (which * 2)) & 1;
  const right = (trim >> (which * 2 + 1)) & 1;
  const tight = (trim >> 6) & 1 && !left && !right;
  if (tight) return `{{${inner}}}`;
  return `{{${left ? '- ' : ' '}${inner}${right ? ' -' : ' '}}}`;
}

export function render(nodes: readonly Node[]): string {
  return nodes.map(renderNode).join('');
}

function renderNode(n: Node): string {
  switch (n.t) {
    case 'text':
      return n.s;
    case 'comment': {
      // A comment must touch its delimiters, except for a trim marker and one space.
      const left = n.trim & 1 ? '{{- ' : '{{';
      const right = n.trim & 2 ? ' -}}' : '}}';
      return `${left}/*${n.s}*/${right}`;
    }
    case 'action':
      return tag(n.pipe, n.trim, 0);
    case 'loopctl':
      return tag(n.word, n.trim, 0);
    case 'template':
      return tag(`template ${JSON.stringify(n.name)}${n.arg ? ` ${n.arg}` : ''}`, n.trim, 0);
    case 'define':
      return tag(`define ${JSON.stringify(n.name)}`, n.trim, 0) + render(n.body) + tag('end', n.trim, 2);
    case 'if':
      return (
        n.arms
          .map((arm, i) => tag(`${i === 0 ? 'if' : 'else if'} ${arm.pipe}`, n.trim, i === 0 ? 0 : 1) + render(arm.body))
          .join('') +
        (n.els ? tag('else', n.trim, 1) + render(n.els) : '') +
        tag('end', n.trim, 2)
      );
    case 'range':
    case 'with':
      return (
        tag(`${n.t} ${n.pipe}`, n.trim, 0) +
        render(n.body) +
        (n.els ? tag('else', n.trim, 1) + render(n.els) : '') +
        tag('end', n.trim, 2)
      );
  }
}
