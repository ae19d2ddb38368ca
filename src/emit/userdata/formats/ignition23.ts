// Ignition spec 2.3.0, what OSM writes for Flatcar: the Container Linux Config transpiled as ct v0.9.4 does.
import type { UserDataInput } from '../input.ts';
import { emitIgnition } from '../ignition/index.ts';
import type { UnitContentChecks } from '../ignition/transpile.ts';
import { decodeIgnition, sniffIgnition } from './ignitionView.ts';
import type { UserDataFormat } from './userDataFormat.ts';

export const ignition23 = {
  id: 'ignition-2.3.0',
  reader: 'Ignition on Flatcar',
  selectedBy: { provisioningUtility: 'ignition', ignitionSpec: '2.3.0' },
  syntax: 'ignition',
  emit: (input: UserDataInput, unitChecks?: UnitContentChecks) => emitIgnition(input, '2.3.0', unitChecks),
  sniff: (text: string) => sniffIgnition(text, 2),
  decode: decodeIgnition,
  // lint renders the same OSCs as 3.3.0 for ignition-validate (src/lint/lintScenarios.ts).
  validator: { none: 'no external validator knows spec 2.x; rendered and decoded only', checkedAs: 'ignition-3.3.0' },
} as const satisfies UserDataFormat;
