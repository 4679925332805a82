import { sql, type RawBuilder } from 'kysely';
import type { Granularity } from '@datalab/contract/api/reporting';
import { BUCKET_COLUMNS, rollupTable, type Grain } from '../../db/migrations/20261125_0012_usage_rollups.ts';
import type { Database } from '../../db/database.ts';

// Queries over the usage rollups (migration 0012). Each reads the coarsest grain that answers it:
// totals and series from the per-bucket table (everything) or the per-data-source one (a collection, an asset);
// data-source items from the per-data-source table; user items and distinct users from the per-user table
// (everything) or the fine table through its collection or data-source index (a scope, a page of data sources).
// Series read the granularity's table (hours, or days grouped by day or `week`); whole-period figures read the
// period's spans (period.ts: whole days from the daily tables). Every value is bound; table and column names come
// from the fixed lists of the migration.

/** A stretch of a period read from one rollup period: whole days from the daily tables, the rest from hourly ones. */
export interface Span {
  period: 'hourly' | 'daily';
  from: string;
  to: string;
}

export interface RollupScope {
  /** One collection's data sources. */
  collectionId?: number | undefined;
  /** One data asset. */
  dataSourceUid?: string | undefined;
}

export interface RollupQuery {
  granularity: Granularity;
  /** ISO text: the first bucket's start, inclusive. */
  from: string;
  /** ISO text: the end of the last bucket, exclusive. */
  to: string;
  /** The same period as whole days and edge hours. */
  spans: Span[];
  scope: RollupScope;
}

/** Sums of a set of rollup rows; numbers or (PostgreSQL bigint sums) numeric text. */
export type Sums = {
  calls: number | string;
  errors: number | string;
  cache_hits: number | string;
  row_count: number | string;
  byte_count: number | string;
} & Record<(typeof BUCKET_COLUMNS)[number], number | string>;

export type Dimension = 'data_source_uid' | 'user_key';

const isAll = (scope: RollupScope) => scope.collectionId === undefined && scope.dataSourceUid === undefined;

/** Where a scope's rows are: collection and data source are columns of the per-data-source and fine tables. */
function scopeFilter(scope: RollupScope): RawBuilder<unknown> {
  if (scope.dataSourceUid !== undefined) return sql` and data_source_uid = ${scope.dataSourceUid}`;
  if (scope.collectionId !== undefined) return sql` and collection_id = ${scope.collectionId}`;
  return sql``;
}

/** The table holding the sums a dimension needs in a scope. */
function sumsGrain(scope: RollupScope, dimension?: Dimension): Grain {
  if (dimension === 'user_key') return isAll(scope) ? 'user' : 'fine';
  if (dimension === 'data_source_uid') return 'source';
  return isAll(scope) ? 'total' : 'source';
}

/** Per-user rows of the scope: the per-user table for everything, else the fine table (filtered by scope). */
const usersGrain = (scope: RollupScope): Grain => (isAll(scope) ? 'user' : 'fine');

/**
 * The rows of the granularity's table in the period and scope, with an extra condition. `distinctUsers`: the
 * query reads only keys, so a weekly one bounds `week` rather than `bucket` (the same rows: the period is whole
 * weeks) and PostgreSQL answers from the (…, week, user_key) indexes alone. `scoped: false` for queries whose
 * extra condition already lies within the scope (a page of its data sources).
 */
function seriesRows(
  grain: Grain,
  query: RollupQuery,
  extra: RawBuilder<unknown> = sql``,
  options: { distinctUsers?: boolean; scoped?: boolean } = {},
) {
  const table = sql.table(rollupTable(grain, query.granularity === 'hour' ? 'hourly' : 'daily'));
  // Week indexes exist on the per-user table and, by data source, on the fine one (not by collection).
  const byCollection = options.scoped !== false && query.scope.collectionId !== undefined;
  const weekly = options.distinctUsers === true && query.granularity === 'week' && !byCollection;
  const range = sql.ref(weekly ? 'week' : 'bucket');
  const scope = options.scoped === false ? sql`` : scopeFilter(query.scope);
  return sql`${table} where ${range} >= ${query.from} and ${range} < ${query.to}${scope}${extra}`;
}

/** `(select columns … union all …) as r`: the rows of the period's spans in scope. */
function periodRows(grain: Grain, query: RollupQuery, columns: RawBuilder<unknown>, extra = sql``) {
  const parts = query.spans.map(
    (span) =>
      sql`select ${columns} from ${sql.table(rollupTable(grain, span.period))}
          where bucket >= ${span.from} and bucket < ${span.to}${scopeFilter(query.scope)}${extra}`,
  );
  return sql`(${sql.join(parts, sql` union all `)}) as r`;
}

const SUMMED = ['calls', 'errors', 'cache_hits', 'row_count', 'byte_count', ...BUCKET_COLUMNS] as const;
const sums = () => sql.join(SUMMED.map((column) => sql`sum(${sql.ref(column)}) as ${sql.ref(column)}`));
const seriesColumn = (granularity: Granularity) => sql.ref(granularity === 'week' ? 'week' : 'bucket');
const among = (column: Dimension, items: readonly (string | number)[]) =>
  sql` and ${sql.ref(column)} in (${sql.join(items)})`;
/** Collection tokens (user_key 0) are nobody: not a distinct user. */
const PEOPLE = sql` and user_key <> 0`;

async function rowsOf<R>(db: Database, query: RawBuilder<unknown>): Promise<R[]> {
  return (await query.execute(db)).rows as R[];
}

/** Everything in scope per bucket. */
export function sumsPerBucket(db: Database, query: RollupQuery) {
  const start = seriesColumn(query.granularity);
  return rowsOf<Sums & { start: string }>(
    db,
    sql`select ${start} as start, ${sums()} from ${seriesRows(sumsGrain(query.scope), query)} group by ${start}`,
  );
}

// Distinct counts are a GROUP BY then a count, not count(distinct …): PostgreSQL hashes the former, sorts the latter.

/**
 * Distinct users in scope per bucket. Everything, by hour or day: the per-user table holds one row per bucket and
 * user (its key), so its rows are counted as they are; otherwise (a week spans seven daily rows of a user; a scope's
 * fine rows repeat a user per data source) the rows are grouped by bucket and user first.
 */
export function usersPerBucket(db: Database, query: RollupQuery) {
  const start = seriesColumn(query.granularity);
  const grain = usersGrain(query.scope);
  if (grain === 'user' && query.granularity !== 'week') {
    return rowsOf<{ start: string; users: number | string }>(
      db,
      sql`select bucket as start, count(*) as users from ${seriesRows(grain, query, PEOPLE)} group by bucket`,
    );
  }
  return rowsOf<{ start: string; users: number | string }>(
    db,
    sql`select start, count(*) as users
        from (select ${start} as start
              from ${seriesRows(usersGrain(query.scope), query, PEOPLE, { distinctUsers: true })}
              group by ${start}, user_key) as u
        group by start`,
  );
}

/** Distinct users over the whole period in scope (not a sum of the buckets' counts). */
export async function distinctUsers(db: Database, query: RollupQuery): Promise<number> {
  const rows = await rowsOf<{ users: number | string }>(
    db,
    sql`select count(*) as users
        from (select user_key from ${periodRows(usersGrain(query.scope), query, sql`user_key`, PEOPLE)}
              group by user_key) as u`,
  );
  return Number(rows[0]?.users ?? 0);
}

/**
 * One page of data sources or users, most calls first, and the count of all. Only `calls` is summed here (the
 * ranking reads every item in scope); the page's other figures come from its series (sumsPerItemAndBucket),
 * whose buckets cover the same period.
 */
export function pageOfItems(
  db: Database,
  query: RollupQuery,
  dimension: Dimension,
  page: { limit: number; offset: number },
) {
  const item = sql.ref(dimension);
  return rowsOf<{ item: string | number; calls: number | string; total_count: number | string }>(
    db,
    sql`select ${item} as item, sum(calls) as calls, count(*) over () as total_count
        from ${periodRows(sumsGrain(query.scope, dimension), query, sql`${item}, calls`)}
        group by ${item} order by sum(calls) desc, ${item}
        limit ${page.limit} offset ${page.offset}`,
  );
}

/** How many data sources or users are in scope (a page past the end carries no window count). */
export async function countItems(db: Database, query: RollupQuery, dimension: Dimension): Promise<number> {
  const item = sql.ref(dimension);
  const rows = await rowsOf<{ n: number | string }>(
    db,
    sql`select count(*) as n
        from (select ${item} from ${periodRows(sumsGrain(query.scope, dimension), query, item)} group by ${item}) as i`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** The series of the given data sources or users. */
export function sumsPerItemAndBucket(
  db: Database,
  query: RollupQuery,
  dimension: Dimension,
  items: readonly (string | number)[],
) {
  if (items.length === 0) return Promise.resolve([]);
  const item = sql.ref(dimension);
  const start = seriesColumn(query.granularity);
  return rowsOf<Sums & { item: string | number; start: string }>(
    db,
    sql`select ${item} as item, ${start} as start, ${sums()}
        from ${seriesRows(sumsGrain(query.scope, dimension), query, among(dimension, items))}
        group by ${item}, ${start}`,
  );
}

/** Everything in scope per channel and bucket (migration 0021's tables: channel × data source, with collection). */
export function sumsPerChannelAndBucket(db: Database, query: RollupQuery) {
  const table = sql.table(`usage_channel_${query.granularity === 'hour' ? 'hourly' : 'daily'}`);
  const start = seriesColumn(query.granularity);
  return rowsOf<Sums & { channel: string; start: string }>(
    db,
    sql`select channel, ${start} as start, ${sums()}
        from ${table} where bucket >= ${query.from} and bucket < ${query.to}${scopeFilter(query.scope)}
        group by channel, ${start}`,
  );
}

/** Distinct users of each of the given data sources over the period (fine table, by data source). */
export function usersPerDataSource(db: Database, query: RollupQuery, uids: readonly string[]) {
  if (uids.length === 0) return Promise.resolve([]);
  const columns = sql`data_source_uid, user_key`;
  return rowsOf<{ item: string; users: number | string }>(
    db,
    sql`select item, count(*) as users
        from (select data_source_uid as item
              from ${periodRows('fine', query, columns, sql`${among('data_source_uid', uids)}${PEOPLE}`)}
              group by data_source_uid, user_key) as u
        group by item`,
  );
}

/** Distinct users of each of the given data sources per bucket. */
export function usersPerDataSourceAndBucket(db: Database, query: RollupQuery, uids: readonly string[]) {
  if (uids.length === 0) return Promise.resolve([]);
  const start = seriesColumn(query.granularity);
  return rowsOf<{ item: string; start: string; users: number | string }>(
    db,
    sql`select item, start, count(*) as users
        from (select data_source_uid as item, ${start} as start
              from ${seriesRows('fine', query, sql`${among('data_source_uid', uids)}${PEOPLE}`, { distinctUsers: true, scoped: false })}
              group by data_source_uid, ${start}, user_key) as u
        group by item, start`,
  );
}

/** Data assets by uid as they are now, with their collections. */
export function findAssets(db: Database, uids: readonly string[]) {
  if (uids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('data_sources')
    .innerJoin('collections', 'collections.id', 'data_sources.collection_id')
    .select([
      'data_sources.uid',
      'data_sources.name',
      'collections.uid as collection_uid',
      'collections.name as collection_name',
    ])
    .where('data_sources.uid', 'in', [...uids])
    .execute();
}

export function findUsers(db: Database, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'name', 'username'])
    .where('id', 'in', [...ids])
    .execute();
}

/** The id of the data asset with this uid (the scope of a one-asset summary), or undefined. */
export function findAssetId(db: Database, uid: string) {
  return db.selectFrom('data_sources').select(['id', 'collection_id']).where('uid', '=', uid).executeTakeFirst();
}
