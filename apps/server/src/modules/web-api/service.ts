import {
  createHttpConnector,
  describeConnectFailure,
  httpSettingsSchema,
  isEngineError,
  type ConnectorRegistry,
  type HttpConnector,
} from '@datalab/engine';
import { isSecretName } from '@datalab/engine/http/exchange';
import { parseAllowedHost } from '@datalab/engine/http/guard';
import type { DataRole } from '@datalab/contract/api/data-roles';
import type {
  createWebApiConnection,
  testUnsavedWebApiConnection as testUnsavedCall,
  updateWebApiConnection,
  WebApiTestResult,
} from '@datalab/contract/api/web-api';
import type { ErrorsMap } from '@datalab/contract/errors';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { Collection, Connection } from '../../db/schema.ts';
import { engineErrorReply } from '../../lib/engine-errors.ts';
import { AppError, forbidden, nameConflict, notFound, validation } from '../../lib/errors.ts';
import { errorsFromIssues } from '../../lib/validation-messages.ts';
import type { Actor } from '../access/change-access.service.ts';
import { can, hasPermission } from '../access/policy.ts';
import { usedByText } from '../dependents/assets-using.service.ts';
import {
  credentialKey,
  httpConnectorSettings,
  storedAllowedHosts,
  type SqlRuntime,
} from '../connections/runtime.service.ts';
import { ExchangeLog } from '../data-sources/web-api-assets.service.ts';
import { presentWebApiConnection } from './presenter.ts';
import {
  credentialsOf,
  deleteWebApiConnectionRow,
  findCredential,
  findWebApiConnection,
  insertWebApiConnection,
  isNameTaken,
  listWebApiConnections,
  updateWebApiConnectionRow,
  type WebApiConnectionValues,
} from './repository.ts';

// Web API connections: the rules (their credentials: credentials.service.ts). Owners manage both; the allow-list
// of internal hosts (the outbound guard's only exception) is changed by an administrator who is an Owner there, and every change to
// it is audited with the list before and after. Secrets are sealed before they reach the store, replaced only when
// a new value is sent, and never returned, logged or audited (records say `secretChanged`). A default header whose
// name says it carries a secret is refused: secrets belong in credentials, which replies never show.

export const CONNECTION_ENTITY = 'Web API connection';
export const CREDENTIAL_ENTITY = 'Credential';

export interface WebApiServices {
  actor: Actor;
  runtime: SqlRuntime;
  connectors: ConnectorRegistry;
}

type ConnectionInput = z.output<typeof updateWebApiConnection>;
type CreateConnection = z.output<typeof createWebApiConnection>;
type UnsavedTest = z.output<NonNullable<(typeof testUnsavedCall)['body']>>;

export const SECRET_HEADER = 'This header carries a secret: put it in a credential, whose value is never shown';
export const ALLOWED_HOSTS_ADMIN_ONLY = 'Only an administrator can change the allowed internal hosts';

// ---- who may change the allow-list ----

/** An Owner of the collection who is also an administrator (never a Data Lab token: tokens hold no permission). */
export async function mayChangeAllowedHosts(
  actor: Pick<Actor, 'access' | 'user'>,
  role: DataRole | null,
): Promise<boolean> {
  return can(actor.user, role, 'update') && (await hasPermission(actor.access, actor.user, 'canManageUsers'));
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((entry, index) => entry === b[index]);

// ---- reading ----

async function present(actor: Pick<Actor, 'db' | 'access' | 'user'>, id: number, role: DataRole | null) {
  const row = await findWebApiConnection(actor.db, id);
  if (!row) throw notFound(CONNECTION_ENTITY, id);
  return presentWebApiConnection(row, await credentialsOf(actor.db, [id]), await mayChangeAllowedHosts(actor, role));
}

export async function getWebApiConnection(
  actor: Pick<Actor, 'db' | 'access' | 'user'>,
  id: number,
  role: DataRole | null,
) {
  return present(actor, id, role);
}

export async function webApiConnectionsOf(
  actor: Pick<Actor, 'db' | 'access' | 'user'>,
  collection: Collection,
  role: DataRole | null,
) {
  const rows = await listWebApiConnections(actor.db, collection.id);
  const credentials = await credentialsOf(
    actor.db,
    rows.map((row) => row.id),
  );
  const mayChange = await mayChangeAllowedHosts(actor, role);
  return rows.map((row) => presentWebApiConnection(row, credentials, mayChange));
}

// ---- connection settings ----

/** The settings the engine will run, checked by its own schema, plus the rules of this server. */
export function checkConnectionSettings(input: ConnectionInput, allowedHosts: readonly string[]): void {
  const errors: ErrorsMap = {};
  const parsed = httpSettingsSchema.safeParse({ baseUrl: input.baseUrl, headers: input.headers });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const inner = issue.code === 'invalid_key' ? issue.issues[0] : undefined;
      const entry = inner
        ? { [['headers', ...issue.path.map(String)].join('.')]: [inner.message] }
        : errorsFromIssues([issue]);
      for (const [key, list] of Object.entries(entry)) (errors[key] ??= []).push(...list);
    }
  }
  for (const name of Object.keys(input.headers)) {
    if (isSecretName(name)) (errors[`headers.${name}`] ??= []).push(SECRET_HEADER);
  }
  for (const [index, entry] of allowedHosts.entries()) {
    try {
      parseAllowedHost(entry);
    } catch (error) {
      if (!isEngineError(error)) throw error;
      errors[`allowedHosts.${index}`] = [error.message];
    }
  }
  if (Object.keys(errors).length > 0) throw validation(errors);
}

export function valuesOf(input: ConnectionInput, allowedHosts: readonly string[]): WebApiConnectionValues {
  return {
    name: input.name,
    description: input.description,
    base_url: input.baseUrl,
    default_headers: JSON.stringify(input.headers),
    allowed_hosts: JSON.stringify(allowedHosts),
    connect_timeout_ms: input.connectTimeoutMs,
    headers_timeout_ms: input.headersTimeoutMs,
    body_timeout_ms: input.bodyTimeoutMs,
    max_reply_bytes: input.maxReplyBytes,
    max_pages: input.maxPages,
    pool_max: input.maxConnections,
    acquire_timeout_ms: input.acquireTimeoutMs,
    retries: input.retries,
  };
}

/** What an audit record says about a connection: header names, never values. */
const auditView = (input: ConnectionInput, allowedHosts: readonly string[]) => ({
  name: input.name,
  kind: 'webapi',
  baseUrl: input.baseUrl,
  headerNames: Object.keys(input.headers),
  allowedHosts,
});

/** Runs a write that names something; a name already taken (whatever its case) is a 409. */
export async function namedWrite<T>(
  entity: string,
  name: string,
  table: 'connections' | 'web_api_credentials',
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isNameTaken(error, table)) throw nameConflict(entity, name);
    throw error;
  }
}

async function auditAllowedHosts(
  actor: Actor,
  trx: Database,
  connection: { id: number; name: string },
  before: readonly string[],
  after: readonly string[],
) {
  if (sameList(before, after)) return;
  await actor.audit(
    {
      action: 'connection.allowedHosts',
      target: { type: 'connection', id: connection.id, name: connection.name },
      before: { allowedHosts: before },
      after: { allowedHosts: after },
    },
    trx,
  );
}

export async function createWebApiConnectionFor(
  s: WebApiServices,
  collection: Collection,
  role: DataRole | null,
  input: CreateConnection,
) {
  const allowedHosts = input.allowedHosts ?? [];
  if (allowedHosts.length > 0 && !(await mayChangeAllowedHosts(s.actor, role))) throw forbidden();
  checkConnectionSettings(input, allowedHosts);
  const values = valuesOf(input, allowedHosts);
  const id = await namedWrite(CONNECTION_ENTITY, input.name, 'connections', () =>
    s.actor.db.transaction().execute(async (trx) => {
      const created = await insertWebApiConnection(trx, collection.id, values, new Date().toISOString());
      const target = { type: 'connection', id: created, name: input.name };
      await s.actor.audit({ action: 'connection.create', target, after: auditView(input, allowedHosts) }, trx);
      await auditAllowedHosts(s.actor, trx, { id: created, name: input.name }, [], allowedHosts);
      return created;
    }),
  );
  return present(s.actor, id, role);
}

export async function updateWebApiConnectionById(
  s: WebApiServices,
  id: number,
  role: DataRole | null,
  input: ConnectionInput,
) {
  const existing = await findWebApiConnection(s.actor.db, id);
  if (!existing) throw notFound(CONNECTION_ENTITY, id);
  const before = storedAllowedHosts(existing);
  const allowedHosts = input.allowedHosts ?? before;
  if (!sameList(before, allowedHosts) && !(await mayChangeAllowedHosts(s.actor, role))) throw forbidden();
  checkConnectionSettings(input, allowedHosts);
  const values = valuesOf(input, allowedHosts);
  await namedWrite(CONNECTION_ENTITY, input.name, 'connections', () =>
    s.actor.db.transaction().execute(async (trx) => {
      await updateWebApiConnectionRow(trx, id, values, new Date().toISOString());
      const target = { type: 'connection', id, name: input.name };
      await s.actor.audit({ action: 'connection.update', target, after: auditView(input, allowedHosts) }, trx);
      await auditAllowedHosts(s.actor, trx, { id, name: input.name }, before, allowedHosts);
    }),
  );
  // The next call builds connectors with the new settings.
  await s.connectors.evict(String(id));
  return present(s.actor, id, role);
}

export async function deleteWebApiConnectionById(s: WebApiServices, id: number) {
  await s.actor.db.transaction().execute(async (trx) => {
    const existing = await findWebApiConnection(trx, id);
    if (!existing) throw notFound(CONNECTION_ENTITY, id);
    if (existing.asset_count > 0) {
      const title = await usedByText(
        trx,
        `${CONNECTION_ENTITY} ${existing.name}`,
        'connection_id',
        id,
        'used',
        'delete them or move them to another connection first',
      );
      throw new AppError({ status: 409, code: 'conflict', title });
    }
    await deleteWebApiConnectionRow(trx, id);
    await s.actor.audit({ action: 'connection.delete', target: { type: 'connection', id, name: existing.name } }, trx);
  });
  await s.connectors.evict(String(id));
  return { id, deleted: true as const };
}

// ---- tests ----

async function runTest(connector: HttpConnector, credential: string | undefined): Promise<WebApiTestResult> {
  const log = new ExchangeLog();
  try {
    const result = await connector.test({ ...(credential ? { credential } : {}), onExchange: log.add });
    return { ...result, error: null, ...log.view() };
  } catch (error) {
    if (!isEngineError(error)) throw error;
    // A connection that could not be made says why (refused, not found, timed out, TLS) and what to do.
    const why = error.code === 'UNREACHABLE' ? describeConnectFailure(error, 'web API') : undefined;
    const failure = { status: engineErrorReply(error).status, message: why?.message ?? error.message };
    return { ok: false, status: null, serverVersion: '', warnings: [], error: failure, ...log.view() };
  }
}

async function storedCredentialOf(db: Database, connectionId: number, credentialId: number) {
  const credential = await findCredential(db, credentialId);
  if (!credential || credential.connection_id !== connectionId) throw notFound(CREDENTIAL_ENTITY, credentialId);
  return credential;
}

/** GET the stored connection's base URL, without a credential or with one of its own. */
export async function testStoredWebApiConnection(s: WebApiServices, id: number, credentialId?: number) {
  const row = await findWebApiConnection(s.actor.db, id);
  if (!row) throw notFound(CONNECTION_ENTITY, id);
  const credential = credentialId === undefined ? undefined : await storedCredentialOf(s.actor.db, id, credentialId);
  const connector = s.connectors.get(String(id), httpConnectorSettings(row, credential, s.runtime)) as HttpConnector;
  return runTest(connector, credential && credentialKey(credential.id));
}

/**
 * GET the base URL of settings not saved yet, on a throwaway connector. With connectionId (of this collection), a
 * missing allow-list is the stored one and credentialId may name one of its credentials.
 */
export async function testUnsavedWebApiConnection(
  s: WebApiServices,
  collection: Collection,
  role: DataRole | null,
  input: UnsavedTest,
) {
  let stored: Connection | undefined;
  if (input.connectionId !== undefined) {
    stored = await findWebApiConnection(s.actor.db, input.connectionId);
    if (!stored || stored.collection_id !== collection.id) throw notFound(CONNECTION_ENTITY, input.connectionId);
  }
  const before = stored ? storedAllowedHosts(stored) : [];
  const allowedHosts = input.allowedHosts ?? before;
  // Trying a host the allow-list does not hold yet is changing it, as far as the guard is concerned.
  if (!sameList(before, allowedHosts) && !(await mayChangeAllowedHosts(s.actor, role))) throw forbidden();
  checkConnectionSettings(input, allowedHosts);
  const credential =
    input.credentialId === undefined || !stored
      ? undefined
      : await storedCredentialOf(s.actor.db, stored.id, input.credentialId);
  const row = { ...(stored ?? {}), ...valuesOf(input, allowedHosts) } as Connection;
  const config = httpConnectorSettings(row, credential, s.runtime);
  const connector = createHttpConnector(config.settings);
  try {
    return await runTest(connector, credential && credentialKey(credential.id));
  } finally {
    await connector.close();
  }
}
