// Go's IP address syntax (net.ParseIP, netip.ParseAddr): dotted quads without leading zeros, IPv6 with at most
// one `::` standing for at least one group and an optional dotted quad in the last 32 bits. Written here
// rather than taken from node:net, whose loading alone costs ~10 ms of start-up.
// Follows Go 1.26 (OSM's go.mod).

export function isGoIPv4(s: string): boolean {
  const fields = s.split('.');
  return fields.length === 4 && fields.every((f) => /^(0|[1-9][0-9]{0,2})$/.test(f) && Number(f) <= 255);
}

/** `zone`: netip.ParseAddr accepts `%zone` after an IPv6 address; net.ParseIP does not. */
export function isGoIPv6(addr: string, options: { zone: boolean }): boolean {
  let s = addr;
  const pct = s.indexOf('%');
  if (pct >= 0) {
    if (!options.zone || pct === s.length - 1) return false;
    s = s.slice(0, pct);
  }
  let ellipsis = -1;
  let i = 0; // bytes filled
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s === '') return true;
  }
  while (i < 16) {
    const m = /^[0-9a-fA-F]*/.exec(s)![0];
    if (m.length === 0 || m.length > 4) return false;
    if (s[m.length] === '.') {
      if ((ellipsis < 0 && i !== 12) || i + 4 > 16) return false;
      if (!isGoIPv4(s)) return false;
      i += 4;
      s = '';
      break;
    }
    i += 2;
    s = s.slice(m.length);
    if (s === '') break;
    if (s[0] !== ':' || s.length === 1) return false;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s = s.slice(1);
      if (s === '') break;
    }
  }
  if (s !== '') return false;
  return i < 16 ? ellipsis >= 0 : ellipsis < 0;
}
