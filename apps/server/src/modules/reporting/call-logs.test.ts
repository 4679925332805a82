import { beforeAll, expect, it } from 'vitest';
import { buildPerson, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { buildCallWorld, type CallWorld } from './test-world.ts';

// Every data call leaves one application-log record (category 'call') written with its usage record: an
// administrator finds a call on /management/logs by the request id its reply carried.

interface LogItem {
  id: number;
  level: string;
  category: string;
  message: string;
  requestId: string | null;
  user: { id: number } | null;
}

describeEachStore('call log records', (ctx) => {
  let admin: Person;
  let reader: Person;
  let world: CallWorld;

  beforeAll(async () => {
    const t = ctx();
    [admin, reader] = [await buildPerson(t, { canManageUsers: true }), await buildPerson(t)];
    world = await buildCallWorld(t, admin, [reader]);
  });

  async function logsOf(requestId: string) {
    await ctx().app.usage.flush();
    const response = await admin.call(
      'GET',
      `/api/ApplicationLog/GetApplicationLogs?${new URLSearchParams({ requestId, category: 'call' })}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ items: LogItem[]; totalCount: number }>();
  }

  it('finds a call by its reply’s request id: who, which asset, format, status, rows, bytes, duration', async () => {
    const asset = await world.asset({
      name: 'Orders by amount',
      sql: 'select id from orders where amount <= :most order by id',
      parameters: [{ name: 'most', type: 'integer', required: true }],
    });
    const response = await reader.call('GET', `/data/v1/${asset.uid}?most=30&format=csv`);
    expect(response.statusCode).toBe(200);
    const requestId = String(response.headers['x-request-id']);
    const page = await logsOf(requestId);
    expect(page.totalCount).toBe(1);
    const [item] = page.items;
    expect(item).toMatchObject({ level: 'info', category: 'call', requestId, user: { id: reader.id } });
    expect(item?.message).toMatch(
      new RegExp(`^Call of Orders by amount \\(${asset.uid}\\) as csv: 200, 3 rows, \\d+ bytes in \\d+ ms$`),
    );
    const record = (await admin.call('GET', `/api/ApplicationLog/${item?.id}`)).json<{ details: unknown }>();
    expect(record.details).toMatchObject({
      channel: 'data-api',
      dataAsset: { uid: asset.uid, name: 'Orders by amount', id: asset.id },
      collectionId: world.collection.id,
      format: 'csv',
      status: 200,
      rows: 3,
      bytes: response.rawPayload.length,
      cacheHit: false,
    });
  });

  it('logs a refused call as a warning and an unknown asset by its uid', async () => {
    const asset = await world.asset({
      sql: 'select id from orders where amount <= :most',
      parameters: [{ name: 'most', type: 'integer', required: true }],
    });
    const missing = await reader.call('GET', `/data/v1/${asset.uid}`);
    expect(missing.statusCode).toBe(400);
    const [warning] = (await logsOf(String(missing.headers['x-request-id']))).items;
    expect(warning).toMatchObject({ level: 'warn', category: 'call' });
    expect(warning?.message).toContain(': 400, 0 rows');

    const unknown = await reader.call('GET', '/data/v1/no-such-asset');
    expect(unknown.statusCode).toBe(404);
    const [record] = (await logsOf(String(unknown.headers['x-request-id']))).items;
    expect(record?.message).toMatch(/^Call of no-such-asset as json: 404, /);
  });
  it('keeps every character of what the caller sent: backslashes, tabs, line breaks, COPY markers', async () => {
    // The PostgreSQL store appends call records through COPY's text format, where these would end a field or a
    // row, or stand for NULL, unless escaped.
    const name = String.raw`Orders \ by \N amount \. end`;
    const asset = await world.asset({ name, sql: 'select id from orders order by id' });
    const named = await reader.call('GET', `/data/v1/${asset.uid}`);
    expect(named.statusCode).toBe(200);
    const [record] = (await logsOf(String(named.headers['x-request-id']))).items;
    expect(record?.message.startsWith(`Call of ${name} (${asset.uid}) as json: 200, `)).toBe(true);
    const details = (await admin.call('GET', `/api/ApplicationLog/${record?.id}`)).json<{ details: unknown }>();
    expect(details.details).toMatchObject({ dataAsset: { name } });

    const uid = 'tab\there\nline\rreturn\\.';
    const unknown = await reader.call('GET', `/data/v1/${encodeURIComponent(uid)}`);
    expect(unknown.statusCode).toBe(404);
    const [refused] = (await logsOf(String(unknown.headers['x-request-id']))).items;
    expect(refused?.message.startsWith(`Call of ${uid} as json: 404, 0 rows, `)).toBe(true);
  });
});

describeEachStore(
  'call log records with USAGE_RECORDING=off',
  (ctx) => {
    it('writes neither the usage record nor the call’s log record (one switch for recording)', async () => {
      const t = ctx();
      const admin = await buildPerson(t, { canManageUsers: true });
      const asset = await (await buildCallWorld(t, admin)).asset({ sql: 'select id from orders' });
      const response = await admin.call('GET', `/data/v1/${asset.uid}`);
      expect(response.statusCode).toBe(200);
      await t.app.usage.flush();
      const requestId = String(response.headers['x-request-id']);
      const logs = await t.app.db
        .selectFrom('application_logs')
        .selectAll()
        .where('request_id', '=', requestId)
        .execute();
      expect(logs.filter((log) => log.category === 'call')).toEqual([]);
      const records = await t.app.db.selectFrom('usage_records').selectAll().where('data_source_uid', '=', asset.uid);
      expect(await records.execute()).toEqual([]);
    });
  },
  { env: { USAGE_RECORDING: 'off' } },
);
