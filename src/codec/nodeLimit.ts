// How many YAML nodes a run reads from its inputs. Each costs the parsers and the run far more than its bytes
// (an item of a few bytes is a map, its keys and values in the parser, then an object the run decodes, keeps
// and writes back), so bytes alone do not bound a run: README.md, Threat model. Nodes are counted by one rule
// that both readers share, before they compose them: the fast path (blockYamlFastPath.ts) as it reads, and
// the `yaml` package's lexer before its parser runs (the lexer keeps nothing but a position).
//
// The rule is the lexer's own tokens, so that nothing the parser turns into an object goes uncounted: every
// token is a node except layout (spaces, line breaks, comments) and what belongs to a token already counted
// (a scalar's text after its marker, a block scalar's text after its header, the `---` that opens the
// document the lexer already marked). So a scalar, alias, anchor, tag, indicator (`-`, `?`, `:`, `,`),
// bracket, directive, document start or end, and whatever the lexer cannot place each count one. Listing
// what counts instead missed tokens that cost as much as nodes: empty documents (`---` lines), stray `]`,
// unknown directives and `?` keys each build parser objects or errors, and 2 million of them reached 2-3 GB.
//
// Layout costs the fast path nothing, but the `yaml` package keeps an object for each space, line break and
// comment (30 MB of blank lines: 2.4 GB), so the full parser's texts count their layout tokens too, apart.
import { MAX_KEY_LENGTH } from '../go/internal/hashableKey.ts';
import { Lexer } from 'yaml';

/**
 * What a run may read: nearly twice the 1,000-MachineDeployment benchmark's output fed back as kpt does
 * (795,000), 19 times the benchmark's input (80,000); the costliest shapes measured cost up to ~1 KB a node
 * through the commands, so a run at the limit peaks near 1.6 GB (README.md, Threat model).
 */
export const MAX_YAML_NODES = 1_500_000;

/**
 * The layout tokens (spaces, line breaks, comments) the full parser may read in a run: five times those of
 * the benchmark's output fed back (800,000); about 100 bytes each (3,990,000 blank lines: 408 MiB).
 */
export const MAX_YAML_LAYOUT = 4_000_000;

/**
 * The count (of nodes, of the aliases among them, or of layout tokens) went past its limit at `offset`; or
 * (`name`) an anchor, alias or tag there is longer than a key may be (src/go/internal/hashableKey.ts).
 */
export class NodeLimitReached extends Error {
  constructor(
    readonly offset: number,
    readonly of: 'nodes' | 'aliases' | 'layout' | 'name' = 'nodes',
  ) {
    super(`more YAML ${of} than allowed, at offset ${offset}`);
    this.name = 'NodeLimitReached';
  }
}

// The lexer's markers (src/parse/cst.ts of the `yaml` package): not source text, no width.
const DOCUMENT = '\x02';
const FLOW_END = '\x18';
const SCALAR = '\x1f';

/** What a text holds, by the rule above. */
export interface YamlCount {
  nodes: number;
  aliases: number;
  /** Spaces, line breaks and comments: what the full parser keeps an object for besides nodes. */
  layout: number;
}

/** Spaces (or tabs), a line break, or a comment. */
function isLayout(token: string): boolean {
  const c = token[0];
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '#' || c === '\ufeff';
}

/**
 * The nodes of `text` by the rule above, counted from the `yaml` package's lexer tokens, the aliases among
 * them and its layout tokens; throws NodeLimitReached at the token that makes them more than their limit.
 */
export function countYamlNodes(text: string, limit: number, aliasLimit = Infinity, layoutLimit = Infinity): YamlCount {
  let nodes = 0;
  let aliases = 0;
  let layout = 0;
  let offset = 0;
  let scalarText = false;
  let afterDocumentMarker = false;
  // A block scalar is counted at its header (`|`, `>`); the marker of its text, after the line break, is not.
  let afterHeader = false;
  for (const token of new Lexer().lex(text)) {
    if (token === SCALAR) {
      // A plain or block scalar: the next token is its text.
      scalarText = true;
      afterDocumentMarker = false;
      if (!afterHeader && ++nodes > limit) throw new NodeLimitReached(offset);
      afterHeader = false;
      continue;
    }
    if (token === DOCUMENT) {
      afterDocumentMarker = true;
      if (++nodes > limit) throw new NodeLimitReached(offset);
      continue;
    }
    if (token === FLOW_END) continue;
    if (scalarText) {
      scalarText = false;
    } else if (isLayout(token)) {
      if (++layout > layoutLimit) throw new NodeLimitReached(offset, 'layout');
    } else {
      if (!(token === '---' && afterDocumentMarker) && ++nodes > limit) throw new NodeLimitReached(offset);
      const c = token[0];
      afterHeader = c === '|' || c === '>';
      if (c === '*' && ++aliases > aliasLimit) throw new NodeLimitReached(offset, 'aliases');
      // The readers and the `yaml` package look anchors and tags up by name (a tag with its `!`).
      if ((c === '&' || c === '*' || c === '!') && token.length > MAX_KEY_LENGTH)
        throw new NodeLimitReached(offset, 'name');
      afterDocumentMarker = false;
    }
    offset += token.length;
  }
  return { nodes, aliases, layout };
}
