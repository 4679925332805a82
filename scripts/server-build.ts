import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';
import { ROOT, newestMtime } from './web-build.ts';

// The server as plain JavaScript (`npm start`, the benchmarks, the end-to-end tests): our TypeScript — the server,
// the engine and the contract — bundled into one ES module, its lazily loaded parts (drivers, BullMQ, Parquet) as
// chunks beside it; packages from node_modules stay imports. Node runs .ts files by stripping their types with a
// WebAssembly build of swc that then stays in the process, with the sources: ~30 MB of a server's resident memory
// (decision 117). Tests and `node apps/server/src/server.ts` still run the sources as they are.

export const SERVER_DIST = join(ROOT, 'apps/server/dist');
export const SERVER_BUNDLE = join(SERVER_DIST, 'server.js');
const SOURCES = ['apps/server/src', 'packages/engine/src', 'packages/contract/src', 'package-lock.json'];
const NOT_SHIPPED = /\.test\.ts$/;

export function serverBuildIsStale(): boolean {
  if (!existsSync(SERVER_BUNDLE)) return true;
  const built = statSync(SERVER_BUNDLE).mtimeMs;
  const inputs = [...SOURCES.map((source) => join(ROOT, source)), import.meta.filename];
  return inputs.some((input) => newestMtime(input, NOT_SHIPPED) > built);
}

/**
 * Builds into a directory of its own, then swaps it in: a server starting meanwhile never sees half a bundle, and
 * two builds at once do not mix their chunks. The chunks sit beside server.js, so code that finds files relative to
 * its module (src/paths.ts) is one level below apps/server in the bundle as in the sources.
 */
export async function buildServer(): Promise<void> {
  const staging = `${SERVER_DIST}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  await build({
    input: join(ROOT, 'apps/server/src/server.ts'),
    platform: 'node',
    // Bare imports stay imports, resolved from node_modules at run time; the workspace packages are bundled.
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('@datalab/'),
    logLevel: 'warn',
    output: { dir: staging, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
  });
  const previous = `${SERVER_DIST}.old.${process.pid}`;
  if (existsSync(SERVER_DIST)) renameSync(SERVER_DIST, previous);
  renameSync(staging, SERVER_DIST);
  rmSync(previous, { recursive: true, force: true });
}

/** Builds when the bundle is missing or older than its sources; says so when it does. */
export async function ensureServerBuild(): Promise<void> {
  if (!serverBuildIsStale()) return;
  process.stdout.write('Building the server (first start, or its sources changed)...\n');
  await buildServer();
}

// `node scripts/server-build.ts` builds; with `--if-stale` only when the sources are newer than the bundle (npm test and
// the end-to-end server, so a running server's bundle is not swapped under it by a second build).
if (import.meta.main) await (process.argv.includes('--if-stale') ? ensureServerBuild() : buildServer());
