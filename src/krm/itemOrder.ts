// A total order on items, so output does not depend on input order.
import type { InputItem, KrmObject } from './resourceList.ts';

export function identityOf(o: KrmObject): string {
  return `${String(o.apiVersion)}/${String(o.kind)}/${String(o.metadata?.namespace ?? '')}/${String(o.metadata?.name ?? '')}`;
}

function sortKey(i: InputItem): string {
  const a = i.object.metadata?.annotations ?? {};
  const path = String(a['internal.config.kubernetes.io/path'] ?? a['config.kubernetes.io/path'] ?? '');
  const index = String(a['internal.config.kubernetes.io/index'] ?? a['config.kubernetes.io/index'] ?? '').padStart(
    8,
    '0',
  );
  return `${path}\u0000${index}\u0000${identityOf(i.object)}`;
}

export function compareItems(a: InputItem, b: InputItem): number {
  const ka = sortKey(a);
  const kb = sortKey(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  const ta = a.sourceText ?? JSON.stringify(a.object);
  const tb = b.sourceText ?? JSON.stringify(b.object);
  return ta < tb ? -1 : ta > tb ? 1 : 0;
}
