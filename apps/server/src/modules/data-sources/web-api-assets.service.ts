import {
  detectTemplateParameters,
  httpRequestSchema,
  httpRequestText,
  isEngineError,
  runQuery,
  type ConnectorRegistry,
  type HttpExchange,
} from '@datalab/engine';
import type { DataRole } from '@datalab/contract/api/data-roles';
import {
  MAX_EXCHANGES_SHOWN,
  WEB_API_PREVIEW_ROW_CAP,
  type createWebApiDataSource,
  type previewWebApiDataSource,
  type updateWebApiDataSource,
  type WebApiPreviewResult,
} from '@datalab/contract/api/web-api';
import type { ErrorsMap } from '@datalab/contract/errors';
import { messages } from '@datalab/contract/messages';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { Collection, Connection, DataSource } from '../../db/schema.ts';
import { engineErrorReply } from '../../lib/engine-errors.ts';
import { invalid, notFound, validation } from '../../lib/errors.ts';
import { errorsFromIssues } from '../../lib/validation-messages.ts';
import type { DeletionStores } from '../dependents/leftovers.service.ts';
import type { Actor } from '../access/change-access.service.ts';
import { credentialKey, httpConnectorSettings, type SqlRuntime } from '../connections/runtime.service.ts';
import {
  ASSET,
  assetDetail,
  deleteSqlAsset,
  requireAsset,
  saveAssetUpdate,
  saveNewAsset,
  type SaveOptions,
} from './assets.service.ts';
import { beginHistory, recordVersion } from './history.service.ts';
import { findConnectionRow, updateAsset } from './repository.ts';
import { parameterOptions, previewRows } from './run.service.ts';
import { checkParameters, checkTransformations, templatePlaceholderUndefined } from './validation.ts';
import { findCredentialRow, findCredentialSummary } from './web-api.repository.ts';

// Web API data assets (product §7 WebApiDataSource): created, changed and deleted like SQL ones — parameters,
// transformations and client tools in the same transaction, the version bumped on every change — with a request
// definition instead of SQL, checked with the engine's own schema, and one of the connection's credentials (or
// none). Every `{param}` the request uses must be a parameter. "Try" runs a draft through the same engine, guard,
// timeouts and caps as a stored asset, and answers the upstream exchange with every secret masked.

type Create = z.output<typeof createWebApiDataSource>;
type Update = z.output<typeof updateWebApiDataSource>;
type PreviewInput = z.output<NonNullable<(typeof previewWebApiDataSource)['body']>>;
type RequestInput = Create['request'];
type EngineRequest = z.output<typeof httpRequestSchema>;

export const WEB_API_CONNECTION = 'Web API connection';
/** The 400 message for a `{name}` of the request that no parameter defines. */
export { templatePlaceholderUndefined };
export const CREDENTIAL = 'Credential';

/** The connection, when it is a Web API connection of this collection; a 400 on `connectionId` otherwise. */
async function webApiConnection(db: Database, collection: Collection, connectionId: number): Promise<Connection> {
  const connection = await findConnectionRow(db, connectionId);
  if (!connection || connection.collection_id !== collection.id || connection.kind !== 'webapi') {
    throw invalid('connectionId', messages.doesNotExist(WEB_API_CONNECTION, connectionId));
  }
  return connection;
}

/** The credential id when it is one of the connection's (null: none); a 400 on `credentialId` otherwise. */
async function connectionCredential(db: Database, connectionId: number, credentialId: number | null) {
  if (credentialId === null) return null;
  const credential = await findCredentialSummary(db, credentialId);
  if (!credential || credential.connectionId !== connectionId) {
    throw invalid('credentialId', messages.doesNotExist(CREDENTIAL, credentialId));
  }
  return credential.id;
}

/** Zod issues of the engine's request schema as the errors map; a record key's own message is the inner one. */
function requestErrors(issues: readonly z.core.$ZodIssue[]): ErrorsMap {
  const errors: ErrorsMap = {};
  for (const issue of issues) {
    const inner = issue.code === 'invalid_key' ? issue.issues[0] : undefined;
    const entry = inner
      ? { [['request', ...issue.path.map(String)].join('.')]: [inner.message] }
      : errorsFromIssues([issue], 'request');
    for (const [key, list] of Object.entries(entry)) (errors[key] ??= []).push(...list);
  }
  return errors;
}

/** The request as the engine will run it (its schema decides: header names, relative path, no GET body...). */
function checkRequest(request: RequestInput): EngineRequest {
  // The credential is the asset's own choice (credentialId), never part of the stored request.
  const parsed = httpRequestSchema.safeParse({ ...request, credential: undefined });
  if (!parsed.success) throw validation(requestErrors(parsed.error.issues));
  return parsed.data;
}

const storedRequestText = (request: RequestInput) => JSON.stringify(checkRequest(request));

const columnsOf = (body: Create | Update, connectionId: number, credentialId: number | null) => ({
  name: body.name,
  description: body.description,
  connection_id: connectionId,
  request_definition: storedRequestText(body.request),
  credential_id: credentialId,
  sql_text: '',
  cache_ttl_seconds: body.cacheTtlSeconds,
  row_cap: body.rowCap,
  timeout_ms: body.timeoutMs,
  max_export_rows: body.maxExportRows,
  ...(body.mcpAvailable === undefined ? {} : { mcp_available: body.mcpAvailable ? 1 : 0 }),
});

export async function createWebApiAsset(actor: Actor, collection: Collection, role: DataRole | null, body: Create) {
  const connection = await webApiConnection(actor.db, collection, body.connectionId);
  const credentialId = await connectionCredential(actor.db, connection.id, body.credentialId ?? null);
  checkRequest(body.request);
  const parameters = await checkParameters(actor.db, body.parameters, { collectionId: collection.id });
  const transformations = checkTransformations(body.transformations);
  const id = await saveNewAsset(actor, collection, 'webapi', {
    name: body.name,
    columns: columnsOf(body, connection.id, credentialId),
    parts: { parameters, transformations, clientTools: body.clientTools },
    audit: { after: { kind: 'webapi', connectionId: connection.id, credentialId } },
  });
  return assetDetail(actor, collection, role, id);
}

/** A Web API asset of this collection; a SQL one (or one elsewhere) is not found here. */
async function requireWebApiAsset(db: Database, collection: Collection, idOrUid: string | number): Promise<DataSource> {
  const source = await requireAsset(db, idOrUid);
  if (source.kind !== 'webapi' || source.collection_id !== collection.id) throw notFound(ASSET, idOrUid);
  return source;
}

export async function updateWebApiAsset(
  actor: Actor,
  collection: Collection,
  role: DataRole | null,
  body: Update,
  options: SaveOptions = {},
) {
  const source = await requireWebApiAsset(actor.db, collection, body.uid);
  const connection = await webApiConnection(actor.db, collection, body.connectionId);
  // Not sent: kept while the connection stays; another connection's credential cannot follow the asset there.
  const wanted =
    body.credentialId !== undefined
      ? body.credentialId
      : source.connection_id === connection.id
        ? source.credential_id
        : null;
  const credentialId = await connectionCredential(actor.db, connection.id, wanted);
  checkRequest(body.request);
  const owner = { collectionId: collection.id, dataSourceId: source.id };
  const parameters = body.parameters && (await checkParameters(actor.db, body.parameters, owner));
  const transformations = body.transformations && checkTransformations(body.transformations);
  await saveAssetUpdate(
    actor,
    collection,
    source,
    {
      name: body.name,
      columns: columnsOf(body, connection.id, credentialId),
      parts: { parameters, transformations, clientTools: body.clientTools },
      audit: {
        before: { connectionId: source.connection_id, credentialId: source.credential_id },
        after: { connectionId: connection.id, credentialId },
      },
    },
    options,
  );
  return assetDetail(actor, collection, role, source.id);
}

export async function deleteWebApiAsset(actor: Actor, collection: Collection, uid: string, stores: DeletionStores) {
  await requireWebApiAsset(actor.db, collection, uid);
  return deleteSqlAsset(actor, uid, stores);
}

/** PUT /api/WebApiDataSource/{id}/Credentials: the credential the asset sends, one of its connection's, or none. */
export async function pickCredential(
  actor: Actor,
  collection: Collection,
  role: DataRole | null,
  idOrUid: string,
  credentialId: number | null,
) {
  const source = await requireWebApiAsset(actor.db, collection, idOrUid);
  if (source.connection_id === null)
    throw invalid('credentialId', messages.doesNotExist(CREDENTIAL, credentialId ?? 0));
  const chosen = await connectionCredential(actor.db, source.connection_id, credentialId);
  await actor.db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    await beginHistory(trx, source.id);
    await updateAsset(trx, source.id, { credential_id: chosen, updated_at: now });
    await recordVersion(trx, actor.user, source.id, now);
    await actor.audit(
      {
        action: 'dataAsset.pickCredential',
        target: { type: 'data asset', id: source.id, name: source.name },
        before: { credentialId: source.credential_id },
        after: { credentialId: chosen },
      },
      trx,
    );
  });
  return assetDetail(actor, collection, role, source.id);
}

// ---- Try ----

export interface TryServices {
  db: Database;
  runtime: SqlRuntime;
  connectors: ConnectorRegistry;
}

/** Keeps the first MAX_EXCHANGES_SHOWN exchanges of a run and counts the rest. */
export class ExchangeLog {
  readonly exchanges: HttpExchange[] = [];
  omitted = 0;
  readonly add = (exchange: HttpExchange) => {
    if (this.exchanges.length < MAX_EXCHANGES_SHOWN) this.exchanges.push(exchange);
    else this.omitted += 1;
  };
  view() {
    return { exchanges: this.exchanges, exchangesOmitted: this.omitted };
  }
}

/** An engine failure of the run, as Try reports it (parameter errors stay a 400: nothing was sent). */
function failureOf(error: unknown): { status: number; message: string } {
  if (!isEngineError(error)) throw error;
  const reply = engineErrorReply(error);
  if (error.code === 'INVALID_PARAMETERS' || error.code === 'INVALID_TRANSFORMATION') throw reply;
  return { status: reply.status, message: error.message };
}

/**
 * POST /api/WebApiDataSource/Preview ("Try"): runs a request that is not saved yet with the connection's settings
 * (and the credential picked, if any) at most WEB_API_PREVIEW_ROW_CAP rows. Bad definitions and values are a 400
 * before anything is sent; an upstream failure is answered in the reply (`error`) with the exchanges that led to
 * it, so the author sees what the API said.
 */
export async function tryWebApiRequest(
  s: TryServices,
  collection: Collection,
  input: PreviewInput,
): Promise<WebApiPreviewResult> {
  const connection = await webApiConnection(s.db, collection, input.connectionId);
  const credentialId = await connectionCredential(s.db, connection.id, input.credentialId ?? null);
  const checked = checkRequest(input.request);
  const parameters = await checkParameters(s.db, input.parameters, { collectionId: collection.id });
  const transformations = checkTransformations(input.transformations);
  const defined = new Set(parameters.map((p) => p.name));
  const missing = detectTemplateParameters(checked).filter((name) => !defined.has(name));
  if (missing.length > 0) throw validation({ request: missing.map(templatePlaceholderUndefined) });

  const credential = credentialId === null ? undefined : await findCredentialRow(s.db, credentialId);
  const settings = httpConnectorSettings(connection, credential, s.runtime);
  const connector = s.connectors.get(String(connection.id), settings);
  const request = credentialId === null ? checked : { ...checked, credential: credentialKey(credentialId) };
  const rowCap = Math.min(input.rowCap, WEB_API_PREVIEW_ROW_CAP);
  const log = new ExchangeLog();
  const startedAt = performance.now();
  let boundValues: Record<string, unknown> = {};
  try {
    const options = await parameterOptions(s, collection.id, parameters, input.values);
    const result = await runQuery({
      connector,
      sql: httpRequestText(request),
      parameters,
      values: input.values as never,
      parameterOptions: options,
      transformations,
      rowCap,
      readLimit: rowCap + 1,
      timeoutMs: input.timeoutMs,
      onExchange: log.add,
    });
    boundValues = result.stats.boundValues;
    const { rows, truncated } = await previewRows(result, rowCap);
    const durationMs = performance.now() - startedAt;
    return { columns: result.columns, rows, truncated, durationMs, boundValues, error: null, ...log.view() };
  } catch (error) {
    const failure = failureOf(error);
    const durationMs = performance.now() - startedAt;
    return { columns: [], rows: [], truncated: false, durationMs, boundValues, error: failure, ...log.view() };
  }
}
