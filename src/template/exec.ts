// The executor: walks a parse tree with a state (dot, variables, depth), following Go's exec.go for
// evaluation order, argument conversion, missing keys, truthiness and error texts. Our additions are
// limits (depth, output size, range iterations, steps) so a hostile template cannot hang or exhaust us.
import type {
  BranchNode, ChainNode, CommandNode, FieldNode, IdentifierNode, ListNode, Node, NumberNode, PipeNode, RangeNode, TemplateNode, VariableNode,
} from './ast.ts';
import { nodeString } from './ast.ts';
import { GoCallError, type FuncMap, type GoFunction, type GoParamType } from './functions.ts';
import { GoPointer, GoStringer, GoStruct, isGoMap, mapGet } from './values.ts';
import { compareBytes, formatValue, goTypeName } from './goFormat.ts';
import * as builtins from './builtins.ts';

export interface TemplateLimits {
  maxDepth: number;
  maxOutputBytes: number;
  maxRangeIterations: number;
  maxSteps: number;
}

export interface TreeEntry {
  name: string;
  root: ListNode;
  /** Name of the template whose Parse produced this tree, and its text: for line:col in errors. */
  parseName: string;
  text: string;
}

export class ExecError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'ExecError';
  }
}

/** Raised for our own limits; reported like an exec error. */
class LimitError extends Error {}

const BREAK = Symbol('break');
const CONTINUE = Symbol('continue');
const MISSING = Symbol('missing');

interface Variable {
  name: string;
  value: unknown;
  iface: boolean;
}

// A value plus whether its static type is interface{} (map and slice elements of JSON-like data):
// Go names that type in field errors and turns a nil interface into "no value" at the end of a pipeline.
interface Typed {
  v: unknown;
  iface: boolean;
}

type Builtin = { params: readonly GoParamType[]; variadic?: GoParamType; call: (...a: any[]) => unknown; reflect: boolean };

const R = true;
const BUILTINS: Record<string, Builtin> = {
  and: { params: ['any'], variadic: 'any', call: () => undefined, reflect: R },
  or: { params: ['any'], variadic: 'any', call: () => undefined, reflect: R },
  not: { params: ['any'], call: builtins.not, reflect: R },
  len: { params: ['any'], call: builtins.len, reflect: R },
  index: { params: ['any'], variadic: 'any', call: builtins.index, reflect: R },
  slice: { params: ['any'], variadic: 'any', call: builtins.slice, reflect: R },
  eq: { params: ['any'], variadic: 'any', call: builtins.eq, reflect: R },
  ne: { params: ['any', 'any'], call: builtins.ne, reflect: R },
  lt: { params: ['any', 'any'], call: builtins.lt, reflect: R },
  le: { params: ['any', 'any'], call: builtins.le, reflect: R },
  gt: { params: ['any', 'any'], call: builtins.gt, reflect: R },
  ge: { params: ['any', 'any'], call: builtins.ge, reflect: R },
  html: { params: [], variadic: 'any', call: builtins.html, reflect: false },
  js: { params: [], variadic: 'any', call: builtins.js, reflect: false },
  urlquery: { params: [], variadic: 'any', call: builtins.urlquery, reflect: false },
  print: { params: [], variadic: 'any', call: builtins.print, reflect: false },
  println: { params: [], variadic: 'any', call: builtins.println, reflect: false },
  printf: { params: ['string'], variadic: 'any', call: builtins.printf, reflect: false },
  call: { params: ['any'], variadic: 'any', call: () => undefined, reflect: R },
};

export function isBuiltin(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(BUILTINS, name);
}

const GO_PARAM_NAMES: Record<GoParamType, string> = {
  any: 'interface {}', string: 'string', int: 'int', float64: 'float64', bool: 'bool', '[]any': '[]interface {}', '[]string': '[]string', 'map[string]any': 'map[string]interface {}',
};

export class Executor {
  private out: string[] = [];
  private outBytes = 0;
  private vars: Variable[] = [];
  private depth = 0;
  private steps = 0;
  private node: Node | undefined;
  private current: TreeEntry;

  constructor(
    private readonly trees: ReadonlyMap<string, TreeEntry>,
    private readonly funcs: FuncMap,
    private readonly limits: TemplateLimits,
    start: TreeEntry,
  ) {
    this.current = start;
  }

  run(data: unknown): string {
    // Go: reflect.ValueOf(nil) is the invalid value, so nil data behaves as "no value".
    if (data === null) data = undefined;
    this.vars = [{ name: '$', value: data, iface: false }];
    this.walk({ v: data, iface: false }, this.current.root);
    return this.out.join('');
  }

  // ---- errors and positions ----

  private at(n: Node): void {
    this.node = n;
    if (++this.steps > this.limits.maxSteps) throw new LimitError(`template execution exceeded ${this.limits.maxSteps} steps`);
  }

  errorf(message: string): never {
    const name = this.current.name;
    const n = this.node;
    if (n === undefined) throw new ExecError(`template: ${name}: ${message}`);
    const tree = this.treeOf();
    const before = tree.text.slice(0, n.pos);
    const line = 1 + (before.match(/\n/g)?.length ?? 0);
    const nl = before.lastIndexOf('\n');
    // Go counts columns in bytes.
    const col = Buffer.byteLength(before.slice(nl + 1), 'utf8');
    const context = nodeString(n);
    throw new ExecError(`template: ${tree.parseName}:${line}:${col}: executing ${JSON.stringify(name)} at <${context}>: ${message}`, line, col);
  }

  private treeOf(): TreeEntry {
    return this.current;
  }

  limitError(e: LimitError): never {
    this.errorf(e.message);
  }

  // ---- output ----

  private write(s: string): void {
    this.outBytes += s.length;
    if (this.outBytes > this.limits.maxOutputBytes) this.errorf(`template output exceeds ${this.limits.maxOutputBytes} bytes`);
    this.out.push(s);
  }

  private printValue(n: Node, v: unknown): void {
    this.at(n);
    if (v instanceof GoPointer && v.elem !== null) {
      let x: unknown = v;
      while (x instanceof GoPointer && x.elem !== null) x = x.elem;
      v = x;
    }
    this.write(v === undefined ? '<no value>' : formatValue(v));
  }

  // ---- statements ----

  walk(dot: Typed, node: Node): void {
    this.at(node);
    switch (node.kind) {
      case 'action': {
        const v = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, v);
        return;
      }
      case 'break':
        throw BREAK;
      case 'continue':
        throw CONTINUE;
      case 'if':
      case 'with':
        return this.walkIfOrWith(node.kind, dot, node);
      case 'list':
        for (const n of node.nodes) this.walk(dot, n);
        return;
      case 'range':
        return this.walkRange(dot, node);
      case 'template':
        return this.walkTemplate(dot, node);
      case 'text':
        this.write(node.text);
        return;
      default:
        this.errorf(`unknown node: ${nodeString(node)}`);
    }
  }

  private mark(): number {
    return this.vars.length;
  }

  private pop(mark: number): void {
    this.vars.length = mark;
  }

  private walkIfOrWith(kind: 'if' | 'with', dot: Typed, n: BranchNode): void {
    const mark = this.mark();
    try {
      const val = this.evalPipeline(dot, n.pipe);
      if (builtins.truth(val)) this.walk(kind === 'with' ? { v: val, iface: false } : dot, n.list);
      else if (n.elseList) this.walk(dot, n.elseList);
    } finally {
      this.pop(mark);
    }
  }

  private walkRange(dot: Typed, r: RangeNode): void {
    this.at(r);
    const outer = this.mark();
    try {
      let val = this.evalPipeline(dot, r.pipe);
      while (val instanceof GoPointer && val.elem !== null) val = val.elem;
      const mark = this.mark();
      let iterations = 0;
      const one = (index: unknown, elem: Typed): boolean => {
        if (++iterations > this.limits.maxRangeIterations) throw new LimitError(`range exceeded ${this.limits.maxRangeIterations} iterations`);
        const decl = r.pipe.decl;
        if (decl.length > 0) {
          if (r.pipe.isAssign) this.setVar(decl[0]!.ident[0]!, decl.length > 1 ? index : elem.v, decl.length > 1 ? false : elem.iface);
          else this.setTopVar(1, elem);
        }
        if (decl.length > 1) {
          if (r.pipe.isAssign) this.setVar(decl[1]!.ident[0]!, elem.v, elem.iface);
          else this.setTopVar(2, { v: index, iface: false });
        }
        try {
          this.walk(elem, r.list);
        } catch (e) {
          if (e === CONTINUE) return true;
          if (e === BREAK) return false;
          throw e;
        } finally {
          this.pop(mark);
        }
        return true;
      };
      if (Array.isArray(val)) {
        if (val.length > 0) {
          for (let i = 0; i < val.length; i++) if (!one(BigInt(i), { v: val[i], iface: true })) break;
          return;
        }
      } else if (val instanceof Uint8Array) {
        if (val.length > 0) {
          for (let i = 0; i < val.length; i++) if (!one(BigInt(i), { v: BigInt(val[i]!), iface: false })) break;
          return;
        }
      } else if (isGoMap(val)) {
        const keys = Object.keys(val).sort(compareBytes);
        if (keys.length > 0) {
          for (const k of keys) if (!one(k, { v: val[k], iface: true })) break;
          return;
        }
      } else if (typeof val === 'bigint') {
        if (r.pipe.decl.length > 1) this.errorf(`can't use ${formatValue(val)} to iterate over more than one variable`);
        if (val > 0n) {
          for (let i = 0n; i < val; i++) if (!one(i, { v: i, iface: false })) break;
          return;
        }
      } else if (val === undefined || val === null) {
        // An invalid value is likely a nil map, etc. Not an error.
      } else {
        this.errorf(`range can't iterate over ${formatValue(val)}`);
      }
      if (r.elseList) this.walk(dot, r.elseList);
    } finally {
      this.pop(outer);
    }
  }

  private walkTemplate(dot: Typed, t: TemplateNode): void {
    this.at(t);
    const tree = this.trees.get(t.name);
    if (tree === undefined) this.errorf(`template ${JSON.stringify(t.name)} not defined`);
    if (this.depth >= this.limits.maxDepth) this.errorf(`exceeded maximum template depth (${this.limits.maxDepth})`);
    const newDot = t.pipe ? this.evalPipeline(dot, t.pipe) : undefined;
    const saved = { vars: this.vars, current: this.current };
    this.depth++;
    this.vars = [{ name: '$', value: newDot, iface: false }];
    this.current = tree;
    try {
      this.walk({ v: newDot, iface: false }, tree.root);
    } finally {
      this.depth--;
      this.vars = saved.vars;
      this.current = saved.current;
    }
  }

  // ---- variables ----

  private push(name: string, value: unknown): void {
    this.vars.push({ name, value, iface: false });
  }

  private setVar(name: string, value: unknown, iface = false): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i]!.name === name) {
        this.vars[i]!.value = value;
        this.vars[i]!.iface = iface;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  private setTopVar(n: number, value: Typed): void {
    const v = this.vars[this.vars.length - n]!;
    v.value = value.v;
    v.iface = value.iface;
  }

  private varValue(name: string): Typed {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i]!;
      if (v.name === name) return { v: v.value, iface: v.iface };
    }
    this.errorf(`undefined variable: ${name}`);
  }

  // ---- pipelines and commands ----

  evalPipeline(dot: Typed, pipe: PipeNode): unknown {
    this.at(pipe);
    let value: unknown = MISSING;
    for (const cmd of pipe.cmds) {
      const r = this.evalCommand(dot, cmd, value);
      // Dig down one level: a nil interface becomes "no value".
      value = r.iface && r.v === null ? undefined : r.v;
    }
    for (const variable of pipe.decl) {
      if (pipe.isAssign) this.setVar(variable.ident[0]!, value);
      else this.push(variable.ident[0]!, value);
    }
    return value;
  }

  private notAFunction(args: Node[], final: unknown): void {
    if (args.length > 1 || final !== MISSING) this.errorf(`can't give argument to non-function ${nodeString(args[0]!)}`);
  }

  private evalCommand(dot: Typed, cmd: CommandNode, final: unknown): Typed {
    const first = cmd.args[0]!;
    switch (first.kind) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final);
      case 'identifier':
        // Functions returning interface{} hand back a nil interface, which the pipeline turns into no value.
        return { v: this.evalFunction(dot, first, cmd, cmd.args, final), iface: true };
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return { v: this.evalPipeline(dot, first), iface: false };
      case 'variable':
        return this.evalVariableNode(dot, first, cmd.args, final);
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.kind) {
      case 'bool': return { v: first.value, iface: false };
      case 'dot': return dot;
      case 'nil': this.errorf('nil is not a command');
      case 'number': return { v: this.idealConstant(first), iface: false };
      case 'string': return { v: first.text, iface: false };
    }
    this.errorf(`can't evaluate command ${JSON.stringify(nodeString(first))}`);
  }

  private idealConstant(c: NumberNode): unknown {
    this.at(c);
    if (c.isComplex) this.errorf(`complex constants are not supported: ${c.text}`);
    const hexInt = /^[+-]?0[xX]/.test(c.text) && !/[pP]/.test(c.text);
    if (c.isFloat && !hexInt && !c.text.startsWith("'") && /[.eEpP]/.test(c.text)) return c.float;
    if (c.isInt) return c.int;
    if (c.isUint) this.errorf(`${c.text} overflows int`);
    return undefined;
  }

  private evalFieldNode(dot: Typed, field: FieldNode, args: Node[], final: unknown): Typed {
    this.at(field);
    return this.evalFieldChain(dot, dot, field, field.ident, args, final);
  }

  private evalChainNode(dot: Typed, chain: ChainNode, args: Node[], final: unknown): Typed {
    this.at(chain);
    if (chain.node.kind === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    const pipe = this.evalArg(dot, undefined, chain.node);
    return this.evalFieldChain(dot, { v: pipe, iface: false }, chain, chain.field, args, final);
  }

  private evalVariableNode(dot: Typed, variable: VariableNode, args: Node[], final: unknown): Typed {
    this.at(variable);
    const value = this.varValue(variable.ident[0]!);
    if (variable.ident.length === 1) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, value, variable, variable.ident.slice(1), args, final);
  }

  private evalFieldChain(dot: Typed, receiver: Typed, node: Node, ident: string[], args: Node[], final: unknown): Typed {
    let r = receiver;
    for (let i = 0; i < ident.length - 1; i++) r = this.evalField(dot, node, ident[i]!, [], MISSING, r);
    return this.evalField(dot, node, ident[ident.length - 1]!, args, final, r);
  }

  private evalField(dot: Typed, node: Node, fieldName: string, args: Node[], final: unknown, receiver: Typed): Typed {
    const rv = receiver.v;
    if (rv === undefined) return { v: undefined, iface: false };
    const typ = receiver.iface ? 'interface {}' : goTypeName(rv);
    if (rv === null) this.errorf(`nil pointer evaluating ${typ}.${fieldName}`);
    let v: unknown = rv;
    while (v instanceof GoPointer && v.elem !== null) v = v.elem;
    const hasArgs = args.length > 1 || final !== MISSING;
    if (v instanceof GoStruct && v.methods && Object.prototype.hasOwnProperty.call(v.methods, fieldName)) {
      return { v: this.evalCall(dot, v.methods[fieldName]!, node, fieldName, args, final), iface: false };
    }
    if (v instanceof GoStruct) {
      if (Object.prototype.hasOwnProperty.call(v.fields, fieldName)) {
        if (hasArgs) this.errorf(`${fieldName} has arguments but cannot be invoked as function`);
        return { v: v.fields[fieldName], iface: false };
      }
    } else if (isGoMap(v)) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      const r = mapGet(v, fieldName);
      return r.found ? { v: r.value, iface: true } : { v: undefined, iface: false };
    } else if (v instanceof GoPointer) {
      // A nil pointer (to a struct, in our data).
      this.errorf(`nil pointer evaluating ${typ}.${fieldName}`);
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typ}`);
  }

  // ---- functions ----

  private evalFunction(dot: Typed, node: IdentifierNode, cmd: Node, args: Node[], final: unknown): unknown {
    this.at(node);
    const name = node.ident;
    if (isBuiltin(name) && !Object.prototype.hasOwnProperty.call(this.funcs, name)) {
      return this.evalBuiltin(dot, name, BUILTINS[name]!, cmd, args, final);
    }
    const fn = Object.prototype.hasOwnProperty.call(this.funcs, name) ? this.funcs[name] : undefined;
    if (fn === undefined) this.errorf(`${JSON.stringify(name)} is not a defined function`);
    return this.evalCall(dot, fn, cmd, name, args, final);
  }

  private checkArgCount(name: string, params: readonly GoParamType[], variadic: GoParamType | undefined, argCount: number, numIn: number): void {
    if (variadic !== undefined) {
      if (numIn < params.length) this.errorf(`wrong number of args for ${name}: want at least ${params.length} got ${argCount}`);
    } else if (numIn !== params.length) {
      this.errorf(`wrong number of args for ${name}: want ${params.length} got ${numIn}`);
    }
  }

  private evalBuiltin(dot: Typed, name: string, b: Builtin, cmd: Node, allArgs: Node[], final: unknown): unknown {
    const args = allArgs.slice(1);
    const numIn = args.length + (final !== MISSING ? 1 : 0);
    this.checkArgCount(name, b.params, b.variadic, args.length, numIn);
    if (name === 'and' || name === 'or') {
      let v: unknown;
      for (const a of args) {
        v = this.evalArg(dot, 'any', a, true);
        if (builtins.truth(v) === (name === 'or')) return v;
      }
      if (final !== MISSING) v = final;
      return v;
    }
    if (name === 'call') this.errorf('error calling call: call of non-function');
    const argv = this.buildArgs(dot, b.params, b.variadic, args, final, b.reflect);
    return this.invoke(cmd, name, () => b.call(...argv));
  }

  private evalCall(dot: Typed, fn: GoFunction, cmd: Node, name: string, allArgs: Node[], final: unknown): unknown {
    const args = allArgs.slice(1);
    const numIn = args.length + (final !== MISSING ? 1 : 0);
    this.checkArgCount(name, fn.params, fn.variadic, args.length, numIn);
    const argv = this.buildArgs(dot, fn.params, fn.variadic, args, final, false);
    return this.invoke(cmd, name, () => fn.call(...argv));
  }

  private buildArgs(dot: Typed, params: readonly GoParamType[], variadic: GoParamType | undefined, args: Node[], final: unknown, reflectArgs: boolean): unknown[] {
    const argv: unknown[] = [];
    const numFixed = variadic !== undefined ? params.length : args.length;
    let i = 0;
    for (; i < numFixed && i < args.length; i++) argv.push(this.evalArg(dot, params[i]!, args[i]!, reflectArgs));
    if (variadic !== undefined) for (; i < args.length; i++) argv.push(this.evalArg(dot, variadic, args[i]!, reflectArgs));
    if (final !== MISSING) {
      const numIn = args.length + 1;
      const t = variadic !== undefined && numIn - 1 >= params.length ? variadic : params[numIn - 1] ?? variadic ?? 'any';
      argv.push(this.validateType(final, t, reflectArgs));
    }
    return argv;
  }

  private invoke(cmd: Node, name: string, call: () => unknown): unknown {
    let v: unknown;
    try {
      v = call();
    } catch (e) {
      if (e instanceof ExecError || e instanceof LimitError) throw e;
      this.at(cmd);
      const msg = e instanceof GoCallError ? e.message : e instanceof RangeError ? 'too much recursion' : `${(e as Error)?.message ?? String(e)}`;
      this.errorf(`error calling ${name}: ${msg}`);
    }
    return v;
  }

  private evalArg(dot: Typed, typ: GoParamType | undefined, n: Node, reflectArg = false): unknown {
    this.at(n);
    switch (n.kind) {
      case 'dot': return this.validateType(dot.v, typ, reflectArg);
      case 'nil':
        if (reflectArg || typ === undefined || typ === 'any' || typ === '[]any' || typ === '[]string' || typ === 'map[string]any') return null;
        this.errorf(`cannot assign nil to ${GO_PARAM_NAMES[typ]}`);
      case 'field': return this.validateType(this.evalFieldNode(dot, n, [n], MISSING).v, typ, reflectArg);
      case 'variable': return this.validateType(this.evalVariableNode(dot, n, [], MISSING).v, typ, reflectArg);
      case 'pipe': return this.validateType(this.evalPipeline(dot, n), typ, reflectArg);
      case 'identifier': return this.validateType(this.evalFunction(dot, n, n, [], MISSING), typ, reflectArg);
      case 'chain': return this.validateType(this.evalChainNode(dot, n, [], MISSING).v, typ, reflectArg);
    }
    const t = typ ?? 'any';
    switch (t) {
      case 'bool':
        if (n.kind === 'bool') return n.value;
        this.errorf(`expected bool; found ${nodeString(n)}`);
      case 'float64':
        if (n.kind === 'number' && n.isFloat) return n.float;
        this.errorf(`expected float; found ${nodeString(n)}`);
      case 'int':
        if (n.kind === 'number' && n.isInt) return n.int;
        this.errorf(`expected integer; found ${nodeString(n)}`);
      case 'string':
        if (n.kind === 'string') return n.text;
        this.errorf(`expected string; found ${nodeString(n)}`);
      case 'any':
        switch (n.kind) {
          case 'bool': return n.value;
          case 'number': return this.idealConstant(n);
          case 'string': return n.text;
        }
        break;
      default:
        break;
    }
    this.errorf(`can't handle ${nodeString(n)} for arg of type ${GO_PARAM_NAMES[t]}`);
  }

  private validateType(value: unknown, typ: GoParamType | undefined, reflectArg: boolean): unknown {
    if (value === undefined) {
      if (reflectArg) return undefined;
      if (typ === undefined) return null;
      if (typ === 'any' || typ === '[]any' || typ === '[]string' || typ === 'map[string]any') return null;
      this.errorf(`invalid value; expected ${GO_PARAM_NAMES[typ]}`);
    }
    if (typ === undefined || typ === 'any' || reflectArg) return value;
    // A nil interface{} is not assignable to a concrete parameter type.
    if (value === null) this.errorf(`wrong type for value; expected ${GO_PARAM_NAMES[typ]}; got interface {}`);
    let v: unknown = value;
    if (v instanceof GoPointer && !assignable(v, typ)) {
      if (v.elem === null) this.errorf(`dereference of nil pointer of type ${GO_PARAM_NAMES[typ]}`);
      v = v.elem;
    }
    if (v instanceof GoStringer && typeof v.value === 'string' && typ === 'string') return v.value;
    if (!assignable(v, typ)) this.errorf(`wrong type for value; expected ${GO_PARAM_NAMES[typ]}; got ${goTypeName(value)}`);
    return v;
  }
}

function assignable(v: unknown, typ: GoParamType): boolean {
  switch (typ) {
    case 'any': return true;
    case 'string': return typeof v === 'string';
    case 'int': return typeof v === 'bigint';
    case 'float64': return typeof v === 'number';
    case 'bool': return typeof v === 'boolean';
    case '[]any': return Array.isArray(v) || v === null;
    case '[]string': return v === null || (Array.isArray(v) && v.every((e) => typeof e === 'string') && false);
    case 'map[string]any': return isGoMap(v) || v === null;
  }
}

export { LimitError };
