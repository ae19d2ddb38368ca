// Kubelet settings OSM reads from the MachineDeployment's own annotations
// (`v1.kubelet-config.machine-controller.kubermatic.io/<Setting>`), typed as OSM types them.
import { goMap, GoPointer, GoStringer, mapSet } from '../go/reflect/value.ts';
import { isHashableKey } from '../go/internal/hashableKey.ts';
import { ResourceError } from '../krm/results.ts';
import { formatGoDuration, parseGoDuration } from '../go/time/duration.ts';

export const KUBELET_CONFIG_ANNOTATION_PREFIX = 'v1.kubelet-config.machine-controller.kubermatic.io/';

export interface KubeletSettings {
  KubeReserved: GoPointer;
  SystemReserved: GoPointer;
  EvictionHard: GoPointer;
  MaxPods: GoPointer;
  ContainerLogMaxSize: GoPointer;
  ContainerLogMaxFiles: GoPointer;
  ImageGCHighThresholdPercent: GoPointer;
  ImageGCLowThresholdPercent: GoPointer;
  ImageMinimumGCAge: GoPointer;
  ImageMaximumGCAge: GoPointer;
}

const nilMap = () => new GoPointer('*map[string]string', null);
const nilInt32 = () => new GoPointer('*int32', null);
const nilString = () => new GoPointer('*string', null);
const nilDuration = () => new GoPointer('*v1.Duration', null);

export function kubeletSettingsFromAnnotations(annotations: Readonly<Record<string, string>>): KubeletSettings {
  const s: KubeletSettings = {
    KubeReserved: nilMap(),
    SystemReserved: nilMap(),
    EvictionHard: nilMap(),
    MaxPods: nilInt32(),
    ContainerLogMaxSize: nilString(),
    ContainerLogMaxFiles: nilString(),
    ImageGCHighThresholdPercent: nilInt32(),
    ImageGCLowThresholdPercent: nilInt32(),
    ImageMinimumGCAge: nilDuration(),
    ImageMaximumGCAge: nilDuration(),
  };
  // Like OSM: the setting name is everything after the first "/" of the annotation key.
  for (const [key, value] of Object.entries(annotations)) {
    if (!key.startsWith(KUBELET_CONFIG_ANNOTATION_PREFIX)) continue;
    const setting = key.slice(key.indexOf('/') + 1);
    const field = `metadata.annotations.${key}`;
    switch (setting) {
      case 'KubeReserved':
      case 'SystemReserved':
        s[setting] = new GoPointer('*map[string]string', keyValueMap(value, '=', field));
        break;
      case 'EvictionHard':
        s.EvictionHard = new GoPointer('*map[string]string', keyValueMap(value, '<', field));
        break;
      case 'MaxPods':
        s.MaxPods = new GoPointer('*int32', parseInt32(value, 'maxPods', field));
        break;
      case 'ImageGCHighThresholdPercent':
      case 'ImageGCLowThresholdPercent':
        s[setting] = new GoPointer('*int32', parseInt32(value, setting[0]!.toLowerCase() + setting.slice(1), field));
        break;
      case 'ContainerLogMaxSize':
      case 'ContainerLogMaxFiles':
        s[setting] = new GoPointer('*string', value);
        break;
      case 'ImageMinimumGCAge':
      case 'ImageMaximumGCAge': {
        let ns: bigint;
        try {
          ns = parseGoDuration(value);
        } catch (e) {
          throw new ResourceError(
            `parsing ${setting[0]!.toLowerCase() + setting.slice(1)}: ${(e as Error).message}`,
            field,
          );
        }
        s[setting] = new GoPointer('*v1.Duration', new GoStringer('v1.Duration', formatGoDuration(ns), ns));
        break;
      }
      default:
        break; // unknown settings are ignored, as OSM does
    }
  }
  return s;
}

function keyValueMap(value: string, delimiter: string, field: string): Record<string, string> {
  const m: Record<string, string> = {};
  for (const pair of value.split(',')) {
    const i = pair.indexOf(delimiter);
    if (i < 0) continue; // malformed pairs are skipped, as OSM does
    const key = pair.slice(0, i);
    if (!isHashableKey(key))
      throw new ResourceError(`a key of ${key.length} characters, longer than any key may be (16,383)`, field);
    mapSet(m, key, pair.slice(i + delimiter.length));
  }
  return goMap('string', m);
}

function parseInt32(value: string, name: string, field: string): bigint {
  // strconv.ParseInt(val, 10, 32): optional sign, decimal digits only.
  if (!/^[+-]?[0-9]+$/.test(value)) {
    throw new ResourceError(
      `parsing ${name}: strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`,
      field,
    );
  }
  const n = BigInt(value);
  if (n > 2147483647n || n < -2147483648n) {
    throw new ResourceError(
      `parsing ${name}: strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`,
      field,
    );
  }
  return n;
}
