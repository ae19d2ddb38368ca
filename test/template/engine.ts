// Adapts our template engine's public API to the harness: one case in, one outcome out.

import type { FuncMap } from '../../src/go/reflect/func.ts';
import type { Engine, Outcome } from './harness.ts';
import type { OracleCase } from './oracle/oracle.ts';

/** The part of src/template/index.ts the harness uses. */
export interface TemplateApi {
  newTemplate(
    name: string,
    options?: { funcs?: FuncMap },
  ): {
    parse(text: string): unknown;
    execute(data: unknown): string;
    executeTemplate(name: string, data: unknown): string;
  };
  TemplateError: abstract new (...args: never[]) => Error;
}

export function makeEngine(api: TemplateApi, funcMaps: { sprig: FuncMap; osm: FuncMap }): Engine {
  return (c: OracleCase): Outcome => {
    try {
      const funcs = c.funcs === 'sprig' ? funcMaps.sprig : c.funcs === 'osm' ? funcMaps.osm : undefined;
      const t = api.newTemplate(c.name, funcs === undefined ? undefined : { funcs });
      t.parse(c.template);
      for (const d of c.defines ?? []) t.parse(d);
      // Go's Execute(w, nil) for absent data; null is how JSON null arrives too.
      const data = c.data === undefined ? null : c.data;
      const output = c.entry !== undefined ? t.executeTemplate(c.entry, data) : t.execute(data);
      return { kind: 'output', output };
    } catch (e) {
      if (e instanceof api.TemplateError) return { kind: 'error', message: e.message };
      return { kind: 'crash', message: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
  };
}
