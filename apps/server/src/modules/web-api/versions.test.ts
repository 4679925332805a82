import { afterAll, beforeAll, expect, it } from 'vitest';
import { restoreAssetVersion } from '@datalab/contract/api/asset-versions';
import { dataSourceDetail } from '@datalab/contract/api/data-sources';
import { describeEachStore } from '../../../test/support/suite.ts';
import { restore, version, versions } from '../../../test/support/asset-versions.ts';
import { createItemsAsset, itemsRequest, startUpstream, webApiWorld, type Upstream } from './test-upstream.ts';

// The history of Web API assets: their saves (the request, the credential picked) keep versions like SQL ones, and
// Restore brings back the request and credential. Also: an asset saved before versions existed begins its history
// at the first read, with its state then as version 1.

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});

describeEachStore('the history of a Web API asset', (ctx) => {
  it('keeps the versions of Web API assets, and begins the history of an asset saved before versions existed', async () => {
    const t = ctx();
    const w = await webApiWorld(t, upstream);
    const created = await createItemsAsset(w.editor, w);
    expect(created.statusCode, created.body).toBe(201);
    const asset = dataSourceDetail.parse(created.json());
    const update = {
      uid: asset.uid,
      connectionId: w.connectionId,
      name: asset.name,
      request: { ...itemsRequest, path: '/items/v2' },
      parameters: [{ name: 'region', type: 'string' }],
    };
    expect((await w.editor.call('PUT', '/api/WebApiDataSource', update)).statusCode).toBe(200);
    const picked = await w.editor.call('PUT', `/api/WebApiDataSource/${asset.uid}/Credentials`, { credentialId: null });
    expect(picked.statusCode, picked.body).toBe(200);
    const list = await versions(w.editor, asset.uid);
    expect(list.map((v) => [v.version, v.changed])).toEqual([
      [3, ['credential']],
      [2, ['request']],
      [1, []],
    ]);
    const restored = await restore(w.editor, asset.uid, 1);
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await version(w.editor, asset.uid, 4)).definition).toEqual(
      (await version(w.editor, asset.uid, 1)).definition,
    );
    expect(restoreAssetVersion.response.parse(restored.json()).asset.webApi).toMatchObject({
      request: { path: '/items' },
      credential: { id: w.credentialId },
    });

    // An asset whose history has not begun: version 1 is its state at the first read, by nobody known.
    await t.app.db.deleteFrom('data_source_versions').where('data_source_id', '=', asset.id).execute();
    const begun = await versions(w.editor, asset.uid);
    expect(begun).toEqual([expect.objectContaining({ version: 1, savedBy: null, changed: [] })]);
    expect((await version(w.editor, asset.uid, 1)).definition.request?.path).toBe('/items');
  });
});
