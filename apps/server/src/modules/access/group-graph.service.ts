import { MAX_GROUP_DEPTH } from '@datalab/contract/api/user-groups';
import type { Database } from '../../db/database.ts';
import { directGroupsOf, grantsReachingUser, loadGroupGraph } from './repository.ts';

// The nesting graph as plain maps and the walks over it (free of I/O), and its loaders.
// A member of a group is a member of every group that contains it, up to the depth limit.

export interface Edge {
  parent_id: number;
  child_id: number;
}

export interface GroupGraph {
  parents: Map<number, number[]>;
  children: Map<number, number[]>;
}

export function graphOf(edges: readonly Edge[]): GroupGraph {
  const parents = new Map<number, number[]>();
  const children = new Map<number, number[]>();
  for (const { parent_id, child_id } of edges) {
    parents.set(child_id, [...(parents.get(child_id) ?? []), parent_id]);
    children.set(parent_id, [...(children.get(parent_id) ?? []), child_id]);
  }
  return { parents, children };
}

/**
 * Breadth first from `starts` along `next`: every group reached, each with its shortest path as a
 * list that starts at the group reached and ends at the start it came from (Staff › Analysts).
 */
export function walk(starts: Iterable<number>, next: Map<number, number[]>): Map<number, number[]> {
  const paths = new Map<number, number[]>();
  let frontier: number[] = [];
  for (const start of starts) {
    if (paths.has(start)) continue;
    paths.set(start, [start]);
    frontier.push(start);
  }
  for (let depth = 1; frontier.length > 0 && depth <= MAX_GROUP_DEPTH; depth += 1) {
    const following: number[] = [];
    for (const group of frontier) {
      const path = paths.get(group) ?? [group];
      for (const to of next.get(group) ?? []) {
        if (paths.has(to)) continue;
        paths.set(to, [to, ...path]);
        following.push(to);
      }
    }
    frontier = following;
  }
  return paths;
}

/** The groups containing any of `groups`, themselves included. */
export const withAncestors = (groups: Iterable<number>, graph: GroupGraph) =>
  new Set(walk(groups, graph.parents).keys());

/** The groups inside any of `groups`, themselves included. */
export const withDescendants = (groups: Iterable<number>, graph: GroupGraph) =>
  new Set(walk(groups, graph.children).keys());

/** The nesting graph with every group's name, read from the store. */
export async function groupGraph(db: Database) {
  const { edges, names } = await loadGroupGraph(db);
  return { graph: graphOf(edges), names };
}

/** A user's groups, direct and through nesting, each with its shortest path (group first, direct group last). */
export async function userGroupPaths(db: Database, userId: number) {
  const [direct, { graph, names }] = await Promise.all([directGroupsOf(db, userId), groupGraph(db)]);
  return {
    paths: walk(
      direct.map((d) => d.group_id),
      graph.parents,
    ),
    names,
    graph,
  };
}

/** Every grant reaching a user (their own and their groups'), as the store has it now. */
export const grantsOf = (db: Database, userId: number) => grantsReachingUser(db, userId);
