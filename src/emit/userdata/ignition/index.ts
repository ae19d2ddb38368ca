// OSC config -> Ignition user-data for Flatcar: OSM's 2.3.0 by default, 3.3.0 on request.
import type { UserDataInput } from '../input.ts';
import { renderContainerLinuxConfig } from './containerLinuxConfig.ts';
import { ignition23, ignition33, parseContainerLinuxConfig } from './transpile.ts';

export function emitIgnition(input: UserDataInput, spec: '2.3.0' | '3.3.0' = '2.3.0'): string {
  const clc = renderContainerLinuxConfig(input);
  const parsed = parseContainerLinuxConfig(clc);
  return spec === '3.3.0' ? ignition33(parsed) : ignition23(parsed);
}
