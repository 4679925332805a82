import type { CacheEntryType } from '@datalab/contract/api/caching';
import { notFound } from '../../lib/errors.ts';
import { assetIdOfKey, type ResultCache } from '../../lib/result-cache.ts';
import type { Actor } from '../access/change-access.service.ts';
import { findAssetNames } from './repository.ts';
import { presentEntry, presentValue, type AssetRef } from './presenter.ts';

// Cache management (canManageUsers): list, look at, remove, purge. The entries live in the result cache
// (in process or Redis); every removal and purge is written to the audit log with who did it and what went.

const ENTITY = 'Cache entry';

export async function listEntries(
  actor: Pick<Actor, 'db'>,
  cache: ResultCache,
  query: { type?: CacheEntryType | undefined; page: number; pageSize: number },
) {
  const now = Date.now();
  const all = (await cache.keys(query.type)).filter((info) => info.createdAt.getTime() + info.ttlMs > now);
  all.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || a.key.localeCompare(b.key));
  const shown = all.slice((query.page - 1) * query.pageSize, query.page * query.pageSize);
  const ids = [...new Set(shown.map((info) => assetIdOfKey(info.key)).filter((id) => id !== undefined))];
  const assets = new Map<number, AssetRef>(
    (await findAssetNames(actor.db, ids)).map((row) => [row.id, { uid: row.uid, name: row.name }]),
  );
  return {
    items: shown.map((info) => presentEntry(info, assets.get(assetIdOfKey(info.key) ?? -1) ?? null, now)),
    totalCount: all.length,
    page: query.page,
    pageSize: query.pageSize,
    totalBytes: all.reduce((sum, info) => sum + info.size, 0),
  };
}

/** One entry's value; an entry that is gone, or not of the type asked, is not found. */
export async function entryValue(cache: ResultCache, key: string, type: CacheEntryType) {
  const entry = await cache.peek(key);
  if (!entry || entry.type !== type) throw notFound(ENTITY, key);
  return presentValue(entry);
}

export async function removeEntry(actor: Actor, cache: ResultCache, key: string) {
  const entry = await cache.peek(key);
  const isRemoved = await cache.remove(key);
  if (!isRemoved) throw notFound(ENTITY, key);
  await actor.audit(
    {
      action: 'remove',
      target: { type: 'cache entry', id: key },
      before: entry ? { type: entry.type, size: entry.size, hits: entry.hits } : null,
    },
    actor.db,
  );
  return { removed: 1 };
}

export async function purgeEntries(actor: Actor, cache: ResultCache, type: CacheEntryType | undefined) {
  const removed = await cache.purge(type);
  await actor.audit(
    { action: 'purge', target: { type: 'cache', id: type ?? 'all', name: type ?? 'all types' }, after: { removed } },
    actor.db,
  );
  return { removed };
}
