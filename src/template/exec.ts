// The executor (Go's exec.go): walks a parse tree with a state — dot, a variable stack, the template depth —
// following Go's evaluation order, argument conversion (evalArg / validateType), missing-key behaviour,
// truthiness and error texts. Our additions are limits on output size, range iterations and steps, so a
// hostile template can neither hang nor exhaust memory.
//
// Values follow src/go/reflect/value.ts. Go's reflect.Value also knows a value's static type; the only part of that which
// changes behaviour is "this came out of an interface{}" (map and slice elements of JSON-like data, function
// results), so values travel as `Val` = {v, iface}. `undefined` is Go's invalid value ("no value"), `null` a
// nil interface.
import type {
  BranchNode,
  ChainNode,
  CommandNode,
  FieldNode,
  IdentifierNode,
  ListNode,
  Node,
  NumberNode,
  PipeNode,
  RangeNode,
  TemplateNode,
  VariableNode,
} from './ast.ts';
import { nodeString } from './ast.ts';
import { callGoFunction, GoCallError, type FuncMap, type GoParamType } from '../go/reflect/func.ts';
import type { CallCost } from '../go/reflect/callCost.ts';
import {
  containerType,
  elemType,
  GoInt,
  GoKeyedMap,
  GoPointer,
  GoStringer,
  GoStruct,
  isExported,
  isGoMap,
  mapGet,
} from '../go/reflect/value.ts';
import { GoComplex } from '../go/reflect/complex.ts';
import { formatValue, goQuote, goTypeName, sortedKeyedEntries, sortedKeys } from '../go/fmt/format.ts';
import { BUILTINS, isTrue, type BuiltinParam } from './builtins.ts';
import { errorLocation, execErrorMessage, ExecError, LimitError } from './errors.ts';
import { canonicalGoString, goByteLength, hasRawBytes } from '../go/reflect/byteString.ts';
import { chargeUndeclared, engineLimitExceeded, STEP_UNITS } from './cost.ts';
import { ENTRY_UNITS, type Meter } from '../go/internal/meter.ts';
import { goMapSize, goUint8, MapKeyTooLongError } from '../go/reflect/value.ts';

/** A RangeError that is an engine size limit (a string or array too long), not a stack overflow. */
const INVALID_LENGTH = /^Invalid (string|array|typed array) length/;
/** What a stack overflow while walking a value means: Go's growing stack would go on, ours cannot. */
const VALUE_TOO_DEEP = 'a value nested too deeply for the engine (its stack ran out)';

export interface TemplateLimits {
  /** Nested {{template}} calls (Go: 100000). */
  maxDepth: number;
  /** Bytes of output (UTF-8). */
  maxOutputBytes: number;
  /** Range iterations over the whole execution. */
  maxRangeIterations: number;
  /** Evaluation steps (nodes visited) over the whole execution. */
  maxSteps: number;
  /** Units of data read and built by functions and printing (cost.ts), over the whole execution. */
  maxWork: number;
  /** Bytes of new values built over the whole execution: a bound on what it can hold. */
  maxMemoryBytes: number;
}

/** A parsed template of a set, with the text and top-level name of the Parse call that produced it. */
export interface TreeEntry {
  readonly name: string;
  readonly root: ListNode;
  readonly parseName: string;
  readonly text: string;
}

interface Val {
  readonly v: unknown;
  /** The static type is interface{}: named so in errors, and a nil one becomes "no value" after a pipeline. */
  readonly iface: boolean;
}

interface Variable {
  readonly name: string;
  value: Val;
}

const INVALID: Val = Object.freeze({ v: undefined, iface: false });
/** Go's missingVal: "no final argument from a previous pipeline stage". */
const MISSING: Val = Object.freeze({ v: undefined, iface: false });

// walk's result: how a list ended (break and continue leave the enclosing range iteration).
const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
type Flow = typeof NORMAL | typeof BREAK | typeof CONTINUE;

type ParamType = BuiltinParam | GoParamType;

const TYPE_NAMES: Readonly<Record<ParamType, string>> = {
  any: 'interface {}',
  string: 'string',
  int: 'int',
  float64: 'float64',
  bool: 'bool',
  '[]any': '[]interface {}',
  '[]string': '[]string',
  'map[string]any': 'map[string]interface {}',
  '[]byte': '[]uint8',
  'time.Duration': 'time.Duration',
  'time.Time': 'time.Time',
  '*time.Location': '*time.Location',
  '*semver.Version': '*semver.Version',
  value: 'reflect.Value',
};

interface Callable {
  readonly params: readonly ParamType[];
  readonly variadic?: ParamType | undefined;
  readonly cost?: CallCost | undefined;
  readonly metered?: boolean | undefined;
  readonly call: (...args: any[]) => unknown;
  readonly results?: number;
}

/** Memory of a {{template}} call: its variable stack and the executor's saved state. */
const TEMPLATE_CALL_BYTES = 128;
/** Memory of a piece of output in the list that is joined at the end. */
const OUTPUT_PIECE_BYTES = 16;

const valOf = (v: unknown, iface = false): Val => (v === undefined ? INVALID : { v, iface });

export class Executor {
  private readonly out: string[] = [];
  private outBytes = 0;
  /** Some output held raw bytes (src/go/reflect/byteString.ts), so the joined output must be put in its one form. */
  private rawOutput = false;
  private vars: Variable[] = [];
  private depth = 0;
  private steps = 0;
  private rangeIterations = 0;
  private node: Node | undefined;
  private tmpl: TreeEntry;

  constructor(
    private readonly trees: ReadonlyMap<string, TreeEntry>,
    private readonly funcs: FuncMap,
    private readonly limits: TemplateLimits,
    start: TreeEntry,
    /** The execution's meter: every step, function call and value printed is charged on it. */
    private readonly meter: Meter,
  ) {
    this.tmpl = start;
  }

  /** Executes the start template with `data` (null and undefined are Go's nil: the invalid value). */
  run(data: unknown): string {
    const dot = data === null ? INVALID : valOf(data);
    this.vars = [{ name: '$', value: dot }];
    this.walk(dot, this.tmpl.root);
    const out = this.out.join('');
    return this.rawOutput ? canonicalGoString(out) : out;
  }

  // ---- errors ----

  private at(node: Node): void {
    this.node = node;
    if (++this.steps > this.limits.maxSteps)
      throw new LimitError(`template execution exceeded ${this.limits.maxSteps} steps`);
    this.meter.spend(STEP_UNITS);
  }

  /** Go's state.errorf: the message prefixed with where (line:col of the current node) and what was executing. */
  errorf(message: string): never {
    const n = this.node;
    if (n === undefined) throw new ExecError(`template: ${this.tmpl.name}: ${message}`, this.tmpl.name);
    const loc = errorLocation(this.tmpl.text, n.pos);
    throw new ExecError(
      execErrorMessage(`${this.tmpl.parseName}:${loc.line}:${loc.column}`, this.tmpl.name, nodeString(n), message),
      this.tmpl.name,
      loc.line,
      loc.column,
    );
  }

  // ---- output ----

  private write(s: string): void {
    if (s.length === 0) return;
    // A string's UTF-8 bytes are at least its UTF-16 length: a text too long for what is left is not measured.
    if (this.outBytes + s.length > this.limits.maxOutputBytes)
      throw new LimitError(`template output exceeds ${this.limits.maxOutputBytes} bytes`);
    let n = s.length < 64 && /^[\x00-\x7f]*$/.test(s) ? s.length : Buffer.byteLength(s, 'utf8');
    // Only text beyond ASCII can hold raw bytes.
    if (n !== s.length && hasRawBytes(s)) {
      this.rawOutput = true;
      n = goByteLength(s);
    }
    this.outBytes += n;
    if (this.outBytes > this.limits.maxOutputBytes)
      throw new LimitError(`template output exceeds ${this.limits.maxOutputBytes} bytes`);
    // The output is joined at the end: its text, and a place in the list of pieces.
    this.meter.build(s.length + OUTPUT_PIECE_BYTES);
    this.out.push(s);
  }

  private printValue(n: Node, val: Val): void {
    this.at(n);
    let v = val.v;
    // printableValue: pointers are followed (a nil pointer prints as fmt prints it).
    while (v instanceof GoPointer && v.elem !== null) v = v.elem;
    let text: string;
    try {
      text = v === undefined ? '<no value>' : formatValue(v, this.meter);
    } catch (e) {
      // Printing walks the value: one built a level per loop iteration (dict "a" $x) outruns the JS stack.
      if (e instanceof RangeError && !INVALID_LENGTH.test(e.message)) this.errorf(`printing ${VALUE_TOO_DEEP}`);
      throw e;
    }
    this.write(text);
  }

  // ---- walking ----

  private walk(dot: Val, node: Node): Flow {
    this.at(node);
    switch (node.kind) {
      case 'action': {
        // Variables declared here persist until the enclosing {{end}}; a declaration prints nothing.
        const val = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, val);
        return NORMAL;
      }
      case 'break':
        return BREAK;
      case 'continue':
        return CONTINUE;
      case 'if':
      case 'with':
        return this.walkIfOrWith(node.kind, dot, node);
      case 'list':
        for (const n of node.nodes) {
          const flow = this.walk(dot, n);
          if (flow !== NORMAL) return flow;
        }
        return NORMAL;
      case 'range':
        return this.walkRange(dot, node);
      case 'template':
        this.walkTemplate(dot, node);
        return NORMAL;
      case 'text':
        this.write(node.text);
        return NORMAL;
      default:
        break;
    }
    this.errorf(`unknown node: ${nodeString(node)}`);
  }

  // No try/finally below: an error ends the whole execution, so state is restored only on normal exits
  // (which also keeps stack frames small for deeply nested templates).

  private walkIfOrWith(kind: 'if' | 'with', dot: Val, n: BranchNode): Flow {
    const mark = this.vars.length;
    const val = this.evalPipeline(dot, n.pipe);
    let flow: Flow = NORMAL;
    if (this.truth(val.v)) flow = this.walk(kind === 'with' ? val : dot, n.list);
    else if (n.elseList !== undefined) flow = this.walk(dot, n.elseList);
    this.vars.length = mark;
    return flow;
  }

  /**
   * A {{break}} or {{continue}} in the body acts on this range. In the else list they belong to an outer
   * range; like Go (whose walkRange recovers any break panic) a break there only ends the else list, while
   * a continue goes on to the outer range's next iteration.
   */
  private walkRange(dot: Val, r: RangeNode): Flow {
    this.at(r);
    const outer = this.vars.length;
    let val = this.evalPipeline(dot, r.pipe).v;
    while (val instanceof GoPointer && val.elem !== null) val = val.elem;
    const mark = this.vars.length;
    let ranged = false;
    if (Array.isArray(val)) {
      // Elements of a []interface{} are interface values; those of a []T are T.
      const iface = containerType(val) === undefined || elemType(val) === 'interface {}';
      for (let i = 0; i < val.length; i++) {
        ranged = true;
        if (this.rangeIteration(r, mark, { v: BigInt(i), iface: false }, valOf(val[i], iface)) === BREAK) break;
      }
    } else if (val instanceof Uint8Array) {
      for (let i = 0; i < val.length; i++) {
        ranged = true;
        if (
          this.rangeIteration(r, mark, { v: BigInt(i), iface: false }, { v: goUint8(val[i]!), iface: false }) === BREAK
        )
          break;
      }
    } else if (isGoMap(val)) {
      const iface = containerType(val) === undefined || elemType(val) === 'interface {}';
      // The keys are listed and sorted (charged) before the first iteration.
      for (const k of sortedKeys(val, this.meter)) {
        ranged = true;
        if (this.rangeIteration(r, mark, { v: k, iface: false }, valOf(val[k], iface)) === BREAK) break;
      }
    } else if (val instanceof GoKeyedMap) {
      this.meter.spend(val.size * ENTRY_UNITS);
      for (const [k, e] of sortedKeyedEntries(val)) {
        ranged = true;
        if (this.rangeIteration(r, mark, valOf(k, true), valOf(e, true)) === BREAK) break;
      }
    } else if (typeof val === 'bigint' || val instanceof GoInt) {
      // Go 1.22: range over an integer n yields 0..n-1 (of n's type), as the element.
      if (r.pipe.decl.length > 1)
        this.errorf(`can't use ${formatValue(val, this.meter)} to iterate over more than one variable`);
      const n = typeof val === 'bigint' ? val : val.value;
      const type = typeof val === 'bigint' ? undefined : val.type;
      for (let i = 0n; i < n; i++) {
        ranged = true;
        if (
          this.rangeIteration(r, mark, INVALID, { v: type === undefined ? i : new GoInt(type, i), iface: false }) ===
          BREAK
        )
          break;
      }
    } else if (val !== undefined) {
      this.errorf(`range can't iterate over ${formatValue(val, this.meter)}`);
    }
    // Nothing to iterate (an empty collection, or the invalid value of a missing key or nil data): else.
    let flow: Flow = NORMAL;
    if (!ranged && r.elseList !== undefined && this.walk(dot, r.elseList) === CONTINUE) flow = CONTINUE;
    this.vars.length = outer;
    return flow;
  }

  private rangeIteration(r: RangeNode, mark: number, index: Val, elem: Val): Flow {
    if (++this.rangeIterations > this.limits.maxRangeIterations) {
      throw new LimitError(`range exceeded ${this.limits.maxRangeIterations} iterations`);
    }
    const decl = r.pipe.decl;
    if (r.pipe.isAssign) {
      // {{range $i, $e = ...}} assigns existing variables (Go 1.20+; 1.19 overwrote the top of the stack).
      if (decl.length > 1) {
        this.setVar(decl[0]!.ident[0]!, index);
        this.setVar(decl[1]!.ident[0]!, elem);
      } else if (decl.length > 0) this.setVar(decl[0]!.ident[0]!, elem);
    } else {
      // The declared variables are the top of the stack: the element, and the index below it.
      if (decl.length > 0) this.vars[this.vars.length - 1]!.value = elem;
      if (decl.length > 1) this.vars[this.vars.length - 2]!.value = index;
    }
    const flow = this.walk(elem, r.list);
    this.vars.length = mark;
    return flow;
  }

  private walkTemplate(dot: Val, t: TemplateNode): void {
    this.at(t);
    const tmpl = this.trees.get(t.key);
    if (tmpl === undefined) this.errorf(`template ${goQuote(t.name)} not defined`);
    if (this.depth >= this.limits.maxDepth) this.errorf(`exceeded maximum template depth (${this.limits.maxDepth})`);
    // Variables declared by the pipeline persist in the caller.
    const newDot = t.pipe === undefined ? INVALID : this.evalPipeline(dot, t.pipe);
    const savedVars = this.vars;
    const savedTmpl = this.tmpl;
    this.depth++;
    this.tmpl = tmpl;
    // No dynamic scoping: the called template sees only $.
    this.meter.build(TEMPLATE_CALL_BYTES);
    this.vars = [{ name: '$', value: newDot }];
    this.walk(newDot, tmpl.root);
    this.depth--;
    this.vars = savedVars;
    this.tmpl = savedTmpl;
  }

  // ---- variables ----

  private setVar(name: string, value: Val): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i]!.name === name) {
        this.vars[i]!.value = value;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  private varValue(name: string): Val {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i]!.name === name) return this.vars[i]!.value;
    this.errorf(`undefined variable: ${name}`);
  }

  // ---- pipelines and commands ----

  private evalPipeline(dot: Val, pipe: PipeNode): Val {
    this.at(pipe);
    let value = MISSING;
    for (const cmd of pipe.cmds) {
      value = this.evalCommand(dot, cmd, value);
      // An interface{} result is replaced by what it holds: a nil one by the invalid value.
      if (value.iface) value = valOf(value.v === null ? undefined : value.v);
    }
    for (const variable of pipe.decl) {
      if (pipe.isAssign) this.setVar(variable.ident[0]!, value);
      else this.vars.push({ name: variable.ident[0]!, value });
    }
    return value;
  }

  private notAFunction(args: readonly Node[], final: Val): void {
    if (args.length > 1 || final !== MISSING)
      this.errorf(`can't give argument to non-function ${nodeString(args[0]!)}`);
  }

  private evalCommand(dot: Val, cmd: CommandNode, final: Val): Val {
    const first = cmd.args[0]!;
    switch (first.kind) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        // A parenthesized pipeline takes no arguments.
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(dot, first, cmd.args, final);
      default:
        break;
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.kind) {
      case 'bool':
        return { v: first.value, iface: false };
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return { v: first.text, iface: false };
      default:
        break;
    }
    this.errorf(`can't evaluate command ${goQuote(nodeString(first))}`);
  }

  /** A number constant with no type context: the syntax decides int or float64, as in Go. */
  private idealConstant(c: NumberNode): Val {
    this.at(c);
    if (c.isComplex) return { v: new GoComplex(c.complex!.re, c.complex!.im), iface: false };
    const hexInt =
      c.text.length > 2 && c.text[0] === '0' && (c.text[1] === 'x' || c.text[1] === 'X') && !/[pP]/.test(c.text);
    const runeInt = c.text[0] === "'";
    if (c.isFloat && !hexInt && !runeInt && /[.eEpP]/.test(c.text)) return { v: c.float, iface: false };
    if (c.isInt) return { v: c.int, iface: false };
    if (c.isUint) this.errorf(`${c.text} overflows int`);
    return INVALID;
  }

  private evalFieldNode(dot: Val, field: FieldNode, args: readonly Node[] | undefined, final: Val): Val {
    this.at(field);
    return this.evalFieldChain(dot, dot, field, field.ident, args, final);
  }

  private evalChainNode(dot: Val, chain: ChainNode, args: readonly Node[] | undefined, final: Val): Val {
    this.at(chain);
    if (chain.node.kind === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    // (pipe).Field1.Field2: evaluate the pipeline, then the fields.
    const pipe = this.evalArg(dot, undefined, chain.node);
    return this.evalFieldChain(dot, pipe, chain, chain.field, args, final);
  }

  private evalVariableNode(dot: Val, variable: VariableNode, args: readonly Node[] | undefined, final: Val): Val {
    this.at(variable);
    const value = this.varValue(variable.ident[0]!);
    if (variable.ident.length === 1) {
      this.notAFunction(args ?? [variable], final);
      return value;
    }
    return this.evalFieldChain(dot, value, variable, variable.ident.slice(1), args, final);
  }

  private evalFieldChain(
    dot: Val,
    receiver: Val,
    node: Node,
    ident: readonly string[],
    args: readonly Node[] | undefined,
    final: Val,
  ): Val {
    const n = ident.length;
    for (let i = 0; i < n - 1; i++) receiver = this.evalField(dot, ident[i]!, node, undefined, MISSING, receiver);
    // Only the last name can be a method taking the arguments.
    return this.evalField(dot, ident[n - 1]!, node, args, final, receiver);
  }

  private evalFunction(dot: Val, node: IdentifierNode, cmd: Node, args: readonly Node[] | undefined, final: Val): Val {
    this.at(node);
    const name = node.ident;
    const fn = Object.prototype.hasOwnProperty.call(this.funcs, name) ? this.funcs[name] : undefined;
    if (fn !== undefined) return this.evalCall(dot, fn, false, cmd, name, args, final);
    const builtin = Object.prototype.hasOwnProperty.call(BUILTINS, name) ? BUILTINS[name] : undefined;
    if (builtin === undefined) this.errorf(`${goQuote(name)} is not a defined function`);
    return this.evalCall(dot, builtin, true, cmd, name, args, final);
  }

  private evalField(
    dot: Val,
    fieldName: string,
    node: Node,
    args: readonly Node[] | undefined,
    final: Val,
    receiver: Val,
  ): Val {
    if (receiver.v === undefined) return INVALID; // nil data or a missing key: no value
    // The type name is for error messages only: worked out when one is written.
    const typ = () => (receiver.iface ? 'interface {}' : goTypeName(receiver.v));
    let v: unknown = receiver.v;
    if (v === null) this.errorf(`nil pointer evaluating ${typ()}.${fieldName}`); // a nil interface
    while (v instanceof GoPointer && v.elem !== null) v = v.elem;
    if (v instanceof GoStringer) {
      if (v.methods !== undefined && Object.prototype.hasOwnProperty.call(v.methods, fieldName)) {
        return this.evalCall(dot, v.methods[fieldName]!, false, node, fieldName, args, final, true);
      }
      // A Stringer's fields are those of the value it wraps.
      let inner = v.value;
      while (inner instanceof GoPointer && inner.elem !== null) inner = inner.elem;
      if (inner instanceof GoStruct || isGoMap(inner)) v = inner;
    }
    if (
      v instanceof GoStruct &&
      v.methods !== undefined &&
      Object.prototype.hasOwnProperty.call(v.methods, fieldName)
    ) {
      return this.evalCall(dot, v.methods[fieldName]!, false, node, fieldName, args, final, true);
    }
    const hasArgs = (args !== undefined && args.length > 1) || final !== MISSING;
    if (v instanceof GoStruct) {
      if (Object.prototype.hasOwnProperty.call(v.fields, fieldName)) {
        if (!isExported(fieldName)) this.errorf(`${fieldName} is an unexported field of struct type ${typ()}`);
        if (hasArgs) this.errorf(`${fieldName} has arguments but cannot be invoked as function`);
        const f = v.fields[fieldName];
        // A nil field value can only be a nil interface{} field.
        return valOf(f, f === null);
      }
    } else if (isGoMap(v)) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      const r = mapGet(v, fieldName);
      return r.found ? valOf(r.value, elemType(v) === 'interface {}') : INVALID;
    } else if (v instanceof GoKeyedMap) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      const r = v.get(fieldName);
      return r.found ? valOf(r.value, true) : INVALID;
    } else if (v instanceof GoPointer) {
      // A nil pointer (we cannot tell whether its struct has the field; Go says "can't evaluate" if not).
      this.errorf(`nil pointer evaluating ${typ()}.${fieldName}`);
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typ()}`);
  }

  // ---- calls ----

  /**
   * Calls a builtin, a FuncMap function or a method. `args`, when given, starts with the function's own node
   * (as in a command); `final` is the previous pipeline stage's value.
   */
  private evalCall(
    dot: Val,
    fn: Callable,
    isBuiltin: boolean,
    node: Node,
    name: string,
    allArgs: readonly Node[] | undefined,
    final: Val,
    isMethod = false,
  ): Val {
    const args = allArgs === undefined ? [] : allArgs.slice(1);
    let numIn = args.length;
    if (final !== MISSING) numIn++;
    const params = fn.params;
    const variadic = fn.variadic;
    let numFixed = args.length;
    if (variadic !== undefined) {
      numFixed = params.length;
      if (numIn < numFixed)
        this.errorf(`wrong number of args for ${name}: want at least ${numFixed} got ${args.length}`);
    } else if (numIn !== params.length) {
      this.errorf(`wrong number of args for ${name}: want ${params.length} got ${numIn}`);
    }
    if (fn.results !== undefined) this.errorf(`can't call method/function ${goQuote(name)} with ${fn.results} results`);

    // and/or short-circuit and return the deciding operand itself.
    if (isBuiltin && (name === 'and' || name === 'or')) {
      let v = INVALID;
      for (const arg of args) {
        v = this.evalArg(dot, 'value', arg);
        if (this.truth(v.v) === (name === 'or')) return v;
      }
      if (final !== MISSING) v = this.validateType(final, 'value');
      return v;
    }

    const argv: unknown[] = new Array(numIn);
    let i = 0;
    for (; i < numFixed && i < args.length; i++) argv[i] = this.evalArg(dot, params[i]!, args[i]!).v;
    if (variadic !== undefined) for (; i < args.length; i++) argv[i] = this.evalArg(dot, variadic, args[i]!).v;
    if (final !== MISSING) {
      let t: ParamType;
      if (variadic === undefined) t = params[params.length - 1]!;
      else t = numIn - 1 < numFixed ? params[numIn - 1]! : variadic;
      argv[i] = this.validateType(final, t).v;
    }
    const meter = this.meter;
    let result: unknown;
    try {
      result = callGoFunction(fn, meter, argv);
    } catch (e) {
      // A limit reached by the call, or by what it costs, is reported at the call.
      if (e instanceof MapKeyTooLongError) e = new LimitError(e.message);
      if (e instanceof LimitError) this.node = node;
      if (e instanceof ExecError || e instanceof LimitError) throw e;
      this.at(node);
      if (e instanceof GoCallError) this.errorf(`error calling ${name}: ${e.message}`);
      if (e instanceof RangeError && INVALID_LENGTH.test(e.message)) engineLimitExceeded(meter);
      // Functions recurse over values only (template nesting is the executor's): the value is too deep.
      if (e instanceof RangeError) this.errorf(`error calling ${name}: ${VALUE_TOO_DEEP}`);
      // Anything else escaping a function is a bug there; it still becomes a template error.
      this.errorf(`error calling ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (fn.cost === undefined) {
      try {
        chargeUndeclared(meter, argv, result);
      } catch (e) {
        if (e instanceof LimitError) this.node = node;
        if (e instanceof RangeError) this.errorf(`error calling ${name}: ${VALUE_TOO_DEEP}`);
        throw e;
      }
    }
    // Builtins and methods return values of their static type; a function map's results may be interface{}.
    return valOf(result, !isMethod && (!isBuiltin || name === 'index'));
  }

  /** isTrue; a map's entries, when first counted, are charged. */
  private truth(v: unknown): boolean {
    if (typeof v === 'object' && v !== null && isGoMap(v)) goMapSize(v, this.meter);
    return isTrue(v);
  }

  /** Go's validateType: the value must be valid and assignable to the parameter type. */
  private validateType(value: Val, typ: ParamType | undefined): Val {
    if (value.v === undefined) {
      if (typ === undefined) return INVALID;
      if (typ === 'value') return INVALID; // a reflect.Value holding the invalid value
      if (canBeNil(typ)) return { v: null, iface: false };
      this.errorf(`invalid value; expected ${TYPE_NAMES[typ]}`);
    }
    if (typ === undefined || typ === 'value' || typ === 'any') return value;
    let v = value.v;
    if (assignable(v, typ)) return value;
    if (v === null) this.errorf(`wrong type for value; expected ${TYPE_NAMES[typ]}; got interface {}`);
    // One dereference may make it fit.
    if (v instanceof GoPointer && pointerElemAssignable(v, typ)) {
      if (v.elem === null) this.errorf(`dereference of nil pointer of type ${TYPE_NAMES[typ]}`);
      return { v: v.elem, iface: false };
    }
    this.errorf(`wrong type for value; expected ${TYPE_NAMES[typ]}; got ${goTypeName(v)}`);
  }

  private evalArg(dot: Val, typ: ParamType | undefined, n: Node): Val {
    this.at(n);
    switch (n.kind) {
      case 'dot':
        return this.validateType(dot, typ);
      case 'nil':
        if (typ !== undefined && typ === 'value') return INVALID;
        if (typ !== undefined && canBeNil(typ)) return { v: null, iface: false };
        this.errorf(`cannot assign nil to ${typ === undefined ? '<nil>' : TYPE_NAMES[typ]}`);
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), typ);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, n, undefined, MISSING), typ);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), typ);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, n, n, undefined, MISSING), typ);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, undefined, MISSING), typ);
      default:
        break;
    }
    switch (typ) {
      case 'bool':
        if (n.kind === 'bool') return { v: n.value, iface: false };
        this.errorf(`expected bool; found ${nodeString(n)}`);
      case 'float64':
        if (n.kind === 'number' && n.isFloat) return { v: n.float, iface: false };
        this.errorf(`expected float; found ${nodeString(n)}`);
      case 'int':
      case 'time.Duration':
        if (n.kind === 'number' && n.isInt) return { v: n.int, iface: false };
        this.errorf(`expected integer; found ${nodeString(n)}`);
      case 'string':
        if (n.kind === 'string') return { v: n.text, iface: false };
        this.errorf(`expected string; found ${nodeString(n)}`);
      case 'any':
      case 'value':
        switch (n.kind) {
          case 'bool':
            return { v: n.value, iface: false };
          case 'number':
            return this.idealConstant(n);
          case 'string':
            return { v: n.text, iface: false };
          default:
            break;
        }
        this.errorf(`can't handle assignment of ${nodeString(n)} to empty interface argument`);
      default:
        break;
    }
    this.errorf(`can't handle ${nodeString(n)} for arg of type ${typ === undefined ? '<nil>' : TYPE_NAMES[typ]}`);
  }
}

function canBeNil(typ: ParamType): boolean {
  switch (typ) {
    case 'any':
    case 'value':
    case '[]any':
    case '[]string':
    case 'map[string]any':
    case '[]byte':
    case '*time.Location':
    case '*semver.Version':
      return true;
    default:
      break;
  }
  return false;
}

function assignable(v: unknown, typ: ParamType): boolean {
  if (v === null) return false;
  switch (typ) {
    case 'any':
    case 'value':
      return true;
    case 'string':
      return typeof v === 'string';
    case 'int':
      return typeof v === 'bigint';
    case 'float64':
      return typeof v === 'number';
    case 'bool':
      return typeof v === 'boolean';
    case '[]any':
      return Array.isArray(v) && elemType(v) === 'interface {}';
    case '[]string':
      return Array.isArray(v) && elemType(v) === 'string';
    case 'map[string]any':
      return isGoMap(v) && elemType(v) === 'interface {}';
    // Named types: only a value of that very type.
    default:
      return goTypeName(v) === TYPE_NAMES[typ];
  }
}

function pointerElemAssignable(p: GoPointer, typ: ParamType): boolean {
  if (p.elem !== null) return assignable(p.elem, typ);
  return p.typeName === '*' + TYPE_NAMES[typ];
}

export { ExecError, LimitError };
