import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { TestApp } from '../../testing/app.ts';
import { unique, type Person } from '../../testing/builders.ts';
import { createPostgresDatabase } from '../../testing/stores.ts';

// Test data for downloads: a small orders table in a SQLite file under DATA_DIR and in a fresh PostgreSQL
// database, and connections and assets over them, made through the management API by the collection's Owner.

export const ORDER_COUNT = 20;
const REGIONS = ['North', 'South', 'West', 'East'];

const orderRows = () =>
  Array.from({ length: ORDER_COUNT }, (_, index) => ({
    id: index + 1,
    region: REGIONS[index % REGIONS.length]!,
    customer: index === 3 ? '=HYPERLINK("x")' : `customer ${index + 1}`,
    amount: (index + 1) * 10,
  }));

const CREATE =
  'create table orders (id integer primary key, region text not null, customer text not null, amount integer)';

/** A SQLite database under DATA_DIR; answers its path relative to DATA_DIR. */
export function createSqliteSource(t: TestApp): string {
  const relative = join('sources', `${unique('shop')}.sqlite`);
  mkdirSync(join(t.config.dataDir, 'sources'), { recursive: true });
  const db = new DatabaseSync(join(t.config.dataDir, relative));
  db.exec(CREATE);
  const insert = db.prepare('insert into orders (id, region, customer, amount) values (?, ?, ?, ?)');
  for (const row of orderRows()) insert.run(row.id, row.region, row.customer, row.amount);
  db.close();
  return relative;
}

export async function createPostgresSource(): Promise<{ url: URL; drop: () => Promise<void> }> {
  const database = await createPostgresDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(CREATE);
    for (const row of orderRows()) {
      await client.query('insert into orders values ($1, $2, $3, $4)', [row.id, row.region, row.customer, row.amount]);
    }
  } finally {
    await client.end();
  }
  return { url: new URL(database.url), drop: database.drop };
}

export interface CollectionRef {
  id: number;
  uid: string;
}

export async function buildConnection(
  owner: Person,
  collection: CollectionRef,
  source: { driver: 'sqlite'; path: string } | { driver: 'postgres'; url: URL },
): Promise<number> {
  const where =
    source.driver === 'sqlite'
      ? { database: source.path }
      : {
          host: source.url.hostname,
          port: Number(source.url.port || 5432),
          database: source.url.pathname.slice(1),
          username: decodeURIComponent(source.url.username || 'postgres'),
        };
  const response = await owner.call('POST', '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: unique('conn'),
    kind: source.driver,
    ...where,
    poolMax: 5,
    acquireTimeoutMs: 2000,
  });
  if (response.statusCode !== 201) throw new Error(`buildConnection: ${response.statusCode} ${response.body}`);
  return response.json<{ id: number }>().id;
}

export async function buildAsset(
  owner: Person,
  collection: CollectionRef,
  connectionId: number,
  asset: { sql: string; parameters?: Record<string, unknown>[] },
) {
  const response = await owner.call('POST', '/api/SqlDataSource', {
    collectionUid: collection.uid,
    connectionId,
    name: unique('Orders'),
    sql: asset.sql,
    cacheTtlSeconds: 0,
    rowCap: 1000,
    timeoutMs: 30_000,
    parameters: asset.parameters ?? [],
    transformations: [],
  });
  if (response.statusCode !== 201) throw new Error(`buildAsset: ${response.statusCode} ${response.body}`);
  return response.json<{ id: number; uid: string }>();
}

/** The usage records of one asset, once everything buffered is written. */
export async function usageOf(t: TestApp, uid: string) {
  await t.app.usage.flush();
  return t.app.db.selectFrom('usage_records').selectAll().where('data_source_uid', '=', uid).orderBy('id').execute();
}
