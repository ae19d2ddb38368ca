// Values of OSM's containerruntime struct types as src/go/toml's Encoder reads them: the fields in Go's
// declaration order and each field's struct tag (`toml:"name,omitempty"`).
import { GoPointer, GoStruct } from '../../go/reflect/value.ts';

export const containerruntimeStruct = (
  type: string,
  fields: Record<string, unknown>,
  tags: Record<string, string>,
): GoStruct => new GoStruct(`containerruntime.${type}`, fields, undefined, undefined, tags);

/** &s */
export const pointerTo = (s: GoStruct): GoPointer => new GoPointer(`*${s.typeName}`, s);
