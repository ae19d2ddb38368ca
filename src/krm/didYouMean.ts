// "Did you mean ...?" for a name that matches nothing: the closest known names by edit distance (a typo, a
// transposition, a wrong case), so an error points at the fix instead of listing every name there is.

/** Damerau-Levenshtein distance (optimal string alignment), case differences counting half. */
function distance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const x = a[i - 1]!;
      const y = b[j - 1]!;
      const cost = x === y ? 0 : x.toLowerCase() === y.toLowerCase() ? 0.5 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x === b[j - 2] && a[i - 2] === y) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known names close enough to `name` to be what was meant, closest first (at most three). */
export function closestNames(name: string, known: Iterable<string>): string[] {
  // A third of the name's length (at least 1, at most 3) of edits: close enough to be a slip of the keyboard.
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  const scored: Array<[string, number]> = [];
  for (const k of new Set(known)) {
    if (k === name) continue;
    if (Math.abs(k.length - name.length) > limit) continue;
    const dist = distance(name, k);
    if (dist <= limit) scored.push([k, dist]);
  }
  scored.sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return scored.slice(0, 3).map(([k]) => k);
}

/** `; did you mean "x"?` (or `"x" or "y"`), or '' when no known name is close. */
export function didYouMean(
  name: string,
  known: Iterable<string>,
  quote: (s: string) => string = (s) => JSON.stringify(s),
): string {
  const close = closestNames(name, known);
  if (close.length === 0) return '';
  const list = close.map(quote);
  return `; did you mean ${list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`}?`;
}
