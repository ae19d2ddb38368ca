// YAML parse/emit settings shared by every reader and writer.
//
// Parse like kyaml/go-yaml (what kpt, kustomize and kubectl use): `0644` is octal 420, `<<` merges,
// `on`/`yes` stay strings. Emit so that YAML 1.1 readers (go-yaml v2 in kubectl/Argo CD, PyYAML in
// cloud-init) read every string back as a string.
import { Document, isScalar, Scalar, visit, type ParseOptions, type DocumentOptions, type SchemaOptions, type ToStringOptions } from 'yaml';

const yaml11Octal = {
  identify: (v: unknown) => typeof v === 'number' && Number.isInteger(v),
  default: true,
  tag: 'tag:yaml.org,2002:int',
  format: 'OCT',
  test: /^0[0-7]+$/,
  resolve: (s: string) => parseInt(s, 8),
  stringify: (n: Scalar) => '0' + (n.value as number).toString(8),
};

export const PARSE_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  merge: true,
  uniqueKeys: true,
  customTags: (tags) => [yaml11Octal, ...tags],
  prettyErrors: false,
};

export const EMIT_OPTIONS: ToStringOptions = {
  lineWidth: 0,
  minContentWidth: 0,
  flowCollectionPadding: false,
  blockQuote: 'literal',
  indentSeq: false,
};

// Plain scalars that some YAML 1.1 or 1.2 reader would not read back as a string.
const AMBIGUOUS_PLAIN =
  /^(?:~|null|Null|NULL|y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|[-+]?(?:\.inf|\.Inf|\.INF)|\.nan|\.NaN|\.NAN|<<|=|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?|[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?)|\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?)$/;

/** Serialize a plain JS value as a YAML document body, safe for YAML 1.1 and 1.2 readers. */
export function stringifyForOutput(value: unknown): string {
  // Never anchors and aliases: shared objects (one MachineDeployment's spec in several outputs) are written out.
  const doc = new Document(value, { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      if (node.value.includes('\n')) node.type = Scalar.BLOCK_LITERAL;
      else if (AMBIGUOUS_PLAIN.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString(EMIT_OPTIONS);
}

export { isScalar };
