// Reading YAML as kpt and kustomize read it (kyaml: gopkg.in/yaml.v3), with Debian's Go package; see
// ./goyaml-v3-reader/main.go.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { goProgram } from './goProgram.ts';

export type GoYamlRead = { value: unknown } | { error: string };

export function readWithGoYamlV3(texts: readonly string[]): GoYamlRead[] {
  if (texts.length === 0) return [];
  const binary = goProgram(join(import.meta.dirname, 'goyaml-v3-reader'), 'goyaml-v3-reader');
  const res = spawnSync(binary, [], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (res.status !== 0) throw new Error(`goyaml-v3-reader failed: ${res.error ?? res.stderr}`);
  return JSON.parse(res.stdout) as GoYamlRead[];
}
