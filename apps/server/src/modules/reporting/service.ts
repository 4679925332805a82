import {
  usageChannels,
  type ChannelMetricsSummary,
  type DataSourceMetricsSummary,
  type Granularity,
  type Metrics,
  type MetricsBucket,
  type UserMetricsSummary,
} from '@datalab/contract/api/reporting';
import type { Database } from '../../db/database.ts';
import { alignPeriod, spansOf } from './period.ts';
import {
  accumulate,
  emptyAccumulator,
  presentDataSource,
  presentMetrics,
  presentSeries,
  presentUser,
} from './presenter.ts';
import {
  countItems,
  distinctUsers,
  findAssets,
  findUsers,
  pageOfItems,
  sumsPerBucket,
  sumsPerChannelAndBucket,
  sumsPerItemAndBucket,
  usersPerBucket,
  usersPerDataSource,
  usersPerDataSourceAndBucket,
  type Dimension,
  type RollupQuery,
  type RollupScope,
  type Sums,
} from './repository.ts';

// The metrics summaries (GetDataSourceMetricsSummaries, GetUserMetricsSummaries) over the usage rollups: the
// period aligned to its granularity, overall totals and series, and one page of data sources or users (most calls
// first) with theirs. The caller is authorized on the scope before this runs (routes.ts).

export interface SummaryRequest {
  from: Date;
  to: Date;
  granularity: Granularity;
  page: number;
  pageSize: number;
  scope: RollupScope;
}

interface Summary<Item> {
  from: Date;
  to: Date;
  granularity: Granularity;
  totals: Metrics;
  series: MetricsBucket[];
  channels: ChannelMetricsSummary[];
  items: Item[];
  totalCount: number;
  page: number;
  pageSize: number;
}

interface ItemSummary<Key> {
  key: Key;
  totals: Metrics;
  series: MetricsBucket[];
}

/** Distinct users of each item and of each item's buckets: from the fine rollups for data sources; a user is one. */
async function itemUsers(
  db: Database,
  query: RollupQuery,
  dimension: Dimension,
  page: readonly { item: string | number }[],
) {
  if (dimension === 'user_key') {
    const person = (key: string | number) => (Number(key) === 0 ? 0 : 1);
    return {
      total: (key: string | number) => person(key),
      inBucket: (key: string | number, row: Sums) => (Number(row.calls) > 0 ? person(key) : 0),
    };
  }
  const uids = page.map((row) => String(row.item));
  const [totals, buckets] = await Promise.all([
    usersPerDataSource(db, query, uids),
    usersPerDataSourceAndBucket(db, query, uids),
  ]);
  const total = new Map(totals.map((row) => [row.item, Number(row.users)]));
  const perBucket = new Map(buckets.map((row) => [`${row.item}\u0000${row.start}`, Number(row.users)]));
  return {
    total: (key: string | number) => total.get(String(key)) ?? 0,
    inBucket: (key: string | number, row: Sums & { start?: string }) =>
      perBucket.get(`${String(key)}\u0000${row.start ?? ''}`) ?? 0,
  };
}

const withoutUsers = <M extends Metrics>({ distinctUsers: _users, ...figures }: M) => figures;

/** Every channel's totals and series (a channel's totals are the sum of its series: the buckets cover the period). */
function presentChannels(buckets: readonly string[], rows: readonly (Sums & { channel: string; start: string })[]) {
  return usageChannels.map((channel) => {
    const own = rows.filter((row) => row.channel === channel);
    const sums = emptyAccumulator();
    for (const row of own) accumulate(row, sums);
    return {
      channel,
      totals: withoutUsers(presentMetrics(sums, 0)),
      series: presentSeries(buckets, new Map(own.map((row) => [row.start, row]))).map(withoutUsers),
    };
  });
}

async function summarise<Key extends string | number>(db: Database, request: SummaryRequest, dimension: Dimension) {
  const period = alignPeriod(request.from, request.to, request.granularity);
  const query: RollupQuery = {
    granularity: request.granularity,
    from: period.from.toISOString(),
    to: period.to.toISOString(),
    spans: spansOf(period),
    scope: request.scope,
  };
  const [overall, bucketUsers, users, page, perChannel] = await Promise.all([
    sumsPerBucket(db, query),
    usersPerBucket(db, query),
    distinctUsers(db, query),
    pageOfItems(db, query, dimension, {
      limit: request.pageSize,
      offset: (request.page - 1) * request.pageSize,
    }),
    sumsPerChannelAndBucket(db, query),
  ]);
  const keys = page.map((row) => row.item as Key);
  const [perItem, totalCount, usersOf] = await Promise.all([
    sumsPerItemAndBucket(db, query, dimension, keys),
    page.length > 0 ? Number(page[0]?.total_count) : countItems(db, query, dimension),
    itemUsers(db, query, dimension, page),
  ]);

  const totals = emptyAccumulator();
  for (const row of overall) accumulate(row, totals);
  const usersInBucket = new Map(bucketUsers.map((row) => [row.start, Number(row.users)]));
  const itemBuckets = new Map<Key, Map<string, Sums & { users: number }>>(keys.map((key) => [key, new Map()]));
  for (const row of perItem) {
    itemBuckets.get(row.item as Key)?.set(row.start, { ...row, users: usersOf.inBucket(row.item, row) });
  }
  const items: ItemSummary<Key>[] = page.map((row) => {
    const buckets = itemBuckets.get(row.item as Key) ?? new Map();
    // The item's totals are the sum of its series: the buckets cover the period exactly.
    const sums = emptyAccumulator();
    for (const bucket of buckets.values()) accumulate({ ...bucket, users: 0 }, sums);
    return {
      key: row.item as Key,
      totals: presentMetrics(sums, usersOf.total(row.item)),
      series: presentSeries(period.buckets, buckets),
    };
  });
  const series = new Map(overall.map((row) => [row.start, { ...row, users: usersInBucket.get(row.start) ?? 0 }]));
  return {
    from: period.from,
    to: period.to,
    granularity: request.granularity,
    totals: presentMetrics(totals, users),
    series: presentSeries(period.buckets, series),
    channels: presentChannels(period.buckets, perChannel),
    items,
    totalCount,
    page: request.page,
    pageSize: request.pageSize,
  };
}

export async function dataSourceSummaries(
  db: Database,
  request: SummaryRequest,
): Promise<Summary<DataSourceMetricsSummary>> {
  const summary = await summarise<string>(db, request, 'data_source_uid');
  const assets = new Map(
    (
      await findAssets(
        db,
        summary.items.map((item) => item.key),
      )
    ).map((a) => [a.uid, a]),
  );
  return {
    ...summary,
    items: summary.items.map(({ key, totals, series }) => ({
      dataSource: presentDataSource(key, assets.get(key)),
      totals,
      series,
    })),
  };
}

export async function userSummaries(db: Database, request: SummaryRequest): Promise<Summary<UserMetricsSummary>> {
  const summary = await summarise<number>(db, request, 'user_key');
  const keys = summary.items.map((item) => Number(item.key));
  const users = new Map(
    (
      await findUsers(
        db,
        keys.filter((key) => key !== 0),
      )
    ).map((user) => [user.id, user]),
  );
  return {
    ...summary,
    items: summary.items.map(({ key, totals, series }) => ({
      user: presentUser(Number(key), users.get(Number(key))),
      totals,
      series,
    })),
  };
}

/** Read straight from the store: routes and plugins reach the repository through this service. */
export { findAssetId, type RollupScope } from './repository.ts';
