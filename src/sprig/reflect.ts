// sprig's reflect.go: typeOf (fmt's %T), typeIs, typeIsLike, kindOf (reflect.Kind, src/go/reflect/kind.ts) and kindIs.
import { goFunc, type FuncMap } from '../go/reflect/func.ts';
import { goTypeName } from '../go/fmt/format.ts';
import { goKind } from '../go/reflect/kind.ts';

const typeOf = (v: unknown) => (v === null || v === undefined ? '<nil>' : goTypeName(v));

export const reflectFuncs: FuncMap = {
  typeOf: goFunc(['any'], typeOf),
  typeIs: goFunc(['string', 'any'], (t: string, v: unknown) => t === typeOf(v)),
  typeIsLike: goFunc(['string', 'any'], (t: string, v: unknown) => t === typeOf(v) || '*' + t === typeOf(v)),
  kindOf: goFunc(['any'], goKind),
  kindIs: goFunc(['string', 'any'], (k: string, v: unknown) => goKind(v) === k),
};
