// The Helm-style functions OSM adds to OSP templates (pkg/util/funcmap): toYaml/fromYaml/fromYamlArray,
// toToml/fromToml and fromJson/fromJsonArray (errors under key "Error"). OSM's toJson (errors swallowed)
// behaves as sprig's.
import { marshalYamlV3 } from '../go/yaml.v3/encode.ts';
import { marshalToml, TomlEncodeError } from '../go/toml/encode.ts';
import { goFunc, meteredFunc, type FuncMap } from '../go/reflect/func.ts';
import { CONSTANT, readsAndBuilds, type CallCost } from '../go/reflect/callCost.ts';
import { mapSet, type GoMap } from '../go/reflect/value.ts';
import type { Meter } from '../go/internal/meter.ts';
import { goJsonDecode } from '../go/encoding/json/decode.ts';
import { decodeToml, TomlParseError } from '../go/toml/decode.ts';
import { decodeYaml } from '../go/yaml.v3/decode.ts';
import { LimitError } from '../template/errors.ts';
import { DECODES_JSON } from './defaults.ts';

/** gopkg.in/yaml.v3 Marshal, trailing newline trimmed like Helm. */
function toYaml(v: unknown, m: Meter): string {
  return marshalYamlV3(v, m).replace(/\n$/, '');
}

/** yaml.Unmarshal into a map (the error added under "Error") or a slice (then just the error text). */
function fromYaml(s: string, wantArray: boolean, m: Meter): unknown {
  const r = decodeYaml(s, wantArray ? 'slice' : 'map', m);
  if (r.error === undefined) return r.value;
  if (wantArray) return [r.error];
  const map = r.value as GoMap;
  mapSet(map, 'Error', r.error);
  return map;
}

/**
 * Reading YAML: its scanner, parser and node tree, per byte of input (the values decoded from the nodes, which
 * aliases can multiply, are charged by the decoder as it makes them).
 */
const DECODES_YAML: CallCost = (m, args) => {
  readsAndBuilds(256, 96)(m, args);
  m.spend(KEY_UNITS * colonsOf(args[0]));
};
/** Work per mapping key (the scanner's and parser's tokens and the nodes of an entry: several microseconds). */
const KEY_UNITS = 8192;

/** The colons of a text: a bound on its mapping keys. */
function colonsOf(s: unknown): number {
  if (typeof s !== 'string') return 0;
  let n = 0;
  for (let i = s.indexOf(':'); i >= 0; i = s.indexOf(':', i + 1)) n++;
  return n;
}
/** Reading TOML: its lexer's items and the tables made from them, per byte of input. */
const DECODES_TOML: CallCost = (m, args) => {
  readsAndBuilds(128, 64)(m, args);
  m.spend(TABLE_UNITS * bracketsOf(args[0]));
};
/** Work per bracket (a table header, an array of tables' element, an array): about a few microseconds. */
const TABLE_UNITS = 4096;

/** The brackets that open a table, an array of tables' element or an array (in strings too: a bound). */
function bracketsOf(s: unknown): number {
  if (typeof s !== 'string') return 0;
  let n = 0;
  for (let i = s.indexOf('['); i >= 0; i = s.indexOf('[', i + 1)) n++;
  return n;
}

export const osmExtraFuncs: FuncMap = {
  // The encoders charge as they go (a structure that shares parts encodes far larger than it is).
  toToml: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => {
    try {
      return marshalToml(v, m);
    } catch (e) {
      if (e instanceof TomlEncodeError) return e.message;
      throw e;
    }
  }),
  // toml.Unmarshal into a map; a parse error leaves it empty but for "Error".
  fromToml: meteredFunc(['string'], DECODES_TOML, (m: Meter, s: string) => {
    try {
      return decodeToml(s, m);
    } catch (e) {
      if (e instanceof TomlParseError) return { Error: e.message };
      throw e;
    }
  }),
  toYaml: meteredFunc(['any'], CONSTANT, (m: Meter, v: unknown) => {
    try {
      return toYaml(v, m);
    } catch (e) {
      // Go's encoder errors and panics are swallowed; our limits are not.
      if (e instanceof LimitError) throw e;
      return '';
    }
  }),
  fromYaml: meteredFunc(['string'], DECODES_YAML, (m: Meter, s: string) => fromYaml(s, false, m)),
  fromYamlArray: meteredFunc(['string'], DECODES_YAML, (m: Meter, s: string) => fromYaml(s, true, m)),
  // json.Unmarshal into a map: the error is added under "Error" to whatever was decoded.
  fromJson: goFunc(['string'], DECODES_JSON, (s: string) => {
    const r = goJsonDecode(s, 'map');
    const m = r.value as GoMap;
    if (r.error !== undefined) mapSet(m, 'Error', r.error);
    return m;
  }),
  // json.Unmarshal into a slice: on error the slice is just the error text.
  fromJsonArray: goFunc(['string'], DECODES_JSON, (s: string) => {
    const r = goJsonDecode(s, 'slice');
    return r.error !== undefined ? [r.error] : r.value;
  }),
};
