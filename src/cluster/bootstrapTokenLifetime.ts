// Warnings about when the rendered bootstrap tokens stop joining nodes, as of the render's time (renderTime.ts):
// a rotation whose newest token expires within one period (a re-render must come before then), and a fixed
// spec.cluster.bootstrapTokenExpiration that has passed or passes within 7 days.
import type { OsmConfig } from '../config/operatingSystemManagerConfig.ts';
import type { ClusterFacts } from './clusterFacts.ts';
import { parseRfc3339Seconds, renderTime, rfc3339, SOURCE_DATE_EPOCH, type RenderTime } from './renderTime.ts';
import type { Environment } from './valueSource.ts';

export const EXPIRATION_WARNING_SECONDS = 7 * 24 * 3600;

export interface LifetimeFinding {
  message: string;
  field: string;
}

export function bootstrapTokenLifetimeFindings(
  config: OsmConfig,
  facts: ClusterFacts,
  env: Environment,
): LifetimeFinding[] {
  const rotation = facts.bootstrapTokenRotation;
  if (rotation !== undefined) {
    const left = rotation.current.expires - rotation.time.seconds;
    if (left >= rotation.periodSeconds) return [];
    return [
      {
        field: 'spec.cluster.bootstrapTokenRotation.overlap',
        message: `the newest bootstrap token (window ${rfc3339(rotation.current.start)} to ${rfc3339(rotation.current.end)}) expires at ${rfc3339(rotation.current.expires)}, ${duration(left)} after this render (time from ${rotation.time.source}), less than one period (${duration(rotation.periodSeconds)}): unless osm-krm renders again and the result is applied before then, nodes that boot after it cannot join. Re-render at least every ${duration(left)}, or set the overlap to the period (README: Running it for months)`,
      },
    ];
  }
  const fixed = config.cluster.bootstrapTokenExpiration;
  if (fixed === undefined || facts.bootstrapTokenKey === undefined) return [];
  const expires = parseRfc3339Seconds(fixed);
  const time = timeIfKnown(env);
  if (expires === undefined || time === undefined) return [];
  const field = 'spec.cluster.bootstrapTokenExpiration';
  if (expires <= time.seconds) {
    return [
      {
        field,
        message: `the derived bootstrap tokens expired at ${fixed} (time from ${time.source}): nodes cannot join with them; set a later date, or better spec.cluster.bootstrapTokenRotation (README: Running it for months)`,
      },
    ];
  }
  if (expires - time.seconds <= EXPIRATION_WARNING_SECONDS) {
    return [
      {
        field,
        message: `the derived bootstrap tokens expire at ${fixed}, in ${duration(expires - time.seconds)} (time from ${time.source}): after that nodes cannot join; set a later date, or better spec.cluster.bootstrapTokenRotation (README: Running it for months)`,
      },
    ];
  }
  return [];
}

/** The render time, or undefined where the process gives no clock (a fixed date is then not judged). */
function timeIfKnown(env: Environment): RenderTime | undefined {
  if (env.now === undefined && (env.env(SOURCE_DATE_EPOCH) ?? '') === '') return undefined;
  return renderTime(env, 'spec.cluster.bootstrapTokenExpiration');
}

/** 90061 -> "25h1m1s": a span as the config writes one (a Go duration, without its zero parts). */
export function duration(seconds: number): string {
  const parts: string[] = [];
  let s = Math.max(0, Math.round(seconds));
  for (const [unit, size] of [
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)}${unit}`);
      s %= size;
    }
  }
  return parts.length === 0 ? '0s' : parts.join('');
}
