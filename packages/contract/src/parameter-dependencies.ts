// Dependent dropdowns: a parameter whose values come from a parameter data source may take other parameters' values
// (`allowedValues.dependsOn`). One rule, used by the definitions' schema (what the server accepts) and by the portal
// (which parents it offers): the dependencies never loop, because a caller could then never fill the first
// dropdown. Free of I/O and of zod so both sides call it as it is.

/** What the rule needs of a definition: its name and, for a parameter data source, whom it depends on. */
export interface DependencyNode {
  name: string;
  allowedValues?: { kind: string; dependsOn?: readonly string[] } | undefined;
}

/** The parents a definition takes values from (none unless its values come from a parameter data source). */
export function parentsOf(def: DependencyNode): readonly string[] {
  return def.allowedValues?.kind === 'dataSource' ? (def.allowedValues.dependsOn ?? []) : [];
}

/** Whether `to` is reached from `from` by following dependencies (`from` depends on … on `to`), and the path. */
function pathBetween(graph: ReadonlyMap<string, readonly string[]>, from: string, to: string): string[] | undefined {
  const seen = new Set<string>();
  const walk = (name: string): string[] | undefined => {
    if (name === to) return [name];
    if (seen.has(name)) return undefined;
    seen.add(name);
    for (const parent of graph.get(name) ?? []) {
      const rest = walk(parent);
      if (rest) return [name, ...rest];
    }
    return undefined;
  };
  return walk(from);
}

const graphOf = (defs: readonly DependencyNode[]) => new Map(defs.map((def) => [def.name, parentsOf(def)]));

/**
 * The first cycle among the definitions' dependencies, as the names along it with the first repeated at the end
 * (`['a', 'b', 'a']`: a depends on b, which depends on a); undefined when there is none.
 */
export function dependencyCycle(defs: readonly DependencyNode[]): string[] | undefined {
  const graph = graphOf(defs);
  for (const def of defs) {
    for (const parent of parentsOf(def)) {
      const back = pathBetween(graph, parent, def.name);
      if (back) return [def.name, ...back];
    }
  }
  return undefined;
}

/**
 * Why `name` may not depend on `candidate` (itself, or a parameter that already depends on `name`, directly or
 * through others), or undefined when it may. The portal greys such a choice with this reason.
 */
export function dependencyRefusal(
  defs: readonly DependencyNode[],
  name: string,
  candidate: string,
): string | undefined {
  if (candidate === name) return 'a parameter cannot depend on itself';
  const back = pathBetween(graphOf(defs), candidate, name);
  if (!back) return undefined;
  return cycleMessage([name, ...back]);
}

/** The words for a cycle: 'country → region → country would make a cycle: …'. */
export function cycleMessage(cycle: readonly string[]): string {
  return `${cycle.join(' → ')} would make a cycle: a dependent parameter's values need its parents' values first`;
}
