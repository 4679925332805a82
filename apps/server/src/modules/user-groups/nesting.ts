import { MAX_GROUP_DEPTH, type HierarchyNode } from '@datalab/contract/api/user-groups';
import type { GroupGraph } from '../access/group-graph.service.ts';

// The nesting rules, free of I/O: no cycles, chains of at most MAX_GROUP_DEPTH groups. One rule
// serves the refusal of a nesting and the candidates a picker offers.

/** Longest chain, counted in groups, starting at `id` and following `next` (the graph is a DAG). */
function longestChain(id: number, next: Map<number, number[]>, memo = new Map<number, number>()): number {
  const known = memo.get(id);
  if (known !== undefined) return known;
  memo.set(id, 1); // guards a damaged graph against endless recursion
  let best = 0;
  for (const to of next.get(id) ?? []) best = Math.max(best, longestChain(to, next, memo));
  memo.set(id, best + 1);
  return best + 1;
}

function reaches(from: number, target: number, next: Map<number, number[]>): boolean {
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop() as number;
    if (id === target) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...(next.get(id) ?? []));
  }
  return false;
}

export type NestingProblem = { kind: 'self' } | { kind: 'cycle' } | { kind: 'depth'; chain: number };

/** Why `childId` cannot be nested in `parentId`, or null when it can. */
export function nestingProblem(
  graph: GroupGraph,
  parentId: number,
  childId: number,
  memos = { up: new Map(), down: new Map() },
): NestingProblem | null {
  if (parentId === childId) return { kind: 'self' };
  if (reaches(childId, parentId, graph.children)) return { kind: 'cycle' };
  const chain = longestChain(parentId, graph.parents, memos.up) + longestChain(childId, graph.children, memos.down);
  return chain > MAX_GROUP_DEPTH ? { kind: 'depth', chain } : null;
}

/** Groups that may be nested in `parentId`: no cycle, within the depth, not nested there already. */
export function nestingCandidates(
  graph: GroupGraph,
  parentId: number,
  groups: readonly { id: number; name: string }[],
) {
  const memos = { up: new Map<number, number>(), down: new Map<number, number>() };
  const already = new Set(graph.children.get(parentId) ?? []);
  return groups.filter((g) => !already.has(g.id) && nestingProblem(graph, parentId, g.id, memos) === null);
}

/**
 * Trees upwards or downwards from `root`, each group expanded once: where it appears again it is a
 * reference without children, so diamond-shaped nesting costs one node per edge, not one per path.
 */
export function referenceTrees(
  root: number,
  next: Map<number, number[]>,
  names: ReadonlyMap<number, string>,
): HierarchyNode[] {
  const expanded = new Set<number>([root]);
  const byName = (ids: number[]) =>
    [...new Set(ids)].sort((a, b) => (names.get(a) ?? '').localeCompare(names.get(b) ?? '') || a - b);
  const build = (id: number, depth: number): HierarchyNode => {
    const name = names.get(id) ?? String(id);
    if (expanded.has(id) || depth > MAX_GROUP_DEPTH) return { id, name, children: [], isReference: true };
    expanded.add(id);
    return { id, name, children: byName(next.get(id) ?? []).map((to) => build(to, depth + 1)) };
  };
  return byName(next.get(root) ?? []).map((id) => build(id, 1));
}
