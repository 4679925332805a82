import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// The metadata store's tables, as the application sees them. Timestamps are ISO strings in both
// stores (SQLite has no timestamp type; PostgreSQL columns are text for the same reason), booleans
// are integers 0/1 in both.

import type { Flag, Timestamp } from './columns.ts';
import type {
  ConnectionsTable,
  WebApiCredentialsTable,
  DataSourcesTable,
  ParametersTable,
  TransformationsTable,
  TransformationRulesTable,
  ClientToolConfigurationsTable,
  DataSourceVersionsTable,
} from './schema-assets.ts';
import type {
  UsageChannelTable,
  UsageDailyTable,
  UsageRecordsTable,
  UsageRollupsTable,
  UsageSourceTable,
  UsageTotalTable,
  UsageUserTable,
  UsageWeek,
} from './schema-usage.ts';

export * from './schema-assets.ts';
export * from './schema-usage.ts';

export interface UsersTable {
  id: Generated<number>;
  issuer: string;
  subject: string;
  username: string | null;
  name: string;
  email: string | null;
  can_manage_users: Flag;
  is_active: Flag;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_seen_at: Timestamp | null;
}

export interface ApplicationLogsTable {
  id: Generated<number>;
  created_at: Timestamp;
  level: 'debug' | 'info' | 'warn' | 'error';
  category: string;
  message: string;
  request_id: string | null;
  user_id: number | null;
  details: string | null;
}

export interface DemoAccountsTable {
  username: string;
  password_hash: string;
  name: string;
  email: string;
  description: string;
  can_manage_users: Flag;
}

export interface OidcPayloadsTable {
  id: string;
  kind: string;
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

export type RoleName = 'Owner' | 'Editor' | 'Reader';

export interface CollectionsTable {
  id: Generated<number>;
  uid: string;
  name: string;
  /** Lower-cased, trimmed name: names are unique regardless of case. */
  name_key: string;
  description: string;
  /** 1: its assets that are available to AI agents are MCP tools; 0: none is (migration 0018). */
  mcp_enabled: Generated<number>;
  created_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserGroupsTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  description: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface UserGroupMembersTable {
  group_id: number;
  user_id: number;
  created_at: Timestamp;
}

export interface UserGroupChildrenTable {
  parent_id: number;
  child_id: number;
  created_at: Timestamp;
}

export interface CollectionUserRolesTable {
  collection_id: number;
  user_id: number;
  role: RoleName;
  created_at: Timestamp;
}

export interface CollectionGroupRolesTable {
  collection_id: number;
  group_id: number;
  role: RoleName;
  created_at: Timestamp;
}

export type TokenKind = 'personal' | 'collection';

export interface TokensTable {
  id: Generated<number>;
  kind: TokenKind;
  name: string;
  name_key: string;
  /** Personal access tokens: the user they belong to. */
  owner_user_id: number | null;
  /** Collection tokens: their collection (null once it is deleted; the token is revoked then). */
  collection_id: number | null;
  created_by: number | null;
  /** The secret's first characters after the prefix: random, not secret, unique; finds the row. */
  lookup_id: string;
  /** SHA-256 of the whole secret (hex); the secret itself is never stored. */
  secret_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  revoked_by: number | null;
  /** Why: the Revoke call, the collection's deletion, or a leak report (revoked_by null); null before 0010. */
  revoked_reason: 'revoked' | 'collectionDeleted' | 'leaked' | null;
  last_used_at: Timestamp | null;
  last_used_address: string | null;
}

export interface TokenDataRolesTable {
  token_id: number;
  collection_id: number;
  role: RoleName;
  created_at: Timestamp;
}

export interface AppStateTable {
  key: string;
  value: string;
}

export interface AccessVersionTable {
  id: number;
  version: number;
}

export type DownloadJobState = 'Queued' | 'Running' | 'Completed' | 'Failed' | 'Expired' | 'Cancelled';

export interface DownloadJobsTable {
  /** Random and URL-safe, never sequential. */
  id: string;
  /** The person who owns the job; null for a collection token's job. */
  owner_user_id: number | null;
  /** A collection token's job belongs to the token (it acts for no person). */
  owner_token_id: number | null;
  /** The Data Lab token that started the job, if one did (checked again when the job runs). */
  token_id: number | null;
  data_source_id: number;
  data_source_uid: string;
  data_source_version: number;
  collection_id: number;
  asset_name: string;
  format: string;
  /** The normalised parameter values, JSON. */
  parameters: string;
  dedupe_key: string;
  state: DownloadJobState;
  /** bigint: PostgreSQL returns it as text. */
  row_count: ColumnType<number | string, number | undefined, number>;
  size: ColumnType<number | string | null, number | null | undefined, number | null>;
  truncated: Flag;
  message: string | null;
  file_name: string;
  attempts: ColumnType<number, number | undefined, number>;
  request_id: string | null;
  created_at: Timestamp;
  started_at: Timestamp | null;
  heartbeat_at: Timestamp | null;
  finished_at: Timestamp | null;
  expires_at: Timestamp | null;
}

export interface DB {
  app_state: AppStateTable;
  access_version: AccessVersionTable;
  users: UsersTable;
  application_logs: ApplicationLogsTable;
  demo_accounts: DemoAccountsTable;
  oidc_payloads: OidcPayloadsTable;
  collections: CollectionsTable;
  user_groups: UserGroupsTable;
  user_group_members: UserGroupMembersTable;
  user_group_children: UserGroupChildrenTable;
  collection_user_roles: CollectionUserRolesTable;
  collection_group_roles: CollectionGroupRolesTable;
  connections: ConnectionsTable;
  web_api_credentials: WebApiCredentialsTable;
  data_sources: DataSourcesTable;
  usage_records: UsageRecordsTable;
  usage_hourly: UsageRollupsTable;
  usage_daily: UsageDailyTable;
  usage_source_hourly: UsageSourceTable;
  usage_source_daily: UsageSourceTable & UsageWeek;
  usage_user_hourly: UsageUserTable;
  usage_user_daily: UsageUserTable & UsageWeek;
  usage_total_hourly: UsageTotalTable;
  usage_total_daily: UsageTotalTable & UsageWeek;
  usage_channel_hourly: UsageChannelTable;
  usage_channel_daily: UsageChannelTable & UsageWeek;
  parameters: ParametersTable;
  transformations: TransformationsTable;
  transformation_rules: TransformationRulesTable;
  client_tool_configurations: ClientToolConfigurationsTable;
  data_source_versions: DataSourceVersionsTable;
  tokens: TokensTable;
  token_data_roles: TokenDataRolesTable;
  download_jobs: DownloadJobsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type ApplicationLog = Selectable<ApplicationLogsTable>;
export type NewApplicationLog = Insertable<ApplicationLogsTable>;
export type Collection = Selectable<CollectionsTable>;
export type UserGroup = Selectable<UserGroupsTable>;
export type Connection = Selectable<ConnectionsTable>;
export type WebApiCredentialRow = Selectable<WebApiCredentialsTable>;
export type DataSource = Selectable<DataSourcesTable>;
export type TokenRow = Selectable<TokensTable>;
