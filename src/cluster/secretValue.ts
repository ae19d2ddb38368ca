// A secret from a value source (inline, env, file): registered with the run's mask as it is read, before
// anything can print it.
import type { ValueSource } from '../config/operatingSystemManagerConfig.ts';
import type { SecretRegistry } from '../krm/redactSecrets.ts';
import { resolveValue, type Environment } from './valueSource.ts';

export function resolveSecretValue(
  src: ValueSource | undefined,
  field: string,
  env: Environment,
  secrets: SecretRegistry,
): string | undefined {
  const v = resolveValue(src, field, env);
  // As read, and as the consumers that trim a file's line break use it.
  secrets.add(v);
  secrets.add(v?.trim());
  return v;
}
