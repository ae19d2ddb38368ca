// The time a render is for, used only for bootstrap token lifetimes: SOURCE_DATE_EPOCH when set (the
// reproducible-builds convention: whole seconds since the Unix epoch), else the wall clock the process gives
// (Environment.now). Nothing else in a render depends on time, and it is read only when the config has a
// rotation or a fixed expiration, so every other output is a function of the input alone.
import { ResourceError } from '../krm/results.ts';
import { atInstant, formatGoTime, parseGoTime, unixSeconds, UTC } from '../go/time/time.ts';

const RFC3339 = '2006-01-02T15:04:05Z07:00';
import type { Environment } from './valueSource.ts';

export const SOURCE_DATE_EPOCH = 'SOURCE_DATE_EPOCH';

export interface RenderTime {
  /** Seconds since the Unix epoch. */
  seconds: number;
  /** For messages: where the time came from. */
  source: string;
}

export function renderTime(env: Environment, purpose: string): RenderTime {
  const fixed = env.env(SOURCE_DATE_EPOCH);
  if (fixed !== undefined && fixed !== '') {
    if (!/^[0-9]{1,15}$/.test(fixed))
      throw new ResourceError(
        `${SOURCE_DATE_EPOCH} must be whole seconds since the Unix epoch (e.g. $(date +%s)), got ${JSON.stringify(fixed)}`,
      );
    return { seconds: Number(fixed), source: `${SOURCE_DATE_EPOCH}=${fixed}` };
  }
  if (env.now === undefined)
    throw new ResourceError(`${purpose} needs the time: set ${SOURCE_DATE_EPOCH} (seconds since the Unix epoch)`);
  return { seconds: Math.floor(env.now() / 1000), source: 'the clock' };
}

/** RFC 3339 in UTC, as kubeadm writes a bootstrap token's `expiration`: 2026-12-01T00:00:00Z. */
export function rfc3339(seconds: number): string {
  return formatGoTime(atInstant(BigInt(seconds), 0, UTC), RFC3339);
}

/** Seconds since the epoch of an RFC 3339 time (Go's time.RFC3339, as Kubernetes parses `expiration`). */
export function parseRfc3339Seconds(text: string): number | undefined {
  const t = parseGoTime(RFC3339, text, UTC);
  return t === undefined ? undefined : Number(unixSeconds(t));
}
