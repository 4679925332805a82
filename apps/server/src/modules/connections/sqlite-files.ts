import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';

// Where a SQLite connection's file may be. Each collection has its own folder, DATA_DIR/sqlite/<collection uid>/: a
// connection's path is relative to it, and must stay inside it through `..` and through links, so one collection's
// Owner cannot open another collection's file (nor the metadata store, secrets.json, or any file of the server). An
// administrator may name folders every collection may read from (SQLITE_SHARED_PATHS), written as absolute paths.
// Files are always opened read-only (the engine's SQLite connector).

export const SQLITE_FOLDER = 'sqlite';

export const SQLITE_OUTSIDE =
  "The SQLite file must be in the collection's own folder, DATA_DIR/sqlite/<collection uid>/ (give a path relative " +
  'to it), or in a folder an administrator shares with SQLITE_SHARED_PATHS';

export interface SqliteFiles {
  /** Absolute DATA_DIR. */
  dataDir: string;
  /** The embedded metadata store's file, which no SQLite connection may open. */
  storeFile?: string | undefined;
  /** Absolute folders every collection may read from. */
  sharedPaths: readonly string[];
}

/** The folder of a collection's SQLite files. */
export const collectionFolder = (dataDir: string, collectionUid: string) =>
  join(resolve(dataDir), SQLITE_FOLDER, collectionUid);

const inside = (candidate: string, base: string) => {
  const within = relative(base, candidate);
  return within !== '' && !within.startsWith('..') && !isAbsolute(within);
};

/** The path with its links resolved, as far as it exists (a file that is not there yet resolves its folder). */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realOrSelf(parent), basename(path));
  }
}

/**
 * The file a SQLite connection of this collection names, or undefined when it may not open it: a relative path
 * inside the collection's folder (links included), or an absolute path inside a shared folder; never the store.
 */
export function sqlitePath(files: SqliteFiles, collectionUid: string, path: string): string | undefined {
  if (path.includes('\0') || path.trim() === '') return undefined;
  let file: string | undefined;
  if (isAbsolute(path)) {
    const candidate = resolve(path);
    const real = realOrSelf(candidate);
    const shared = files.sharedPaths.some((folder) => inside(candidate, folder) && inside(real, realOrSelf(folder)));
    file = shared ? candidate : undefined;
  } else {
    const root = collectionFolder(files.dataDir, collectionUid);
    const candidate = resolve(root, path);
    file = inside(candidate, root) && inside(realOrSelf(candidate), realOrSelf(root)) ? candidate : undefined;
  }
  if (file && files.storeFile && realOrSelf(file) === realOrSelf(resolve(files.storeFile))) return undefined;
  return file;
}
