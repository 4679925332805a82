import type { HierarchyNode } from '@datalab/contract/api/user-groups';

export interface GroupLink {
  id: number;
  name: string;
}

/**
 * The ancestor trees (direct parents first, each with its own parents as children) as chains read
 * top-down: [outermost, …, direct parent]. One chain per way up to a top-level group.
 */
export function ancestorChains(ancestors: readonly HierarchyNode[]): GroupLink[][] {
  const chains: GroupLink[][] = [];
  const walk = (node: HierarchyNode, below: GroupLink[]) => {
    const chain = [{ id: node.id, name: node.name }, ...below];
    if (node.children.length === 0) chains.push(chain);
    else for (const parent of node.children) walk(parent, chain);
  };
  for (const parent of ancestors) walk(parent, []);
  return chains;
}

/** How many different groups the trees hold (a group reached two ways counts once). */
export function countGroups(nodes: readonly HierarchyNode[], seen = new Set<number>()): number {
  for (const node of nodes) {
    seen.add(node.id);
    countGroups(node.children, seen);
  }
  return seen.size;
}
