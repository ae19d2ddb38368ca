// Line diffs in the unified format of `diff -u` / `git diff` (Myers' O(ND) algorithm; three lines of context).
import { lookupKey } from '../go/internal/hashableKey.ts';

type Edit = { op: ' ' | '-' | '+'; line: string };

/**
 * Myers' search is bounded: past MAX_EDIT_DISTANCE edits or MAX_DIFF_STEPS steps (frontier points and diagonal
 * moves), the lines between the common head and tail are all removed then all added. Its frontiers are kept to
 * walk back, one per edit distance: kept whole (n + m each) they made a 10,000-line script with a template action
 * on every line take 3 GB to align (bom, lint); kept to their reach (2d + 1) they take at most 36 MB.
 */
const MAX_EDIT_DISTANCE = 3000;
const MAX_DIFF_STEPS = 50_000_000;
/**
 * What all the diffs of one run may search together (`diff`'s files of every MachineDeployment, lint's and bom's
 * alignments): a file of 3,000 lines costs 4.5 million steps (about 60 ms) however short its lines, so a profile
 * listing a few hundred such files, rendered for a few MachineDeployments, took `diff` 8 minutes. About 3 s of
 * search; past it every diff is the replaced middle, linear in its lines.
 */
export const MAX_RUN_DIFF_STEPS = 200_000_000;

/** Steps of Myers' search left to one run's diffs (one per command run: the run's object, never module state). */
export class DiffBudget {
  /** How many diffs charged here stopped at a bound and are the replaced middle: a review says so. */
  bounded = 0;
  constructor(public steps = MAX_RUN_DIFF_STEPS) {}
}

/** What a review says of a diff that stopped at a bound (`diff`'s consequences). */
export const BOUNDED_DIFF_NOTE = `past the diff search's bounds (${MAX_EDIT_DISTANCE.toLocaleString('en-US')} edits a file, ${(MAX_RUN_DIFF_STEPS / 1e6).toLocaleString('en-US')} million steps a run), the lines between the common head and tail are shown removed, then added`;

/**
 * The shortest edit script turning `a` into `b` (within the bounds above and what `budget` has left, which it
 * is charged), as kept/removed/added lines in order.
 */
export function diffLines(
  a: readonly string[],
  b: readonly string[],
  budget: DiffBudget = new DiffBudget(MAX_DIFF_STEPS),
): Edit[] {
  // One side empty: the only edit script, found without a search.
  if (a.length === 0 || b.length === 0) return replacedMiddle(a, b);
  const limit = Math.min(MAX_DIFF_STEPS, budget.steps);
  // Lines compared as numbers: the same text, the same number (a line is read once, not at every comparison).
  // A line longer than V8 hashes by content is looked up by its digest (lookupKey).
  const ids = new Map<string, number>();
  const idsOf = (lines: readonly string[]) => {
    const out = new Int32Array(lines.length);
    lines.forEach((line, i) => {
      const l = lookupKey(line);
      let id = ids.get(l);
      if (id === undefined) ids.set(l, (id = ids.size));
      out[i] = id;
    });
    return out;
  };
  const ia = idsOf(a);
  const ib = idsOf(b);
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  /** trace[d]: the frontier before pass d, diagonals -d..d (index k + d). */
  const trace: Int32Array[] = [];
  let found = false;
  let steps = 0;
  search: for (let d = 0; d <= max && !found; d++) {
    if (d > MAX_EDIT_DISTANCE) break;
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      const from = x;
      while (x < n && y < m && ia[x] === ib[y]) {
        x++;
        y++;
      }
      steps += 1 + x - from;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
      if (steps > limit) break search;
    }
  }
  budget.steps -= steps;
  if (!found) {
    budget.bounded++;
    return replacedMiddle(a, b);
  }
  // Walk back through the saved frontiers.
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[d + k - 1]! < vd[d + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[d + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      edits.push({ op: ' ', line: a[x]! });
    }
    if (d === 0) break;
    if (x === prevX) edits.push({ op: '+', line: b[--y]! });
    else edits.push({ op: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    edits.push({ op: ' ', line: a[x]! });
  }
  return edits.reverse();
}

/** The common head and tail kept, every line between them removed then added (past the search's bounds). */
function replacedMiddle(a: readonly string[], b: readonly string[]): Edit[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const edits: Edit[] = [];
  for (let i = 0; i < head; i++) edits.push({ op: ' ', line: a[i]! });
  for (let i = head; i < a.length - tail; i++) edits.push({ op: '-', line: a[i]! });
  for (let i = head; i < b.length - tail; i++) edits.push({ op: '+', line: b[i]! });
  for (let i = a.length - tail; i < a.length; i++) edits.push({ op: ' ', line: a[i]! });
  return edits;
}

/** `--- a/…`/`+++ b/…` and @@ hunks; "" when the texts are equal. `show` gives each line as printed (compared as it is). */
export function unifiedDiff(
  before: string,
  after: string,
  fromName: string,
  toName: string,
  context = 3,
  show = (line: string) => line,
  budget?: DiffBudget,
): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const edits = diffLines(a, b, budget);
  const out = [`--- ${fromName}`, `+++ ${toName}`];
  let i = 0;
  let aLine = 1;
  let bLine = 1;
  while (i < edits.length) {
    if (edits[i]!.op === ' ') {
      i++;
      aLine++;
      bLine++;
      continue;
    }
    // A hunk: back up to `context` kept lines, then run until `2*context` kept lines in a row (or the end).
    const start = Math.max(0, i - context);
    let aStart = aLine - (i - start);
    let bStart = bLine - (i - start);
    let end = i;
    let kept = 0;
    while (end < edits.length && (edits[end]!.op !== ' ' || kept < 2 * context)) {
      kept = edits[end]!.op === ' ' ? kept + 1 : 0;
      end++;
    }
    // Trailing context is at most `context` lines.
    if (kept > context) end -= kept - context;
    const hunk = edits.slice(start, end);
    const aCount = hunk.filter((e) => e.op !== '+').length;
    const bCount = hunk.filter((e) => e.op !== '-').length;
    if (aCount === 0) aStart--;
    if (bCount === 0) bStart--;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const e of hunk)
      out.push(
        e.op +
          (e.line.endsWith(NO_NEWLINE)
            ? `${show(e.line.slice(0, -NO_NEWLINE.length))}\n\\ No newline at end of file`
            : show(e.line)),
      );
    for (const e of edits.slice(i, end)) {
      if (e.op !== '+') aLine++;
      if (e.op !== '-') bLine++;
    }
    i = end;
  }
  return out.join('\n') + '\n';
}

// A last line without its newline differs from the same line with one, as in diff -u.
const NO_NEWLINE = '\u0000no-newline';

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += NO_NEWLINE;
  return lines;
}
