import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Whether apps/web/dist is older than anything it is built from, and a way to build it.

export const ROOT = resolve(import.meta.dirname, '..');
const DIST_INDEX = join(ROOT, 'apps/web/dist/index.html');
const SOURCES = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'packages/contract/src',
  'package-lock.json',
];

/** The newest modification time under `path` (0 when it does not exist); `skip` leaves files out by name. */
export function newestMtime(path: string, skip?: RegExp): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return skip?.test(path) ? 0 : stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry), skip));
  return newest;
}

export function webBuildIsStale(): boolean {
  if (!existsSync(DIST_INDEX)) return true;
  const built = statSync(DIST_INDEX).mtimeMs;
  return SOURCES.some((source) => newestMtime(join(ROOT, source)) > built);
}

export function buildWeb(): void {
  const result = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('building the web app failed (npm run build -w apps/web)');
}
