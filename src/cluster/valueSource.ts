// Resolving config values that may come from the environment or a file, so secrets need not live in Git.
import { ResourceError } from '../krm/results.ts';
import type { ValueSource } from '../config/operatingSystemManagerConfig.ts';
import { envNameAllowed, envNameRefusal, ENV_NAMES_ENV } from './environmentNames.ts';

/**
 * Where the function may read values from; injected so the core stays free of process state. The commands'
 * readFile reads through the file gate (src/cli/fileGate.ts: bounded, regular files only, inside the allowed
 * directories) and throws an error whose `reason` says why without the file's content.
 */
export interface Environment {
  env(name: string): string | undefined;
  readFile(path: string): string;
  /** Set when the function runs in its container image, which sees only the variables passed into it. */
  inFunctionContainer?: boolean;
  /**
   * The wall clock in milliseconds since the epoch: the only way time enters a render, and only for bootstrap
   * token lifetimes (renderTime.ts); absent in tests and review tools that must not depend on it.
   */
  now?(): number;
}

/** Why a variable may be missing in the function's container, and how to pass it in. */
const CONTAINER_ENV_NOTE =
  'the function runs in a container, which sees only the variables passed into it: list it under envs: of the ' +
  "function's container (kustomize's config.kubernetes.io/function), or pass -e NAME to kpt fn eval --image " +
  "(a Kptfile's image: function gets none; use exec: there)";

export function resolveValue(src: ValueSource | undefined, field: string, env: Environment): string | undefined {
  if (src === undefined) return undefined;
  if (typeof src === 'string') return src;
  if (src.value !== undefined) return src.value;
  if (src.env !== undefined) {
    const at = src.at ?? `${field}.env`;
    // The one place a config's `{env: NAME}` is read (environmentNames.ts says which names).
    if (!envNameAllowed(src.env, env.env(ENV_NAMES_ENV)))
      throw new ResourceError(
        `environment variable ${shownName(src.env)} (named by ${at}) is not read: ${envNameRefusal(src.env)}`,
        at,
      );
    const v = env.env(src.env);
    if (v === undefined) {
      const note = env.inFunctionContainer ? `; ${CONTAINER_ENV_NOTE.replace('NAME', src.env)}` : '';
      throw new ResourceError(`environment variable ${src.env} (named by ${at}) is not set${note}`, at);
    }
    if (v === '') throw new ResourceError(`environment variable ${src.env} (named by ${at}) is set but empty`, at);
    return v;
  }
  if (src.file !== undefined) {
    const at = src.at ?? `${field}.file`;
    try {
      return env.readFile(src.file);
    } catch (e) {
      const reason = (e as { reason?: unknown }).reason;
      const code = (e as NodeJS.ErrnoException).code;
      throw new ResourceError(
        `cannot read file ${JSON.stringify(src.file)} (named by ${at}): ${typeof reason === 'string' ? reason : (code ?? 'read error')}`,
        at,
      );
    }
  }
  return undefined;
}

/** A variable's name as written, quoted when it is not a plain name (empty, spaces, odd characters). */
function shownName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : JSON.stringify(name);
}
