import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

// The relative imports between the TypeScript files under a folder (type-only imports and re-exports included,
// `import()` too), and the cycles among them: the server's files never import each other in a ring
// (server-cycles.test.ts runs this over apps/server/src in `npm test`).

export type ImportGraph = Map<string, Set<string>>;

function tsFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') found.push(...tsFiles(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

function importsOf(file: string): string[] {
  // The scanner's pass that finds imports, exports `from` and `import()`, without building a syntax tree.
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((reference) => reference.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier));
}

/** Every file under `dir` (by its path relative to `dir`, with `/`) and the files under `dir` it imports. */
export function importGraph(dir: string): ImportGraph {
  const root = resolve(dir);
  const name = (path: string) => relative(root, path).split(sep).join('/');
  const files = tsFiles(root);
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    graph.set(
      name(file),
      new Set(
        importsOf(file)
          .filter((target) => known.has(target))
          .map(name),
      ),
    );
  }
  return graph;
}

/** The groups of files that reach each other through imports (strongly connected, two files or more), sorted. */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative: a long import chain must not overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; edges: Iterator<string> }[] = [];
    const open = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, edges: (graph.get(node) ?? new Set<string>()).values() });
    };
    open(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const step = frame.edges.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) open(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        if (group.length > 1) cycles.push(group.sort());
      }
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
