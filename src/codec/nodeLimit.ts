// How many YAML nodes a run composes from its inputs. Each costs the parsers and the run far more than its bytes
// (an item of a few bytes is a map, its keys and values in the parser, then an object the run decodes, keeps
// and writes back), so bytes alone do not bound a run: README.md, Threat model. Nodes are counted by one rule
// that both readers share, before they compose them: the fast path (blockYamlFastPath.ts) as it reads, and
// the `yaml` package's lexer before its parser runs (the lexer keeps nothing but a position).
//
// What counts: every document, every scalar written in the text (keys included; an absent value, `key:`, is
// not written and does not count), every alias, every flow collection and every entry of a block sequence.
// Block mappings and absent values are not seen by the lexer, but each hangs on a key or an entry that counts:
// the `yaml` package composes at most three times what is counted (test/codec/nodeLimit.test.ts).
import { Lexer } from 'yaml';

/**
 * What a run may read: 20 times the 1,000-MachineDeployment benchmark (49,000), twice that benchmark's output fed
 * back as kpt does (510,000); the costliest shape at the limit peaks at ~1.6 GB (README.md, Threat model).
 */
export const MAX_YAML_NODES = 1_000_000;

/** The count (of nodes, or of the aliases among them) went past its limit at `offset` of the text. */
export class NodeLimitReached extends Error {
  constructor(
    readonly offset: number,
    readonly of: 'nodes' | 'aliases' = 'nodes',
  ) {
    super(`more YAML ${of} than allowed, at offset ${offset}`);
    this.name = 'NodeLimitReached';
  }
}

// The lexer's markers (src/parse/cst.ts of the `yaml` package): not source text, no width.
const DOCUMENT = '\x02';
const FLOW_END = '\x18';
const SCALAR = '\x1f';

/**
 * The nodes of `text` by the rule above, counted from the `yaml` package's lexer tokens, and the aliases among
 * them; throws NodeLimitReached at the token that makes them more than `limit` (or the aliases more than
 * `aliasLimit`).
 */
export function countYamlNodes(text: string, limit: number, aliasLimit = Infinity): { nodes: number; aliases: number } {
  let count = 0;
  let aliases = 0;
  let offset = 0;
  let scalarText = false;
  // A block scalar is placed at its header (`|`, `>`), which comes before the marker of its text.
  let header = -1;
  for (const token of new Lexer().lex(text)) {
    if (token === SCALAR) {
      // A plain or block scalar: the next token is its text.
      scalarText = true;
      if (++count > limit) throw new NodeLimitReached(header >= 0 ? header : offset);
      header = -1;
      continue;
    }
    if (scalarText) {
      scalarText = false;
    } else if (token === DOCUMENT) {
      if (++count > limit) throw new NodeLimitReached(offset);
      continue;
    } else if (token === FLOW_END) {
      continue;
    } else {
      const c = token[0];
      if (c === '|' || c === '>') header = offset;
      if ((c === '"' || c === "'" || c === '*' || token === '-' || token === '{' || token === '[') && ++count > limit)
        throw new NodeLimitReached(offset);
      if (c === '*' && ++aliases > aliasLimit) throw new NodeLimitReached(offset, 'aliases');
    }
    offset += token.length;
  }
  return { nodes: count, aliases };
}
