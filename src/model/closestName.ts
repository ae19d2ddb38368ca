// "Did you mean": the candidate nearest to a mistyped name (Levenshtein distance), when one is near enough.

export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  // Sorted, so a tie gives the same answer whatever the order of the candidates.
  for (const c of [...new Set(candidates)].sort()) {
    const d = editDistance(name, c);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  // Near enough: at most a third of the name, and at least one edit allowed.
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/** ` (did you mean "x"?)`, or nothing. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const c = closestName(name, candidates);
  return c === undefined ? '' : ` (did you mean ${JSON.stringify(c)}?)`;
}
