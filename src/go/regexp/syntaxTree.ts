// Go's regexp/syntax parse tree (Go 1.19 semantics, as regexp.ts parses it): shared by the Pike VM
// (regexp.ts) and the JS RegExp translation (jsRegExp.ts), so neither imports the other's types back.

// A class is a union of items, each a set of ranges or a Unicode property, possibly negated. Under (?i)
// each item is folded before its own negation, as Go builds classes (so (?i)[\W] keeps excluding K).
export type ClassItem =
  { ranges: ReadonlyArray<readonly [number, number]>; negated: boolean } | { prop: RegExp; negated: boolean };

export interface CharClass {
  items: ClassItem[];
  negated: boolean;
  fold: boolean;
}

export type EmptyKind = 'beginLine' | 'endLine' | 'beginText' | 'endText' | 'wordBoundary' | 'noWordBoundary';

export type RegexpNode =
  | { op: 'literal'; rune: number; fold: boolean }
  | { op: 'class'; cls: CharClass }
  | { op: 'anyChar' }
  | { op: 'anyCharNotNL' }
  | { op: 'empty'; kind: EmptyKind }
  | { op: 'emptyMatch' }
  | { op: 'capture'; index: number; sub: RegexpNode }
  | { op: 'star' | 'plus' | 'quest'; sub: RegexpNode; nonGreedy: boolean }
  | { op: 'repeat'; sub: RegexpNode; min: number; max: number; nonGreedy: boolean }
  | { op: 'concat'; subs: RegexpNode[] }
  | { op: 'alternate'; subs: RegexpNode[] };
