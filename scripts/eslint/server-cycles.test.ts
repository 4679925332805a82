import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph.ts';

// No two server files import each other, directly or around a ring: a shared piece moves down into a file both
// import (docs/architecture.md, Layers).

describe('import cycles', () => {
  it('finds none among the server files', () => {
    const graph = importGraph(join(process.cwd(), 'apps/server/src'));
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('app.ts')?.has('plugins/auth.ts')).toBe(true);
    expect(importCycles(graph)).toEqual([]);
  }, 30_000);

  const fixture = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));
  const write = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(fixture, 'case-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };

  it('catches a pair, a type-only pair, a ring through a re-export and a dynamic import', () => {
    const dir = write({
      'pair/a.ts': "import { b } from './b.ts';\nexport const a = b;",
      'pair/b.ts': "import { a } from './a.ts';\nexport const b = () => a;",
      'types/a.ts': "import type { B } from './b.ts';\nexport interface A { b: B }",
      'types/b.ts': "import type { A } from './a.ts';\nexport interface B { a?: A }",
      'ring/a.ts': "export * from '../ring/b.ts';",
      'ring/b.ts': "export { c } from './deep/c.ts';",
      'ring/deep/c.ts': "export const c = () => import('../a.ts');",
      'fine/a.ts': "import { b } from './b.ts';\nimport { x } from 'node:path';\nexport const a = [b, x];",
      'fine/b.ts': 'export const b = 1;',
    });
    expect(importCycles(importGraph(dir))).toEqual([
      ['pair/a.ts', 'pair/b.ts'],
      ['ring/a.ts', 'ring/b.ts', 'ring/deep/c.ts'],
      ['types/a.ts', 'types/b.ts'],
    ]);
  });
});
