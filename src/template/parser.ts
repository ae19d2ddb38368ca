// Parser for Go's text/template (Go's parse/parse.go): items -> trees, the main template plus every
// {{define}} and {{block}}. It keeps Go's structure — one tree parser per template with its own three-item
// look-ahead, sharing one item stream — because Go's error texts and line numbers depend on it. Behaviour
// of newer Go kept on purpose: `{{else with}}` (Go 1.23).
import { itemString, lex, ZERO_ITEM, type Item, type ItemType } from './lexer.ts';
import type { Meter } from '../go/internal/meter.ts';
import type {
  BranchNode,
  CommandNode,
  IfNode,
  ListNode,
  Node,
  NumberNode,
  PipeNode,
  RangeNode,
  TemplateNode,
  VariableNode,
  WithNode,
} from './ast.ts';
import { GoSyntaxError, unquoteGoChar, unquoteGoString } from '../go/strconv/unquote.ts';
import { goQuote } from '../go/fmt/format.ts';
import { parseErrorMessage } from './errors.ts';
import { parseGoFloat, parseGoInt } from '../go/strconv/parseNumber.ts';
import { lookupKey } from '../go/internal/hashableKey.ts';

/** A parse failure; the message is Go's, complete ("template: NAME:LINE: ..."). */
export class ParseError extends Error {
  constructor(
    message: string,
    readonly line: number,
    /** UTF-16 index of the item the error was found at (Go reports only the line; we add its column). */
    readonly pos: number,
  ) {
    super(message);
    this.name = 'ParseError';
  }
}

export interface ParsedTree {
  readonly name: string;
  readonly root: ListNode;
}

/** Go's builtin function names: always defined, so never a "function not defined" parse error. */
export const BUILTIN_FUNCTION_NAMES: ReadonlySet<string> = new Set([
  'and',
  'call',
  'html',
  'index',
  'slice',
  'js',
  'len',
  'not',
  'or',
  'print',
  'printf',
  'println',
  'urlquery',
  'eq',
  'ge',
  'gt',
  'le',
  'lt',
  'ne',
]);

/**
 * Parses `text` as template `name`, adding the trees it defines to `treeSet` like Go's parse.Parse: a
 * tree replaces an existing one only if the existing one is empty; two non-empty definitions are an error.
 * `hasFunction` answers for the caller's function map (builtins are always defined).
 */
export function parseTemplate(
  name: string,
  text: string,
  hasFunction: (name: string) => boolean,
  treeSet: Map<string, ParsedTree>,
  meter: Meter,
): Map<string, ParsedTree> {
  const isFunction = (fn: string) => BUILTIN_FUNCTION_NAMES.has(fn) || hasFunction(fn);
  const stream = new ItemStream(lex(text, !isFunction('break'), !isFunction('continue'), meter));
  const t = new TreeParser(name, name, stream, isFunction, treeSet);
  t.parse();
  t.add();
  return treeSet;
}

class ItemStream {
  private i = 0;
  constructor(private readonly items: readonly Item[]) {}
  nextItem(): Item {
    return this.i < this.items.length ? this.items[this.i++]! : ZERO_ITEM;
  }
}

type ControlEnd = { kind: 'end'; pos: number } | { kind: 'else'; pos: number; line: number };
type Parsed = Node | ControlEnd;

const isControlEnd = (n: Parsed): n is ControlEnd => n.kind === 'end' || n.kind === 'else';
const controlEndString = (n: ControlEnd) => (n.kind === 'end' ? '{{end}}' : '{{else}}');

class TreeParser {
  root: ListNode | undefined;
  // Three-item look-ahead, as Go's Tree.token / peekCount.
  private readonly token: Item[] = [ZERO_ITEM, ZERO_ITEM, ZERO_ITEM];
  private peekCount = 0;
  private vars: string[] = ['$'];
  private actionLine = 0;
  private rangeDepth = 0;

  constructor(
    public name: string,
    private readonly parseName: string,
    private readonly lexer: ItemStream,
    private readonly isFunction: (name: string) => boolean,
    private readonly treeSet: Map<string, ParsedTree>,
  ) {}

  // ---- item cursor ----

  private next(): Item {
    if (this.peekCount > 0) this.peekCount--;
    else this.token[0] = this.lexer.nextItem();
    return this.token[this.peekCount]!;
  }

  private backup(): void {
    this.peekCount++;
  }

  private backup2(t1: Item): void {
    this.token[1] = t1;
    this.peekCount = 2;
  }

  private backup3(t2: Item, t1: Item): void {
    this.token[1] = t1;
    this.token[2] = t2;
    this.peekCount = 3;
  }

  private peek(): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1]!;
    this.peekCount = 1;
    this.token[0] = this.lexer.nextItem();
    return this.token[0];
  }

  private nextNonSpace(): Item {
    let token: Item;
    do token = this.next();
    while (token.type === 'space');
    return token;
  }

  private peekNonSpace(): Item {
    const token = this.nextNonSpace();
    this.backup();
    return token;
  }

  // ---- errors ----

  errorf(message: string): never {
    // Go reports the line of the last item read from the lexer by this tree.
    const line = this.token[0]!.line;
    throw new ParseError(parseErrorMessage(this.parseName, line, message), line, this.token[0]!.pos);
  }

  private expect(expected: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.type !== expected) this.unexpected(token, context);
    return token;
  }

  private expectOneOf(expected1: ItemType, expected2: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.type !== expected1 && token.type !== expected2) this.unexpected(token, context);
    return token;
  }

  private unexpected(token: Item, context: string): never {
    if (token.type === 'error') {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.parseName}:${this.actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${itemString(token)}${extra}`);
    }
    this.errorf(`unexpected ${itemString(token)} in ${context}`);
  }

  // ---- trees ----

  add(): void {
    const tree = this.treeSet.get(lookupKey(this.name));
    if (tree === undefined || isEmptyTree(tree.root)) {
      this.treeSet.set(lookupKey(this.name), { name: this.name, root: this.root! });
      return;
    }
    if (!isEmptyTree(this.root!)) this.errorf(`template: multiple definition of template ${goQuote(this.name)}`);
  }

  /** The top level: like itemList, but also takes {{define}}s, and runs to EOF. */
  parse(): void {
    this.root = { kind: 'list', pos: this.peek().pos, nodes: [] };
    while (this.peek().type !== 'eof') {
      if (this.peek().type === 'leftDelim') {
        const delim = this.next();
        if (this.nextNonSpace().type === 'define') {
          const def = new TreeParser('definition', this.parseName, this.lexer, this.isFunction, this.treeSet);
          def.parseDefinition();
          continue;
        }
        this.backup2(delim);
      }
      const n = this.textOrAction();
      if (isControlEnd(n)) this.errorf(`unexpected ${controlEndString(n)}`);
      this.root.nodes.push(n);
    }
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const name = this.expectOneOf('string', 'rawString', context);
    this.name = this.unquote(name.val);
    this.expect('rightDelim', context);
    const { list, end } = this.itemList();
    this.root = list;
    if (end.kind !== 'end') this.errorf(`unexpected ${controlEndString(end)} in ${context}`);
    this.add();
  }

  private unquote(lit: string): string {
    try {
      return unquoteGoString(lit);
    } catch (e) {
      if (e instanceof GoSyntaxError) this.errorf(e.message);
      throw e;
    }
  }

  private itemList(): { list: ListNode; end: ControlEnd } {
    const list: ListNode = { kind: 'list', pos: this.peekNonSpace().pos, nodes: [] };
    while (this.peekNonSpace().type !== 'eof') {
      const n = this.textOrAction();
      if (isControlEnd(n)) return { list, end: n };
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Parsed {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'text':
        return { kind: 'text', pos: token.pos, text: token.val };
      case 'leftDelim':
        this.actionLine = token.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      default:
        this.unexpected(token, 'input');
    }
  }

  private action(): Parsed {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'block':
        return this.blockControl();
      case 'break':
        return this.breakControl(token.pos, token.line);
      case 'continue':
        return this.continueControl(token.pos, token.line);
      case 'else':
        return this.elseControl();
      case 'end':
        return this.endControl();
      case 'if':
        return this.ifControl();
      case 'range':
        return this.rangeControl();
      case 'template':
        return this.templateControl();
      case 'with':
        return this.withControl();
      default:
        break;
    }
    this.backup();
    const t = this.peek();
    // Variables are not popped here: they persist until the enclosing {{end}}.
    return { kind: 'action', pos: t.pos, line: t.line, pipe: this.pipeline('command', 'rightDelim') };
  }

  private breakControl(pos: number, line: number): Node {
    const token = this.nextNonSpace();
    if (token.type !== 'rightDelim') this.unexpected(token, '{{break}}');
    if (this.rangeDepth === 0) this.errorf('{{break}} outside {{range}}');
    return { kind: 'break', pos, line };
  }

  private continueControl(pos: number, line: number): Node {
    const token = this.nextNonSpace();
    if (token.type !== 'rightDelim') this.unexpected(token, '{{continue}}');
    if (this.rangeDepth === 0) this.errorf('{{continue}} outside {{range}}');
    return { kind: 'continue', pos, line };
  }

  // ---- pipelines ----

  private pipeline(context: string, end: ItemType): PipeNode {
    const token = this.peekNonSpace();
    const pipe: PipeNode = { kind: 'pipe', pos: token.pos, line: token.line, isAssign: false, decl: [], cmds: [] };
    // Declarations or assignments: "$x :=", "$x =", "$i, $e :=" (range only).
    decls: for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      this.next();
      // Space is an item, so "$x foo" needs three items of look-ahead to see that $x is an argument.
      const tokenAfterVariable = this.peek();
      const next = this.peekNonSpace();
      if (next.type === 'assign' || next.type === 'declare') {
        pipe.isAssign = next.type === 'assign';
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
      } else if (next.type === 'char' && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const t = this.peekNonSpace().type;
          if (t === 'variable' || t === 'rightDelim' || t === 'rightParen') continue decls; // the second variable
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      } else if (tokenAfterVariable.type === 'space') {
        this.backup3(v, tokenAfterVariable);
      } else {
        this.backup2(v);
      }
      break;
    }
    for (;;) {
      const token = this.nextNonSpace();
      switch (token.type) {
        case end:
          this.checkPipeline(pipe, context);
          return pipe;
        case 'bool':
        case 'charConstant':
        case 'complex':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(token, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    // Only the first command of a pipeline may start with a non-executable operand.
    for (let i = 1; i < pipe.cmds.length; i++) {
      switch (pipe.cmds[i]!.args[0]!.kind) {
        case 'bool':
        case 'dot':
        case 'nil':
        case 'number':
        case 'string':
          this.errorf(`non executable command in pipeline stage ${i + 1}`);
        default:
          break;
      }
    }
  }

  // ---- control structures ----

  private parseControl(context: 'if' | 'range' | 'with'): BranchNode {
    const varsMark = this.vars.length;
    try {
      const pipe = this.pipeline(context, 'rightDelim');
      if (context === 'range') this.rangeDepth++;
      let { list, end: next } = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | undefined;
      if (next.kind === 'else') {
        // "{{else if}}" / "{{else with}}" (Go 1.23) are "{{else}}{{if}}...{{end}}{{end}}" with one {{end}}.
        const p = this.peek().type;
        if ((context === 'if' && p === 'if') || (context === 'with' && p === 'with')) {
          this.next();
          elseList = { kind: 'list', pos: next.pos, nodes: [context === 'if' ? this.ifControl() : this.withControl()] };
        } else {
          const r = this.itemList();
          elseList = r.list;
          if (r.end.kind !== 'end') this.errorf(`expected end; found ${controlEndString(r.end)}`);
        }
      }
      return { pos: pipe.pos, line: pipe.line, pipe, list, elseList };
    } finally {
      this.vars.length = varsMark;
    }
  }

  private ifControl(): IfNode {
    return { kind: 'if', ...this.parseControl('if') };
  }

  private rangeControl(): RangeNode {
    return { kind: 'range', ...this.parseControl('range') };
  }

  private withControl(): WithNode {
    return { kind: 'with', ...this.parseControl('with') };
  }

  private endControl(): ControlEnd {
    return { kind: 'end', pos: this.expect('rightDelim', 'end').pos };
  }

  private elseControl(): ControlEnd {
    const peek = this.peekNonSpace();
    // "{{else if ..." and "{{else with ...": return the else and leave the keyword pending.
    if (peek.type === 'if' || peek.type === 'with') return { kind: 'else', pos: peek.pos, line: peek.line };
    const token = this.expect('rightDelim', 'else');
    return { kind: 'else', pos: token.pos, line: token.line };
  }

  private blockControl(): TemplateNode {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    const pipe = this.pipeline(context, 'rightDelim');
    const block = new TreeParser(name, this.parseName, this.lexer, this.isFunction, this.treeSet);
    const { list, end } = block.itemList();
    block.root = list;
    // Reported with this tree's last item, as Go does.
    if (end.kind !== 'end') this.errorf(`unexpected ${controlEndString(end)} in ${context}`);
    block.add();
    return { kind: 'template', pos: token.pos, line: token.line, name, key: lookupKey(name), pipe };
  }

  private templateControl(): TemplateNode {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().type !== 'rightDelim') {
      this.backup();
      pipe = this.pipeline(context, 'rightDelim');
    }
    return { kind: 'template', pos: token.pos, line: token.line, name, key: lookupKey(name), pipe };
  }

  private parseTemplateName(token: Item, context: string): string {
    if (token.type === 'string' || token.type === 'rawString') return this.unquote(token.val);
    this.unexpected(token, context);
  }

  // ---- commands and operands ----

  private command(): CommandNode {
    const cmd: CommandNode = { kind: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace(); // skip leading spaces
      const operand = this.operand();
      if (operand !== undefined) cmd.args.push(operand);
      const token = this.next();
      switch (token.type) {
        case 'space':
          continue;
        case 'rightDelim':
        case 'rightParen':
          this.backup();
          break;
        case 'pipe':
          break;
        default:
          this.unexpected(token, 'operand');
      }
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): Node | undefined {
    const node = this.term();
    if (node === undefined) return undefined;
    if (this.peek().type !== 'field') return node;
    const pos = this.peek().pos;
    const fields: string[] = [];
    while (this.peek().type === 'field') fields.push(this.next().val.slice(1));
    // Fields after a field or variable extend it; after anything else they make a chain.
    switch (node.kind) {
      case 'field':
        return { kind: 'field', pos, ident: [...node.ident, ...fields] };
      case 'variable':
        return { kind: 'variable', pos, ident: [...node.ident, ...fields] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        this.errorf(`unexpected . after term ${goQuote(nodeTermString(node))}`);
      default:
        return { kind: 'chain', pos, node, field: fields };
    }
  }

  private term(): Node | undefined {
    const token = this.nextNonSpace();
    switch (token.type) {
      case 'identifier':
        if (!this.isFunction(token.val)) this.errorf(`function ${goQuote(token.val)} not defined`);
        return { kind: 'identifier', pos: token.pos, ident: token.val };
      case 'dot':
        return { kind: 'dot', pos: token.pos };
      case 'nil':
        return { kind: 'nil', pos: token.pos };
      case 'variable':
        return this.useVar(token.pos, token.val);
      case 'field':
        return { kind: 'field', pos: token.pos, ident: token.val.slice(1).split('.') };
      case 'bool':
        return { kind: 'bool', pos: token.pos, value: token.val === 'true' };
      case 'charConstant':
      case 'complex':
      case 'number':
        return this.newNumber(token);
      case 'leftParen':
        return this.pipeline('parenthesized pipeline', 'rightParen');
      case 'string':
      case 'rawString':
        return { kind: 'string', pos: token.pos, quoted: token.val, text: this.unquote(token.val) };
      default:
        break;
    }
    this.backup();
    return undefined;
  }

  private newVariable(pos: number, ident: string): VariableNode {
    return { kind: 'variable', pos, ident: ident.split('.') };
  }

  private useVar(pos: number, name: string): VariableNode {
    const v = this.newVariable(pos, name);
    if (!this.vars.includes(v.ident[0]!)) this.errorf(`undefined variable ${goQuote(v.ident[0]!)}`);
    return v;
  }

  private newNumber(token: Item): NumberNode {
    const text = token.val;
    const base = { kind: 'number' as const, pos: token.pos, text };
    if (token.type === 'charConstant') {
      let r;
      try {
        r = unquoteGoChar(text);
      } catch (e) {
        if (e instanceof GoSyntaxError) this.errorf(e.message);
        throw e;
      }
      if ('malformed' in r) this.errorf(`malformed character constant: ${text}`);
      const v = BigInt(r.value);
      return { ...base, isInt: true, isUint: true, isFloat: true, isComplex: false, int: v, uint: v, float: r.value };
    }
    if (token.type === 'complex') {
      // Go parses "1+2i" with fmt.Sscan.
      const m = /^([+-]?[^+-]+(?:[eEpP][+-][^+-]*)?)([+-].*)i$/.exec(text);
      const re = m ? parseGoFloat(m[1]!) : undefined;
      const im = m ? parseGoFloat(m[2]!) : undefined;
      if (re === undefined || im === undefined) this.errorf('expected integer');
      return simplifyComplex(base, re, im);
    }
    // Imaginary constants are complex unless they are zero.
    if (text.endsWith('i')) {
      const f = parseGoFloat(text.slice(0, -1));
      if (f !== undefined) return simplifyComplex(base, 0, f);
    }
    let isInt = false;
    let isUint = false;
    let isFloat = false;
    let int = 0n;
    let uint = 0n;
    let float = 0;
    const u = parseGoInt(text, true);
    if (u !== undefined) {
      isUint = true;
      uint = u;
    }
    const i = parseGoInt(text, false);
    if (i !== undefined) {
      isInt = true;
      int = i;
      if (i === 0n) isUint = true; // -0
    }
    if (isInt) {
      isFloat = true;
      float = Number(int);
    } else if (isUint) {
      isFloat = true;
      float = Number(uint);
    } else {
      const f = parseGoFloat(text);
      if (f !== undefined) {
        // Parsed as a float but looks like an integer: an integer too large for int64/uint64.
        if (!/[.eEpP]/.test(text)) this.errorf(`integer overflow: ${goQuote(text)}`);
        isFloat = true;
        float = f;
        if (Number.isInteger(f) && f >= -(2 ** 63) && f < 2 ** 63) {
          isInt = true;
          int = BigInt(f);
        }
        if (Number.isInteger(f) && f >= 0 && f < 2 ** 64) {
          isUint = true;
          uint = BigInt(f);
        }
      }
    }
    if (!isInt && !isUint && !isFloat) this.errorf(`illegal number syntax: ${goQuote(text)}`);
    return { ...base, isInt, isUint, isFloat, isComplex: false, int, uint, float };
  }
}

function simplifyComplex(base: { kind: 'number'; pos: number; text: string }, re: number, im: number): NumberNode {
  const isFloat = im === 0;
  const isInt = isFloat && Number.isInteger(re) && re >= -(2 ** 63) && re < 2 ** 63;
  const isUint = isFloat && Number.isInteger(re) && re >= 0 && re < 2 ** 64;
  return {
    ...base,
    isComplex: true,
    isFloat,
    isInt,
    isUint,
    complex: { re, im },
    float: isFloat ? re : 0,
    int: isInt ? BigInt(re) : 0n,
    uint: isUint ? BigInt(re) : 0n,
  };
}

function nodeTermString(n: Node): string {
  switch (n.kind) {
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'string':
      return n.quoted;
    case 'number':
      return n.text;
    case 'nil':
      return 'nil';
    default:
      return '.';
  }
}

/** Go's IsEmptyTree: nothing but space (and comments). An empty tree never replaces a definition. */
export function isEmptyTree(n: Node): boolean {
  switch (n.kind) {
    case 'list':
      return n.nodes.every(isEmptyTree);
    case 'text':
      return isAllSpace(n.text);
    default:
      return false;
  }
}

// bytes.TrimSpace: Unicode white space.
function isAllSpace(s: string): boolean {
  return /^[\s\u0085]*$/u.test(s) && !/[\ufeff]/.test(s);
}
