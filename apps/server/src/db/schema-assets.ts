import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.ts';

// The data assets' tables (modules/connections, modules/data-sources): connections and their credentials, the assets
// with their parameters, transformations, client tools and saved versions. Part of the store's schema (schema.ts
// re-exports it).

export interface ConnectionsTable {
  id: Generated<number>;
  collection_id: number;
  name: string;
  /** The name in lower case: unique per collection (migration 0005). */
  name_key: string;
  kind: 'sql' | 'webapi';
  /** For 'sql' connections: the database engine. */
  driver: SqlDriver | null;
  description: Generated<string>;
  host: string | null;
  port: number | null;
  database_name: string | null;
  username: string | null;
  /** Sealed (lib/secrets.ts); never returned, never logged. */
  secret: string | null;
  /** The reference a definition document names the secret by; null: the default one (migration 0020). */
  secret_ref: Generated<string | null>;
  /** JSON object of driver options (ssl, connectTimeoutMs). */
  options: Generated<string>;
  pool_max: Generated<number>;
  acquire_timeout_ms: Generated<number>;
  /**
   * 1 when an administrator allowed a database account that may do more than read (migration 0016); cleared when
   * someone else changes the account.
   */
  allow_privileged_account: ColumnType<number, number | boolean | undefined, number | boolean>;
  /** Web API connections (migration 0007): http(s) base URL. */
  base_url: string | null;
  /** JSON object: header name → value, sent with every request. */
  default_headers: Generated<string>;
  /** JSON array of internal hosts ('host' or 'host:port') the outbound guard lets through. */
  allowed_hosts: Generated<string>;
  connect_timeout_ms: Generated<number>;
  headers_timeout_ms: Generated<number>;
  body_timeout_ms: Generated<number>;
  max_reply_bytes: Generated<number>;
  max_pages: Generated<number>;
  retries: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type CredentialKind = 'api-key' | 'basic' | 'bearer' | 'oauth2';

/** A Web API connection's credentials (migration 0007): several per connection. */
export interface WebApiCredentialsTable {
  id: Generated<number>;
  connection_id: number;
  name: string;
  /** The name in lower case: unique per connection. */
  name_key: string;
  kind: CredentialKind;
  /** JSON object of the non-secret settings. */
  settings: Generated<string>;
  /** Sealed (lib/secrets.ts): JSON of the secret value; never returned, never logged. */
  secret: string | null;
  /** The reference a definition document names the secret by; null: the default one (migration 0020). */
  secret_ref: Generated<string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type SqlDriver = 'postgres' | 'mysql' | 'sqlite';

export interface DataSourcesTable {
  id: Generated<number>;
  uid: string;
  collection_id: number;
  connection_id: number | null;
  name: string;
  kind: 'sql' | 'webapi';
  description: Generated<string>;
  sql_text: Generated<string>;
  /** Bumped on every change to the asset, its parameters, transformations or client tool configuration. */
  version: Generated<number>;
  cache_ttl_seconds: Generated<number>;
  row_cap: Generated<number>;
  timeout_ms: Generated<number>;
  max_export_rows: Generated<number>;
  /** Calls per minute per caller through the calling layer; null: RATE_LIMIT_PER_MINUTE (migration 0006). */
  rate_limit_per_minute: Generated<number | null>;
  /** Web API data sources (migration 0007): the request definition, JSON. */
  request_definition: Generated<string | null>;
  /** Web API data sources: the connection credential sent, or none. */
  credential_id: Generated<number | null>;
  /** 1: an MCP tool for the callers who may call it (migration 0018); off by default. */
  mcp_available: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ParametersTable {
  id: Generated<number>;
  data_source_id: number;
  position: number;
  name: string;
  /** JSON: the engine's parameter definition. */
  definition: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TransformationsTable {
  id: Generated<number>;
  data_source_id: number;
  position: number;
  name: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TransformationRulesTable {
  id: Generated<number>;
  transformation_id: number;
  position: number;
  /** JSON: the engine's rule. */
  rule: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export type ClientTool = 'curl' | 'python' | 'r' | 'javascript' | 'powerquery' | 'powerbi';

export interface ClientToolConfigurationsTable {
  id: Generated<number>;
  data_source_id: number;
  tool: ClientTool;
  /** JSON object. */
  settings: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** One saved state of a data asset (migration 0019): numbered 1, 2, … per asset. */
export interface DataSourceVersionsTable {
  id: Generated<number>;
  data_source_id: number;
  version: number;
  /** JSON: the whole definition (the contract's assetDefinition). */
  definition: string;
  /** The fields that differ from the version before, comma-separated; '' for the first. */
  summary: Generated<string>;
  /** Null for a collection token's save and for the version recorded when an older asset's history began. */
  saved_by_user_id: number | null;
  saved_by_name: string | null;
  saved_at: Timestamp;
}
