// One mirror URL as a hosts.toml host entry. OSM lets a mirror carry per-endpoint options in a
// `kubermatic` query parameter whose value is itself a URL-encoded query (`?kubermatic=override_path%3Dtrue`).
// The parameter is OSM's own marker: it is dropped from the URL containerd sees, and the remaining query is
// re-encoded the way Go's url.Values.Encode writes it (keys sorted, QueryEscape'd).
import {
  encodeGoQuery,
  formatGoUrl,
  goQueryUnescape,
  GoUrlError,
  parseGoQuery,
  parseGoUrl,
  type GoUrl,
} from '../../go/net/url/url.ts';
import { fromByteString, toByteString } from '../../go/strings/strings.ts';
import { goParseBoolOrFalse } from '../../go/strconv/parseBool.ts';

export interface MirrorEndpoint {
  url: string;
  overridePath: boolean;
}

function tryParse(bytes: string): GoUrl | undefined {
  try {
    return parseGoUrl(bytes);
  } catch (e) {
    if (e instanceof GoUrlError) return undefined;
    throw e;
  }
}

/** A mirror Go cannot parse is kept verbatim with override_path off, as OSM does. */
export function parseMirrorEndpoint(mirror: string): MirrorEndpoint {
  const parsed = tryParse(toByteString(mirror));
  if (parsed === undefined) return { url: mirror, overridePath: false };
  const query = parseGoQuery(parsed.rawQuery).values;
  const sideband = query.get('kubermatic');
  if (sideband === undefined) return { url: mirror, overridePath: false };

  let overridePath = false;
  // The value was already unescaped once by the query parser; OSM unescapes it a second time.
  const options = goQueryUnescape(sideband[0]!);
  if (options !== undefined) {
    const parsedOptions = parseGoQuery(options);
    if (!parsedOptions.invalid) overridePath = goParseBoolOrFalse(parsedOptions.values.get('override_path')?.[0] ?? '');
  }

  query.delete('kubermatic');
  return { url: fromByteString(formatGoUrl({ ...parsed, rawQuery: encodeGoQuery(query) })), overridePath };
}
