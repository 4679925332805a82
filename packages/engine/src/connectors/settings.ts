import { z } from 'zod';
import { SqlHostGuard } from './guarded-socket.ts';

// Connection settings common to the SQL connectors. The password is never put in an error or a message.

export const poolSettingsSchema = z.object({
  maxConnections: z.number().int().min(1).max(100).default(5),
  acquireTimeoutMs: z.number().int().min(1).max(60_000).default(2_000),
  connectTimeoutMs: z.number().int().min(100).max(60_000).default(5_000),
});

export const networkSettingsSchema = poolSettingsSchema.extend({
  host: z.string().min(1),
  port: z.number().int().min(1).max(65535).optional(),
  database: z.string().min(1),
  user: z.string().min(1),
  password: z.string().default(''),
  ssl: z.boolean().default(false),
  /**
   * An administrator allowed an account that may do more than read (a superuser, FILE, write grants): the account
   * check (account.ts) then warns instead of refusing. Runs stay in read-only transactions that are rolled back.
   */
  allowPrivilegedAccount: z.boolean().default(false),
  /** Every socket connects through it (resolved, judged, then connected); absent: the drivers connect directly. */
  guard: z.instanceof(SqlHostGuard).optional(),
});

export const postgresSettingsSchema = networkSettingsSchema;
export const mysqlSettingsSchema = networkSettingsSchema;
export const sqliteSettingsSchema = poolSettingsSchema.extend({ path: z.string().min(1) });

export type PostgresSettings = z.input<typeof postgresSettingsSchema>;
export type MysqlSettings = z.input<typeof mysqlSettingsSchema>;
export type SqliteSettings = z.input<typeof sqliteSettingsSchema>;
