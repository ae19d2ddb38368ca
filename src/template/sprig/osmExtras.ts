// The Helm-style functions OSM adds to OSP templates (pkg/util/funcmap): toYaml/fromYaml/fromYamlArray and
// fromJson/fromJsonArray (errors under key "Error"). OSM's toJson (errors swallowed) behaves as sprig's.
import { Document, parse } from 'yaml';
import { goFunc, type FuncMap } from '../functions.ts';
import { GoPointer, GoStringer, GoStruct, isGoMap } from '../values.ts';
import { compareBytes } from '../goFormat.ts';
import { goJsonUnmarshal } from './encoding.ts';

function toPlain(v: unknown): unknown {
  if (v instanceof GoStringer) return v.text;
  if (v instanceof GoPointer) return v.elem === null ? null : toPlain(v.elem);
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof GoStruct) return Object.fromEntries(Object.entries(v.fields).map(([k, x]) => [k, toPlain(x)]));
  if (isGoMap(v)) return Object.fromEntries(Object.keys(v).sort(compareBytes).map((k) => [k, toPlain(v[k])]));
  return v === undefined ? null : v;
}

/** gopkg.in/yaml.v3 Marshal layout (4-space indent, sorted keys), trailing newline trimmed like Helm. */
function toYaml(v: unknown): string {
  const doc = new Document(toPlain(v));
  return doc.toString({ indent: 4, indentSeq: true, lineWidth: 0, flowCollectionPadding: false }).replace(/\n$/, '');
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
