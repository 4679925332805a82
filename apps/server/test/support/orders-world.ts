import { afterAll, beforeAll } from 'vitest';
import type { TestApp } from './app.ts';
import { buildCollection, buildPerson, type Person } from './builders.ts';
import {
  buildAsset,
  buildConnection,
  createPostgresSource,
  createSqliteSource,
  type AssetOverrides,
  type CollectionRef,
} from './orders-source.ts';

// The world of the calling-layer and download suites: an Owner, a Reader and a stranger, and a collection with a
// connection to a SQLite and to a PostgreSQL orders source (orders-source.ts).

export interface OrdersWorld {
  owner: Person;
  /** Reader on the collection. */
  reader: Person;
  /** Signed in, with no role on the collection. */
  stranger: Person;
  collection: CollectionRef;
  sqliteConnection: number;
  postgresConnection: number;
  /** A SQL asset of the collection over `connectionId`, made by its Owner through the management API. */
  asset: (connectionId: number, overrides: AssetOverrides) => Promise<{ id: number; uid: string }>;
}

/** Builds the world; `drop` removes its PostgreSQL source. */
export async function buildOrdersWorld(t: TestApp): Promise<OrdersWorld & { drop: () => Promise<void> }> {
  const [owner, reader, stranger] = await Promise.all([buildPerson(t), buildPerson(t), buildPerson(t)]);
  const collection = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
  const sqliteConnection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
  const postgres = await createPostgresSource();
  try {
    const postgresConnection = await buildConnection(owner, collection, { driver: 'postgres', url: postgres.url });
    return {
      owner,
      reader,
      stranger,
      collection,
      sqliteConnection,
      postgresConnection,
      asset: (connectionId, overrides) => buildAsset(owner, collection, connectionId, overrides),
      drop: postgres.drop,
    };
  } catch (error) {
    await postgres.drop();
    throw error;
  }
}

/**
 * The world of the suite this is called in: built before its tests, its PostgreSQL source dropped after them. Its
 * fields are read in tests and later hooks; read earlier, they throw.
 */
export function useOrdersWorld(context: () => TestApp): OrdersWorld {
  let built: (OrdersWorld & { drop: () => Promise<void> }) | undefined;
  beforeAll(async () => {
    built = await buildOrdersWorld(context());
  });
  afterAll(async () => built?.drop());
  const ready = () => {
    if (!built) throw new Error('the orders world is built in beforeAll: read it in a test or a later hook');
    return built;
  };
  return new Proxy({} as OrdersWorld, { get: (_target, field) => ready()[field as keyof OrdersWorld] });
}
