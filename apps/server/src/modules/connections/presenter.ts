import type { SqlConnection } from '@datalab/contract/api/sql-connections';
import { texts } from '@datalab/contract/texts';
import type { ConnectionWithCount } from './repository.ts';
import { parseOptions } from './runtime.service.ts';

// A connection as replies show it: the password never, only the placeholder saying one is stored.

export function presentConnection(row: ConnectionWithCount): SqlConnection {
  return {
    id: row.id,
    collectionUid: row.collection_uid,
    name: row.name,
    description: row.description,
    kind: row.driver ?? 'postgres',
    host: row.host,
    port: row.port,
    database: row.database_name ?? '',
    username: row.username,
    password: row.secret ? texts.maskedSecret : null,
    ssl: parseOptions(row.options).ssl === true,
    poolMax: row.pool_max,
    acquireTimeoutMs: row.acquire_timeout_ms,
    allowPrivilegedAccount: row.allow_privileged_account === 1,
    assetCount: row.asset_count,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}
