// The parse tree of a Go template. Every node carries its byte position (for line:col in errors) and the
// source text Go prints for it in "executing ... at <...>".

export type Node =
  | ListNode | TextNode | ActionNode | IfNode | RangeNode | WithNode | TemplateNode | BreakNode | ContinueNode
  | PipeNode | CommandNode | FieldNode | ChainNode | IdentifierNode | VariableNode | DotNode | NilNode
  | BoolNode | NumberNode | StringNode;

export interface ListNode { kind: 'list'; pos: number; nodes: Node[] }
export interface TextNode { kind: 'text'; pos: number; text: string }
export interface ActionNode { kind: 'action'; pos: number; line: number; pipe: PipeNode }
export interface BranchNode { pos: number; line: number; pipe: PipeNode; list: ListNode; elseList?: ListNode }
export interface IfNode extends BranchNode { kind: 'if' }
export interface WithNode extends BranchNode { kind: 'with' }
export interface RangeNode extends BranchNode { kind: 'range' }
export interface TemplateNode { kind: 'template'; pos: number; line: number; name: string; pipe?: PipeNode }
export interface BreakNode { kind: 'break'; pos: number; line: number }
export interface ContinueNode { kind: 'continue'; pos: number; line: number }
export interface PipeNode { kind: 'pipe'; pos: number; line: number; isAssign: boolean; decl: VariableNode[]; cmds: CommandNode[] }
export interface CommandNode { kind: 'command'; pos: number; args: Node[] }
export interface FieldNode { kind: 'field'; pos: number; ident: string[] }
export interface ChainNode { kind: 'chain'; pos: number; node: Node; field: string[] }
export interface IdentifierNode { kind: 'identifier'; pos: number; ident: string }
export interface VariableNode { kind: 'variable'; pos: number; ident: string[] }
export interface DotNode { kind: 'dot'; pos: number }
export interface NilNode { kind: 'nil'; pos: number }
export interface BoolNode { kind: 'bool'; pos: number; value: boolean }
export interface NumberNode {
  kind: 'number';
  pos: number;
  text: string;
  isInt: boolean;
  isUint: boolean;
  isFloat: boolean;
  isComplex: boolean;
  int: bigint;
  uint: bigint;
  float: number;
}
export interface StringNode { kind: 'string'; pos: number; quoted: string; text: string }

/** Go's Node.String(), used in error messages ("at <.Foo>"). */
export function nodeString(n: Node): string {
  switch (n.kind) {
    case 'list': return n.nodes.map(nodeString).join('');
    case 'text': return JSON.stringify(n.text);
    case 'action': return `{{${nodeString(n.pipe)}}}`;
    case 'if': case 'with': case 'range':
      return `{{${n.kind} ${nodeString(n.pipe)}}}${nodeString(n.list)}${n.elseList ? `{{else}}${nodeString(n.elseList)}` : ''}{{end}}`;
    case 'template': return n.pipe ? `{{template ${JSON.stringify(n.name)} ${nodeString(n.pipe)}}}` : `{{template ${JSON.stringify(n.name)}}}`;
    case 'break': return '{{break}}';
    case 'continue': return '{{continue}}';
    case 'pipe': {
      let s = '';
      if (n.decl.length > 0) s = n.decl.map(nodeString).join(', ') + (n.isAssign ? ' = ' : ' := ');
      return s + n.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return n.args.map((a) => (a.kind === 'pipe' ? `(${nodeString(a)})` : nodeString(a))).join(' ');
    case 'field': return n.ident.map((i) => '.' + i).join('');
    case 'chain': return (n.node.kind === 'pipe' ? `(${nodeString(n.node)})` : nodeString(n.node)) + n.field.map((f) => '.' + f).join('');
    case 'identifier': return n.ident;
    case 'variable': return n.ident.join('.');
    case 'dot': return '.';
    case 'nil': return 'nil';
    case 'bool': return n.value ? 'true' : 'false';
    case 'number': return n.text;
    case 'string': return n.quoted;
  }
}
