import { resolve } from 'node:path';
import type { ConnectorSettings, Credential, HttpConnectorSettings } from '@datalab/engine';
import type { Connection, WebApiCredentialRow } from '../../db/schema.ts';
import type { SecretBox } from '../../lib/secrets.ts';
import { sqlitePath, type SqliteFiles } from './sqlite-files.ts';
import type { TargetPolicy } from './target-policy.ts';

// What turns a stored connection row into the engine's settings: the key that opens its secret, the folders
// SQLite paths are confined to (sqlite-files.ts: an Owner must not read any file of the server, nor another
// collection's, through a SQLite connection) and the guard every PostgreSQL and MariaDB socket connects through.

export interface SqlRuntime extends SqliteFiles {
  box: SecretBox;
  /** Where network connections may point (SQL_HOST_ALLOWLIST, never the metadata store's database). */
  targets: TargetPolicy;
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

/** The engine's settings for a stored connection of the collection `collectionUid`, its secret opened. */
export function connectorSettings(row: Connection, runtime: SqlRuntime, collectionUid: string): ConnectorSettings {
  const options = parseOptions(row.options);
  const pool = { maxConnections: row.pool_max, acquireTimeoutMs: row.acquire_timeout_ms };
  const connectTimeoutMs = options.connectTimeoutMs;
  if (row.driver === 'sqlite') {
    // A path outside the collection's folder is refused on save; should one be stored anyway it opens nothing.
    const path = sqlitePath(runtime, collectionUid, row.database_name ?? '') ?? resolve(runtime.dataDir, '.refused');
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
    // An administrator allowed an account that may do more than read (privileged-account.service.ts).
    allowPrivilegedAccount: row.allow_privileged_account === 1,
    guard: runtime.targets.guard,
  };
  return row.driver === 'mysql' ? { kind: 'mysql', settings } : { kind: 'postgres', settings };
}

/** The Web API connection settings stored in JSON columns, read leniently (they were checked on save). */
function parseJsonColumn<T>(text: string | null | undefined, fallback: T): T {
  try {
    const value = JSON.parse(text ?? '') as unknown;
    return value !== null && typeof value === typeof fallback ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

export const storedHeaders = (row: Pick<Connection, 'default_headers'>): Record<string, string> =>
  parseJsonColumn<Record<string, string>>(row.default_headers, {});

export const storedAllowedHosts = (row: Pick<Connection, 'allowed_hosts'>): string[] => {
  const list = parseJsonColumn<unknown>(row.allowed_hosts, []);
  return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [];
};

export const storedCredentialSettings = (row: Pick<WebApiCredentialRow, 'settings'>): Record<string, unknown> =>
  parseJsonColumn<Record<string, unknown>>(row.settings, {});

/** The engine's id of a stored credential (what a request definition names). */
export const credentialKey = (id: number) => String(id);

/** The engine's credential for a stored one, its secret opened. */
export function openCredential(row: WebApiCredentialRow, box: SecretBox): Credential {
  const settings = storedCredentialSettings(row);
  const secret = row.secret ? box.open(row.secret) : '';
  const id = credentialKey(row.id);
  const text = (key: string) => (typeof settings[key] === 'string' ? settings[key] : undefined);
  switch (row.kind) {
    case 'api-key':
      return {
        id,
        kind: 'apiKey',
        in: text('in') === 'query' ? 'query' : 'header',
        name: text('name') ?? '',
        value: secret,
      };
    case 'basic':
      return { id, kind: 'basic', username: text('username') ?? '', password: secret };
    case 'bearer':
      return { id, kind: 'bearer', token: secret };
    case 'oauth2': {
      const scope = text('scope');
      const audience = text('audience');
      return {
        id,
        kind: 'oauth2',
        tokenUrl: text('tokenUrl') ?? '',
        clientId: text('clientId') ?? '',
        clientSecret: secret,
        clientAuth: text('clientAuth') === 'body' ? 'body' : 'basic',
        ...(scope ? { scope } : {}),
        ...(audience ? { audience } : {}),
      };
    }
  }
}

/** Paging stops here at the latest; a run's own row cap or export limit stops it sooner. */
const HTTP_MAX_ROWS = 10_000_000;

/**
 * The engine's settings for a stored Web API connection with at most the one credential a data source sends, its
 * secret opened (the others stay sealed: a run can reach no credential but its own).
 */
export function httpConnectorSettings(
  row: Connection,
  credential: WebApiCredentialRow | undefined,
  runtime: Pick<SqlRuntime, 'box'>,
): HttpConnectorSettings {
  return {
    kind: 'http',
    settings: {
      baseUrl: row.base_url ?? '',
      headers: storedHeaders(row),
      allowedHosts: storedAllowedHosts(row),
      credentials: credential ? [openCredential(credential, runtime.box)] : [],
      connectTimeoutMs: row.connect_timeout_ms,
      headersTimeoutMs: row.headers_timeout_ms,
      bodyTimeoutMs: row.body_timeout_ms,
      maxReplyBytes: row.max_reply_bytes,
      maxRows: HTTP_MAX_ROWS,
      maxPages: row.max_pages,
      maxConnections: row.pool_max,
      acquireTimeoutMs: row.acquire_timeout_ms,
      retries: row.retries,
    },
  };
}
