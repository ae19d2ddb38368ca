// Parse errors of input documents say where and what, never which text: a token written without its quotes
// sits exactly where the parser stops, and the `yaml` package's messages (like V8's JSON.parse) quote the
// source there ("Unexpected scalar token in YAML stream: \"...\""). So each problem is described by its code
// and placed by line and column.
import type { YAMLError } from 'yaml';

const YAML_PROBLEMS: Record<string, string> = {
  ALIAS_PROPS: 'an alias cannot have an anchor or a tag',
  BAD_ALIAS: 'an alias refers to no anchor before it',
  BAD_COLLECTION_TYPE: 'a tag does not fit the collection it is on',
  BAD_DIRECTIVE: 'a directive is not valid',
  BAD_DQ_ESCAPE: 'a double-quoted string has an invalid escape sequence',
  BAD_INDENT: 'the indentation is wrong (or a flow collection is not closed)',
  BAD_PROP_ORDER: 'an anchor or a tag comes before its indicator',
  BAD_SCALAR_START: 'a plain value starts with a reserved character',
  BLOCK_AS_IMPLICIT_KEY: 'a nested mapping is not allowed in a compact mapping',
  BLOCK_IN_FLOW: 'a block collection cannot be inside a flow collection',
  COLLECTION_KEY: 'a map key is a map or a sequence (osm-krm reads only scalar keys, as Kubernetes objects have)',
  DUPLICATE_KEY: 'a map key is repeated',
  KEY_OVER_1024_CHARS: 'an implicit key is longer than 1024 characters',
  KEY_TOO_LONG: 'a map key is longer than 16,383 characters (longer ones would all share one hash)',
  MISSING_CHAR: 'a character is missing (a closing quote or bracket, a comma, a colon or a space)',
  MULTILINE_IMPLICIT_KEY: 'an implicit key must be on one line',
  MULTIPLE_ANCHORS: 'a node has more than one anchor',
  MULTIPLE_DOCS: 'there is more than one document',
  MULTIPLE_TAGS: 'a node has more than one tag',
  NON_STRING_KEY: 'a map key is not a string',
  TAB_AS_INDENT: 'a tab is used as indentation',
  TAG_RESOLVE_FAILED: 'a tag cannot be resolved',
  UNEXPECTED_TOKEN: 'unexpected text',
};

/** Line and column (1-based, in characters) of `offset` in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: at - start + 1 };
}

/** "line L, column C: what" for an error of the `yaml` package on `text`, without any of its source. */
export function yamlErrorText(e: YAMLError, text: string): string {
  const { line, column } = lineAndColumn(text, e.pos[0]);
  return `line ${line}, column ${column}: ${YAML_PROBLEMS[e.code] ?? 'the YAML is not valid'}`;
}
