import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, unique, type Person } from '../../../test/support/builders.ts';

// Test data for cache management: a collection of `owner` with a SQLite source of ten orders and a connection to
// it, made through the management API; cached assets over it.

export interface CacheWorld {
  /** A SQL asset over `orders (id, region)` with a cache TTL, taking an integer `most` when asked. */
  cachedAsset: (options?: { name?: string; withParameter?: boolean }) => Promise<{ id: number; uid: string }>;
}

export async function buildCacheWorld(t: TestApp, owner: Person): Promise<CacheWorld> {
  const relative = join('sources', `${unique('cache')}.sqlite`);
  mkdirSync(join(t.config.dataDir, 'sources'), { recursive: true });
  const source = new DatabaseSync(join(t.config.dataDir, relative));
  source.exec('create table orders (id integer primary key, region text not null)');
  for (let id = 1; id <= 10; id += 1) source.prepare('insert into orders values (?, ?)').run(id, `Region ${id % 3}`);
  source.close();

  const collection = await buildCollection(t, owner);
  const made = await owner.call('POST', '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: unique('conn'),
    kind: 'sqlite',
    // The folder test apps share with every collection (SQLITE_SHARED_PATHS): named by its absolute path.
    database: join(t.config.dataDir, relative),
  });
  if (made.statusCode !== 201) throw new Error(`connection: ${made.statusCode} ${made.body}`);
  const connectionId = made.json<{ id: number }>().id;

  return {
    cachedAsset: async ({ name = unique('Orders'), withParameter = true } = {}) => {
      const response = await owner.call('POST', '/api/SqlDataSource', {
        collectionUid: collection.uid,
        connectionId,
        name,
        sql: withParameter
          ? 'select id, region from orders where id <= :most order by id'
          : 'select id, region from orders order by id',
        cacheTtlSeconds: 120,
        rowCap: 1000,
        timeoutMs: 10_000,
        parameters: withParameter ? [{ name: 'most', type: 'integer', required: true }] : [],
        transformations: [],
      });
      if (response.statusCode !== 201) throw new Error(`asset: ${response.statusCode} ${response.body}`);
      return response.json<{ id: number; uid: string }>();
    },
  };
}
