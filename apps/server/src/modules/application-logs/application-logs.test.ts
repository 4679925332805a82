import { expect, it } from 'vitest';
import {
  applicationLogPage,
  applicationLogRecord,
  LOG_LIST_MESSAGE_MAX,
  logPeriodMessage,
} from '@datalab/contract/api/application-logs';
import { problem } from '@datalab/contract/errors';
import type { NewApplicationLog } from '../../db/schema.ts';
import { buildPerson, unique, type Person } from '../../testing/builders.ts';
import type { TestApp } from '../../testing/app.ts';
import { describeEachStore } from '../../testing/suite.ts';

// GetApplicationLogs and one record's call, through inject on both stores: each filter, the order, paging and the
// details an administrator reads (a real audit record's before and after).

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();

async function insert(t: TestApp, rows: Partial<NewApplicationLog>[]) {
  for (const row of rows) {
    await t.app.db
      .insertInto('application_logs')
      .values({
        created_at: at(1),
        level: 'info',
        category: 'test',
        message: 'a record',
        request_id: null,
        user_id: null,
        details: null,
        ...row,
      })
      .execute();
  }
}

async function list(admin: Person, query: Record<string, string | number>) {
  const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const response = await admin.call('GET', `/api/ApplicationLog/GetApplicationLogs?${search}`);
  expect(response.statusCode, response.body).toBe(200);
  return applicationLogPage.parse(response.json());
}

describeEachStore('application log', (ctx) => {
  it('filters by lowest level, category, period, user and request id, newest first', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true, name: 'Ada Admin' });
    const category = unique('cat');
    await insert(ctx(), [
      { category, level: 'debug', message: 'debug one', created_at: at(50) },
      { category, level: 'info', message: 'info one', created_at: at(40), user_id: admin.id },
      { category, level: 'warn', message: 'warn one', created_at: at(30), request_id: 'req-filter-0001' },
      { category, level: 'error', message: 'error one', created_at: at(20), request_id: 'req-filter-0001' },
      { category, level: 'error', message: 'error two', created_at: at(10) },
    ]);
    const messages = async (query: Record<string, string | number>) =>
      (await list(admin, { category, ...query })).items.map((item) => item.message);

    expect(await messages({})).toEqual(['error two', 'error one', 'warn one', 'info one', 'debug one']);
    expect(await messages({ level: 'warn' })).toEqual(['error two', 'error one', 'warn one']);
    expect(await messages({ level: 'error' })).toEqual(['error two', 'error one']);
    expect(await messages({ from: at(45), to: at(25) })).toEqual(['warn one', 'info one']);
    expect(await messages({ requestId: 'req-filter-0001' })).toEqual(['error one', 'warn one']);
    expect(await messages({ userId: admin.id })).toEqual(['info one']);
    const mine = await list(admin, { category, userId: admin.id });
    expect(mine.items[0]?.user).toEqual({ id: admin.id, name: 'Ada Admin', username: expect.any(String) });

    const paged = await list(admin, { category, pageSize: 2, page: 2 });
    expect(paged).toMatchObject({ totalCount: 5, isCountCapped: false, page: 2, pageSize: 2 });
    expect(paged.items.map((item) => item.message)).toEqual(['warn one', 'info one']);
  });

  it('searches the message as text: wildcards are literal and case does not matter', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const category = unique('search');
    await insert(ctx(), [
      { category, message: 'Disk 100% full' },
      { category, message: 'disk 1000 blocks' },
      { category, message: 'a_b matched' },
      { category, message: 'axb not matched' },
    ]);
    const found = async (search: string) =>
      (await list(admin, { category, search })).items.map((item) => item.message).sort();
    expect(await found('100%')).toEqual(['Disk 100% full']);
    expect(await found('DISK')).toEqual(['Disk 100% full', 'disk 1000 blocks']);
    expect(await found('a_b')).toEqual(['a_b matched']);
    expect(await found('nothing like it')).toEqual([]);
  });

  it('gives a prefix of a long message in the list and all of it, with its details, in the record', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const category = unique('long');
    const message = `${'x'.repeat(LOG_LIST_MESSAGE_MAX)}END`;
    await insert(ctx(), [
      { category, level: 'error', message, details: JSON.stringify({ stack: 'Error: boom\n    at here' }) },
    ]);
    const [item] = (await list(admin, { category })).items;
    expect(item?.message).toHaveLength(LOG_LIST_MESSAGE_MAX);
    expect(item?.messageTruncated).toBe(true);
    const record = applicationLogRecord.parse((await admin.call('GET', `/api/ApplicationLog/${item?.id}`)).json());
    expect(record.message).toBe(message);
    expect(record.messageTruncated).toBe(false);
    expect(record.details).toEqual({ stack: 'Error: boom\n    at here' });
  });

  it("shows an audit record's actor, values before and after, and its request's other records", async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const helper = await buildPerson(ctx());
    const granted = await admin.call('PUT', `/api/User/${helper.id}/SystemPermissions`, { canManageUsers: true });
    const requestId = granted.headers['x-request-id'];
    expect(typeof requestId).toBe('string');
    const records = await list(admin, { category: 'audit', requestId: String(requestId) });
    expect(records.totalCount).toBeGreaterThanOrEqual(1);
    const [first] = records.items;
    expect(first?.user?.id).toBe(admin.id);
    const record = applicationLogRecord.parse((await admin.call('GET', `/api/ApplicationLog/${first?.id}`)).json());
    expect(record.requestId).toBe(requestId);
    expect(record.details).toMatchObject({
      actor: { id: admin.id },
      before: { canManageUsers: false },
      after: { canManageUsers: true },
    });
  });

  it('refuses a backwards period and answers 404 for an unknown record', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const backwards = await admin.call('GET', `/api/ApplicationLog/GetApplicationLogs?from=${at(10)}&to=${at(20)}`);
    expect(backwards.statusCode, backwards.body).toBe(400);
    expect(backwards.json<{ errors: unknown }>().errors).toEqual({ 'querystring.to': [logPeriodMessage] });
    const badLevel = await admin.call('GET', '/api/ApplicationLog/GetApplicationLogs?level=loud');
    expect(badLevel.statusCode).toBe(400);
    const missing = await admin.call('GET', '/api/ApplicationLog/999999999');
    expect(missing.statusCode).toBe(404);
    expect(problem.parse(missing.json()).title).toBe('Application log with id 999999999 does not exist');
  });
});
