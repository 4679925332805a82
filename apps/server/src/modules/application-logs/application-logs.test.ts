import { expect, it } from 'vitest';
import {
  applicationLogPage,
  applicationLogRecord,
  LOG_COUNT_LIMIT,
  LOG_LIST_MESSAGE_MAX,
  logPeriodMessage,
} from '@datalab/contract/api/application-logs';
import { problem } from '@datalab/contract/errors';
import type { NewApplicationLog } from '../../db/schema.ts';
import { buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import type { TestApp } from '../../../test/support/app.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

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

/** `count` records at once (one statement per 400), oldest first, each made by `row(index)`. */
async function insertMany(t: TestApp, count: number, row: (index: number) => Partial<NewApplicationLog>) {
  for (let start = 0; start < count; start += 400) {
    const rows: NewApplicationLog[] = [];
    for (let index = start; index < Math.min(count, start + 400); index += 1) {
      rows.push({
        created_at: at(60 - index / 1000),
        level: 'info',
        category: 'test',
        message: 'a record',
        request_id: null,
        user_id: null,
        details: null,
        ...row(index),
      });
    }
    await t.app.db.insertInto('application_logs').values(rows).execute();
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

  it('searches short texts and takes backslashes and quotes literally', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const category = unique('short');
    await insert(ctx(), [
      { category, message: 'saved to C:\\temp\\x' },
      { category, message: "it's 5% of Q" },
      { category, message: 'plain' },
    ]);
    const found = async (search: string) =>
      (await list(admin, { category, search })).items.map((item) => item.message).sort();
    expect(await found('q')).toEqual(["it's 5% of Q"]);
    expect(await found('%')).toEqual(["it's 5% of Q"]);
    expect(await found('5%')).toEqual(["it's 5% of Q"]);
    expect(await found("'")).toEqual(["it's 5% of Q"]);
    expect(await found('\\')).toEqual(['saved to C:\\temp\\x']);
    expect(await found(':\\t')).toEqual(['saved to C:\\temp\\x']);
    expect(await found('\\%')).toEqual([]);
    expect(await found('A')).toEqual(['plain', 'saved to C:\\temp\\x']);
  });

  it(`counts matches up to ${LOG_COUNT_LIMIT} and says when more match`, async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const capped = unique('capped');
    const exact = unique('exact');
    const row = (category: string) => (i: number) =>
      ({ category, message: `Cap word ${i}`, level: i % 2 === 0 ? 'error' : 'warn' }) as const;
    await insertMany(ctx(), LOG_COUNT_LIMIT + 3, row(capped));
    await insertMany(ctx(), LOG_COUNT_LIMIT, row(exact));
    const pageSize = 100;
    const lastCounted = LOG_COUNT_LIMIT / pageSize;
    // With and without a text (on PostgreSQL a rare text's page is read from its matches and counts them itself),
    // and with two levels (on SQLite, more than LOG_COUNT_LIMIT matches are paged walking the time order).
    for (const search of [{}, { search: 'CAP WORD' }, { level: 'warn' }] as Record<string, string>[]) {
      const first = await list(admin, { category: capped, pageSize, ...search });
      expect(first).toMatchObject({ totalCount: LOG_COUNT_LIMIT, isCountCapped: true });
      expect(first.items[0]?.message).toBe(`Cap word ${LOG_COUNT_LIMIT + 2}`);
      // The last page is beyond the counted ones: it still says where it is.
      const beyond = await list(admin, { category: capped, pageSize, page: lastCounted + 1, ...search });
      expect(beyond.items.map((item) => item.message)).toEqual(['Cap word 2', 'Cap word 1', 'Cap word 0']);
      expect(beyond).toMatchObject({ totalCount: LOG_COUNT_LIMIT + 3, isCountCapped: true });
      const all = await list(admin, { category: exact, pageSize, ...search });
      expect(all).toMatchObject({ totalCount: LOG_COUNT_LIMIT, isCountCapped: false });
    }
    const errors = await list(admin, { category: capped, level: 'error', search: 'word', pageSize });
    expect(errors).toMatchObject({ totalCount: LOG_COUNT_LIMIT / 2 + 2, isCountCapped: false });
    expect(errors.items.slice(0, 2).map((item) => item.message)).toEqual([
      `Cap word ${LOG_COUNT_LIMIT + 2}`,
      `Cap word ${LOG_COUNT_LIMIT}`,
    ]);
  });

  it('pages the matches of a text newest first (then by id) and counts them on a page past the last one', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const category = unique('past');
    const sameTime = at(2);
    await insert(ctx(), [
      { category, message: 'Rare needle one', created_at: at(3) },
      { category, message: 'rare NEEDLE two', created_at: sameTime },
      { category, message: 'rare needle four', created_at: at(1) },
      { category, message: 'rare needle three', created_at: sameTime },
      { category, message: 'hay' },
    ]);
    const page = (number: number) => list(admin, { category, search: 'rare needle', pageSize: 2, page: number });
    const first = await page(1);
    expect(first.items.map((item) => item.message)).toEqual(['rare needle four', 'rare needle three']);
    expect(first).toMatchObject({ totalCount: 4, isCountCapped: false });
    const second = await page(2);
    expect(second.items.map((item) => item.message)).toEqual(['rare NEEDLE two', 'Rare needle one']);
    expect(second.totalCount).toBe(4);
    expect(await page(5)).toMatchObject({ items: [], totalCount: 4, isCountCapped: false });
    expect(await list(admin, { category, search: 'no such needle' })).toMatchObject({ items: [], totalCount: 0 });
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
