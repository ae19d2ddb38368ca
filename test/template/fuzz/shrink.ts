// Shrinks a failing fuzz case: repeatedly tries every one-step smaller template tree (drop a node,
// replace a block by one of its bodies, drop an else/else-if arm) and keeps the first that still fails.

import type { Node } from './generator.ts';

function replaceAt(list: readonly Node[], i: number, replacement: readonly Node[]): Node[] {
  return [...list.slice(0, i), ...replacement, ...list.slice(i + 1)];
}

/** Every tree one step smaller than `list`, smallest changes last. */
export function reductions(list: readonly Node[]): Node[][] {
  const out: Node[][] = [];
  list.forEach((n, i) => {
    out.push(replaceAt(list, i, []));
    switch (n.t) {
      case 'if':
        for (const arm of n.arms) out.push(replaceAt(list, i, arm.body));
        if (n.els) out.push(replaceAt(list, i, n.els), replaceAt(list, i, [{ ...n, els: null }]));
        if (n.arms.length > 1)
          n.arms.forEach((_, j) => out.push(replaceAt(list, i, [{ ...n, arms: n.arms.filter((_a, k) => k !== j) }])));
        break;
      case 'range':
      case 'with':
        if (n.els) out.push(replaceAt(list, i, [{ ...n, els: null }]), replaceAt(list, i, n.els));
        if (n.t === 'with' || !n.body.some(containsLoopControl)) out.push(replaceAt(list, i, n.body));
        break;
      default:
        break;
    }
    if (n.t === 'text' && n.s.length > 1) out.push(replaceAt(list, i, [{ t: 'text', s: n.s.slice(0, 1) }]));
    if ('trim' in n && n.trim !== 0) out.push(replaceAt(list, i, [{ ...n, trim: 0 } as Node]));
    for (const child of childLists(n)) {
      for (const smaller of reductions(child.get())) out.push(replaceAt(list, i, [child.set(smaller)]));
    }
  });
  return out;
}

function containsLoopControl(n: Node): boolean {
  if (n.t === 'loopctl') return true;
  if (n.t === 'range') return false;
  return childLists(n).some((c) => c.get().some(containsLoopControl));
}

function childLists(n: Node): { get: () => Node[]; set: (l: Node[]) => Node }[] {
  switch (n.t) {
    case 'if':
      return [
        ...n.arms.map((arm, j) => ({
          get: () => arm.body,
          set: (l: Node[]) => ({ ...n, arms: n.arms.map((a, k) => (k === j ? { ...a, body: l } : a)) }),
        })),
        ...(n.els ? [{ get: () => n.els!, set: (l: Node[]) => ({ ...n, els: l }) }] : []),
      ];
    case 'range':
    case 'with':
      return [
        { get: () => n.body, set: (l: Node[]) => ({ ...n, body: l }) },
        ...(n.els ? [{ get: () => n.els!, set: (l: Node[]) => ({ ...n, els: l }) }] : []),
      ];
    case 'define':
      return [{ get: () => n.body, set: (l: Node[]) => ({ ...n, body: l }) }];
    default:
      return [];
  }
}

/**
 * Greedy shrinking. `firstFailing` checks a batch of candidate trees and returns the index of the first
 * one that still fails (or -1).
 */
export async function shrink(
  nodes: Node[],
  firstFailing: (candidates: Node[][]) => Promise<number>,
  maxSteps = 60,
): Promise<Node[]> {
  let current = nodes;
  for (let step = 0; step < maxSteps; step++) {
    const candidates = reductions(current);
    if (candidates.length === 0) break;
    const i = await firstFailing(candidates);
    if (i < 0) break;
    current = candidates[i]!;
  }
  return current;
}
