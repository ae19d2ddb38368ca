// The parse tree of a Go template (Go's parse/node.go). Every node keeps its position (a UTF-16 index into
// the text it was parsed from; errors turn it into Go's line and byte column) and prints as Go's
// Node.String() does, which is what Go shows in "executing ... at <...>".
import { goQuote } from '../go/fmt/format.ts';

export type Node =
  | ListNode
  | TextNode
  | ActionNode
  | IfNode
  | RangeNode
  | WithNode
  | TemplateNode
  | BreakNode
  | ContinueNode
  | PipeNode
  | CommandNode
  | FieldNode
  | ChainNode
  | IdentifierNode
  | VariableNode
  | DotNode
  | NilNode
  | BoolNode
  | NumberNode
  | StringNode;

export interface ListNode {
  readonly kind: 'list';
  readonly pos: number;
  readonly nodes: Node[];
}
export interface TextNode {
  readonly kind: 'text';
  readonly pos: number;
  readonly text: string;
}
export interface ActionNode {
  readonly kind: 'action';
  readonly pos: number;
  readonly line: number;
  readonly pipe: PipeNode;
}
export interface BranchNode {
  readonly pos: number;
  readonly line: number;
  readonly pipe: PipeNode;
  readonly list: ListNode;
  readonly elseList: ListNode | undefined;
}
export interface IfNode extends BranchNode {
  readonly kind: 'if';
}
export interface WithNode extends BranchNode {
  readonly kind: 'with';
}
export interface RangeNode extends BranchNode {
  readonly kind: 'range';
}
export interface TemplateNode {
  readonly kind: 'template';
  readonly pos: number;
  readonly line: number;
  readonly name: string;
  /** The name's key in the template set (lookupKey: a long name's digest, made once at parse). */
  readonly key: string;
  readonly pipe: PipeNode | undefined;
}
export interface BreakNode {
  readonly kind: 'break';
  readonly pos: number;
  readonly line: number;
}
export interface ContinueNode {
  readonly kind: 'continue';
  readonly pos: number;
  readonly line: number;
}
export interface PipeNode {
  readonly kind: 'pipe';
  readonly pos: number;
  readonly line: number;
  isAssign: boolean;
  readonly decl: VariableNode[];
  readonly cmds: CommandNode[];
}
export interface CommandNode {
  readonly kind: 'command';
  readonly pos: number;
  readonly args: Node[];
}
/** `.A.B`: the names without their dots. */
export interface FieldNode {
  readonly kind: 'field';
  readonly pos: number;
  readonly ident: readonly string[];
}
/** `(pipe).A.B` or `fn.A`: a term followed by field accesses. */
export interface ChainNode {
  readonly kind: 'chain';
  readonly pos: number;
  readonly node: Node;
  readonly field: readonly string[];
}
export interface IdentifierNode {
  readonly kind: 'identifier';
  readonly pos: number;
  readonly ident: string;
}
/** `$x.A.B`: the variable name (with its `$`) followed by field names. */
export interface VariableNode {
  readonly kind: 'variable';
  readonly pos: number;
  readonly ident: readonly string[];
}
export interface DotNode {
  readonly kind: 'dot';
  readonly pos: number;
}
export interface NilNode {
  readonly kind: 'nil';
  readonly pos: number;
}
export interface BoolNode {
  readonly kind: 'bool';
  readonly pos: number;
  readonly value: boolean;
}
/** A number constant under every Go type that can hold it (Go's ideal constants, simulated). */
export interface NumberNode {
  readonly kind: 'number';
  readonly pos: number;
  readonly text: string;
  readonly isInt: boolean;
  readonly isUint: boolean;
  readonly isFloat: boolean;
  readonly isComplex: boolean;
  readonly int: bigint;
  readonly uint: bigint;
  readonly float: number;
  /** The value of a complex constant (isComplex). */
  readonly complex?: { readonly re: number; readonly im: number };
}
export interface StringNode {
  readonly kind: 'string';
  readonly pos: number;
  readonly quoted: string;
  readonly text: string;
}

/** Go's Node.String(). */
export function nodeString(n: Node): string {
  switch (n.kind) {
    case 'list':
      return n.nodes.map(nodeString).join('');
    case 'text':
      return n.text;
    case 'action':
      return `{{${nodeString(n.pipe)}}}`;
    case 'if':
    case 'with':
    case 'range':
      return `{{${n.kind} ${nodeString(n.pipe)}}}${nodeString(n.list)}${n.elseList ? `{{else}}${nodeString(n.elseList)}` : ''}{{end}}`;
    case 'template':
      return `{{template ${goQuote(n.name)}${n.pipe ? ' ' + nodeString(n.pipe) : ''}}}`;
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'pipe': {
      // Go prints " := " for assignments too.
      const decl = n.decl.length > 0 ? n.decl.map(nodeString).join(', ') + ' := ' : '';
      return decl + n.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return n.args.map((a) => (a.kind === 'pipe' ? `(${nodeString(a)})` : nodeString(a))).join(' ');
    case 'field':
      return n.ident.map((i) => '.' + i).join('');
    case 'chain':
      return (
        (n.node.kind === 'pipe' ? `(${nodeString(n.node)})` : nodeString(n.node)) + n.field.map((f) => '.' + f).join('')
      );
    case 'identifier':
      return n.ident;
    case 'variable':
      return n.ident.join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'number':
      return n.text;
    case 'string':
      return n.quoted;
  }
}
