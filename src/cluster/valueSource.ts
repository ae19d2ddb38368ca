// Resolving config values that may come from the environment or a file, so secrets need not live in Git.
import { ResourceError } from '../krm/results.ts';
import type { ValueSource } from '../config/operatingSystemManagerConfig.ts';

/** Where the function may read values from; injected so the core stays free of process state. */
export interface Environment {
  env(name: string): string | undefined;
  readFile(path: string): string;
  /**
   * The wall clock in milliseconds since the epoch: the only way time enters a render, and only for bootstrap
   * token lifetimes (renderTime.ts); absent in tests and review tools that must not depend on it.
   */
  now?(): number;
}

export function resolveValue(src: ValueSource | undefined, field: string, env: Environment): string | undefined {
  if (src === undefined) return undefined;
  if (typeof src === 'string') return src;
  if (src.value !== undefined) return src.value;
  if (src.env !== undefined) {
    const v = env.env(src.env);
    if (v === undefined) throw new ResourceError(`environment variable ${src.env} (named by ${field}.env) is not set`, `${field}.env`);
    if (v === '') throw new ResourceError(`environment variable ${src.env} (named by ${field}.env) is set but empty`, `${field}.env`);
    return v;
  }
  if (src.file !== undefined) {
    try {
      return env.readFile(src.file);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new ResourceError(`cannot read file ${JSON.stringify(src.file)} (named by ${field}.file): ${code ?? 'read error'}`, `${field}.file`);
    }
  }
  return undefined;
}
