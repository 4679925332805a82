import type { OrdersWorld } from './orders-world.ts';

// Test data for exports at the export limit (MAX_EXPORT_ROWS): the note a cut file ends with, and per source an
// asset cut by the limit and one that stops exactly at it.

/** The note that ends a file cut at `limit` rows (the CSV record, the XLSX row). */
export const exportLimitNote = (limit: number) =>
  `# Truncated: the result has more rows than the export limit of ${limit}; this file holds the first ${limit}`;

/** Asset uids: `long` runs past the limit (all the orders), `exact` has `limit` rows. */
export interface LimitAssets {
  long: string;
  exact: string;
}

export async function buildLimitAssets(
  world: OrdersWorld,
  limit: number,
): Promise<Record<'postgres' | 'sqlite', LimitAssets>> {
  const pair = async (connectionId: number) => ({
    long: (await world.asset(connectionId, { sql: 'select id, region from orders order by id' })).uid,
    exact: (await world.asset(connectionId, { sql: `select id, region from orders where id <= ${limit} order by id` }))
      .uid,
  });
  return { postgres: await pair(world.postgresConnection), sqlite: await pair(world.sqliteConnection) };
}
