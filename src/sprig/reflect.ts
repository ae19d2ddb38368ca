// sprig's reflect.go: typeOf (fmt's %T), typeIs, typeIsLike, kindOf (reflect.Kind, src/go/reflect/kind.ts) and kindIs.
import { goFunc, type FuncMap } from '../go/reflect/func.ts';
import { CONSTANT, readsStrings } from '../go/reflect/callCost.ts';
import { goTypeName } from '../go/fmt/format.ts';
import { goKind } from '../go/reflect/kind.ts';

const typeOf = (v: unknown) => (v === null || v === undefined ? '<nil>' : goTypeName(v));

export const reflectFuncs: FuncMap = {
  typeOf: goFunc(['any'], CONSTANT, typeOf),
  typeIs: goFunc(['string', 'any'], readsStrings(1), (t: string, v: unknown) => t === typeOf(v)),
  typeIsLike: goFunc(
    ['string', 'any'],
    readsStrings(1),
    (t: string, v: unknown) => t === typeOf(v) || '*' + t === typeOf(v),
  ),
  kindOf: goFunc(['any'], CONSTANT, goKind),
  kindIs: goFunc(['string', 'any'], readsStrings(1), (k: string, v: unknown) => goKind(v) === k),
};
