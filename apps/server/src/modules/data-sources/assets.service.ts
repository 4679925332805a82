import { roleOfRank, roleRank, type DataRole } from '@datalab/contract/api/data-roles';
import type { ClientTool } from '@datalab/contract/api/data-sources';
import type { createSqlDataSource, updateSqlDataSource } from '@datalab/contract/api/sql-data-sources';
import { messages } from '@datalab/contract/messages';
import type { Insertable } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/database.ts';
import type { Collection, DataSource, DataSourcesTable } from '../../db/schema.ts';
import { AppError, invalid, nameConflict, notFound } from '../../lib/errors.ts';
import type { Actor } from '../access/change-access.service.ts';
import { callerAccess, can } from '../access/policy.ts';
import { newUid } from '../collections/service.ts';
import { loadParts } from './definition.service.ts';
import { beginHistory, recordVersion } from './history.service.ts';
import {
  deleteTransformations,
  insertTransformation,
  replaceClientTools,
  replaceParameters,
  upsertClientTool,
} from './parts.repository.ts';
import { deleteJobsOf, removeLeftovers, type DeletionStores } from '../dependents/leftovers.service.ts';
import { presentDetail, presentSummary } from './presenter.ts';
import {
  findCollectionIdByUid,
  deleteAsset,
  findAssetByName,
  findConnectionRow,
  findDataSource,
  findParametersOfCollection,
  insertAsset,
  listAssets,
  updateAsset,
} from './repository.ts';
import { assertPlaceholdersDefined, checkParameters, checkTransformations } from './validation.ts';
import { findCredentialSummary } from './web-api.repository.ts';

// Data assets: listing what a caller may call, one asset whole, and creating, changing and deleting SQL assets
// with their parameters, transformations and client tools in one transaction: a save that fails anywhere leaves
// the asset as it was. Every change bumps the asset's version (the cache's key), keeps the definition it leaves
// as a version of the asset's history when it differs (history.service.ts), and what is saved defines every
// `:name` its SQL uses.

export const ASSET = 'Data asset';

export async function listCallable(
  actor: Pick<Actor, 'db' | 'access' | 'user'>,
  query: {
    page: number;
    pageSize: number;
    search?: string | undefined;
    collectionUid?: string | undefined;
    kind?: 'sql' | 'webapi' | undefined;
  },
) {
  const { ranks } = await callerAccess(actor.access, actor.user);
  let ids = [...ranks.entries()].filter(([, rank]) => rank >= roleRank.Reader).map(([id]) => id);
  if (query.collectionUid) {
    const wanted = await findCollectionIdByUid(actor.db, query.collectionUid);
    ids = ids.filter((id) => id === wanted?.id);
  }
  const { rows, total } = await listAssets(actor.db, {
    collectionIds: ids,
    search: query.search,
    kind: query.kind,
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return {
    items: rows.map((row) => presentSummary(row, roleOfRank(ranks.get(row.collection_id)))),
    totalCount: total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function assetsOfCollection(db: Database, collection: Collection, role: DataRole | null) {
  const { rows } = await listAssets(db, { collectionIds: [collection.id], limit: 10_000, offset: 0 });
  return rows.map((row) => presentSummary(row, role));
}

export async function requireAsset(db: Database, idOrUid: string | number): Promise<DataSource> {
  const source = await findDataSource(db, idOrUid);
  if (!source) throw notFound(ASSET, idOrUid);
  return source;
}

export async function assetDetail(
  actor: Pick<Actor, 'db' | 'user'>,
  collection: Collection,
  role: DataRole | null,
  idOrUid: string | number,
) {
  const source = await requireAsset(actor.db, idOrUid);
  const [connection, parts, credential] = await Promise.all([
    source.connection_id === null ? undefined : findConnectionRow(actor.db, source.connection_id),
    loadParts(actor.db, source.id),
    source.credential_id === null ? undefined : findCredentialSummary(actor.db, source.credential_id),
  ]);
  const canEdit = can(actor.user, role, 'editAssets');
  return presentDetail(source, collection, connection, parts, role, canEdit, credential ?? null);
}

async function checkConnection(db: Database, collection: Collection, connectionId: number) {
  const connection = await findConnectionRow(db, connectionId);
  if (!connection || connection.collection_id !== collection.id || connection.kind !== 'sql') {
    throw invalid('connectionId', messages.doesNotExist('SQL connection', connectionId));
  }
}

export async function ensureNameFree(db: Database, collection: Collection, name: string, exceptId?: number) {
  const clash = await findAssetByName(db, collection.id, name);
  if (clash && clash.id !== exceptId) throw nameConflict(ASSET, name);
}

type Create = z.output<typeof createSqlDataSource>;
type Update = z.output<typeof updateSqlDataSource>;

const limitsOf = (body: Create | Update) => ({
  name: body.name,
  description: body.description,
  connection_id: body.connectionId,
  sql_text: body.sql,
  cache_ttl_seconds: body.cacheTtlSeconds,
  row_cap: body.rowCap,
  timeout_ms: body.timeoutMs,
  max_export_rows: body.maxExportRows,
  ...(body.mcpAvailable === undefined ? {} : { mcp_available: body.mcpAvailable ? 1 : 0 }),
});

export interface Parts {
  parameters: { name: string }[] | undefined;
  transformations: { name: string; rules: unknown[] }[] | undefined;
  clientTools: readonly ClientTool[] | undefined;
  /** Settings written over the client tools' (a restore brings them back with the tools). */
  clientToolSettings?: readonly { tool: ClientTool; settings: Record<string, unknown> }[] | undefined;
}

/** How an update was asked for: a restore of an old version names it, and brings back client tool settings. */
export interface SaveOptions {
  restoredFrom?: number;
  clientToolSettings?: Parts['clientToolSettings'];
}

/** The audit record's action and details of an update (or of a restore, which is one). */
export const updateAction = (options: SaveOptions, version: number | null) =>
  options.restoredFrom === undefined
    ? { action: 'dataAsset.update', after: { version } }
    : { action: 'dataAsset.restore', after: { restoredFrom: options.restoredFrom, version } };

export async function writeParts(
  trx: Database,
  id: number,
  { parameters, transformations, clientTools, clientToolSettings }: Parts,
  now: string,
) {
  if (parameters)
    await replaceParameters(
      trx,
      id,
      parameters.map((p) => ({ name: p.name, definition: p })),
      now,
    );
  if (transformations) {
    await deleteTransformations(trx, id);
    for (const [position, t] of transformations.entries()) {
      await insertTransformation(trx, id, position, t.name, t.rules, now);
    }
  }
  if (clientTools) await replaceClientTools(trx, id, clientTools, now);
  for (const { tool, settings } of clientToolSettings ?? []) await upsertClientTool(trx, id, tool, settings, now);
  await assertPlaceholdersDefined(trx, id, 'sql');
}

/** What one save of an asset writes: its own columns, its parts, and what its audit record adds. */
export interface AssetSave {
  name: string;
  /** The asset's own columns (what every kind shares is set by the save). */
  columns: Omit<Insertable<DataSourcesTable>, 'uid' | 'collection_id' | 'kind' | 'created_at' | 'updated_at'>;
  parts: Parts;
  audit?: { before?: Record<string, unknown>; after?: Record<string, unknown> };
}

/** A new asset of `kind`, its parts, its first version and its audit record, in one transaction; answers its id. */
export async function saveNewAsset(
  actor: Actor,
  collection: Collection,
  kind: DataSource['kind'],
  save: AssetSave,
): Promise<number> {
  const now = new Date().toISOString();
  return actor.db.transaction().execute(async (trx) => {
    await ensureNameFree(trx, collection, save.name);
    const created = await insertAsset(trx, {
      ...save.columns,
      uid: newUid(),
      collection_id: collection.id,
      kind,
      created_at: now,
      updated_at: now,
    });
    await writeParts(trx, created, save.parts, now);
    await recordVersion(trx, actor.user, created, now);
    const target = { type: 'data asset', id: created, name: save.name };
    await actor.audit({ action: 'dataAsset.create', target, ...save.audit }, trx);
    return created;
  });
}

/** An asset's new columns and parts, a version (a restore names the one it brings back) and the audit record. */
export async function saveAssetUpdate(
  actor: Actor,
  collection: Collection,
  source: DataSource,
  save: AssetSave,
  options: SaveOptions,
): Promise<void> {
  const now = new Date().toISOString();
  await actor.db.transaction().execute(async (trx) => {
    await ensureNameFree(trx, collection, save.name, source.id);
    await beginHistory(trx, source.id);
    await updateAsset(trx, source.id, { ...save.columns, updated_at: now });
    await writeParts(trx, source.id, { ...save.parts, clientToolSettings: options.clientToolSettings }, now);
    const version = await recordVersion(trx, actor.user, source.id, now, options.restoredFrom);
    const { action, after } = updateAction(options, version);
    const target = { type: 'data asset', id: source.id, name: save.name };
    await actor.audit({ action, target, ...save.audit, after: { ...after, ...save.audit?.after } }, trx);
  });
}

export async function createSqlAsset(actor: Actor, collection: Collection, role: DataRole | null, body: Create) {
  await checkConnection(actor.db, collection, body.connectionId);
  const parameters = await checkParameters(actor.db, body.parameters, { collectionId: collection.id });
  const transformations = checkTransformations(body.transformations);
  const id = await saveNewAsset(actor, collection, 'sql', {
    name: body.name,
    columns: limitsOf(body),
    parts: { parameters, transformations, clientTools: body.clientTools },
  });
  return assetDetail(actor, collection, role, id);
}

export async function updateSqlAsset(
  actor: Actor,
  collection: Collection,
  role: DataRole | null,
  body: Update,
  options: SaveOptions = {},
) {
  const source = await requireAsset(actor.db, body.uid);
  // A Web API asset changes through /api/WebApiDataSource (its request is not SQL).
  if (source.kind !== 'sql') throw notFound(ASSET, body.uid);
  await checkConnection(actor.db, collection, body.connectionId);
  const owner = { collectionId: collection.id, dataSourceId: source.id };
  const parameters = body.parameters && (await checkParameters(actor.db, body.parameters, owner));
  const transformations = body.transformations && checkTransformations(body.transformations);
  await saveAssetUpdate(
    actor,
    collection,
    source,
    { name: body.name, columns: limitsOf(body), parts: { parameters, transformations, clientTools: body.clientTools } },
    options,
  );
  return assetDetail(actor, collection, role, source.id);
}

/** The assets whose parameters take their allowed values from `source`. */
export async function assetsFedBy(db: Database, source: DataSource): Promise<string[]> {
  const rows = await findParametersOfCollection(db, source.collection_id);
  const feeds = (definition: string) => {
    const allowed = (JSON.parse(definition) as { allowedValues?: { kind?: string; dataSourceId?: unknown } })
      .allowedValues;
    const ref = allowed?.kind === 'dataSource' ? String(allowed.dataSourceId) : undefined;
    return ref === source.uid || ref === String(source.id);
  };
  return [
    ...new Set(rows.filter((row) => row.data_source_id !== source.id && feeds(row.definition)).map((r) => r.name)),
  ];
}

/** Deletes an asset no other asset's parameter takes values from; its download jobs, files and cached results go too. */
export async function deleteSqlAsset(actor: Actor, uid: string, stores: DeletionStores) {
  const source = await requireAsset(actor.db, uid);
  const fed = await assetsFedBy(actor.db, source);
  if (fed.length > 0) {
    const title = `${ASSET} ${source.name} feeds a parameter of ${fed.join(', ')}; change those parameters first`;
    throw new AppError({ status: 409, code: 'conflict', title });
  }
  const jobs = await actor.db.transaction().execute(async (trx) => {
    await deleteAsset(trx, source.id);
    const removed = await deleteJobsOf(trx, { dataSourceIds: [source.id] });
    await actor.audit(
      {
        action: 'dataAsset.delete',
        target: { type: 'data asset', id: source.id, name: source.name },
        after: { downloadsRemoved: removed.length },
      },
      trx,
    );
    return removed;
  });
  await removeLeftovers(stores, { jobs, dataSourceIds: [source.id] });
  return { uid: source.uid, deleted: true as const };
}
