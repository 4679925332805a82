import { relative, sep } from 'node:path';

// The server's layers (docs/architecture.md, "Layers"), lowest first. A file may import its own layer or a lower
// one, never a higher one. Test files (*.test.ts) stand outside the order; test support that builds apps
// (test worlds, the access matrix) sits at the top with `apps/server/test/support`.

export const LAYERS = ['foundation', 'repositories', 'services', 'plugins', 'routes', 'app'] as const;
export type Layer = (typeof LAYERS)[number];

const SERVER_SRC = ['apps', 'server', 'src'];
/** Test support (apps/server/test/support) lives outside src/ and sits in the app layer, above everything it builds. */
const SERVER_TEST_SUPPORT = ['apps', 'server', 'test', 'support'];
const FOUNDATION = new Set(['lib', 'db']);
const FOUNDATION_FILES = new Set(['config.ts', 'config-rules.ts', 'paths.ts']);
const APP_DIRS = new Set(['seed', 'faults', 'test']);
const APP_FILES = new Set(['app.ts', 'server.ts']);
/** Test support kept beside a module's tests: it builds apps and seeds worlds through `test/support/`. */
const TEST_SUPPORT = /^(test-[\w-]+|[\w-]*-world|[\w-]*matrix[\w-]*)\.ts$/;

/**
 * The server file's path inside apps/server/src, or undefined for a file elsewhere; test support is
 * `test/support/<file>`, so a production file that imports it is an upward import.
 */
export function serverPath(root: string, file: string): string[] | undefined {
  const parts = relative(root, file).split(sep);
  if (SERVER_TEST_SUPPORT.every((part, i) => parts[i] === part)) return ['test', ...parts.slice(2)];
  for (let i = 0; i < SERVER_SRC.length; i += 1) if (parts[i] !== SERVER_SRC[i]) return undefined;
  return parts.slice(SERVER_SRC.length);
}

/** The layer of a file given by its path inside apps/server/src; undefined for tests and migrations. */
export function layerOf(path: string[]): Layer | undefined {
  const name = path.at(-1) ?? '';
  if (name.endsWith('.test.ts')) return undefined;
  const top = path[0] ?? '';
  if (path.length === 1) {
    if (FOUNDATION_FILES.has(name)) return 'foundation';
    if (APP_FILES.has(name)) return 'app';
    return undefined;
  }
  if (top === 'db' && path[1] === 'migrations') return undefined; // frozen, checked by their own rule
  if (FOUNDATION.has(top)) return 'foundation';
  if (top === 'oidc') {
    // The built-in provider: its tables' queries, the account and storage services over them, the provider itself.
    if (name === 'repository.ts') return 'repositories';
    if (name === 'accounts.ts' || name === 'adapter.ts') return 'services';
    return 'plugins';
  }
  if (top === 'plugins') return 'plugins';
  if (top === 'routing') return 'routes';
  if (APP_DIRS.has(top)) return 'app';
  if (top === 'modules' && path.length >= 3) {
    if (TEST_SUPPORT.test(name)) return 'app';
    if (name === 'repository.ts' || name.endsWith('.repository.ts')) return 'repositories';
    if (name === 'routes.ts' || name.endsWith('.routes.ts')) return 'routes';
    if (name === 'plugin.ts') return 'plugins';
    return 'services';
  }
  return undefined;
}

export const rank = (layer: Layer) => LAYERS.indexOf(layer);
