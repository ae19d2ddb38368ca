// Ignition spec 3.3.0 (spec.ignitionSpec: 3.3.0), our addition: the same converted content written for
// Ignition 3, which current Flatcar releases read.
import type { UserDataInput } from '../input.ts';
import { emitIgnition } from '../ignition/index.ts';
import type { UnitContentChecks } from '../ignition/transpile.ts';
import { decodeIgnition, sniffIgnition } from './ignitionView.ts';
import type { UserDataFormat } from './userDataFormat.ts';

export const ignition33 = {
  id: 'ignition-3.3.0',
  reader: 'Ignition on Flatcar',
  selectedBy: { provisioningUtility: 'ignition', ignitionSpec: '3.3.0' },
  syntax: 'ignition',
  emit: (input: UserDataInput, unitChecks?: UnitContentChecks) => emitIgnition(input, '3.3.0', unitChecks),
  sniff: (text: string) => sniffIgnition(text, 3),
  decode: decodeIgnition,
  validator: { tool: 'ignition-validate' },
} as const satisfies UserDataFormat;
