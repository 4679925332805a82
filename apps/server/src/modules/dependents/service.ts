import type { Dependent, DependentGroup, DependentKind, Dependents } from '@datalab/contract/api/dependents';
import type { Database } from '../../db/database.ts';
import type { Collection, DataSource } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import type { ResultCache } from '../../lib/result-cache.ts';
import { assetsFedBy, requireAsset } from '../data-sources/assets.service.ts';
import {
  assetsNamed,
  assetsOfCollection,
  assetsUsing,
  connectionsOfCollection,
  countJobsOfAssets,
  countJobsOfCollection,
  credentialsOfConnection,
  credentialsOfConnections,
  findConnectionName,
  findCredentialName,
  liveTokensOfCollection,
} from './repository.ts';
import { cachedKeysOf } from './leftovers.service.ts';

// What a deletion takes with it and what stops it. The delete calls refuse (409) on the same blockers; what is
// listed under `removes` goes in the deletion itself: a data asset's (or a collection's assets') download jobs and
// their files, and their cached results, are removed once the deletion is committed (removeLeftovers).

const SHOWN = 50;

type Named = { ref: string | null; name: string };

function group(kind: DependentKind, items: Named[], count = items.length): DependentGroup[] {
  if (count === 0) return [];
  return [{ kind, count, items: items.slice(0, SHOWN).map((item) => ({ kind, ...item })) }];
}

function counted(kind: DependentKind, count: number): DependentGroup[] {
  return group(kind, [], count);
}

function blockersOf(items: Named[], kind: DependentKind, reason: string): Dependents['blockers'] {
  return items.map((item) => ({ kind, ...item, reason }));
}

export async function sqlConnectionDependents(db: Database, id: number): Promise<Dependents> {
  const row = await findConnectionName(db, id);
  if (!row) throw notFound('SQL connection', id);
  const assets = await assetsUsing(db, 'connection_id', id);
  return { name: row.name, blockers: blockersOf(assets, 'dataAsset', 'uses this connection'), removes: [] };
}

export async function webApiConnectionDependents(db: Database, id: number): Promise<Dependents> {
  const row = await findConnectionName(db, id);
  if (!row) throw notFound('Web API connection', id);
  const assets = await assetsUsing(db, 'connection_id', id);
  const credentials = await credentialsOfConnection(db, id);
  return {
    name: row.name,
    blockers: blockersOf(assets, 'dataAsset', 'uses this connection'),
    removes: group(
      'credential',
      credentials.map((c) => ({ ref: String(c.id), name: c.name })),
    ),
  };
}

export async function credentialDependents(db: Database, id: number): Promise<Dependents> {
  const row = await findCredentialName(db, id);
  if (!row) throw notFound('Credential', id);
  const assets = await assetsUsing(db, 'credential_id', id);
  return { name: row.name, blockers: blockersOf(assets, 'dataAsset', 'sends this credential'), removes: [] };
}

export async function dataSourceDependents(db: Database, cache: ResultCache, idOrUid: string): Promise<Dependents> {
  const source = await requireAsset(db, idOrUid);
  const fed = await assetsFedByNamed(db, source);
  return {
    name: source.name,
    blockers: blockersOf(fed, 'dataAsset', "takes a parameter's values from this data asset"),
    removes: [
      ...counted('download', await countJobsOfAssets(db, [source.id])),
      ...counted('cachedResult', (await cachedKeysOf(cache, [source.id])).length),
    ],
  };
}

async function assetsFedByNamed(db: Database, source: DataSource): Promise<Named[]> {
  const names = await assetsFedBy(db, source);
  if (names.length === 0) return [];
  const rows = await assetsNamed(db, source.collection_id, names);
  return rows.map((row) => ({ ref: row.uid, name: row.name }));
}

export async function collectionDependents(
  db: Database,
  cache: ResultCache,
  collection: Collection,
): Promise<Dependents> {
  const assets = await assetsOfCollection(db, collection.id);
  const connections = await connectionsOfCollection(db, collection.id);
  const webIds = connections.filter((c) => c.kind === 'webapi').map((c) => c.id);
  const credentials = await credentialsOfConnections(db, webIds);
  const nowIso = new Date().toISOString();
  const tokens = await liveTokensOfCollection(db, collection.id, nowIso);
  const assetIds = assets.map((a) => a.id);
  const jobs = await countJobsOfCollection(db, collection.id);
  const named = (kind: 'sql' | 'webapi') =>
    connections.filter((c) => c.kind === kind).map((c) => ({ ref: String(c.id), name: c.name }));
  return {
    name: collection.name,
    blockers: [],
    removes: [
      ...group(
        'dataAsset',
        assets.map((a) => ({ ref: a.uid, name: a.name })),
      ),
      ...group('sqlConnection', named('sql')),
      ...group('webApiConnection', named('webapi')),
      ...group(
        'credential',
        credentials.map((c) => ({ ref: String(c.id), name: c.name })),
      ),
      ...group(
        'token',
        tokens.map((t) => ({ ref: String(t.id), name: t.name })),
      ),
      ...counted('download', jobs),
      ...counted('cachedResult', (await cachedKeysOf(cache, assetIds)).length),
    ],
  };
}

/** A blocker list as the sentence a 409 carries. */
export function blockersText(blockers: readonly Dependent[]): string {
  return blockers.map((b) => b.name).join(', ');
}
