import { expect, it } from 'vitest';
import { getRecentCalls, postBoundValues } from '@datalab/contract/api/data-sources';
import type { TestApp } from '../../../test/support/app.ts';
import { buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { createPeople, world } from './test-world.ts';

// An asset's recent calls (from the usage records, written in batches: each test flushes them) and the values a
// call binds, through the API on both stores.

type RecentCalls = ReturnType<typeof getRecentCalls.response.parse>;

async function grantReader(t: TestApp, collectionId: number, person: Person) {
  await t.app.db
    .insertInto('collection_user_roles')
    .values({ collection_id: collectionId, user_id: person.id, role: 'Reader', created_at: new Date().toISOString() })
    .execute();
  await t.app.access.bump(t.app.db);
}

async function recentCallsOf(person: Person, asset: string | number, query = '') {
  const response = await person.call('GET', `/api/DataSource/${asset}/RecentCalls${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return getRecentCalls.response.parse(response.json());
}

const callersOf = (list: RecentCalls) => list.items.map((item) => item.caller?.name);

describeEachStore('recent calls and bound values', (ctx) => {
  it("shows a Reader their own calls and the collection's Editors and Owners everyone's, newest first", async () => {
    const t = ctx();
    const { owner, editor, reader, collection, connectionId } = await world(t);
    const other = await buildPerson(t, { name: 'Other Reader' });
    await grantReader(t, collection.id, other);
    const asset = await createPeople(editor, collection.uid, connectionId);
    expect((await reader.call('GET', `/data/v1/${asset.uid}?country=DE`)).statusCode).toBe(200);
    const csv = await reader.call('GET', `/data/v1/${asset.uid}?country=DE,FR&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect((await other.call('POST', `/data/v1/${asset.uid}`, { country: ['JP'] })).statusCode).toBe(200);
    expect((await other.call('GET', `/data/v1/${asset.uid}?country=12345678901234567890x`)).statusCode).toBe(200);
    await t.app.usage.flush();

    const mine = await recentCallsOf(reader, asset.uid);
    expect(mine.scope).toBe('mine');
    expect(mine.items.map((item) => [item.caller?.id, item.format, item.rows, item.status])).toEqual([
      [reader.id, 'csv', 2, 200],
      [reader.id, 'json', 1, 200],
    ]);
    expect(mine.items[0]).toMatchObject({ bytes: csv.rawPayload.length, cacheHit: false, viaToken: false });
    expect(mine.items[0]?.at.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(mine.items[0]?.durationMs).toBeGreaterThanOrEqual(0);
    expect(callersOf(await recentCallsOf(other, asset.id))).toEqual(['Other Reader', 'Other Reader']);

    // Administrators see who uses what (product §10), without a role in the collection.
    const admin = await buildPerson(t, { canManageUsers: true });
    for (const person of [editor, owner, admin]) {
      const everyone = await recentCallsOf(person, asset.uid);
      expect(everyone.scope).toBe('everyone');
      expect(everyone.items).toHaveLength(4);
      expect(new Set(everyone.items.map((item) => item.caller?.id))).toEqual(new Set([reader.id, other.id]));
    }
    expect(callersOf(await recentCallsOf(editor, asset.uid, '?take=1'))).toEqual(['Other Reader']);
  });

  it('answers 20 calls by default and at most 100, and refuses take outside 1..100', async () => {
    const t = ctx();
    const { editor, collection, connectionId } = await world(t);
    const asset = await createPeople(editor, collection.uid, connectionId);
    for (let n = 0; n < 105; n += 1) {
      t.app.usage.record({
        userId: editor.id,
        dataSourceId: asset.id,
        dataSourceUid: asset.uid,
        collectionId: null,
        channel: 'data-api',
        format: 'json',
        status: 200,
        durationMs: n,
        rows: n,
        bytes: n,
        cacheHit: false,
        requestId: null,
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
      });
    }
    await t.app.usage.flush();
    const byDefault = await recentCallsOf(editor, asset.uid);
    expect(byDefault.items.map((item) => item.rows)).toEqual(Array.from({ length: 20 }, (_, i) => 104 - i));
    expect((await recentCallsOf(editor, asset.uid, '?take=100')).items).toHaveLength(100);
    for (const take of ['0', '101', 'many', '-1']) {
      const response = await editor.call('GET', `/api/DataSource/${asset.uid}/RecentCalls?take=${take}`);
      expect(response.statusCode, take).toBe(400);
      expect(Object.keys(response.json<{ errors: Record<string, string[]> }>().errors)).toEqual(['querystring.take']);
    }
  });

  it('hides the calls of an asset the caller cannot see', async () => {
    const t = ctx();
    const { editor, collection, connectionId } = await world(t);
    const asset = await createPeople(editor, collection.uid, connectionId);
    const stranger = await buildPerson(t);
    const hidden = await stranger.call('GET', `/api/DataSource/${asset.uid}/RecentCalls`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ title: `Data asset with id ${asset.uid} does not exist` });
    const missing = await editor.call('GET', `/api/DataSource/${unique('none')}/RecentCalls`);
    expect(missing.statusCode).toBe(404);
  });

  it('answers the values a call binds, typed by the same checks, without running the query', async () => {
    const t = ctx();
    const { editor, reader, collection, connectionId } = await world(t);
    // The table does not exist: had anything run, the answer would be a query error.
    const asset = await createPeople(editor, collection.uid, connectionId, {
      sql: 'select * from no_such_table where id in (:ids) and score >= :least and day = :day and flag = :flag',
      parameters: [
        { name: 'ids', type: 'integer', list: true, required: true },
        { name: 'least', type: 'decimal', default: '1.50' },
        { name: 'day', type: 'date' },
        { name: 'flag', type: 'boolean', required: true },
        { name: 'note', type: 'string' },
      ],
      transformations: [],
    });
    const response = await reader.call('POST', `/api/DataSource/${asset.uid}/BoundValues`, {
      ids: '3, 1',
      flag: 'true',
      note: "x' or 1=1 --",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(postBoundValues.response.parse(response.json()).bindings).toEqual([
      { name: 'ids', type: 'integer', list: true, value: [3, 1], inSql: true },
      { name: 'least', type: 'decimal', list: false, value: '1.50', inSql: true },
      { name: 'day', type: 'date', list: false, value: null, inSql: true },
      { name: 'flag', type: 'boolean', list: false, value: true, inSql: true },
      { name: 'note', type: 'string', list: false, value: "x' or 1=1 --", inSql: false },
    ]);

    const wrong = await reader.call('POST', `/api/DataSource/${asset.id}/BoundValues`, { ids: 'x', flag: 'maybe' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      errors: { ids: ['ids must be an integer'], flag: [expect.stringContaining('flag')] },
    });
    const stranger = await buildPerson(t);
    expect((await stranger.call('POST', `/api/DataSource/${asset.uid}/BoundValues`, {})).statusCode).toBe(404);
  });
});
