import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { constants, gzipSync } from 'node:zlib';
import { ROOT } from './lib/datalab.ts';
import { kB, printTable } from './lib/stats.ts';
import type { Bench, BenchResult } from './lib/types.ts';

// Target: "The JavaScript loaded for the home page, before any lazy route, is at most 250 kB gzip."
// Initial JS = the entry <script type="module"> and the <link rel="modulepreload"> files of
// index.html, plus (as a cross-check) anything those import statically. Everything else is lazy.

const TARGET_BYTES = 250_000;
const DIST = join(ROOT, 'apps/web/dist');

interface FileSize {
  file: string;
  bytes: number;
  gzipDefault: number;
  gzip9: number;
}

function measure(path: string): FileSize {
  const content = readFileSync(path);
  return {
    file: relative(DIST, path),
    bytes: content.length,
    gzipDefault: gzipSync(content).length,
    gzip9: gzipSync(content, { level: constants.Z_BEST_COMPRESSION }).length,
  };
}

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
    found[match[1]!.toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  return found;
}

/** Local files index.html loads as scripts or module preloads (absolute URLs to other hosts are skipped). */
function referencedFromHtml(html: string): { scripts: string[]; modulePreloads: string[]; styles: string[] } {
  const refs = { scripts: [] as string[], modulePreloads: [] as string[], styles: [] as string[] };
  const local = (url: string | undefined) =>
    url && !/^[a-z]+:|^\/\//i.test(url) ? join(DIST, url.replace(/^\//, '')) : undefined;
  for (const match of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const name = match[1]!.toLowerCase();
    const attrs = attributes(match[2]!);
    const path = local(name === 'script' ? attrs.src : attrs.href);
    if (!path) continue;
    if (name === 'script' && attrs.type === 'module') refs.scripts.push(path);
    else if (name === 'link' && attrs.rel === 'modulepreload') refs.modulePreloads.push(path);
    else if (name === 'link' && attrs.rel === 'stylesheet') refs.styles.push(path);
  }
  return refs;
}

/** Relative static imports/re-exports in minified output (`import{a}from"./x.js"`, `import"./y.js"`); not `import("./z.js")`. */
function staticImports(path: string): string[] {
  const code = readFileSync(path, 'utf8');
  const pattern = /\b(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+\.js)["']/g;
  return [...code.matchAll(pattern)].map((match) => join(dirname(path), match[1]!));
}

function staticClosure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const next = queue.shift()!;
    if (seen.has(next) || !existsSync(next)) continue;
    seen.add(next);
    queue.push(...staticImports(next));
  }
  return seen;
}

const sum = (files: FileSize[], key: 'bytes' | 'gzipDefault' | 'gzip9') =>
  files.reduce((total, file) => total + file[key], 0);

async function run(): Promise<BenchResult> {
  const indexFile = join(DIST, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`${relative(ROOT, indexFile)} not found: run \`npm run build\` first`);
  const refs = referencedFromHtml(readFileSync(indexFile, 'utf8'));
  const missing = [...refs.scripts, ...refs.modulePreloads].filter((path) => !existsSync(path));
  if (missing.length > 0)
    throw new Error(`index.html references missing files: ${missing.join(', ')} (rebuild with \`npm run build\`)`);

  const declared = new Set([...refs.scripts, ...refs.modulePreloads]);
  const closure = staticClosure(refs.scripts);
  const notPreloaded = [...closure].filter((path) => !declared.has(path));
  const initialPaths = new Set([...declared, ...closure]);
  const initial = [...initialPaths].map(measure).sort((a, b) => b.gzipDefault - a.gzipDefault);
  const assets = join(DIST, 'assets');
  const lazy = readdirSync(assets)
    .filter((name) => name.endsWith('.js') && !initialPaths.has(join(assets, name)))
    .map((name) => measure(join(assets, name)))
    .sort((a, b) => b.gzipDefault - a.gzipDefault);
  const styles = refs.styles.filter(existsSync).map(measure);

  const row = (file: FileSize) => [file.file, kB(file.bytes), kB(file.gzipDefault), kB(file.gzip9)];
  const header = ['file', 'raw kB', 'gzip kB (default, 6)', 'gzip kB (9)'];
  const total = (label: string, files: FileSize[]) => [
    label,
    kB(sum(files, 'bytes')),
    kB(sum(files, 'gzipDefault')),
    kB(sum(files, 'gzip9')),
  ];
  printTable('Initial JavaScript (entry + modulepreload + their static imports)', header, [
    ...initial.map(row),
    total('TOTAL', initial),
  ]);
  printTable(`Lazy JavaScript chunks (${lazy.length})`, header, [...lazy.map(row), total('TOTAL lazy', lazy)]);
  if (styles.length > 0) printTable('Initial CSS (not counted in the target)', header, styles.map(row));

  const initialGzip = sum(initial, 'gzipDefault');
  const notes = [
    'kB = 1000 bytes. The verdict uses gzip at the default level (6), the larger of the two figures.',
    ...(notPreloaded.length > 0
      ? [
          `Statically imported but not preloaded (counted anyway): ${notPreloaded.map((p) => relative(DIST, p)).join(', ')}`,
        ]
      : []),
  ];
  return {
    name: 'bundle-size',
    verdicts: [
      {
        target: `initial JS ≤ ${kB(TARGET_BYTES)} kB gzip`,
        measured: `${kB(initialGzip)} kB gzip (level 9: ${kB(sum(initial, 'gzip9'))} kB; raw ${kB(sum(initial, 'bytes'))} kB; ${initial.length} files)`,
        pass: initialGzip <= TARGET_BYTES,
      },
    ],
    notes,
    data: {
      targetBytes: TARGET_BYTES,
      initial,
      lazy,
      styles,
      notPreloaded: notPreloaded.map((p) => relative(DIST, p)),
    },
  };
}

export const bundleSize: Bench = { name: 'bundle-size', run };
