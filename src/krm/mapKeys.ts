// The keys of every map of an input document, checked in one walk: no key may repeat one before it, and no key
// may be a map or a sequence. The `yaml` package's own check for repeated keys compares each key with every
// key before it (compose/util-map-includes.js, yaml 2.9.1): 100,000 keys in one map took `render` 266 s. It
// also compares scalars by their value's type, so `1: a` and `"1": b` passed and became the one property "1"
// of the values, losing `a` with exit 0; and a collection key (`{[a]: 0}`) became the string "[ a ]", after
// copying every anchor before it for each such key (80,000 of them: 73 s). Here a key is what it becomes, the
// property name, and each map keeps a set of them; every parse runs with the package's check off
// (PARSE_OPTIONS, yamlSchema.ts).
import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  YAMLParseError,
  type Document,
  type ErrorCode,
  type Node,
} from 'yaml';
import { isHashableKey } from '../go/internal/hashableKey.ts';

/** Our code for a collection key (parseErrorMessage.ts words it), beside the package's own codes. */
export const COLLECTION_KEY = 'COLLECTION_KEY' as ErrorCode;
/** Our code for a key longer than V8 hashes by content (src/go/internal/hashableKey.ts). */
export const KEY_TOO_LONG = 'KEY_TOO_LONG' as ErrorCode;

/**
 * Adds to `doc.errors`, as the package adds its own, a DUPLICATE_KEY error at each key whose property name
 * repeats one before it in its map, a COLLECTION_KEY error at each key that is (or aliases) a collection, and
 * a KEY_TOO_LONG error at each key too long to be hashed by its content (never put in a set).
 */
export function checkMapKeys(doc: Document.Parsed): void {
  // An alias names the last node with its anchor before it: the walk is in document order.
  const anchors = new Map<string, Node>();
  const problem = (node: unknown, code: ErrorCode) => {
    const at = (node as Node | null)?.range?.[0] ?? 0;
    doc.errors.push(new YAMLParseError([at, at + 1], code, code));
  };
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object' || isAlias(node)) return;
    const n = node as Node;
    // An anchor longer than a key may be was refused by the lexer's count (src/codec/nodeLimit.ts).
    if (n.anchor !== undefined) anchors.set(n.anchor, n);
    if (isMap(n)) {
      const names = new Set<string>();
      for (const pair of n.items) {
        walk(pair.key);
        const key = isAlias(pair.key) ? anchors.get(pair.key.source) : pair.key;
        if (isMap(key) || isSeq(key)) problem(pair.key, COLLECTION_KEY);
        else {
          const name = propertyName(key);
          if (!isHashableKey(name)) problem(pair.key, KEY_TOO_LONG);
          else if (names.has(name)) problem(pair.key, 'DUPLICATE_KEY');
          else names.add(name);
        }
        walk(pair.value);
      }
    } else if (isSeq(n)) {
      for (const item of n.items) {
        if (isPair(item)) {
          walk(item.key);
          walk(item.value);
        } else walk(item);
      }
    }
  };
  walk(doc.contents);
}

/** The property a scalar key (or an absent one) becomes in the values, as the package's toJS names it. */
function propertyName(key: unknown): string {
  const value = isScalar(key) ? key.value : key;
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
