// Reading YAML with gopkg.in/yaml.v3 (kyaml) and gopkg.in/yaml.v2 (sigs.k8s.io/yaml: kubectl, Argo CD), every
// scalar's type kept; see ./goyaml-typed-reader/main.go.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { goProgram } from './goProgram.ts';

export type TypedRead = { docs: number; value: unknown; error?: string };

export function readTypedWithGoYaml(texts: readonly string[]): Array<{ v3: TypedRead; v2: TypedRead }> {
  if (texts.length === 0) return [];
  const binary = goProgram(join(import.meta.dirname, 'goyaml-typed-reader'), 'goyaml-typed-reader');
  const res = spawnSync(binary, [], { input: JSON.stringify(texts), encoding: 'utf8', maxBuffer: 1 << 30 });
  if (res.status !== 0) throw new Error(`goyaml-typed-reader failed: ${res.error ?? res.stderr}`);
  return JSON.parse(res.stdout) as Array<{ v3: TypedRead; v2: TypedRead }>;
}
