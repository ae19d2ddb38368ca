// The template data of one MachineDeployment as `render --explain` shows it: one `.Field` per line, each value
// printed with Go's %#v (type and value, as `{{ printf "%#v" .Field }}` would show it in the OSP).
import { sprintf } from '../go/fmt/format.ts';
import { UNMETERED } from '../go/internal/meter.ts';
import { GoPointer, GoStruct, exportedFields } from '../go/reflect/value.ts';

export function describeTemplateData(data: unknown): string[] {
  const struct = data instanceof GoPointer ? data.elem : data;
  if (!(struct instanceof GoStruct)) return [sprintf('%#v', [data], UNMETERED)];
  return exportedFields(struct).map(([name, value]) => `.${name} = ${sprintf('%#v', [value], UNMETERED)}`);
}
