// url.Error's text for a failed url.Parse, `parse "<url>": <detail>`, with the details Go puts in it (the bad
// escape, host character or port) that parseGoUrl's GoUrlError reason leaves out. Follows Go 1.26 (OSM's go.mod).
import { goQuote } from '../../fmt/format.ts';

/** The error text of url.Parse(url) failing for `reason` (a GoUrlError's); the URL is quoted without its fragment. */
export function goUrlErrorText(url: string, reason: string): string {
  const u = url.split('#')[0]!;
  let detail = reason;
  if (reason === 'invalid userinfo' || reason === 'invalid control character in URL') detail = `net/url: ${reason}`;
  else if (reason === 'invalid URL escape') {
    const m = /%(?![0-9A-Fa-f]{2})[^]{0,2}/.exec(u);
    if (m) detail = `invalid URL escape ${goQuote(m[0])}`;
  } else if (reason === 'invalid character in host name') {
    const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?]*)/.exec(u)?.[1] ?? '';
    const bad = [...authority.slice(authority.lastIndexOf('@') + 1)].find(
      (c) => c < '\x80' && !/[A-Za-z0-9\-_.~!$&'()*+,;=:[\]<>"%]/.test(c),
    );
    if (bad !== undefined) detail = `invalid character ${goQuote(bad)} in host name`;
  } else if (reason === 'invalid port after host') {
    const port = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?]*?(:[^:/?]*)(?:[/?]|$)/.exec(u)?.[1];
    if (port !== undefined) detail = `invalid port ${goQuote(port)} after host`;
  }
  return `parse ${goQuote(u)}: ${detail}`;
}
