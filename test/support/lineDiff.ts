// A compact, readable line diff for golden mismatches (first differing region with context).
export function lineDiff(expected: string, actual: string, context = 3): string {
  const e = expected.split('\n');
  const a = actual.split('\n');
  let start = 0;
  while (start < e.length && start < a.length && e[start] === a[start]) start++;
  let ee = e.length - 1;
  let ae = a.length - 1;
  while (ee >= start && ae >= start && e[ee] === a[ae]) {
    ee--;
    ae--;
  }
  const show = (s: string) => JSON.stringify(s).slice(1, -1);
  const out: string[] = [`@@ line ${start + 1} @@`];
  for (let i = Math.max(0, start - context); i < start; i++) out.push(`  ${show(e[i]!)}`);
  for (let i = start; i <= ee && i < start + 40; i++) out.push(`- ${show(e[i]!)}`);
  for (let i = start; i <= ae && i < start + 40; i++) out.push(`+ ${show(a[i]!)}`);
  for (let i = ee + 1; i < Math.min(e.length, ee + 1 + context); i++) out.push(`  ${show(e[i]!)}`);
  return out.join('\n');
}
