import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ConnectorSettings } from '@datalab/engine';
import type { Connection } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secrets.ts';

// What turns a stored connection row into the engine's settings: the key that opens its secret and the
// data directory SQLite paths are confined to (docs/decisions.md: an Owner must not read any file of the
// server through a SQLite connection).

export interface SqlRuntime {
  box: SecretBox;
  /** Absolute DATA_DIR; SQLite connection paths are stored relative to it. */
  dataDir: string;
  /** The embedded metadata store's file, which no SQLite connection may open. */
  storeFile?: string | undefined;
}

interface StoredOptions {
  ssl?: boolean;
  connectTimeoutMs?: number;
}

export function parseOptions(text: string): StoredOptions {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as StoredOptions) : {};
  } catch {
    return {};
  }
}

/**
 * The file a SQLite path names, or undefined when it is not allowed: it must lie in a folder inside DATA_DIR
 * (the top level holds the metadata store and secrets.json), resolve there through any links, and not be the
 * metadata store itself.
 */
export function sqlitePath(runtime: Pick<SqlRuntime, 'dataDir' | 'storeFile'>, path: string): string | undefined {
  const root = resolve(runtime.dataDir);
  const file = resolve(root, path);
  const inFolder = (candidate: string, base: string) => {
    const inside = relative(base, candidate);
    return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) && inside.includes(sep);
  };
  if (!inFolder(file, root)) return undefined;
  const real = realOrSelf(file);
  if (!inFolder(real, realOrSelf(root))) return undefined;
  if (runtime.storeFile && real === realOrSelf(resolve(runtime.storeFile))) return undefined;
  return file;
}

/** The path with its links resolved, as far as it exists (a file that is not there yet resolves its folder). */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realOrSelf(parent), basename(path));
  }
}

/** The engine's settings for a stored connection, its secret opened. */
export function connectorSettings(row: Connection, runtime: SqlRuntime): ConnectorSettings {
  const options = parseOptions(row.options);
  const pool = { maxConnections: row.pool_max, acquireTimeoutMs: row.acquire_timeout_ms };
  const connectTimeoutMs = options.connectTimeoutMs;
  if (row.driver === 'sqlite') {
    // A path that escapes DATA_DIR is refused on save; should one be stored anyway it opens nothing.
    const path = sqlitePath(runtime, row.database_name ?? '') ?? resolve(runtime.dataDir, '.refused');
    return { kind: 'sqlite', settings: { ...pool, path } };
  }
  const settings = {
    ...pool,
    ...(connectTimeoutMs ? { connectTimeoutMs } : {}),
    host: row.host ?? '',
    ...(row.port ? { port: row.port } : {}),
    database: row.database_name ?? '',
    user: row.username ?? '',
    password: row.secret ? runtime.box.open(row.secret) : '',
    ssl: options.ssl === true,
  };
  return row.driver === 'mysql' ? { kind: 'mysql', settings } : { kind: 'postgres', settings };
}
