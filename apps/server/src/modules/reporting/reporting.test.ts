import { expect, it } from 'vitest';
import type { UsageRecord } from '../../lib/usage-record.ts';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

// The metrics summaries through inject, over usage recorded with exact times and durations (app.usage.record +
// flush, the recorder the calling layer uses), on both stores: totals, series per granularity, percentiles from the
// histogram, cache-hit ratio, distinct users, paging, scopes, authorization and bad input.

const DS = '/api/Reporting/GetDataSourceMetricsSummaries';
const USERS = '/api/Reporting/GetUserMetricsSummaries';

interface World {
  admin: Person;
  owner: Person;
  editor: Person;
  reader: Person;
  plain: Person;
  collection: { id: number; uid: string; name: string };
  other: { id: number; uid: string; name: string };
  orders: { id: number; uid: string };
  customers: { id: number; uid: string };
  elsewhere: { id: number; uid: string };
}

async function buildAsset(t: TestApp, collectionId: number, name: string) {
  const at = new Date().toISOString();
  return t.app.db
    .insertInto('data_sources')
    .values({ uid: unique('asset'), collection_id: collectionId, name, kind: 'sql', created_at: at, updated_at: at })
    .returning(['id', 'uid'])
    .executeTakeFirstOrThrow();
}

function call(
  asset: { id: number; uid: string },
  collectionId: number,
  at: string,
  over: Partial<UsageRecord> = {},
): UsageRecord {
  return {
    userId: null,
    dataSourceId: asset.id,
    dataSourceUid: asset.uid,
    collectionId,
    channel: 'data-api',
    format: 'json',
    status: 200,
    durationMs: 3,
    rows: 10,
    bytes: 100,
    cacheHit: false,
    requestId: null,
    at: new Date(at),
    ...over,
  };
}

const query = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

describeEachStore('usage reporting', (ctx) => {
  let world: World | undefined;
  const ready = async (): Promise<World> => {
    if (world) return world;
    const t = ctx();
    const [admin, owner, editor, reader, plain] = [
      await buildPerson(t, { canManageUsers: true }),
      await buildPerson(t, { name: 'Olivia Owner' }),
      await buildPerson(t, { name: 'Edda Editor' }),
      await buildPerson(t),
      await buildPerson(t),
    ];
    const collection = await buildCollection(t, owner, {
      roles: [
        [editor, 'Editor'],
        [reader, 'Reader'],
      ],
    });
    const other = await buildCollection(t, admin);
    const orders = await buildAsset(t, collection.id, 'Orders');
    const customers = await buildAsset(t, collection.id, 'Customers');
    const elsewhere = await buildAsset(t, other.id, 'Elsewhere');
    const c = collection.id;
    // Monday 2 March 2026, 10:00–12:00 UTC: three calls of Orders, one of Customers; Sunday 8 and Monday 9 March.
    for (const record of [
      call(orders, c, '2026-03-02T10:15:00Z', { userId: owner.id, durationMs: 3, cacheHit: true }),
      call(orders, c, '2026-03-02T10:45:00Z', { userId: editor.id, durationMs: 40, status: 500, rows: 0 }),
      call(orders, c, '2026-03-02T11:05:00Z', { userId: null, tokenId: 7, durationMs: 700 }),
      call(customers, c, '2026-03-02T11:30:00Z', { userId: owner.id, durationMs: 12, bytes: 50 }),
      call(orders, c, '2026-03-08T23:59:59Z', { userId: owner.id, durationMs: 1 }),
      call(customers, c, '2026-03-09T00:00:00Z', { userId: editor.id, durationMs: 2 }),
      call(elsewhere, other.id, '2026-03-02T10:20:00Z', { userId: admin.id, durationMs: 90_000 }),
    ]) {
      t.app.usage.record(record);
    }
    await t.app.usage.flush();
    world = { admin, owner, editor, reader, plain, collection, other, orders, customers, elsewhere };
    return world;
  };

  it('sums a collection by hour: totals, p50/p95 from the histogram, cache hits, distinct users, empty buckets', async () => {
    const w = await ready();
    const response = await w.editor.call(
      'GET',
      `${DS}?${query({ from: '2026-03-02T10:00:00Z', to: '2026-03-02T13:00:00Z', granularity: 'hour', collectionUid: w.collection.uid })}`,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.totals).toEqual({
      calls: 4,
      errors: 1,
      rows: 30,
      bytes: 350,
      // 3, 12, 40, 700 ms → buckets ≤5, ≤20, ≤50, ≤1000: the 2nd of 4 is in ≤20, the 4th in ≤1000.
      p50Ms: 20,
      p95Ms: 1000,
      cacheHitRatio: 0.25,
      distinctUsers: 2,
    });
    expect(body.series.map((b: { start: string; calls: number }) => [b.start, b.calls])).toEqual([
      ['2026-03-02T10:00:00.000Z', 2],
      ['2026-03-02T11:00:00.000Z', 2],
      ['2026-03-02T12:00:00.000Z', 0],
    ]);
    expect(body.series[2]).toMatchObject({ errors: 0, p50Ms: 0, cacheHitRatio: 0, distinctUsers: 0 });
    expect(body.series[0]).toMatchObject({ distinctUsers: 2, errors: 1, p50Ms: 5, p95Ms: 50 });
    expect(body.items.map((item: { dataSource: { name: string } }) => item.dataSource.name)).toEqual([
      'Orders',
      'Customers',
    ]);
    expect(body.items[0].dataSource.collection).toEqual({ uid: w.collection.uid, name: w.collection.name });
    expect(body.items[0].totals).toMatchObject({ calls: 3, errors: 1, distinctUsers: 2 });
    expect(body.items[0].series).toHaveLength(3);
    expect(body.totalCount).toBe(2);
  });

  it('sums days and Monday-based weeks of the hours', async () => {
    const w = await ready();
    const scope = { collectionUid: w.collection.uid };
    const days = await w.owner.call(
      'GET',
      `${DS}?${query({ from: '2026-03-07T00:00:00Z', to: '2026-03-10T00:00:00Z', granularity: 'day', ...scope })}`,
    );
    expect(days.json().series.map((b: { calls: number }) => b.calls)).toEqual([0, 1, 1]);
    const weeks = await w.owner.call(
      'GET',
      `${DS}?${query({ from: '2026-03-04T12:00:00Z', to: '2026-03-10T00:00:00Z', granularity: 'week', ...scope })}`,
    );
    const body = weeks.json();
    expect(body.from).toBe('2026-03-02T00:00:00.000Z');
    expect(body.to).toBe('2026-03-16T00:00:00.000Z');
    // Sunday the 8th belongs to the week of the 2nd; Monday the 9th starts the next.
    expect(body.series.map((b: { start: string; calls: number }) => [b.start, b.calls])).toEqual([
      ['2026-03-02T00:00:00.000Z', 5],
      ['2026-03-09T00:00:00.000Z', 1],
    ]);
    expect(body.totals.distinctUsers).toBe(2);
    // Weekly distinct users read the week indexes: everything (per-user rollups) and one asset (fine, by asset).
    const weekly = { from: '2026-03-02T00:00:00Z', to: '2026-03-16T00:00:00Z', granularity: 'week' };
    const all = (await w.admin.call('GET', `${USERS}?${query(weekly)}`)).json();
    expect(all.series.map((b: { distinctUsers: number }) => b.distinctUsers)).toEqual([3, 1]);
    const orders = (await w.admin.call('GET', `${DS}?${query({ ...weekly, dataAssetUid: w.orders.uid })}`)).json();
    expect(orders.series.map((b: { calls: number; distinctUsers: number }) => [b.calls, b.distinctUsers])).toEqual([
      [4, 2],
      [0, 0],
    ]);
    expect(orders.items[0].series[0]).toMatchObject({ calls: 4, distinctUsers: 2 });
  });

  it('pages data sources most called first, and sums per user with collection tokens as nobody', async () => {
    const w = await ready();
    const period = { from: '2026-03-01T00:00:00Z', to: '2026-03-10T00:00:00Z', granularity: 'day' };
    const second = await w.admin.call('GET', `${DS}?${query({ ...period, page: 2, pageSize: 1 })}`);
    expect(second.json()).toMatchObject({ totalCount: 3, page: 2, pageSize: 1 });
    expect(second.json().items.map((i: { dataSource: { uid: string } }) => i.dataSource.uid)).toEqual([
      w.customers.uid,
    ]);
    expect(second.json().totals).toMatchObject({ calls: 7, distinctUsers: 3, p95Ms: 60000 });

    const users = await w.admin.call('GET', `${USERS}?${query({ ...period, dataAssetUid: w.orders.uid })}`);
    expect(users.statusCode).toBe(200);
    const items = users.json().items as { user: { id: number; name: string } | null; totals: { calls: number } }[];
    expect(items.map((item) => [item.user?.name ?? null, item.totals.calls])).toEqual([
      ['Olivia Owner', 2],
      [null, 1],
      ['Edda Editor', 1],
    ]);
    const beyond = await w.admin.call('GET', `${USERS}?${query({ ...period, page: 9 })}`);
    expect(beyond.json()).toMatchObject({ items: [], totalCount: 4 });
  });

  it('reads an hourly period over whole days as days plus its edge hours, with the same figures', async () => {
    const w = await ready();
    // 10:00 on the 2nd to 01:00 on the 9th: edge hours, six whole days from the daily rollups, one edge hour.
    const period = { from: '2026-03-02T10:30:00Z', to: '2026-03-09T00:30:00Z', granularity: 'hour' };
    const sources = (await w.admin.call('GET', `${DS}?${query(period)}`)).json();
    expect(sources.series).toHaveLength(24 * 6 + 14 + 1);
    expect(sources.totals).toMatchObject({ calls: 7, errors: 1, distinctUsers: 3, p95Ms: 60000 });
    expect(sources.series.reduce((sum: number, b: { calls: number }) => sum + b.calls, 0)).toBe(7);
    expect(
      sources.items.map((i: { dataSource: { name: string }; totals: { calls: number; distinctUsers: number } }) => [
        i.dataSource.name,
        i.totals.calls,
        i.totals.distinctUsers,
      ]),
    ).toEqual([
      ['Orders', 4, 2],
      ['Customers', 2, 2],
      ['Elsewhere', 1, 1],
    ]);
    const lastHour = sources.items[1].series.at(-1);
    expect(lastHour).toMatchObject({ start: '2026-03-09T00:00:00.000Z', calls: 1, distinctUsers: 1 });
    const users = (await w.admin.call('GET', `${USERS}?${query(period)}`)).json();
    expect(users.totals).toMatchObject({ calls: 7, distinctUsers: 3 });
    expect(users.series.find((b: { start: string }) => b.start === '2026-03-02T10:00:00.000Z')).toMatchObject({
      calls: 3,
      distinctUsers: 3,
    });
    // 11:00 holds a collection token's call and the owner's: one person.
    expect(users.series.find((b: { start: string }) => b.start === '2026-03-02T11:00:00.000Z')).toMatchObject({
      calls: 2,
      distinctUsers: 1,
    });
    expect(
      users.items.map((i: { user: { id: number } | null; totals: { calls: number; distinctUsers: number } }) => [
        i.user?.id ?? null,
        i.totals.calls,
        i.totals.distinctUsers,
      ]),
    ).toEqual([
      [w.owner.id, 3, 1],
      [w.editor.id, 2, 1],
      // Ties by key: collection tokens (0) before any user.
      [null, 1, 0],
      [w.admin.id, 1, 1],
    ]);
  });

  it('authorizes the scope: Editors and Owners of the collection, administrators everywhere', async () => {
    const w = await ready();
    const period = { from: '2026-03-01T00:00:00Z', to: '2026-03-03T00:00:00Z' };
    const collection = query({ ...period, collectionUid: w.collection.uid });
    const asset = query({ ...period, dataAssetUid: w.orders.uid });
    const all = query(period);
    expect((await w.reader.call('GET', `${DS}?${collection}`)).statusCode).toBe(403);
    expect((await w.reader.call('GET', `${USERS}?${asset}`)).statusCode).toBe(403);
    expect((await w.plain.call('GET', `${DS}?${collection}`)).statusCode).toBe(404);
    expect((await w.plain.call('GET', `${USERS}?${asset}`)).statusCode).toBe(404);
    expect((await w.editor.call('GET', `${USERS}?${asset}`)).statusCode).toBe(200);
    expect((await w.admin.call('GET', `${DS}?${collection}`)).statusCode).toBe(200);
    expect((await w.owner.call('GET', `${DS}?${all}`)).statusCode).toBe(403);
    expect((await w.admin.call('GET', `${USERS}?${all}`)).statusCode).toBe(200);
    // The editor's asset scope never reaches another collection's asset.
    const foreign = await w.editor.call('GET', `${DS}?${query({ ...period, dataAssetUid: w.elsewhere.uid })}`);
    expect(foreign.statusCode).toBe(404);
    const unknown = await w.admin.call('GET', `${DS}?${query({ ...period, dataAssetUid: 'no-such-asset' })}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().title).toContain('no-such-asset');
  });

  it('keeps a collection scope to its own data sources', async () => {
    const w = await ready();
    const period = { from: '2026-03-02T00:00:00Z', to: '2026-03-03T00:00:00Z' };
    const response = await w.admin.call('GET', `${DS}?${query({ ...period, collectionUid: w.other.uid })}`);
    expect(response.json().items.map((i: { dataSource: { uid: string } }) => i.dataSource.uid)).toEqual([
      w.elsewhere.uid,
    ]);
    expect(response.json().totals).toMatchObject({ calls: 1, p50Ms: 60000 });
  });

  it('refuses periods backwards or too long, and two scopes at once, in the 400 shape', async () => {
    const w = await ready();
    const backwards = await w.admin.call(
      'GET',
      `${DS}?${query({ from: '2026-03-02T00:00:00Z', to: '2026-03-01T00:00:00Z' })}`,
    );
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject({
      status: 400,
      errors: { 'querystring.to': ['To must not be before From'] },
    });
    const tooLong = await w.admin.call(
      'GET',
      `${DS}?${query({ from: '2026-01-01T00:00:00Z', to: '2026-02-15T00:00:00Z', granularity: 'hour' })}`,
    );
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors['querystring.to']).toEqual([
      'The period may cover at most 31 days at hour granularity',
    ]);
    const both = await w.admin.call(
      'GET',
      `${USERS}?${query({ from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z', collectionUid: w.collection.uid, dataAssetUid: w.orders.uid })}`,
    );
    expect(both.statusCode).toBe(400);
    expect(both.json().errors).toEqual({
      'querystring.dataAssetUid': ['Give either collectionUid or dataAssetUid, not both'],
    });
  });
});
