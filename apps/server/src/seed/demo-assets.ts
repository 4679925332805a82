import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { newUid } from '../modules/collections/service.ts';
import { ensureShopDatabase } from './shop-database.ts';

// The demo's SQL side (issue 8): the sample shop at DATA_DIR/demo/shop.sqlite as a connection "Shop" of Sales
// (and of Operations), and assets that between them use every parameter type, a list parameter, a parameter
// data source (Regions), a dependent pair (region → country) and a mask rule on customer e-mails. Seeded once
// (remembered in app_state), like the rest of the demo, so what people delete stays deleted.

const SEEDED_KEY = 'demo.sqlAssets.seeded';
export const DEMO_SHOP_PATH = 'demo/shop.sqlite';

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
      .values({ ...values, definition: JSON.stringify(definition) })
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

async function seedCollection(db: Database, collectionName: string, assets: (ids: Map<string, number>) => DemoAsset[]) {
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
      database_name: DEMO_SHOP_PATH,
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
}

/** The shop database (whenever missing) and, once, its connections and assets. */
export async function seedDemoAssets(app: FastifyInstance): Promise<void> {
  const orders = app.config.demoShopOrders;
  ensureShopDatabase(join(app.sqlRuntime.dataDir, DEMO_SHOP_PATH), {
    orders,
    customers: Math.max(50, Math.round(orders / 20)),
  });
  await app.db.transaction().execute(async (trx) => {
    const seeded = await trx.selectFrom('app_state').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
    if (seeded) return;
    await seedCollection(trx, 'Sales', salesAssets);
    await seedCollection(trx, 'Operations', () => operationsAssets);
    await trx.insertInto('app_state').values({ key: SEEDED_KEY, value: new Date().toISOString() }).execute();
  });
}
