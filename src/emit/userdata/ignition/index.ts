// OSC config → Ignition user-data for Flatcar, the way OSM makes it: render the Container Linux Config,
// parse it like ct v0.9.4 (yaml.v3), convert and validate (any report entry fails), marshal spec 2.3.0 as Go
// does. Spec 3.3.0 is our addition: the same converted content written for Ignition 3.
import type { UserDataInput } from '../input.ts';
import { containerLinuxConfig } from './clc.ts';
import { checkClcStructure } from './clcValues.ts';
import { parseContainerLinuxConfig } from './clcParse.ts';
import { marshalIgnition23 } from './json.ts';
import { marshalIgnition33 } from './spec33.ts';
import { transpileToIgnition23, type UnitContentChecks } from './transpile.ts';

export type IgnitionSpec = '2.3.0' | '3.3.0';

/** `units`: the caller's memo of unit checks (a render run's), or one for this call only. */
export function emitIgnition(input: UserDataInput, spec: IgnitionSpec = '2.3.0', units?: UnitContentChecks): string {
  const clc = containerLinuxConfig(input);
  const parsed = parseContainerLinuxConfig(clc.text);
  checkClcStructure(parsed, clc.expected);
  const config = transpileToIgnition23(parsed, units);
  return spec === '3.3.0' ? marshalIgnition33(config) : marshalIgnition23(config);
}
