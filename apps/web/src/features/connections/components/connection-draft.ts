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
  };
}

/** Whether the password field holds a new secret (not the placeholder, not the empty field of none stored). */
export function isNewPassword(draft: ConnectionDraft, original: SqlConnection): boolean {
  return draft.password !== (original.password ?? '') && draft.password !== texts.maskedSecret;
}

export function settingsOf(draft: ConnectionDraft, original: SqlConnection): ConnectionSettings {
  const isFile = draft.kind === 'sqlite';
  return {
    name: draft.name,
    description: draft.description,
    kind: draft.kind,
    host: isFile ? undefined : draft.host,
    port: isFile || draft.port === '' ? null : Number(draft.port),
    database: draft.database,
    username: isFile ? undefined : draft.username,
    password: isNewPassword(draft, original) ? draft.password : undefined,
    ssl: draft.ssl,
    poolMax: draft.poolMax,
    acquireTimeoutMs: draft.acquireTimeoutMs,
  };
}
