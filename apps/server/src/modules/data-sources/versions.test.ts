import { expect, it } from 'vitest';
import { restoreAssetVersion } from '@datalab/contract/api/asset-versions';
import { dataSourceDetail } from '@datalab/contract/api/data-sources';
import { restore, version, versionPage, versions } from '../../../test/support/asset-versions.ts';
import { auditRecords, buildCollection, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { buildTokenCaller } from '../../../test/support/token-caller.ts';
import { createCountries, createPeople, PEOPLE_SQL, world } from './test-world.ts';

// The history of an asset through HTTP on both stores: every kind of save keeps a version (a save that changes
// nothing keeps none), a version holds the whole definition, Restore saves it again as a new version through the
// same checks as any save, and the asset keeps its uid: tokens and the calling layer go on working, and the cache
// never answers with the result of another definition.

describeEachStore('the history of an asset', (ctx) => {
  it('keeps a version for every kind of save, and none for a save that changes nothing', async () => {
    const w = await world(ctx());
    const asset = await createPeople(w.editor, w.collection.uid, w.connectionId);
    const save = { uid: asset.uid, connectionId: w.connectionId, name: asset.name, sql: PEOPLE_SQL };
    const steps: [string, () => ReturnType<Person['call']>, string[]][] = [
      ['sql', () => w.editor.call('PUT', '/api/SqlDataSource', { ...save, sql: `${PEOPLE_SQL} limit 5` }), ['sql']],
      ['limits', () => w.editor.call('PUT', '/api/SqlDataSource', { ...save, rowCap: 7, cacheTtlSeconds: 60 }), []],
      [
        'parameters',
        () =>
          w.editor.call('PUT', `/api/DataSource/${asset.uid}/Parameters`, {
            parameters: [{ name: 'country', type: 'string', list: true, required: true, label: 'Country' }],
          }),
        ['parameters'],
      ],
      [
        'transformation',
        () => w.editor.call('POST', `/api/DataSource/${asset.uid}/Transformations`, { name: 'Second', rules: [] }),
        ['transformations'],
      ],
      [
        'client tool',
        () =>
          w.editor.call('PUT', `/api/DataSource/${asset.uid}/ClientToolConfiguration`, {
            tool: 'python',
            settings: { pandas: true },
          }),
        ['clientTools'],
      ],
    ];
    for (const [what, step, changed] of steps) {
      const before = (await versions(w.editor, asset.uid)).length;
      const response = await step();
      expect(response.statusCode, `${what}: ${response.body}`).toBeLessThan(300);
      const after = await versions(w.editor, asset.uid);
      expect(after.length, what).toBe(before + 1);
      if (changed.length > 0) expect(after[0]?.changed, what).toEqual(changed);
    }
    const list = await versions(w.editor, asset.uid);
    expect(list.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(list[3]?.changed).toEqual(['sql', 'limits', 'cache']);
    // The summary names the fields as the asset editor does.
    expect(list[3]?.summary).toBe('Changed SQL, limits, cache');
    expect(list.at(-1)).toMatchObject({ version: 1, summary: 'Created', changed: [] });
    expect(list[0]?.savedBy?.id).toBe(w.editor.id);

    // Saved again exactly as it is: the cache version may move, the history does not.
    const same = await w.editor.call('PUT', '/api/SqlDataSource', { ...save, rowCap: 7, cacheTtlSeconds: 60 });
    expect(same.statusCode, same.body).toBe(200);
    expect(await versions(w.editor, asset.uid)).toHaveLength(6);
    const sameParameters = await w.editor.call('PUT', `/api/DataSource/${asset.uid}/Parameters`, {
      parameters: [{ name: 'country', type: 'string', list: true, required: true, label: 'Country' }],
    });
    expect(sameParameters.statusCode).toBe(200);
    expect(await versions(w.editor, asset.uid)).toHaveLength(6);

    const paged = await w.editor.call('GET', `/api/DataSource/${asset.uid}/Versions?page=2&pageSize=4`);
    expect(versionPage.parse(paged.json())).toMatchObject({ totalCount: 6, page: 2 });
    expect(versionPage.parse(paged.json()).items.map((v) => v.version)).toEqual([2, 1]);
    expect((await w.editor.call('GET', `/api/DataSource/${asset.uid}/Versions/99`)).statusCode).toBe(404);
  });

  it('restores the exact definition of an old version as a new one, audited, and the asset answers as before', async () => {
    const t = ctx();
    const w = await world(t);
    const asset = await createPeople(w.editor, w.collection.uid, w.connectionId, {
      cacheTtlSeconds: 300,
      clientTools: ['python'],
    });
    await w.editor.call('PUT', `/api/DataSource/${asset.uid}/ClientToolConfiguration`, {
      tool: 'python',
      settings: { pandas: true },
    });
    const feed = await buildTokenCaller(t, w.owner, { kind: 'collection', collectionUid: w.collection.uid });
    const call = async () => {
      const response = await feed.call('GET', `/data/v1/${asset.uid}?country=DE&country=FR`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ rows: { id: number }[]; cached: boolean }>();
    };
    const original = await call();
    expect(original.rows.map((r) => r.id)).toEqual([1, 2]);
    expect((await call()).cached).toBe(true);

    const changed = await w.editor.call('PUT', '/api/SqlDataSource', {
      uid: asset.uid,
      connectionId: w.connectionId,
      name: `${asset.name} renamed`,
      sql: 'select id, email, country from people where country in (:country) and id > 1 order by id',
      cacheTtlSeconds: 300,
      parameters: [{ name: 'country', type: 'string', list: true, required: false }],
      transformations: [],
      clientTools: ['curl'],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call()).rows.map((r) => r.id)).toEqual([2]);
    const [latest] = await versions(w.editor, asset.uid);
    expect(latest?.version).toBe(3);

    const restored = await restore(w.editor, asset.uid, 2);
    expect(restored.statusCode, restored.body).toBe(200);
    const reply = restoreAssetVersion.response.parse(restored.json());
    expect(reply).toMatchObject({ restoredFrom: 2, version: 4 });
    expect(reply.asset).toMatchObject({ uid: asset.uid, id: asset.id, name: asset.name, sql: PEOPLE_SQL });
    expect((await version(w.editor, asset.uid, 4)).definition).toEqual(
      (await version(w.editor, asset.uid, 2)).definition,
    );
    expect((await versions(w.editor, asset.uid))[0]).toMatchObject({
      version: 4,
      summary: expect.stringMatching(/^Restored version 2: /) as unknown,
    });
    const detail = dataSourceDetail.parse((await w.reader.call('GET', `/api/DataSource/GetByUid/${asset.uid}`)).json());
    expect(detail.clientToolConfigurations.map((c) => [c.tool, c.settings])).toEqual([['python', { pandas: true }]]);
    expect(detail.transformations.map((x) => x.name)).toEqual(['Privacy']);

    // The same token, the same uid; not the changed definition's cached rows, the restored one's.
    const after = await call();
    expect(after.rows.map((r) => r.id)).toEqual([1, 2]);
    expect(after.rows).toEqual(original.rows);
    expect((await call()).cached).toBe(true);

    const audits = (await auditRecords(t, 'dataAsset.restore')).filter((r) => r.details.action === 'dataAsset.restore');
    expect(audits.at(-1)?.details).toMatchObject({ after: { restoredFrom: 2, version: 4 } });

    // Restoring what the asset already is keeps no version.
    expect((await restore(w.editor, asset.uid, 4)).statusCode).toBe(200);
    expect(await versions(w.editor, asset.uid)).toHaveLength(4);
  });

  it('refuses a restore whose parameter data source is gone with a 400 on its field, changing nothing', async () => {
    const w = await world(ctx());
    const countries = await createCountries(w.editor, w.collection.uid, w.connectionId);
    const countriesId = countries.id;
    const fed = { kind: 'dataSource', dataSourceId: countriesId, valueColumn: 'code', labelColumn: 'name' };
    const asset = await createPeople(w.editor, w.collection.uid, w.connectionId, {
      parameters: [{ name: 'country', type: 'string', list: true, required: true, allowedValues: fed }],
    });
    const fixed = await w.editor.call('PUT', `/api/DataSource/${asset.uid}/Parameters`, {
      parameters: [{ name: 'country', type: 'string', list: true, required: true }],
    });
    expect(fixed.statusCode).toBe(200);
    const gone = await w.editor.call('DELETE', `/api/SqlDataSource?uid=${countries.uid}`);
    expect(gone.statusCode, gone.body).toBe(200);
    const before = await w.editor.call('GET', `/api/DataSource/GetByUid/${asset.uid}`);

    const refused = await restore(w.editor, asset.uid, 1);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      errors: { 'parameters.0.allowedValues.dataSourceId': [`Data asset with id ${countriesId} does not exist`] },
    });
    expect(await versions(w.editor, asset.uid)).toHaveLength(2);
    const after = await w.editor.call('GET', `/api/DataSource/GetByUid/${asset.uid}`);
    expect(after.json()).toEqual(before.json());
  });

  it('is for Editors: a Reader, a token narrowed to Reader or to another collection are refused', async () => {
    const t = ctx();
    const w = await world(t);
    const asset = await createPeople(w.editor, w.collection.uid, w.connectionId);
    const paths = [
      ['GET', `/api/DataSource/${asset.uid}/Versions`],
      ['GET', `/api/DataSource/${asset.uid}/Versions/1`],
      ['POST', `/api/DataSource/${asset.uid}/Versions/1/Restore`],
    ] as const;
    const other = await buildCollection(t, w.editor);
    const elsewhere = await buildTokenCaller(t, w.editor, {
      kind: 'personal',
      roles: [{ collectionUid: other.uid, role: 'Owner' }],
    });
    const asReader = await buildTokenCaller(t, w.editor, {
      kind: 'personal',
      roles: [{ collectionUid: w.collection.uid, role: 'Reader' }],
    });
    const asEditor = await buildTokenCaller(t, w.editor, {
      kind: 'personal',
      roles: [{ collectionUid: w.collection.uid, role: 'Editor' }],
    });
    for (const [method, path] of paths) {
      expect((await w.reader.call(method, path)).statusCode, path).toBe(403);
      expect((await asReader.call(method, path)).statusCode, path).toBe(403);
      expect((await elsewhere.call(method, path)).statusCode, path).toBe(404);
      expect((await asEditor.call(method, path)).statusCode, path).toBe(200);
    }
  });
});
