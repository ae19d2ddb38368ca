// Go net.ParseIP + IP.String() for the cluster DNS addresses (IPv4, IPv6 in canonical RFC 5952 form).
// Follows Go 1.26 (OSM's go.mod).
import { isGoIPv4, isGoIPv6 } from './ip.ts';

export function parseIP(s: string): string | undefined {
  if (isGoIPv4(s)) return s;
  if (!isGoIPv6(s, { zone: false })) return undefined;
  return canonicalIPv6(s);
}

function canonicalIPv6(s: string): string {
  let head = s;
  let v4tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    v4tail = s
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    head = s.slice(0, lastColon + 1) + '0:0';
  }
  const [l, r] = head.split('::') as [string, string | undefined];
  const left = l ? l.split(':') : [];
  const right = r !== undefined && r !== '' ? r.split(':') : [];
  const fill = r === undefined ? [] : new Array(8 - left.length - right.length).fill('0');
  const groups = [...left, ...fill, ...right].map((g) => parseInt(g, 16));
  if (v4tail.length === 4) {
    groups[6] = (v4tail[0]! << 8) | v4tail[1]!;
    groups[7] = (v4tail[2]! << 8) | v4tail[3]!;
  }
  // IPv4-mapped addresses print as dotted quads in Go.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return hex.slice(0, bestStart).join(':') + '::' + hex.slice(bestStart + bestLen).join(':');
}
