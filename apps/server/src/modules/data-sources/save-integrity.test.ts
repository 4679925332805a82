import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { dataSourceDetail } from '@datalab/contract/api/data-sources';
import { unique } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import type { TestApp } from '../../../test/support/app.ts';
import { createPeople, PEOPLE_SQL, world } from './test-world.ts';

// An asset is saved whole: its fields, parameters, transformations and client tools in one request and one
// transaction. When any part fails in the store, nothing of the save remains: no new asset, no changed SQL,
// parameters, rules or tools, no version bump. The failure here is the store's own: a trigger refuses one tool.

const REFUSED_TOOL = 'powerbi';

/** A trigger that makes the store refuse any new Power BI configuration, while `work` runs. */
async function whileStoreRefusesPowerBi(t: TestApp, store: 'sqlite' | 'postgres', work: () => Promise<void>) {
  const db = t.app.db;
  if (store === 'postgres') {
    await sql`create function refuse_tool() returns trigger language plpgsql as $$
      begin raise exception 'refused by the test'; end $$`.execute(db);
    await sql`create trigger refuse_tool before insert on client_tool_configurations for each row
      when (new.tool = ${sql.lit(REFUSED_TOOL)}) execute function refuse_tool()`.execute(db);
  } else {
    await sql`create trigger refuse_tool before insert on client_tool_configurations
      when new.tool = ${sql.lit(REFUSED_TOOL)} begin select raise(abort, 'refused by the test'); end`.execute(db);
  }
  try {
    await work();
  } finally {
    await sql`drop trigger refuse_tool${store === 'postgres' ? sql` on client_tool_configurations` : sql``}`.execute(
      db,
    );
    if (store === 'postgres') await sql`drop function refuse_tool()`.execute(db);
  }
}

describeEachStore('saving an asset whole', (ctx, store) => {
  it('saves the client tools with the asset: added empty, kept with their settings, removed when left out', async () => {
    const { editor, collection, connectionId } = await world(ctx());
    const asset = await createPeople(editor, collection.uid, connectionId, { clientTools: ['curl', 'python'] });
    expect(asset.clientToolConfigurations.map((c) => [c.tool, c.settings])).toEqual([
      ['curl', {}],
      ['python', {}],
    ]);
    const configured = await editor.call('PUT', `/api/DataSource/${asset.uid}/ClientToolConfiguration`, {
      tool: 'python',
      settings: { pandas: true },
    });
    expect(configured.statusCode).toBe(200);
    const saved = await editor.call('PUT', '/api/SqlDataSource', {
      uid: asset.uid,
      connectionId,
      name: asset.name,
      sql: PEOPLE_SQL,
      clientTools: ['python', 'r', 'r'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const detail = dataSourceDetail.parse(saved.json());
    expect(detail.clientToolConfigurations.map((c) => [c.tool, c.settings])).toEqual([
      ['python', { pandas: true }],
      ['r', {}],
    ]);
    // Left out of the request: left as they are.
    const untouched = await editor.call('PUT', '/api/SqlDataSource', {
      uid: asset.uid,
      connectionId,
      name: asset.name,
      sql: PEOPLE_SQL,
    });
    expect(dataSourceDetail.parse(untouched.json()).clientToolConfigurations.map((c) => c.tool)).toEqual([
      'python',
      'r',
    ]);
    const unknown = await editor.call('PUT', '/api/SqlDataSource', {
      uid: asset.uid,
      connectionId,
      name: asset.name,
      sql: PEOPLE_SQL,
      clientTools: ['excel'],
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('leaves nothing half-written when a part of the save fails in the store', async () => {
    const { editor, reader, collection, connectionId } = await world(ctx());
    const asset = await createPeople(editor, collection.uid, connectionId, { clientTools: ['curl'] });
    const read = async () =>
      dataSourceDetail.parse((await reader.call('GET', `/api/DataSource/GetByUid/${asset.uid}`)).json());
    const before = await read();
    const newName = unique('Never');

    await whileStoreRefusesPowerBi(ctx(), store, async () => {
      const changed = await editor.call('PUT', '/api/SqlDataSource', {
        uid: asset.uid,
        connectionId,
        name: `${asset.name} renamed`,
        sql: 'select id, email from people where score > :minScore',
        rowCap: 7,
        parameters: [{ name: 'minScore', type: 'decimal', required: true }],
        transformations: [{ name: 'Cut', rules: [{ type: 'limit', count: 1 }] }],
        clientTools: ['python', REFUSED_TOOL],
      });
      expect(changed.statusCode).toBe(500);
      expect(changed.body).not.toContain('refused by the test');

      const created = await editor.call('POST', '/api/SqlDataSource', {
        collectionUid: collection.uid,
        connectionId,
        name: newName,
        sql: PEOPLE_SQL,
        parameters: [{ name: 'country', type: 'string', list: true }],
        transformations: [{ name: 'Privacy', rules: [{ type: 'mask', column: 'email', mode: 'hash' }] }],
        clientTools: ['curl', REFUSED_TOOL],
      });
      expect(created.statusCode).toBe(500);
    });

    const after = await read();
    expect(after).toEqual(before);
    expect(after).toMatchObject({ version: 1, name: asset.name, sql: PEOPLE_SQL, rowCap: 1000 });
    const names = await ctx()
      .app.db.selectFrom('data_sources')
      .select('name')
      .where('collection_id', '=', collection.id)
      .execute();
    expect(names.map((row) => row.name)).toEqual([asset.name]);
    const orphans = await ctx()
      .app.db.selectFrom('parameters')
      .leftJoin('data_sources', 'data_sources.id', 'parameters.data_source_id')
      .select('parameters.id')
      .where('data_sources.id', 'is', null)
      .execute();
    expect(orphans).toEqual([]);

    // The same save without the refused tool goes through whole.
    const saved = await editor.call('PUT', '/api/SqlDataSource', {
      uid: asset.uid,
      connectionId,
      name: `${asset.name} renamed`,
      sql: 'select id, email from people where score > :minScore',
      parameters: [{ name: 'minScore', type: 'decimal', required: true }],
      clientTools: ['python'],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(dataSourceDetail.parse(saved.json())).toMatchObject({
      version: 2,
      parameters: [{ name: 'minScore' }],
      clientToolConfigurations: [{ tool: 'python' }],
    });
  });
});
