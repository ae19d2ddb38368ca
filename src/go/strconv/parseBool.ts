// strconv.ParseBool's true spellings, for callers that drop its error as OSM does.
// Follows Go 1.26 (OSM's go.mod).

const PARSE_BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** strconv.ParseBool with the error dropped: anything but a true spelling is false. */
export function goParseBoolOrFalse(s: string): boolean {
  return PARSE_BOOL_TRUE.has(s);
}
