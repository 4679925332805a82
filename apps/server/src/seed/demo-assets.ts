import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parameterDefinitionSchema } from '@datalab/contract/parameters';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { DEMO_SEED_LOCK, lockFor } from '../db/locks.ts';
import { newUid } from '../modules/collections/service.ts';
import { collectionFolder } from '../modules/connections/sqlite-files.ts';
import { ensureShopDatabase } from './shop-database.ts';

// The demo's SQL side: the sample shop as a connection "Shop" of Sales (and of Operations), and assets
// that between them use every parameter type, a list parameter, a parameter data source (Regions), a dependent pair
// (region → country) and a mask rule on customer e-mails. Seeded once (remembered in app_state), like the rest of
// the demo, so what people delete stays deleted.
//
// Like every SQLite file, the shop lives in its collection's own folder (DATA_DIR/sqlite/<uid>/shop.sqlite): each
// demo collection has its copy, which no other collection's connection can open. The demo's own connections are
// remembered (app_state `demo.shopConnections`) and their files made again whenever missing. Installs seeded when
// the shop was one file shared by path (DATA_DIR/demo/shop.sqlite) have their demo connections moved to their
// collections' copies at start, once; another connection naming that old path opens nothing.

const SEEDED_KEY = 'demo.sqlAssets.seeded';
const CONNECTIONS_KEY = 'demo.shopConnections';
/** The shop's file in a demo collection's folder (what the demo connections name). */
export const DEMO_SHOP_FILE = 'shop.sqlite';
/** Where installs seeded before the per-collection folders kept the one shared shop, relative to DATA_DIR. */
export const LEGACY_DEMO_SHOP_PATH = 'demo/shop.sqlite';
const DEMO_COLLECTIONS = ['sales', 'operations'];

interface DemoAsset {
  name: string;
  description: string;
  sql: string;
  parameters?: Record<string, unknown>[];
  transformations?: { name: string; rules: Record<string, unknown>[] }[];
  cacheTtlSeconds?: number;
}

const ORDERS_SQL = `select o.id as order_id, o.ordered_at, c.name as customer, c.email, co.name as country,
       p.name as product, o.quantity, o.total, o.status
  from orders o
  join customers c on c.id = o.customer_id
  join countries co on co.id = c.country_id
  join products p on p.id = o.product_id
 where co.region_id = :region
   and co.code in (:country)
   and (:from is null or o.ordered_at >= :from)
   and (:minTotal is null or o.total >= :minTotal)
 order by o.ordered_at desc`;

const CUSTOMERS_SQL = `select c.name as customer, c.email, c.segment, count(o.id) as orders,
       round(sum(o.total), 2) as revenue, max(o.ordered_at) as last_order
  from customers c
  join orders o on o.customer_id = c.id
 where (:segment is null or c.segment = :segment)
   and (:since is null or datetime(o.ordered_at) >= datetime(:since))
   and (:includeCancelled = 1 or o.status <> 'cancelled')
 group by c.id
having count(o.id) >= :minOrders
 order by revenue desc`;

/** Sales: Regions and Countries feed the Orders asset's region → country dropdowns. */
const salesAssets = (ids: Map<string, number>): DemoAsset[] => [
  {
    name: 'Regions',
    description: 'The shop’s sales regions; feeds the region dropdowns.',
    sql: 'select id, name from regions order by name',
    cacheTtlSeconds: 300,
  },
  {
    name: 'Countries by region',
    description: 'The countries of one region; feeds the dependent country dropdown.',
    sql: 'select code, name from countries where region_id = :region order by name',
    parameters: [{ name: 'region', label: 'Region', type: 'integer', required: true }],
    cacheTtlSeconds: 300,
  },
  {
    name: 'Orders by country',
    description: 'Orders of customers in the chosen countries of a region, newest first. E-mails are masked.',
    sql: ORDERS_SQL,
    parameters: [
      {
        name: 'region',
        label: 'Region',
        type: 'integer',
        required: true,
        allowedValues: { kind: 'dataSource', dataSourceId: ids.get('Regions'), valueColumn: 'id', labelColumn: 'name' },
      },
      {
        name: 'country',
        label: 'Countries',
        type: 'string',
        list: true,
        required: true,
        allowedValues: {
          kind: 'dataSource',
          dataSourceId: ids.get('Countries by region'),
          valueColumn: 'code',
          labelColumn: 'name',
          dependsOn: ['region'],
        },
      },
      { name: 'from', label: 'Ordered on or after', type: 'date', min: '2023-01-01' },
      { name: 'minTotal', label: 'Minimum total', type: 'decimal', min: 0 },
    ],
    transformations: [
      { name: 'Privacy', rules: [{ type: 'mask', column: 'email', mode: 'partial', keepFirst: 2, keepLast: 0 }] },
    ],
  },
  {
    name: 'Customer activity',
    description: 'Orders and revenue per customer; filter by segment, period and cancelled orders.',
    sql: CUSTOMERS_SQL,
    parameters: [
      {
        name: 'segment',
        label: 'Segment',
        type: 'string',
        pattern: '^[A-Z][a-z]+$',
        allowedValues: { kind: 'fixed', options: ['Consumer', 'Business', 'Reseller'].map((value) => ({ value })) },
      },
      { name: 'since', label: 'Ordered since', type: 'date-time' },
      { name: 'includeCancelled', label: 'Include cancelled orders', type: 'boolean', default: false },
      { name: 'minOrders', label: 'At least this many orders', type: 'integer', default: 1, min: 1, max: 1000 },
    ],
    transformations: [{ name: 'Privacy', rules: [{ type: 'mask', column: 'email', mode: 'hash', salt: 'demo' }] }],
  },
];

const operationsAssets: DemoAsset[] = [
  {
    name: 'Products by category',
    description: 'The product range with prices; pick categories, active products only by default.',
    sql: `select id, name, category, unit_price, active from products
 where category in (:categories) and (:activeOnly = 0 or active = 1) order by category, name`,
    parameters: [
      {
        name: 'categories',
        label: 'Categories',
        type: 'string',
        list: true,
        required: true,
        allowedValues: { kind: 'fixed', options: ['Coffee', 'Tea', 'Equipment', 'Bakery'].map((value) => ({ value })) },
      },
      { name: 'activeOnly', label: 'Active products only', type: 'boolean', default: true },
    ],
  },
];

async function insertAsset(db: Database, collectionId: number, connectionId: number, asset: DemoAsset, at: string) {
  const { id } = await db
    .insertInto('data_sources')
    .values({
      uid: newUid(),
      collection_id: collectionId,
      connection_id: connectionId,
      name: asset.name,
      description: asset.description,
      kind: 'sql',
      sql_text: asset.sql,
      cache_ttl_seconds: asset.cacheTtlSeconds ?? 60,
      // The demo's assets are tools of the MCP endpoint, so an AI assistant can be tried at once.
      mcp_available: 1,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, definition] of (asset.parameters ?? []).entries()) {
    const values = { data_source_id: id, position, name: String(definition['name']), created_at: at, updated_at: at };
    await db
      .insertInto('parameters')
      // Stored as a save stores it (defaults filled): saving the asset unchanged leaves the text as it is.
      .values({ ...values, definition: JSON.stringify(parameterDefinitionSchema.parse(definition)) })
      .execute();
  }
  for (const [position, t] of (asset.transformations ?? []).entries()) {
    const row = await db
      .insertInto('transformations')
      .values({ data_source_id: id, position, name: t.name, created_at: at, updated_at: at })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [rulePosition, rule] of t.rules.entries()) {
      const values = { transformation_id: row.id, position: rulePosition, created_at: at, updated_at: at };
      await db
        .insertInto('transformation_rules')
        .values({ ...values, rule: JSON.stringify(rule) })
        .execute();
    }
  }
  return id;
}

async function seedCollection(
  db: Database,
  collectionName: string,
  assets: (ids: Map<string, number>) => DemoAsset[],
): Promise<number | undefined> {
  const collection = await db
    .selectFrom('collections')
    .select('id')
    .where('name_key', '=', collectionName.toLowerCase())
    .executeTakeFirst();
  if (!collection) return; // deleted by someone: nothing to add to
  const at = new Date().toISOString();
  const { id: connectionId } = await db
    .insertInto('connections')
    .values({
      collection_id: collection.id,
      name: 'Shop',
      name_key: 'shop',
      description: 'The sample shop database (SQLite, read-only)',
      kind: 'sql',
      driver: 'sqlite',
      database_name: DEMO_SHOP_FILE,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids = new Map<string, number>();
  // In order: a later asset's parameters name the ids of earlier ones (its parameter data sources).
  const count = assets(ids).length;
  for (let index = 0; index < count; index += 1) {
    const asset = assets(ids)[index];
    if (asset) ids.set(asset.name, await insertAsset(db, collection.id, connectionId, asset, at));
  }
  return connectionId;
}

async function rememberConnections(db: Database, ids: number[]): Promise<void> {
  await db
    .insertInto('app_state')
    .values({ key: CONNECTIONS_KEY, value: JSON.stringify(ids) })
    .execute();
}

/**
 * An install seeded with the one shared shop file: its demo connections (in the demo collections, named the old
 * path, made by the seed — no later than its record) move to their collections' copies. Once: the ids are recorded.
 */
async function moveLegacyConnections(db: Database, seededAt: string): Promise<void> {
  const rows = await db
    .selectFrom('connections')
    .innerJoin('collections', 'collections.id', 'connections.collection_id')
    .select(['connections.id as id'])
    .where('connections.driver', '=', 'sqlite')
    .where('connections.database_name', '=', LEGACY_DEMO_SHOP_PATH)
    .where('collections.name_key', 'in', DEMO_COLLECTIONS)
    .where('connections.created_at', '<=', seededAt)
    .execute();
  const ids = rows.map((row) => row.id);
  if (ids.length > 0) {
    await db
      .updateTable('connections')
      .set({ database_name: DEMO_SHOP_FILE, updated_at: new Date().toISOString() })
      .where('id', 'in', ids)
      .execute();
  }
  await rememberConnections(db, ids);
}

/** The demo connections' collections, whose folders need the shop. */
async function shopFolders(app: FastifyInstance): Promise<string[]> {
  const state = await app.db
    .selectFrom('app_state')
    .select('value')
    .where('key', '=', CONNECTIONS_KEY)
    .executeTakeFirst();
  const ids = state ? (JSON.parse(state.value) as number[]) : [];
  if (ids.length === 0) return [];
  const rows = await app.db
    .selectFrom('connections')
    .innerJoin('collections', 'collections.id', 'connections.collection_id')
    .select('collections.uid as uid')
    .where('connections.id', 'in', ids)
    .where('connections.database_name', '=', DEMO_SHOP_FILE)
    .execute();
  return rows.map((row) => collectionFolder(app.sqlRuntime.dataDir, row.uid));
}

/** Each demo connection's shop, made once and copied to the other folders (or taken from the old shared file). */
function ensureShops(app: FastifyInstance, folders: string[]): void {
  const orders = app.config.demoShopOrders;
  const files = folders.map((folder) => join(folder, DEMO_SHOP_FILE));
  const legacy = join(app.sqlRuntime.dataDir, LEGACY_DEMO_SHOP_PATH);
  let source = files.find((file) => existsSync(file)) ?? (existsSync(legacy) ? legacy : undefined);
  for (const file of files) {
    if (existsSync(file)) continue;
    if (source) {
      mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
      copyFileSync(source, file);
    } else {
      ensureShopDatabase(file, { orders, customers: Math.max(50, Math.round(orders / 20)) });
      source = file;
    }
  }
}

/** Once, the demo's connections and assets; then, whenever missing, the shop files they open. */
export async function seedDemoAssets(app: FastifyInstance): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    await lockFor(trx, DEMO_SEED_LOCK);
    const seeded = await trx.selectFrom('app_state').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
    const remembered = await trx
      .selectFrom('app_state')
      .select('key')
      .where('key', '=', CONNECTIONS_KEY)
      .executeTakeFirst();
    if (seeded) {
      if (!remembered) await moveLegacyConnections(trx, seeded.value);
      return;
    }
    const ids = [
      await seedCollection(trx, 'Sales', salesAssets),
      await seedCollection(trx, 'Operations', () => operationsAssets),
    ].filter((id): id is number => id !== undefined);
    await rememberConnections(trx, ids);
    await trx.insertInto('app_state').values({ key: SEEDED_KEY, value: new Date().toISOString() }).execute();
  });
  ensureShops(app, await shopFolders(app));
}
