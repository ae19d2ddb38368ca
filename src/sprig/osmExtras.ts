// The Helm-style functions OSM adds to OSP templates (pkg/util/funcmap): toYaml/fromYaml/fromYamlArray,
// toToml/fromToml and fromJson/fromJsonArray (errors under key "Error"). OSM's toJson (errors swallowed)
// behaves as sprig's.
import { marshalYamlV3 } from '../go/yaml.v3/encode.ts';
import { marshalToml, TomlEncodeError } from '../go/toml/encode.ts';
import { goFunc, type FuncMap } from '../go/reflect/func.ts';
import { goJsonDecode } from '../go/encoding/json/decode.ts';
import { decodeToml, TomlParseError } from '../go/toml/decode.ts';
import { decodeYaml } from '../go/yaml.v3/decode.ts';
import { LimitError } from '../template/errors.ts';


/** gopkg.in/yaml.v3 Marshal, trailing newline trimmed like Helm. */
function toYaml(v: unknown): string {
  return marshalYamlV3(v).replace(/\n$/, '');
}

/** yaml.Unmarshal into a map (the error added under "Error") or a slice (then just the error text). */
function fromYaml(s: string, wantArray: boolean): unknown {
  const r = decodeYaml(s, wantArray ? 'slice' : 'map');
  if (r.error === undefined) return r.value;
  if (wantArray) return [r.error];
  const m = r.value as Record<string, unknown>;
  Object.defineProperty(m, 'Error', { value: r.error, enumerable: true, writable: true, configurable: true });
  return m;
}

export const osmExtraFuncs: FuncMap = {
  toToml: goFunc(['any'], (v: unknown) => {
    try {
      return marshalToml(v);
    } catch (e) {
      if (e instanceof TomlEncodeError) return e.message;
      throw e;
    }
  }),
  // toml.Unmarshal into a map; a parse error leaves it empty but for "Error".
  fromToml: goFunc(['string'], (s: string) => {
    try {
      return decodeToml(s);
    } catch (e) {
      if (e instanceof TomlParseError) return { Error: e.message };
      throw e;
    }
  }),
  toYaml: goFunc(['any'], (v: unknown) => {
    try {
      return toYaml(v);
    } catch (e) {
      // Go's encoder errors and panics are swallowed; our limits are not.
      if (e instanceof LimitError) throw e;
      return '';
    }
  }),
  fromYaml: goFunc(['string'], (s: string) => fromYaml(s, false)),
  fromYamlArray: goFunc(['string'], (s: string) => fromYaml(s, true)),
  // json.Unmarshal into a map: the error is added under "Error" to whatever was decoded.
  fromJson: goFunc(['string'], (s: string) => {
    const r = goJsonDecode(s, 'map');
    const m = r.value as Record<string, unknown>;
    if (r.error !== undefined) Object.defineProperty(m, 'Error', { value: r.error, enumerable: true, writable: true, configurable: true });
    return m;
  }),
  // json.Unmarshal into a slice: on error the slice is just the error text.
  fromJsonArray: goFunc(['string'], (s: string) => {
    const r = goJsonDecode(s, 'slice');
    return r.error !== undefined ? [r.error] : r.value;
  }),
};
