import type { ConnectorRegistry, ConnectorSettings } from '@datalab/engine';
import { createConnector } from '@datalab/engine';
import type { CreateSqlConnection } from '@datalab/contract/api/sql-connections';
import { messages } from '@datalab/contract/messages';
import { texts } from '@datalab/contract/texts';
import type { z } from 'zod';
import type { updateSqlConnection } from '@datalab/contract/api/sql-connections';
import type { Collection, Connection } from '../../db/schema.ts';
import { mapEngineErrors } from '../../lib/engine-errors.ts';
import { AppError, nameConflict, notFound, validation } from '../../lib/errors.ts';
import type { Actor } from '../access/change-access.service.ts';
import { presentConnection } from './presenter.ts';
import {
  deleteConnectionRow,
  findConnection,
  insertConnection,
  isNameTaken,
  listConnections,
  updateConnectionRow,
  type ConnectionValues,
} from './repository.ts';
import {
  accountRefusal,
  assertReadOnlyAccount,
  auditOverride,
  overrideForTest,
  overrideOf,
} from './privileged-account.service.ts';
import { connectorSettings, type SqlRuntime } from './runtime.service.ts';
import { SQLITE_OUTSIDE, sqlitePath } from './sqlite-files.ts';
import { usedByText } from '../dependents/assets-using.service.ts';
import { targetOf, targetRefusalResolved } from './target-policy.ts';

// SQL connections: the rules. Passwords are sealed before they reach the store, replaced only when a new value
// is sent, and never returned, logged or put in an audit record. SQLite files must lie in the collection's own
// folder or a shared one (sqlite-files.ts); network databases must be on an allowed host and never the metadata
// store's own database (target-policy.ts). A name is
// unique in its collection regardless of case: the store's index decides, so simultaneous creations cannot both
// pass.

export type ConnectionInput = Omit<z.output<typeof updateSqlConnection>, never>;

export interface ConnectionServices {
  actor: Actor;
  runtime: SqlRuntime;
  connectors: ConnectorRegistry;
}

const ENTITY = 'SQL connection';
export { SQLITE_OUTSIDE };

const keepsPassword = (password: string | undefined) => password === undefined || password === texts.maskedSecret;

export async function checkSettings(
  input: ConnectionInput,
  runtime: SqlRuntime,
  collection: Collection,
): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (input.kind === 'sqlite') {
    if (!sqlitePath(runtime, collection.uid, input.database)) errors['database'] = [SQLITE_OUTSIDE];
  } else {
    if (!input.host) errors['host'] = [messages.required('Host')];
    if (!input.username) errors['username'] = [messages.required('Username')];
  }
  if (Object.keys(errors).length > 0) throw validation(errors);
  const refusal = await targetRefusalResolved(runtime.targets, input);
  if (refusal) throw validation(refusal);
}

export function valuesOf(input: ConnectionInput, runtime: SqlRuntime): ConnectionValues {
  const network = input.kind !== 'sqlite';
  const values: ConnectionValues = {
    name: input.name,
    description: input.description,
    driver: input.kind,
    host: network ? (input.host ?? null) : null,
    port: network ? (input.port ?? null) : null,
    database_name: input.database,
    username: network ? (input.username ?? null) : null,
    options: JSON.stringify({ ssl: input.ssl }),
    pool_max: input.poolMax,
    acquire_timeout_ms: input.acquireTimeoutMs,
  };
  if (!keepsPassword(input.password)) {
    values.secret = network && input.password ? runtime.box.seal(input.password) : null;
  }
  return values;
}

/** What an audit record may say about a connection: never the secret. */
const auditView = (values: ConnectionValues) => ({
  name: values.name,
  kind: values.driver,
  host: values.host,
  port: values.port,
  database: values.database_name,
  username: values.username,
  passwordChanged: values.secret !== undefined,
});

/** Runs a write that names a connection; a name the collection already has (whatever its case) is a 409. */
async function namedWrite<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isNameTaken(error)) throw nameConflict(ENTITY, name);
    throw error;
  }
}

export async function getConnection(actor: Pick<Actor, 'db'>, id: number) {
  const row = await findConnection(actor.db, id);
  if (!row) throw notFound(ENTITY, id);
  return presentConnection(row);
}

export async function connectionsOf(actor: Pick<Actor, 'db'>, collection: Collection) {
  return (await listConnections(actor.db, collection.id)).map(presentConnection);
}

/** The engine's settings the values would run with (the stored secret unless a new one is sent). */
const settingsOf = (
  values: ConnectionValues,
  stored: Connection | undefined,
  runtime: SqlRuntime,
  collection: Collection,
) =>
  connectorSettings(
    {
      ...stored,
      ...values,
      secret: values.secret === undefined ? (stored?.secret ?? null) : values.secret,
    } as Connection,
    runtime,
    collection.uid,
  );

export async function createConnection(s: ConnectionServices, collection: Collection, input: CreateSqlConnection) {
  const parsed = input as ConnectionInput;
  await checkSettings(parsed, s.runtime, collection);
  const values = valuesOf(parsed, s.runtime);
  const override = await overrideOf(s.actor, undefined, parsed.allowPrivilegedAccount, values);
  values.allow_privileged_account = override.after ? 1 : 0;
  await assertReadOnlyAccount(settingsOf(values, undefined, s.runtime, collection));
  const id = await namedWrite(parsed.name, () =>
    s.actor.db.transaction().execute(async (trx) => {
      const created = await insertConnection(trx, collection.id, values, new Date().toISOString());
      await s.actor.audit(
        {
          action: 'connection.create',
          target: { type: 'connection', id: created, name: parsed.name },
          after: auditView(values),
        },
        trx,
      );
      await auditOverride(s.actor, trx, { id: created, name: parsed.name }, override);
      return created;
    }),
  );
  return getConnection(s.actor, id);
}

export async function updateConnection(
  s: ConnectionServices,
  collection: Collection,
  id: number,
  input: ConnectionInput,
) {
  await checkSettings(input, s.runtime, collection);
  const values = valuesOf(input, s.runtime);
  const stored = await storedRow(s, id);
  const override = await overrideOf(s.actor, stored, input.allowPrivilegedAccount, values);
  values.allow_privileged_account = override.after ? 1 : 0;
  await assertReadOnlyAccount(settingsOf(values, stored, s.runtime, collection));
  await namedWrite(input.name, () =>
    s.actor.db.transaction().execute(async (trx) => {
      const existing = await findConnection(trx, id);
      if (!existing) throw notFound(ENTITY, id);
      await updateConnectionRow(trx, id, values, new Date().toISOString());
      await s.actor.audit(
        { action: 'connection.update', target: { type: 'connection', id, name: input.name }, after: auditView(values) },
        trx,
      );
      await auditOverride(s.actor, trx, { id, name: input.name }, override);
    }),
  );
  // The next call builds a pool with the new settings.
  await s.connectors.evict(String(id));
  return getConnection(s.actor, id);
}

export async function deleteConnection(s: ConnectionServices, id: number) {
  await s.actor.db.transaction().execute(async (trx) => {
    const existing = await findConnection(trx, id);
    if (!existing) throw notFound(ENTITY, id);
    if (existing.asset_count > 0) {
      const title = await usedByText(
        trx,
        `${ENTITY} ${existing.name}`,
        'connection_id',
        id,
        'used',
        'delete them or move them to another connection first',
      );
      throw new AppError({ status: 409, code: 'conflict', title });
    }
    await deleteConnectionRow(trx, id);
    await s.actor.audit({ action: 'connection.delete', target: { type: 'connection', id, name: existing.name } }, trx);
  });
  await s.connectors.evict(String(id));
  return { id, deleted: true as const };
}

async function storedRow(s: ConnectionServices, id: number): Promise<Connection> {
  const row = await findConnection(s.actor.db, id);
  if (!row) throw notFound(ENTITY, id);
  return row;
}

/** The registry's connector for a stored connection of the collection (one pool per connection). */
export async function storedConnector(s: ConnectionServices, collection: Collection, id: number) {
  const row = await storedRow(s, id);
  return s.connectors.get(String(id), connectorSettings(row, s.runtime, collection.uid));
}

export async function testStoredConnection(s: ConnectionServices, collection: Collection, id: number) {
  const row = await storedRow(s, id);
  const settings = connectorSettings(row, s.runtime, collection.uid);
  const refusal = await targetRefusalResolved(s.runtime.targets, targetOf(settings));
  if (refusal) throw validation(refusal);
  const connector = s.connectors.get(String(id), settings);
  return mapEngineErrors(() =>
    connector.testConnection().catch((error: unknown) => Promise.reject(accountRefusal(error))),
  );
}

/** Tests settings not saved yet on a throwaway connector; a kept password is the stored connection's. */
export async function testUnsavedConnection(
  s: ConnectionServices,
  collection: Collection,
  input: ConnectionInput & { connectionId?: number | undefined },
) {
  await checkSettings(input, s.runtime, collection);
  let stored: Connection | undefined;
  if (input.connectionId !== undefined) {
    stored = await storedRow(s, input.connectionId);
    if (stored.collection_id !== collection.id) throw notFound(ENTITY, input.connectionId);
  }
  const secret = keepsPassword(input.password) ? (stored?.secret ?? null) : null;
  const values = valuesOf(input, s.runtime);
  const allowed = await overrideForTest(s.actor, stored, input.allowPrivilegedAccount, values);
  const row = {
    ...values,
    secret: values.secret === undefined ? secret : values.secret,
    allow_privileged_account: allowed ? 1 : 0,
  } as unknown as Connection;
  const config: ConnectorSettings = connectorSettings(row, s.runtime, collection.uid);
  const connector = createConnector(config.kind, config.settings as never);
  try {
    return await mapEngineErrors(() =>
      connector.testConnection().catch((error: unknown) => Promise.reject(accountRefusal(error))),
    );
  } finally {
    await connector.close();
  }
}

export async function connectionSchema(s: ConnectionServices, collection: Collection, id: number) {
  const connector = await storedConnector(s, collection, id);
  return { tables: await mapEngineErrors(() => connector.listSchema()) };
}
