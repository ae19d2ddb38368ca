// YAML parse/emit settings shared by every reader and writer.
//
// Parse like kyaml/go-yaml (what kpt, kustomize and kubectl use): `0644` is octal 420, `<<` merges,
// `on`/`yes` stay strings. Emit so that YAML 1.1 readers (go-yaml v2 in kubectl/Argo CD, PyYAML in
// cloud-init) read every string back as a string.
import type { Scalar, ParseOptions, DocumentOptions, SchemaOptions } from 'yaml';

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
  // The package's own check compares each key with every key before it (quadratic: 100,000 keys took 266 s)
  // and by typed value (`1` and "1" pass, then become one property). Input readers check keys in one pass
  // instead (mapKeys.ts); every other parse reads a text one of them accepted, or our own output.
  uniqueKeys: false,
  customTags: (tags) => [yaml11Octal, ...tags],
  prettyErrors: false,
};

// Generated objects are written by our own writer (./yamlWriter.ts).
export { writeYaml as stringifyForOutput } from '../codec/yamlWriter.ts';
