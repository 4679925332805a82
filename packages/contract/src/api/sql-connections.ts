import { z } from 'zod';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { nameText, text } from '../text.ts';

// SQL connections of a collection (Owners manage them). The password is never sent back: replies carry the
// masked placeholder (texts.maskedSecret) when one is stored; an update keeps the stored password unless a new
// value is sent (the placeholder or an absent field keeps it).

export const sqlDrivers = ['postgres', 'mysql', 'sqlite'] as const;
export type SqlDriver = (typeof sqlDrivers)[number];
export const CONNECTION_NAME_MAX = 100;

export const sqlConnection = z.object({
  id: z.number().int(),
  collectionUid: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(sqlDrivers),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  /** The database name; for SQLite, the file path relative to DATA_DIR. */
  database: z.string(),
  username: z.string().nullable(),
  /** The masked placeholder when a password is stored, null when none is. */
  password: z.string().nullable(),
  ssl: z.boolean(),
  poolMax: z.number().int(),
  acquireTimeoutMs: z.number().int(),
  /**
   * An administrator allowed a database account that may do more than read (a superuser, FILE, write grants):
   * without it such an account is refused on save, on test and before a run.
   */
  allowPrivilegedAccount: z.boolean(),
  assetCount: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type SqlConnection = z.infer<typeof sqlConnection>;

const settingsShape = {
  name: nameText(CONNECTION_NAME_MAX),
  description: text(2000).default(''),
  kind: z.enum(sqlDrivers),
  host: text(255).optional(),
  port: z.number().int().min(1).max(65535).nullable().optional(),
  database: text(1000).pipe(z.string().min(1)),
  username: text(200).optional(),
  /** Absent or the masked placeholder: keep the stored password. */
  password: z.string().max(1000).optional(),
  ssl: z.boolean().default(false),
  poolMax: z.number().int().min(1).max(100).default(5),
  acquireTimeoutMs: z.number().int().min(1).max(60_000).default(2000),
  /**
   * Administrators only (403 otherwise, unless it keeps the stored value). Absent keeps the stored value; a change
   * of kind, host, port, database, user or password by someone who is not an administrator clears it.
   */
  allowPrivilegedAccount: z.boolean().optional(),
};

export const createSqlConnection = z.object({ collectionUid: z.string().trim().min(1), ...settingsShape });
export const updateSqlConnection = z.object(settingsShape);
export type CreateSqlConnection = z.input<typeof createSqlConnection>;

const idParams = z.object({ id: z.string().regex(/^\d{1,15}$/, 'Invalid option') });

export const connectionTestResult = z.object({
  ok: z.boolean(),
  serverVersion: z.string(),
  /**
   * E.g. an administrator allowed an account that may do more than read: the read-only transaction and the
   * statement guard are then the only lines. Such an account is otherwise refused (400 naming what it may do).
   */
  warnings: z.array(z.string()),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResult>;

export const schemaTables = z.object({
  tables: z.array(
    z.object({
      schema: z.string().nullable(),
      name: z.string(),
      columns: z.array(z.object({ name: z.string(), type: z.string() })),
    }),
  ),
});

export const listSqlConnections = defineCall({
  method: 'GET',
  path: '/api/SqlConnection',
  tag: 'SqlConnection',
  summary: "A collection's SQL connections, passwords masked (Reader)",
  query: z.object({ collectionUid: z.string().trim().min(1) }),
  response: z.array(sqlConnection),
});

export const getSqlConnection = defineCall({
  method: 'GET',
  path: '/api/SqlConnection/:id',
  tag: 'SqlConnection',
  summary: 'One SQL connection, its password masked (Reader)',
  params: idParams,
  response: sqlConnection,
});

export const postSqlConnection = defineCall({
  method: 'POST',
  path: '/api/SqlConnection',
  tag: 'SqlConnection',
  summary: 'Create a SQL connection in a collection; the password is sealed at rest (Owner)',
  body: createSqlConnection,
  response: sqlConnection,
  status: 201,
});

export const putSqlConnection = defineCall({
  method: 'PUT',
  path: '/api/SqlConnection/:id',
  tag: 'SqlConnection',
  summary: 'Change a SQL connection; the password changes only when a new one is sent (Owner)',
  params: idParams,
  body: updateSqlConnection,
  response: sqlConnection,
});

export const deleteSqlConnection = defineCall({
  method: 'DELETE',
  path: '/api/SqlConnection/:id',
  tag: 'SqlConnection',
  summary: 'Delete a SQL connection no data asset uses (Owner)',
  params: idParams,
  response: z.object({ id: z.number().int(), deleted: z.literal(true) }),
});

export const testSqlConnection = defineCall({
  method: 'POST',
  path: '/api/SqlConnection/:id/Test',
  tag: 'SqlConnection',
  summary: "Connect with a stored connection's settings: server version and warnings (Owner)",
  params: idParams,
  response: connectionTestResult,
});

export const testUnsavedSqlConnection = defineCall({
  method: 'POST',
  path: '/api/SqlConnection/Test',
  tag: 'SqlConnection',
  summary:
    'Connect with settings not saved yet; with connectionId, a masked or absent password is the stored one (Owner)',
  body: createSqlConnection.extend({ connectionId: z.number().int().optional() }),
  response: connectionTestResult,
});

export const getSqlConnectionSchema = defineCall({
  method: 'GET',
  path: '/api/SqlConnection/:id/Schema',
  tag: 'SqlConnection',
  summary: "The connection's tables and columns, for the SQL editor's completion (Editor)",
  params: idParams,
  response: schemaTables,
});
