// Parser for Go's text/template: items -> trees (the main template plus every {{define}}), with Go's
// checks at parse time (undefined functions and variables, misplaced keywords) and Go's error texts.
import { lex, type Item, type ItemType } from './lexer.ts';
import type {
  ActionNode, BranchNode, CommandNode, ListNode, Node, NumberNode, PipeNode, TemplateNode, VariableNode,
} from './ast.ts';
import { unquoteGoString, unquoteGoChar } from './goLiterals.ts';

export class ParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ParseError';
  }
}

export interface ParsedTree {
  name: string;
  root: ListNode;
  text: string;
}

/** Parses `text` as template `name`; returns the main tree and every {{define}}d tree. */
export function parseTemplate(name: string, text: string, isFunction: (name: string) => boolean): Map<string, ParsedTree> {
  return new Parser(name, text, isFunction).parse();
}

const BUILTIN_NAMES = new Set(['and', 'or', 'not', 'len', 'index', 'slice', 'print', 'printf', 'println', 'html', 'js', 'urlquery', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'call']);

class Parser {
  private readonly items: Item[];
  private i = 0;
  private treeName: string;
  private readonly trees = new Map<string, ParsedTree>();
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  private lastItem: Item | undefined;
  private actionLine = 0;

  constructor(
    private readonly name: string,
    private readonly text: string,
    private readonly isFunction: (name: string) => boolean,
  ) {
    this.items = lex(text);
    this.treeName = name;
  }

  parse(): Map<string, ParsedTree> {
    const root: ListNode = { kind: 'list', pos: 0, nodes: [] };
    while (this.peek().type !== 'eof') {
      if (this.peek().type === 'leftDelim') {
        const mark = this.i;
        this.next();
        if (this.nextNonSpace().type === 'keyword' && this.lastItem!.val === 'define') {
          this.parseDefinition();
          continue;
        }
        this.i = mark;
      }
      const n = this.textOrAction();
      if (n.kind !== 'node') this.errorf(`unexpected {{${n.kind}}}`);
      root.nodes.push(n.node);
    }
    this.add({ name: this.name, root, text: this.text });
    return this.trees;
  }

  private add(tree: ParsedTree): void {
    const existing = this.trees.get(tree.name);
    if (existing && !isEmptyTree(existing.root) && !isEmptyTree(tree.root)) {
      this.errorf(`template: multiple definition of template ${JSON.stringify(tree.name)}`);
    }
    if (!existing || !isEmptyTree(tree.root)) this.trees.set(tree.name, tree);
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const nameItem = this.nextNonSpace();
    const name = this.parseTemplateName(nameItem, context);
    this.expect('rightDelim', context);
    // Errors inside a definition still name the template being parsed, as Go's ParseName does.
    const savedVars = this.vars;
    this.vars = ['$'];
    const { list, end } = this.itemList();
    if (end !== 'end') this.errorf(`unexpected {{${end}}} in ${context}`);
    this.add({ name, root: list, text: this.text });
    this.vars = savedVars;
  }

  // ---- item cursor ----

  private peek(): Item {
    return this.items[this.i] ?? this.items[this.items.length - 1]!;
  }

  private next(): Item {
    const it = this.peek();
    if (this.i < this.items.length - 1) this.i++;
    else this.i = this.items.length - 1;
    this.lastItem = it;
    if (it.type === 'error') this.errorf(it.val, it);
    return it;
  }

  private backup(): void {
    this.i--;
  }

  private nextNonSpace(): Item {
    let it: Item;
    do it = this.next();
    while (it.type === 'space');
    return it;
  }

  private peekNonSpace(): Item {
    const it = this.nextNonSpace();
    this.backup();
    return it;
  }

  private expect(type: ItemType, context: string): Item {
    const it = this.nextNonSpace();
    if (it.type !== type) this.unexpected(it, context);
    return it;
  }

  private unexpected(it: Item, context: string): never {
    if (it.type === 'error') this.errorf(it.val, it);
    this.errorf(`unexpected ${itemString(it)} in ${context}`, it);
  }

  private errorf(message: string, at?: Item): never {
    const item = at ?? this.lastItem ?? this.peek();
    throw new ParseError(`template: ${this.treeName}:${item.line}: ${message}`);
  }

  // ---- lists, text and actions ----

  private itemList(): { list: ListNode; end: 'end' | 'else' } {
    const list: ListNode = { kind: 'list', pos: this.peek().pos, nodes: [] };
    while (this.peekNonSpace().type !== 'eof') {
      const n = this.textOrAction();
      if (n.kind !== 'node') return { list, end: n.kind };
      list.nodes.push(n.node);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): { kind: 'node'; node: Node } | { kind: 'end' | 'else'; item?: Item } {
    for (;;) {
      const it = this.nextNonSpace();
      switch (it.type) {
        case 'text':
          return { kind: 'node', node: { kind: 'text', pos: it.pos, text: it.val } };
        case 'leftDelim':
          this.actionLine = it.line;
          return this.action();
        case 'comment':
          continue;
        default:
          this.unexpected(it, 'input');
      }
    }
  }

  private action(): { kind: 'node'; node: Node } | { kind: 'end' | 'else'; item?: Item } {
    const it = this.nextNonSpace();
    if (it.type === 'keyword') {
      switch (it.val) {
        case 'block': return { kind: 'node', node: this.blockControl() };
        case 'break': return { kind: 'node', node: this.breakOrContinue('break', it) };
        case 'continue': return { kind: 'node', node: this.breakOrContinue('continue', it) };
        case 'else': return this.elseControl(it);
        case 'end':
          this.expect('rightDelim', 'end');
          return { kind: 'end', item: it };
        case 'if': return { kind: 'node', node: this.branchControl('if', it) };
        case 'range': return { kind: 'node', node: this.branchControl('range', it) };
        case 'template': return { kind: 'node', node: this.templateControl(it) };
        case 'with': return { kind: 'node', node: this.branchControl('with', it) };
        default:
          break;
      }
    }
    this.backup();
    const line = this.actionLine;
    const pipe = this.pipeline('command', 'rightDelim');
    const node: ActionNode = { kind: 'action', pos: it.pos, line, pipe };
    return { kind: 'node', node };
  }

  private breakOrContinue(kind: 'break' | 'continue', it: Item): Node {
    const next = this.nextNonSpace();
    if (next.type !== 'rightDelim') this.unexpected(next, `{{${kind}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${kind}}} outside {{range}}`, it);
    return { kind, pos: it.pos, line: it.line };
  }

  private elseControl(it: Item): { kind: 'else'; item: Item } {
    const peek = this.peekNonSpace();
    // "else if" and "else with" are rewritten by the branch parser; here we only see a plain else.
    if (peek.type === 'keyword' && (peek.val === 'if' || peek.val === 'with')) return { kind: 'else', item: it };
    this.expect('rightDelim', 'else');
    return { kind: 'else', item: it };
  }

  private branchControl(kind: 'if' | 'range' | 'with', it: Item): Node {
    const varsMark = this.vars.length;
    const line = it.line;
    const pipe = this.pipeline(kind, 'rightDelim');
    if (kind === 'range') this.rangeDepth++;
    let { list, end } = this.itemList();
    if (kind === 'range') this.rangeDepth--;
    let elseList: ListNode | undefined;
    if (end === 'else') {
      // Special case for "else if" / "else with": treat as an else containing a nested branch.
      const peek = this.peekNonSpace();
      if ((kind === 'if' && peek.type === 'keyword' && peek.val === 'if') || (kind === 'with' && peek.type === 'keyword' && peek.val === 'with')) {
        const inner = this.nextNonSpace();
        const nested = this.branchControl(kind, inner) as BranchNode & Node;
        elseList = { kind: 'list', pos: inner.pos, nodes: [nested] };
        this.vars.length = varsMark;
        return { kind, pos: it.pos, line, pipe, list, elseList } as Node;
      }
      const r = this.itemList();
      elseList = r.list;
      if (r.end !== 'end') this.errorf('expected end; found {{else}}');
    }
    this.vars.length = varsMark;
    return { kind, pos: it.pos, line, pipe, list, ...(elseList ? { elseList } : {}) } as Node;
  }

  private parseTemplateName(it: Item, context: string): string {
    if (it.type === 'string' || it.type === 'rawString') {
      try {
        return it.type === 'rawString' ? it.val.slice(1, -1) : unquoteGoString(it.val);
      } catch {
        this.errorf(`invalid syntax`, it);
      }
    }
    this.unexpected(it, context);
  }

  private templateControl(it: Item): TemplateNode {
    const context = 'template clause';
    const nameItem = this.nextNonSpace();
    const name = this.parseTemplateName(nameItem, context);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().type !== 'rightDelim') {
      this.backup();
      pipe = this.pipeline(context, 'rightDelim');
    }
    return { kind: 'template', pos: nameItem.pos, line: it.line, name, ...(pipe ? { pipe } : {}) };
  }

  private blockControl(): TemplateNode {
    const context = 'block clause';
    const it = this.lastItem!;
    const nameItem = this.nextNonSpace();
    const name = this.parseTemplateName(nameItem, context);
    const pipe = this.pipeline(context, 'rightDelim');
    const savedVars = this.vars;
    this.vars = ['$'];
    const { list, end } = this.itemList();
    if (end !== 'end') this.errorf(`unexpected {{${end}}} in ${context}`);
    this.add({ name, root: list, text: this.text });
    this.vars = savedVars;
    return { kind: 'template', pos: nameItem.pos, line: it.line, name, pipe };
  }

  // ---- pipelines ----

  private pipeline(context: string, end: ItemType): PipeNode {
    const token = this.peekNonSpace();
    const pipe: PipeNode = { kind: 'pipe', pos: token.pos, line: this.actionLine || token.line, isAssign: false, decl: [], cmds: [] };
    // Declarations: $x := / $x = / $i, $e :=
    decls: if (this.peekNonSpace().type === 'variable') {
      const v = this.nextNonSpace();
      const next = this.peekRaw();
      const afterSpace = next.type === 'space' ? this.peekAt(1) : next;
      if (afterSpace.type === 'declare' || afterSpace.type === 'assign') {
        if (next.type === 'space') this.next();
        const op = this.next();
        pipe.isAssign = op.type === 'assign';
        pipe.decl.push(this.newVariable(v, !pipe.isAssign));
        break decls;
      }
      if (afterSpace.type === 'char' && afterSpace.val === ',') {
        if (next.type === 'space') this.next();
        this.next();
        if (context !== 'range') this.errorf(`too many declarations in ${context}`);
        pipe.decl.push(this.newVariable(v, true));
        const v2 = this.nextNonSpace();
        if (v2.type !== 'variable') this.errorf(`missing variable in ${context}`, v2);
        const op = this.nextNonSpace();
        if (op.type !== 'declare' && op.type !== 'assign') this.errorf(`missing := in ${context}`, op);
        pipe.isAssign = op.type === 'assign';
        pipe.decl.push(this.newVariable(v2, !pipe.isAssign));
        pipe.decl[0] = pipe.decl[0]!;
        break decls;
      }
      this.backupTo(v);
    }
    for (;;) {
      const it = this.nextNonSpace();
      if (it.type === end) {
        this.checkPipeline(pipe, context);
        return pipe;
      }
      switch (it.type) {
        case 'bool': case 'charConstant': case 'dot': case 'field': case 'identifier': case 'number': case 'nil':
        case 'rawString': case 'string': case 'variable': case 'leftParen':
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(it, context);
      }
    }
  }

  private peekRaw(): Item {
    return this.peek();
  }

  private peekAt(offset: number): Item {
    return this.items[this.i + offset] ?? this.items[this.items.length - 1]!;
  }

  private backupTo(it: Item): void {
    while (this.i > 0 && this.peek() !== it) this.i--;
  }

  private newVariable(it: Item, _declare: boolean): VariableNode {
    // Go records assigned names too; assigning an undeclared variable fails at execution.
    this.vars.push(it.val);
    return { kind: 'variable', pos: it.pos, ident: [it.val] };
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    // Only the first command of a pipeline may be a non-executable operand.
    for (let i = 1; i < pipe.cmds.length; i++) {
      const first = pipe.cmds[i]!.args[0]!;
      if (['bool', 'dot', 'nil', 'number', 'string'].includes(first.kind)) {
        this.errorf(`non executable command in pipeline stage ${i + 1}`);
      }
    }
  }

  private command(): CommandNode {
    const cmd: CommandNode = { kind: 'command', pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand !== undefined) cmd.args.push(operand);
      const it = this.next();
      switch (it.type) {
        case 'space':
          continue;
        case 'rightDelim': case 'rightParen':
          this.backup();
          break;
        case 'pipe':
          break;
        default:
          this.unexpected(it, 'operand');
      }
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): Node | undefined {
    const node = this.term();
    if (node === undefined) return undefined;
    if (this.peek().type === 'field') {
      const chainPos = this.peek().pos;
      const fields: string[] = [];
      while (this.peek().type === 'field') fields.push(this.next().val.slice(1));
      switch (node.kind) {
        case 'field':
          return { kind: 'field', pos: chainPos, ident: [...node.ident, ...fields] };
        case 'variable':
          return { kind: 'variable', pos: chainPos, ident: [...node.ident, ...fields] };
        case 'bool': case 'string': case 'number': case 'nil': case 'dot':
          this.errorf(`unexpected . after term ${JSON.stringify(nodeText(node))}`);
        default:
          return { kind: 'chain', pos: chainPos, node, field: fields };
      }
    }
    return node;
  }

  private term(): Node | undefined {
    const it = this.nextNonSpace();
    switch (it.type) {
      case 'identifier':
        if (!BUILTIN_NAMES.has(it.val) && !this.isFunction(it.val)) this.errorf(`function ${JSON.stringify(it.val)} not defined`, it);
        return { kind: 'identifier', pos: it.pos, ident: it.val };
      case 'dot':
        return { kind: 'dot', pos: it.pos };
      case 'nil':
        return { kind: 'nil', pos: it.pos };
      case 'variable':
        if (!this.vars.includes(it.val)) this.errorf(`undefined variable ${JSON.stringify(it.val)}`, it);
        return { kind: 'variable', pos: it.pos, ident: [it.val] };
      case 'field':
        return { kind: 'field', pos: it.pos, ident: [it.val.slice(1)] };
      case 'bool':
        return { kind: 'bool', pos: it.pos, value: it.val === 'true' };
      case 'charConstant': case 'number':
        return this.number(it);
      case 'leftParen': {
        const pipe = this.pipeline('parenthesized pipeline', 'rightParen');
        return pipe;
      }
      case 'string': case 'rawString': {
        let text: string;
        try {
          text = it.type === 'rawString' ? it.val.slice(1, -1).replace(/\r/g, '') : unquoteGoString(it.val);
        } catch {
          this.errorf('invalid syntax', it);
        }
        return { kind: 'string', pos: it.pos, quoted: it.val, text };
      }
      default:
        this.backup();
        return undefined;
    }
  }

  private number(it: Item): NumberNode {
    const n: NumberNode = { kind: 'number', pos: it.pos, text: it.val, isInt: false, isUint: false, isFloat: false, isComplex: false, int: 0n, uint: 0n, float: 0 };
    if (it.type === 'charConstant') {
      let cp: number;
      try {
        cp = unquoteGoChar(it.val);
      } catch {
        this.errorf(`malformed character constant: ${it.val}`, it);
      }
      n.isInt = n.isUint = n.isFloat = true;
      n.int = n.uint = BigInt(cp);
      n.float = cp;
      return n;
    }
    const text = it.val;
    if (text.endsWith('i')) {
      const f = parseGoFloat(text.slice(0, -1));
      if (f !== undefined) {
        n.isComplex = true;
        // A zero imaginary part simplifies to a real constant.
        if (f === 0) {
          n.isInt = n.isUint = n.isFloat = true;
          n.float = 0;
        }
        return n;
      }
    }
    const u = parseGoInt(text, true);
    if (u !== undefined) {
      n.isUint = true;
      n.uint = u;
    }
    const i = parseGoInt(text, false);
    if (i !== undefined) {
      n.isInt = true;
      n.int = i;
      if (i === 0n) {
        n.isUint = true;
        n.uint = 0n;
      }
    }
    if (n.isInt) {
      n.isFloat = true;
      n.float = Number(n.int);
    } else if (n.isUint) {
      n.isFloat = true;
      n.float = Number(n.uint);
    } else {
      const f = parseGoFloat(text);
      if (f !== undefined) {
        if (!/[.eEpP]/.test(text)) this.errorf(`integer overflow: ${text}`, it);
        n.isFloat = true;
        n.float = f;
        if (Number.isInteger(f) && Math.abs(f) < 2 ** 63) {
          n.isInt = true;
          n.int = BigInt(f);
        }
        if (Number.isInteger(f) && f >= 0 && f < 2 ** 64) {
          n.isUint = true;
          n.uint = BigInt(f);
        }
      }
    }
    if (!n.isInt && !n.isUint && !n.isFloat) this.errorf(`illegal number syntax: ${JSON.stringify(text)}`, it);
    return n;
  }
}

function nodeText(n: Node): string {
  switch (n.kind) {
    case 'bool': return String(n.value);
    case 'string': return n.quoted;
    case 'number': return n.text;
    case 'nil': return 'nil';
    default: return '.';
  }
}

function itemString(it: Item): string {
  if (it.type === 'eof') return 'EOF';
  if (it.type === 'error') return it.val;
  if (it.type === 'keyword' || it.type === 'nil') return `<${it.val}>`;
  if (it.val.length > 10) return `${goQuote(it.val.slice(0, 10))}...`;
  return goQuote(it.val);
}

function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's "empty tree": only whitespace text (and comments). Such a parse never replaces a definition. */
export function isEmptyTree(n: Node): boolean {
  switch (n.kind) {
    case 'list': return n.nodes.every(isEmptyTree);
    case 'text': return n.text.trim() === '';
    default: return false;
  }
}

const INT_SYNTAX = /^[+-]?(?:0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0(?:_?[0-7])*|[1-9](?:_?[0-9])*)$/;

/** strconv.ParseInt/ParseUint with base 0 (64 bits). */
export function parseGoInt(text: string, unsigned: boolean): bigint | undefined {
  if (!INT_SYNTAX.test(text)) return undefined;
  let s = text.replace(/_/g, '');
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    if (unsigned) return undefined;
    neg = s[0] === '-';
    s = s.slice(1);
  }
  let v: bigint;
  if (/^0[xX]/.test(s)) v = BigInt('0x' + s.slice(2));
  else if (/^0[bB]/.test(s)) v = BigInt('0b' + s.slice(2));
  else if (/^0[oO]/.test(s)) v = BigInt('0o' + s.slice(2));
  else if (/^0[0-7]+$/.test(s)) v = BigInt('0o' + s.slice(1));
  else v = BigInt(s);
  if (neg) v = -v;
  if (unsigned) return v <= 0xffffffffffffffffn ? v : undefined;
  return v >= -(2n ** 63n) && v < 2n ** 63n ? v : undefined;
}

const FLOAT_SYNTAX = /^[+-]?(?:(?:[0-9](?:_?[0-9])*)?\.?(?:[0-9](?:_?[0-9])*)?(?:[eE][+-]?[0-9](?:_?[0-9])*)?|0[xX](?:_?[0-9a-fA-F])*\.?(?:[0-9a-fA-F](?:_?[0-9a-fA-F])*)?[pP][+-]?[0-9](?:_?[0-9])*|[iI]nf(?:inity)?|[nN]a[nN])$/;

/** strconv.ParseFloat(text, 64), including hex floats; undefined for invalid syntax or overflow. */
export function parseGoFloat(text: string): number | undefined {
  if (!FLOAT_SYNTAX.test(text) || !/[0-9]|inf|nan/i.test(text)) return undefined;
  const s = text.replace(/_/g, '');
  let v: number;
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?[0-9]+)$/.exec(s);
  if (hex) {
    const mant = parseInt((hex[2] || '0') + (hex[3] || ''), 16);
    v = mant * Math.pow(2, Number(hex[4]) - 4 * (hex[3] ?? '').length);
    if (hex[1] === '-') v = -v;
  } else if (/inf/i.test(s)) v = s.startsWith('-') ? -Infinity : Infinity;
  else if (/nan/i.test(s)) v = NaN;
  else {
    if (!/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(s)) return undefined;
    v = Number(s);
  }
  if (!Number.isFinite(v) && !/inf|nan/i.test(s)) return undefined;
  return v;
}
