// The decoding of clcParse.ts (the same walk, clcSchema.ts), done directly on the fast path's block tree
// (src/krm/blockYamlFastPath.ts) instead of on `yaml` package nodes built from it, for configs that decode
// without a single complaint. At the first thing that would be an error (a type error, an unmodelled key,
// a libyaml restriction; the block parser already leaves duplicate keys alone) it gives up and returns
// undefined, and the general decoder runs on the same text to report it in its words.
// test/emit/userdata/clcFastPath.test.ts checks both agree.
import type { LineCounter } from 'yaml';
import type { BlockMap, BlockNode, BlockScalar } from '../../../codec/blockYamlFastPath.ts';
import {
  decodeClcConfig,
  UNMODELLED,
  type ClcConfig,
  type ClcDecoder,
  type Position,
  type StructKind,
} from './clcSchema.ts';
import {
  blockScalarTabError,
  goBoolOf,
  goInt64Of,
  isNullPlain,
  resolvePlain,
  type Resolved,
} from '../../../go/yaml.v3/resolvePlain.ts';

/** Complete one-line quoted scalars; anything else is read differently by the two parsers. */
export const SINGLE_QUOTED = /^'(?:[^'\n]|'')*'$/;
export const DOUBLE_QUOTED = /^"(?:[^"\\\n]|\\.)*"$/;

class GiveUp extends Error {}

const giveUp = (): never => {
  throw new GiveUp();
};

/** The decoded config, or undefined when the general decoder has to run (it reports the problem). */
export function decodeBlockTree(root: BlockMap, text: string, lines: LineCounter): ClcConfig | undefined {
  try {
    checkRestrictions(root, text);
    return decodeClcConfig(new BlockDecoder(text, lines), root);
  } catch (e) {
    if (e instanceof GiveUp) return undefined;
    throw e;
  }
}

/** checkLibyamlRestrictions of clcParse.ts on the block tree (which has no anchors, aliases or tags). */
function checkRestrictions(node: BlockNode, text: string): void {
  // Flow collections are never turned into nodes by the fast path either: the `yaml` package reads them.
  if (node.kind !== 'scalar' && node.flow) giveUp();
  if (node.kind === 'map') {
    for (const { key, value } of node.pairs) {
      if (key.start === key.end) giveUp();
      checkRestrictions(key, text);
      checkRestrictions(value, text);
    }
    return;
  }
  if (node.kind === 'seq') {
    for (const item of node.items) checkRestrictions(item, text);
    return;
  }
  if (node.style === 'single' && !SINGLE_QUOTED.test(text.slice(node.start, node.end))) giveUp();
  if (node.style === 'double' && !DOUBLE_QUOTED.test(text.slice(node.start, node.end))) giveUp();
  if (node.style !== 'literal') return;
  const headerEnd = text.indexOf('\n', node.start);
  if (headerEnd < 0 || /[1-9]/.test(text.slice(node.start, headerEnd).replace(/#.*/, ''))) return;
  if (blockScalarTabError(text.slice(headerEnd + 1, node.end)) !== undefined) giveUp();
}

const isNull = (n: BlockNode): boolean =>
  n.kind === 'scalar' && (n.style === 'plain' || n.style === 'empty') && isNullPlain(n.text);

class BlockDecoder implements ClcDecoder<BlockNode> {
  constructor(
    private readonly text: string,
    private readonly lines: LineCounter,
  ) {}

  position(node: BlockNode): Position {
    let offset = node.start;
    // yaml.v3 places an empty value right after its ':' or '-' (as the general decoder does).
    if (node.kind === 'scalar' && node.end === offset) {
      while (offset > 0 && (this.text[offset - 1] === ' ' || this.text[offset - 1] === '\t')) offset--;
    }
    const p = this.lines.linePos(offset);
    return { line: p.line, column: p.col };
  }

  /** Decoder.struct: false when not decoded (null); gives up where it would record an error or throw. */
  struct(node: BlockNode, _goType: string, kind: StructKind, field: (key: string, value: BlockNode) => void): boolean {
    if (isNull(node)) return false;
    if (node.kind !== 'map' || node.flow) return giveUp();
    // No duplicate keys to check for: the block parser leaves a mapping that has any to the `yaml` package.
    for (const { key, value } of node.pairs) {
      if (isNull(key)) continue;
      if (UNMODELLED[kind]!.includes(key.text)) giveUp();
      field(key.text, value);
    }
    return true;
  }

  slice<T>(node: BlockNode, _goType: string, item: (n: BlockNode) => T | undefined): T[] {
    if (isNull(node)) return [];
    if (node.kind !== 'seq' || node.flow) return giveUp();
    const out: T[] = [];
    for (const child of node.items) {
      const v = item(child);
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  string(node: BlockNode): string | undefined {
    if (isNull(node)) return undefined;
    return node.kind === 'scalar' ? node.text : giveUp();
  }

  private resolved(n: BlockScalar): Resolved {
    return n.style === 'plain' || n.style === 'empty' ? resolvePlain(n.text) : { tag: '!!str' };
  }

  int(node: BlockNode): bigint | undefined {
    if (isNull(node)) return undefined;
    if (node.kind !== 'scalar') return giveUp();
    return goInt64Of(this.resolved(node)) ?? giveUp();
  }

  bool(node: BlockNode): boolean | undefined {
    if (isNull(node)) return undefined;
    if (node.kind !== 'scalar') return giveUp();
    return goBoolOf(this.resolved(node), node.text) ?? giveUp();
  }
}
