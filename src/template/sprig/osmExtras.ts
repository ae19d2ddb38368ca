// The Helm-style functions OSM adds to OSP templates (pkg/util/funcmap): toYaml/fromYaml/fromYamlArray and
// fromJson/fromJsonArray (errors under key "Error"). OSM's toJson (errors swallowed) behaves as sprig's.
import { parse } from 'yaml';
import { marshalYamlV3 } from './goYamlV3.ts';
import { goFunc, type FuncMap } from '../functions.ts';
import { GoPointer, GoStringer, GoStruct, isGoMap } from '../values.ts';
import { compareBytes } from '../goFormat.ts';
import { goJsonUnmarshal } from './encoding.ts';


/** gopkg.in/yaml.v3 Marshal, trailing newline trimmed like Helm. */
function toYaml(v: unknown): string {
  return marshalYamlV3(v).replace(/\n$/, '');
}

function fromYaml(s: string, wantArray: boolean): unknown {
  try {
    const v = parse(s, { version: '1.1' });
    if (wantArray) return Array.isArray(v) ? v : [];
    return isGoMap(v) ? v : {};
  } catch (e) {
    return wantArray ? [(e as Error).message] : { Error: (e as Error).message };
  }
}

export const osmExtraFuncs: FuncMap = {
  toYaml: goFunc(['any'], (v: unknown) => {
    try {
      return toYaml(v);
    } catch {
      return '';
    }
  }),
  fromYaml: goFunc(['string'], (s: string) => fromYaml(s, false)),
  fromYamlArray: goFunc(['string'], (s: string) => fromYaml(s, true)),
  fromJson: goFunc(['string'], (s: string) => {
    try {
      const v = goJsonUnmarshal(s);
      return isGoMap(v) ? v : {};
    } catch (e) {
      return { Error: (e as Error).message };
    }
  }),
  fromJsonArray: goFunc(['string'], (s: string) => {
    try {
      const v = goJsonUnmarshal(s);
      return Array.isArray(v) ? v : [];
    } catch (e) {
      return [(e as Error).message];
    }
  }),
};
