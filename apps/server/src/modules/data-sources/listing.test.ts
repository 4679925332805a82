import { expect, it } from 'vitest';
import { dataSourceSummary } from '@datalab/contract/api/data-sources';
import { pageOf } from '@datalab/contract/paging';
import { unique } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { createPeople, world } from './test-world.ts';

// The callable list and client tool configurations, through the API on both stores.

describeEachStore('data source listing and client tools', (ctx) => {
  it('lists what the caller can call, with search, collection and paging', async () => {
    const { editor, collection, connectionId } = await world(ctx());
    const other = await world(ctx());
    const mine = await createPeople(editor, collection.uid, connectionId, { name: unique('Zebra stripes') });
    await createPeople(other.editor, other.collection.uid, other.connectionId);
    const page = pageOf(dataSourceSummary);
    const all = page.parse((await editor.call('GET', '/api/DataSource/GetAll?pageSize=50')).json());
    expect(all.items.map((i) => i.collection.uid)).toEqual([collection.uid]);
    const searched = page.parse(
      (await editor.call('GET', `/api/DataSource/GetAll?search=${encodeURIComponent('ZEBRA')}`)).json(),
    );
    expect(searched.items.map((i) => i.uid)).toEqual([mine.uid]);
    expect(searched.items[0]).toMatchObject({ myRole: 'Editor', kind: 'sql', connectionName: 'Shop' });
    const filtered = page.parse(
      (await editor.call('GET', `/api/DataSource/GetAll?collectionUid=${other.collection.uid}`)).json(),
    );
    expect(filtered.totalCount).toBe(0);
    const hidden = await editor.call(
      'GET',
      `/api/DataSource/GetByUid/${(await createPeople(other.editor, other.collection.uid, other.connectionId)).uid}`,
    );
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json<{ title: string }>().title).toMatch(/^Data asset with id .+ does not exist$/);
  });

  it('keeps one configuration per client tool: POST twice → 409, DELETE removes it', async () => {
    const { editor, collection, connectionId } = await world(ctx());
    const asset = await createPeople(editor, collection.uid, connectionId);
    const first = await editor.call('POST', `/api/DataSource/${asset.uid}/ClientToolConfiguration`, { tool: 'r' });
    expect(first.statusCode).toBe(201);
    const second = await editor.call('POST', `/api/DataSource/${asset.uid}/ClientToolConfiguration`, { tool: 'r' });
    expect(second.statusCode).toBe(409);
    const id = first.json<{ id: number }[]>()[0]?.id;
    expect((await editor.call('DELETE', `/api/DataSource/${asset.uid}/ClientToolConfiguration/${id}`)).json()).toEqual(
      [],
    );
    expect((await editor.call('DELETE', `/api/DataSource/${asset.uid}/ClientToolConfiguration/${id}`)).statusCode).toBe(
      404,
    );
  });
});
