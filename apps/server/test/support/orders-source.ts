import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { TestApp } from './app.ts';
import { unique, type Person } from './builders.ts';
import { grantPostgresReader, readerUrl } from './readers.ts';
import { createPostgresDatabase } from './stores.ts';

// Test data for the calling layer, downloads, faults and metrics: source databases (a SQLite file under DATA_DIR, a fresh PostgreSQL database)
// with a small orders table, and connections and assets over them, made through the management API.

export const ORDER_COUNT = 20;
const REGIONS = ['North', 'South', "O'Brien's", 'East'];

const orderRows = () =>
  Array.from({ length: ORDER_COUNT }, (_, index) => ({
    id: index + 1,
    region: REGIONS[index % REGIONS.length] ?? 'North',
    customer: index === 3 ? '=HYPERLINK("x")' : `customer ${index + 1}`,
    amount: (index + 1) * 10,
  }));

/**
 * A SQLite database in DATA_DIR/sources, the folder test apps share with every collection (SQLITE_SHARED_PATHS);
 * answers its absolute path.
 */
export function createSqliteSource(t: TestApp): string {
  const file = join(t.config.dataDir, 'sources', `${unique('shop')}.sqlite`);
  mkdirSync(join(t.config.dataDir, 'sources'), { recursive: true });
  const db = new DatabaseSync(file);
  db.exec('create table orders (id integer primary key, region text not null, customer text not null, amount integer)');
  const insert = db.prepare('insert into orders (id, region, customer, amount) values (?, ?, ?, ?)');
  for (const row of orderRows()) insert.run(row.id, row.region, row.customer, row.amount);
  db.close();
  return file;
}

/**
 * A fresh PostgreSQL database with the same table; dropped by the returned function. `url` signs in as the test
 * reader (SELECT only, as a data source's account must be); `adminUrl` as the service's superuser, for set-up.
 */
export async function createPostgresSource(): Promise<{ url: URL; adminUrl: URL; drop: () => Promise<void> }> {
  const database = await createPostgresDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(
      'create table orders (id integer primary key, region text not null, customer text not null, amount integer)',
    );
    for (const row of orderRows()) {
      await client.query('insert into orders values ($1, $2, $3, $4)', [row.id, row.region, row.customer, row.amount]);
    }
    await grantPostgresReader(client, new URL(database.url).pathname.slice(1));
  } finally {
    await client.end();
  }
  return { url: readerUrl(database.url), adminUrl: new URL(database.url), drop: database.drop };
}

export interface CollectionRef {
  id: number;
  uid: string;
}

/** A connection made by the collection's Owner through the management API. */
export async function buildConnection(
  owner: Person,
  collection: CollectionRef,
  source: { driver: 'sqlite'; path: string } | { driver: 'postgres'; url: URL },
  pool: { poolMax?: number; acquireTimeoutMs?: number } = {},
): Promise<number> {
  const where =
    source.driver === 'sqlite'
      ? { database: source.path }
      : {
          host: source.url.hostname,
          port: Number(source.url.port || 5432),
          database: source.url.pathname.slice(1),
          username: decodeURIComponent(source.url.username || 'postgres'),
          ...(source.url.password ? { password: decodeURIComponent(source.url.password) } : {}),
        };
  const response = await owner.call('POST', '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: unique('conn'),
    kind: source.driver,
    ...where,
    poolMax: pool.poolMax ?? 5,
    acquireTimeoutMs: pool.acquireTimeoutMs ?? 2000,
  });
  if (response.statusCode !== 201) throw new Error(`buildConnection: ${response.statusCode} ${response.body}`);
  return response.json<{ id: number }>().id;
}

export interface AssetOverrides {
  name?: string;
  sql: string;
  parameters?: Record<string, unknown>[];
  rules?: Record<string, unknown>[];
  cacheTtlSeconds?: number;
  rowCap?: number;
  timeoutMs?: number;
}

/** A SQL data asset made by the collection's Owner through the management API. */
export async function buildAsset(
  owner: Person,
  collection: CollectionRef,
  connectionId: number,
  asset: AssetOverrides,
) {
  const response = await owner.call('POST', '/api/SqlDataSource', {
    collectionUid: collection.uid,
    connectionId,
    name: asset.name ?? unique('Orders'),
    sql: asset.sql,
    cacheTtlSeconds: asset.cacheTtlSeconds ?? 0,
    rowCap: asset.rowCap ?? 1000,
    timeoutMs: asset.timeoutMs ?? 10_000,
    parameters: asset.parameters ?? [],
    transformations: asset.rules ? [{ name: 'Rules', rules: asset.rules }] : [],
  });
  if (response.statusCode !== 201) throw new Error(`buildAsset: ${response.statusCode} ${response.body}`);
  return response.json<{ id: number; uid: string }>();
}

/** The usage records of one asset, oldest first, once everything buffered is written. */
export async function usageOf(t: TestApp, uid: string) {
  await t.app.usage.flush();
  return t.app.db.selectFrom('usage_records').selectAll().where('data_source_uid', '=', uid).orderBy('id').execute();
}
