import type { SqlConnection } from '@datalab/contract/api/sql-connections';
import { texts } from '@datalab/contract/texts';
import type { ConnectionSettings } from '../api/update-connection.ts';

// The form's copy of a connection. The password field starts with the masked placeholder the server sends; only
// a value the user typed is sent, so the stored secret is kept unless it is replaced.

export interface ConnectionDraft {
  name: string;
  description: string;
  kind: SqlConnection['kind'];
  host: string;
  port: string;
  database: string;
  username: string;
  password: string;
  ssl: boolean;
  poolMax: number;
  acquireTimeoutMs: number;
  /** An administrator allowed an account that may do more than read (only administrators may turn it on). */
  allowPrivilegedAccount: boolean;
}

export function draftOf(connection: SqlConnection): ConnectionDraft {
  return {
    name: connection.name,
    description: connection.description,
    kind: connection.kind,
    host: connection.host ?? '',
    port: connection.port === null ? '' : String(connection.port),
    database: connection.database,
    username: connection.username ?? '',
    password: connection.password ?? '',
    ssl: connection.ssl,
    poolMax: connection.poolMax,
    acquireTimeoutMs: connection.acquireTimeoutMs,
    allowPrivilegedAccount: connection.allowPrivilegedAccount,
  };
}

/** The usual port of each server kind, offered in a new connection's form. */
export const defaultPorts: Record<SqlConnection['kind'], string> = { postgres: '5432', mysql: '3306', sqlite: '' };

/** A connection not created yet: PostgreSQL on its usual port, the server's pool defaults. */
export function newDraft(): ConnectionDraft {
  return {
    name: '',
    description: '',
    kind: 'postgres',
    host: '',
    port: defaultPorts.postgres,
    database: '',
    username: '',
    password: '',
    ssl: false,
    poolMax: 5,
    acquireTimeoutMs: 2000,
    allowPrivilegedAccount: false,
  };
}

/** A kind change moves a port still at the old kind's usual value to the new kind's. */
export function withKind(draft: ConnectionDraft, kind: SqlConnection['kind']): ConnectionDraft {
  const port = draft.port === defaultPorts[draft.kind] ? defaultPorts[kind] : draft.port;
  return { ...draft, kind, port };
}

/**
 * Whether the password field holds a new secret (not the placeholder, not the empty field of none stored).
 * `storedPassword` is what the server sent (null when none is stored, or for a connection not created yet).
 */
export function isNewPassword(draft: ConnectionDraft, storedPassword: string | null): boolean {
  return draft.password !== (storedPassword ?? '') && draft.password !== texts.maskedSecret;
}

export function settingsOf(draft: ConnectionDraft, storedPassword: string | null): ConnectionSettings {
  const isFile = draft.kind === 'sqlite';
  return {
    name: draft.name,
    description: draft.description,
    kind: draft.kind,
    host: isFile ? undefined : draft.host,
    port: isFile || draft.port === '' ? null : Number(draft.port),
    database: draft.database,
    username: isFile ? undefined : draft.username,
    password: isNewPassword(draft, storedPassword) ? draft.password : undefined,
    ssl: draft.ssl,
    poolMax: draft.poolMax,
    acquireTimeoutMs: draft.acquireTimeoutMs,
    // The stored value goes back as it is; the server clears it when someone else changes the account.
    allowPrivilegedAccount: isFile ? false : draft.allowPrivilegedAccount,
  };
}
