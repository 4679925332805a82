import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataSourceDetail } from '@datalab/contract/api/data-sources';
import { callResultWithExchanges, EXCHANGE_HEADER, webApiPreviewResult } from '@datalab/contract/api/web-api';
import { texts } from '@datalab/contract/texts';
import { unique } from '../../../test/support/builders.ts';
import { collectionSqliteFile } from '../../../test/support/sqlite-files.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { templatePlaceholderUndefined } from '../data-sources/web-api-assets.service.ts';
import {
  createItemsAsset,
  itemsRequest,
  startUpstream,
  UPSTREAM_KEY,
  webApiWorld,
  type Upstream,
} from './test-upstream.ts';

// Web API data assets, against a real local upstream: saved with their request and credential
// (placeholders defined, the credential one of the connection's), shown by the generic DataSource calls, tried
// before saving with the exchange (secrets masked), and called through /data/v1 exactly like SQL assets — paging,
// parameter data sources (a SQL one feeding a Web API parameter), transformations, the cache, usage records,
// exports, the OpenAPI document — with upstream failures as 502 and the guard's refusals as 400.

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});

describeApp('Web API data assets', (ctx) => {
  it('saves the request and credential, refuses undefined placeholders, and shows the asset like any other', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const missing = await createItemsAsset(w.editor, w, { parameters: [] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ errors: { request: [templatePlaceholderUndefined('region')] } });
    expect(templatePlaceholderUndefined('region')).toBe('A definition for {region}, used in the request, is required');
    const badHeader = await createItemsAsset(w.editor, w, { request: { ...itemsRequest, headers: { Host: 'x' } } });
    expect(badHeader.json()).toMatchObject({
      errors: { 'request.headers.Host': ['This header is set by the connector'] },
    });
    const absolute = await createItemsAsset(w.editor, w, {
      request: { ...itemsRequest, path: 'http://evil.example/' },
    });
    expect(absolute.json()).toMatchObject({
      errors: { 'request.path': ['The path must be relative to the base URL'] },
    });
    const getBody = await createItemsAsset(w.editor, w, { request: { ...itemsRequest, body: { a: 1 } } });
    expect(getBody.json()).toMatchObject({ errors: { 'request.body': ['A GET or HEAD request has no body'] } });
    const foreign = await createItemsAsset(w.editor, w, { credentialId: w.credentialId + 999 });
    expect(foreign.json()).toMatchObject({
      errors: { credentialId: [`Credential with id ${w.credentialId + 999} does not exist`] },
    });
    const sqlConnection = await w.owner.call('POST', '/api/SqlConnection', {
      collectionUid: w.collection.uid,
      name: unique('Db'),
      kind: 'sqlite',
      database: 'x/y.sqlite',
    });
    const wrongKind = await createItemsAsset(w.editor, w, { connectionId: sqlConnection.json<{ id: number }>().id });
    expect(wrongKind.statusCode).toBe(400);
    expect(Object.keys(wrongKind.json<{ errors: object }>().errors)).toEqual(['connectionId']);

    const created = await createItemsAsset(w.editor, w);
    expect(created.statusCode, created.body).toBe(201);
    const asset = dataSourceDetail.parse(created.json());
    expect(asset).toMatchObject({ kind: 'webapi', sql: '', connection: { id: w.connectionId, kind: 'webapi' } });
    expect(asset.webApi).toMatchObject({
      request: { path: '/items', query: { region: '{region}' }, paging: { kind: 'page', size: 10 } },
      credential: { id: w.credentialId, name: 'Key', kind: 'api-key' },
    });
    const seen = await w.reader.call('GET', `/api/DataSource/GetByUid/${asset.uid}`);
    expect(dataSourceDetail.parse(seen.json()).webApi?.credential?.name).toBe('Key');
    const listed = await w.reader.call('GET', `/api/DataSource/GetAll?kind=webapi&collectionUid=${w.collection.uid}`);
    expect(listed.json<{ items: { uid: string }[] }>().items.map((i) => i.uid)).toEqual([asset.uid]);

    // The generic DataSource calls work on it as on a SQL asset.
    const rules = await w.editor.call('POST', `/api/DataSource/${asset.uid}/Transformations`, {
      name: 'Top',
      rules: [{ type: 'limit', count: 2 }],
    });
    expect(rules.statusCode).toBe(201);
    const listedRules = await w.reader.call('GET', `/api/DataSource/Transformations/${asset.uid}`);
    expect(listedRules.json<{ name: string }[]>().map((t) => t.name)).toEqual(['Top']);
    const tool = await w.editor.call('PUT', `/api/DataSource/${asset.uid}/ClientToolConfiguration`, { tool: 'curl' });
    expect(tool.statusCode).toBe(200);
    expect((await w.reader.call('GET', `/api/DataSource/${asset.uid}/ParameterDataSources`)).statusCode).toBe(200);
    const limited = await w.reader.call('GET', `/data/v1/${asset.uid}?region=EU`);
    expect(limited.json<{ rows: unknown[] }>().rows).toHaveLength(2);
    const recent = await w.editor.call('GET', `/api/DataSource/${asset.uid}/RecentCalls`);
    expect(recent.statusCode).toBe(200);

    // The parameters calls keep every {param} defined.
    const [region] = asset.parameters;
    const removed = await w.editor.call('DELETE', `/api/DataSource/Parameters/${region?.id}`);
    expect(removed.statusCode).toBe(400);
    expect(removed.json()).toMatchObject({ errors: { parameters: [templatePlaceholderUndefined('region')] } });
    const dropped = await w.editor.call('PUT', `/api/DataSource/${asset.uid}/Parameters`, { parameters: [] });
    expect(dropped.statusCode).toBe(400);

    // Readers do not change it; a SQL asset is not a Web API one.
    const { uid, webApi: _w, ...rest } = asset;
    const update = { uid, connectionId: w.connectionId, name: rest.name, request: itemsRequest };
    expect((await w.reader.call('PUT', '/api/WebApiDataSource', update)).statusCode).toBe(403);
    const sqlConnectionId = sqlConnection.json<{ id: number }>().id;
    const asSql = { uid, connectionId: sqlConnectionId, name: rest.name, sql: 'select 1' };
    expect((await w.editor.call('PUT', '/api/SqlDataSource', asSql)).statusCode).toBe(404);
    const sqlAsset = await w.editor.call('POST', '/api/SqlDataSource', {
      ...asSql,
      uid: undefined,
      name: unique('S'),
      collectionUid: w.collection.uid,
    });
    const sqlUid = sqlAsset.json<{ uid: string }>().uid;
    expect((await w.editor.call('PUT', '/api/WebApiDataSource', { ...update, uid: sqlUid })).statusCode).toBe(404);
    expect((await w.editor.call('DELETE', `/api/WebApiDataSource?uid=${sqlUid}`)).statusCode).toBe(404);
    const updated = await w.editor.call('PUT', '/api/WebApiDataSource', { ...update, description: 'changed' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(dataSourceDetail.parse(updated.json())).toMatchObject({
      version: 4,
      webApi: { credential: { name: 'Key' } },
    });
    const deleted = await w.editor.call('DELETE', `/api/WebApiDataSource?uid=${uid}`);
    expect(deleted.statusCode).toBe(200);
    expect((await w.reader.call('GET', `/api/DataSource/GetByUid/${uid}`)).statusCode).toBe(404);
  });

  it('tries a draft: rows and the exchange with the key masked, or the upstream failure with its exchange', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const draft = {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      credentialId: w.credentialId,
      request: itemsRequest,
      parameters: [{ name: 'region', type: 'string' }],
      values: { region: 'AS' },
    };
    const tried = await w.editor.call('POST', '/api/WebApiDataSource/Preview', draft);
    expect(tried.statusCode, tried.body).toBe(200);
    expect(tried.body).not.toContain(UPSTREAM_KEY);
    const result = webApiPreviewResult.parse(tried.json());
    expect(result.rows).toHaveLength(12);
    expect(result.rows.every((row) => row['region'] === 'AS')).toBe(true);
    expect(result).toMatchObject({ error: null, truncated: false, boundValues: { region: 'AS' } });
    expect(result.exchanges.map((e) => e.status)).toEqual([200, 200]);
    expect(result.exchanges[0]?.requestHeaders['x-api-key']).toBe(texts.maskedSecret);
    expect(result.exchanges[0]?.url).toContain('region=AS');

    const capped = webApiPreviewResult.parse(
      (await w.editor.call('POST', '/api/WebApiDataSource/Preview', { ...draft, rowCap: 5 })).json(),
    );
    expect(capped).toMatchObject({ truncated: true });
    expect(capped.rows).toHaveLength(5);

    const failing = await w.editor.call('POST', '/api/WebApiDataSource/Preview', {
      ...draft,
      request: { path: '/fail', rowsPath: 'data' },
      parameters: [],
    });
    expect(failing.statusCode).toBe(200);
    const failure = webApiPreviewResult.parse(failing.json());
    expect(failure.error).toEqual({ status: 502, message: 'The web API answered with status 500' });
    expect(failure.exchanges[0]).toMatchObject({ status: 500, replyPreview: expect.stringContaining('boom') });
    const html = webApiPreviewResult.parse(
      (
        await w.editor.call('POST', '/api/WebApiDataSource/Preview', {
          ...draft,
          request: { path: '/html' },
          parameters: [],
        })
      ).json(),
    );
    expect(html.error?.message).toBe('The web API answered HTML where JSON was expected');

    // Values cannot change the request's shape: a 400 before anything is sent.
    const sent = upstream.requests.length;
    const climbing = await w.editor.call('POST', '/api/WebApiDataSource/Preview', {
      ...draft,
      request: { path: '/items/{id}', rowsPath: 'data' },
      parameters: [{ name: 'id', type: 'string' }],
      values: { id: '..' },
    });
    expect(climbing.statusCode).toBe(400);
    expect(climbing.json()).toMatchObject({ errors: { id: ['id cannot be . or .. in the path'] } });
    const crlf = await w.editor.call('POST', '/api/WebApiDataSource/Preview', {
      ...draft,
      request: { path: '/items', headers: { 'X-Trace': '{trace}' } },
      parameters: [{ name: 'trace', type: 'string' }],
      values: { trace: 'a\r\nX-Evil: 1' },
    });
    expect(crlf.statusCode).toBe(400);
    expect(upstream.requests.length).toBe(sent);
    // An encoded slash stays inside one segment.
    const encoded = webApiPreviewResult.parse(
      (
        await w.editor.call('POST', '/api/WebApiDataSource/Preview', {
          ...draft,
          request: { path: '/items/{id}', rowsPath: 'data' },
          parameters: [{ name: 'id', type: 'string' }],
          values: { id: '1/admin?x=#@evil.example' },
        })
      ).json(),
    );
    expect(encoded.exchanges[0]?.url).toBe(`${upstream.origin}/v1/items/1%2Fadmin%3Fx%3D%23%40evil.example`);
  });

  it('is called through /data/v1 like a SQL asset: paging, cache, exchanges, usage, exports, OpenAPI', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const asset = dataSourceDetail.parse(
      (
        await createItemsAsset(w.editor, w, {
          cacheTtlSeconds: 60,
          // A header named like the reply's own member: the exchanges then hold `,"truncated":` too.
          request: { ...itemsRequest, headers: { Accept: 'application/json', Truncated: 'no' } },
          transformations: [{ name: 'Shape', rules: [{ type: 'select', columns: ['id', 'name', 'price'] }] }],
        })
      ).json(),
    );
    const call = await w.reader.call('GET', `/data/v1/${asset.uid}?region=EU`);
    expect(call.statusCode, call.body).toBe(200);
    const first = callResultWithExchanges.omit({ exchanges: true, exchangesOmitted: true }).parse(call.json());
    expect(first.rows).toHaveLength(13);
    expect(Object.keys(first.rows[0] ?? {})).toEqual(['id', 'name', 'price']);
    expect(first.cached).toBe(false);
    expect(call.json()).not.toHaveProperty('exchanges');
    expect(String(call.headers['server-timing'])).toContain('authz');

    // The developer view (an Editor's): exchanges of this call's own run; none for a cached reply.
    const fresh = await w.reader.call('POST', `/data/v1/${asset.uid}`, { region: 'AS' });
    expect(fresh.statusCode).toBe(200);
    // Exchanges are for the collection's authors: a Reader's request for them is ignored.
    const asReader = { authorization: `Bearer ${w.reader.token}`, [EXCHANGE_HEADER]: '1' };
    const refused = await ctx().app.inject({
      method: 'GET',
      url: `/data/v1/${asset.uid}?region=EU`,
      headers: asReader,
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).not.toHaveProperty('exchanges');
    expect(refused.body).not.toContain(upstream.origin);
    const headers = { authorization: `Bearer ${w.editor.token}`, [EXCHANGE_HEADER]: '1' };
    const cached = await ctx().app.inject({ method: 'GET', url: `/data/v1/${asset.uid}?region=AS`, headers });
    expect(callResultWithExchanges.parse(cached.json())).toMatchObject({ cached: true, exchanges: [] });
    const detailed = await ctx().app.inject({ method: 'GET', url: `/data/v1/${asset.uid}`, headers });
    const withExchanges = callResultWithExchanges.parse(detailed.json());
    expect(withExchanges.rows).toHaveLength(25);
    expect(withExchanges.exchanges.map((e) => e.url.replace(upstream.origin, ''))).toEqual([
      '/v1/items?page=1&pageSize=10',
      '/v1/items?page=2&pageSize=10',
      '/v1/items?page=3&pageSize=10',
    ]);
    expect(detailed.body).not.toContain(UPSTREAM_KEY);
    // That run was cached without its exchanges (each exchange has a `truncated` member of its own).
    const again = await w.reader.call('GET', `/data/v1/${asset.uid}`);
    expect(again.json()).toMatchObject({ cached: true, truncated: false });
    expect(again.json()).not.toHaveProperty('exchanges');
    expect(callResultWithExchanges.omit({ exchanges: true, exchangesOmitted: true }).parse(again.json()).rows).toEqual(
      withExchanges.rows,
    );

    const csv = await w.reader.call('GET', `/data/v1/${asset.uid}?region=EU&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(14);

    const openapi = await w.reader.call('GET', '/data/v1/openapi.json');
    expect(Object.keys(openapi.json<{ paths: object }>().paths)).toContain(`/data/v1/${asset.uid}`);
    // And the management API documents the Web API calls.
    const docs = (await ctx().app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: object }>();
    expect(Object.keys(docs.paths)).toEqual(
      expect.arrayContaining([
        '/api/WebApiConnection/{id}',
        '/api/WebApiConnection/{id}/Credentials/{credId}',
        '/api/WebApiDataSource/Credentials',
        '/api/WebApiDataSource/{id}/Credentials',
        '/api/WebApiDataSource/Preview',
      ]),
    );

    // Usage records like every call (written in batches).
    await ctx().app.usage.flush();
    const usage = await ctx()
      .app.db.selectFrom('usage_records')
      .select(['status', 'format', 'cache_hit'])
      .where('data_source_id', '=', asset.id)
      .execute();
    expect(usage.length).toBeGreaterThanOrEqual(5);
    expect(usage.some((u) => u.format === 'csv')).toBe(true);
    expect(usage.some((u) => Number(u.cache_hit) === 1)).toBe(true);
  });

  it('answers 502 with product §8 text for upstream failures and 400 for the guard, and follows credential changes', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const failing = dataSourceDetail.parse(
      (
        await createItemsAsset(w.editor, w, {
          request: { path: '/fail', rowsPath: 'data' },
          parameters: [],
        })
      ).json(),
    );
    const failed = await w.reader.call('GET', `/data/v1/${failing.uid}`);
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toMatchObject({ title: texts.badGateway });

    const asset = dataSourceDetail.parse((await createItemsAsset(w.editor, w)).json());
    expect((await w.reader.call('GET', `/data/v1/${asset.uid}`)).statusCode).toBe(200);
    // No credential: the upstream refuses (401), which is a 502 here.
    const none = await w.editor.call('PUT', `/api/WebApiDataSource/${asset.uid}/Credentials`, { credentialId: null });
    expect(none.statusCode).toBe(200);
    expect(dataSourceDetail.parse(none.json())).toMatchObject({ version: 2, webApi: { credential: null } });
    expect((await w.reader.call('GET', `/data/v1/${asset.uid}`)).statusCode).toBe(502);
    const back = await w.editor.call('PUT', `/api/WebApiDataSource/${asset.uid}/Credentials`, {
      credentialId: w.credentialId,
    });
    expect(back.statusCode).toBe(200);
    expect((await w.reader.call('GET', `/data/v1/${asset.uid}`)).statusCode).toBe(200);
    // A changed secret holds at the next call (the connection's change reloads the definition).
    await w.owner.call('PUT', '/api/WebApiDataSource/Credentials', {
      id: w.credentialId,
      name: 'Key',
      kind: 'api-key',
      settings: { in: 'header', name: 'X-Api-Key' },
      secret: 'stale-key',
    });
    expect((await w.reader.call('GET', `/data/v1/${asset.uid}`)).statusCode).toBe(502);

    // Without the allowed host, the guard refuses the loopback upstream: a 400 that says why.
    await w.owner.call('PUT', `/api/WebApiConnection/${w.connectionId}`, {
      name: 'Upstream',
      baseUrl: `${upstream.origin}/v1`,
      allowedHosts: [],
      retries: 0,
    });
    const refused = await w.reader.call('GET', `/data/v1/${asset.uid}`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ errors: { url: string[] } }>().errors.url[0]).toMatch(/loopback.*cannot be reached/);
  });

  it('goes with its collection: connection, credentials and assets', async () => {
    const w = await webApiWorld(ctx(), upstream);
    expect((await createItemsAsset(w.editor, w)).statusCode).toBe(201);
    const deleted = await w.owner.call('DELETE', `/api/DataSourceCollection?uid=${w.collection.uid}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const left = await ctx()
      .app.db.selectFrom('web_api_credentials')
      .select('id')
      .where('connection_id', '=', w.connectionId)
      .execute();
    expect(left).toEqual([]);
  });

  it('takes a parameter from a SQL parameter data source of the same collection', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const file = collectionSqliteFile(
      ctx().config.dataDir,
      w.collection.uid,
      `wa/${unique('regions')}.sqlite`,
      "create table regions (code text, name text); insert into regions values ('EU', 'Europe');",
    );
    const connection = await w.owner.call('POST', '/api/SqlConnection', {
      collectionUid: w.collection.uid,
      name: unique('Regions db'),
      kind: 'sqlite',
      database: file,
    });
    const regions = await w.editor.call('POST', '/api/SqlDataSource', {
      collectionUid: w.collection.uid,
      connectionId: connection.json<{ id: number }>().id,
      name: unique('Regions'),
      sql: 'select code, name from regions',
    });
    const regionsId = regions.json<{ id: number }>().id;
    const asset = dataSourceDetail.parse(
      (
        await createItemsAsset(w.editor, w, {
          parameters: [
            {
              name: 'region',
              type: 'string',
              required: true,
              allowedValues: { kind: 'dataSource', dataSourceId: regionsId, valueColumn: 'code', labelColumn: 'name' },
            },
          ],
        })
      ).json(),
    );
    const options = await w.reader.call('GET', `/api/DataSource/ParameterData/${asset.parameters[0]?.id}`);
    expect(options.json()).toEqual({ options: [{ value: 'EU', label: 'Europe' }] });
    const ok = await w.reader.call('GET', `/data/v1/${asset.uid}?region=EU`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ rows: unknown[] }>().rows).toHaveLength(13);
    const outside = await w.reader.call('GET', `/data/v1/${asset.uid}?region=AS`);
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({
      errors: { region: ['Invalid option: AS is not one of the allowed values of region: EU (Europe)'] },
    });
    const bound = await w.reader.call('POST', `/api/DataSource/${asset.uid}/BoundValues`, { region: 'EU' });
    expect(bound.statusCode).toBe(200);
    // "inSql": whether the request uses it, for a Web API asset.
    expect(bound.json()).toEqual({
      bindings: [{ name: 'region', type: 'string', list: false, value: 'EU', inSql: true }],
    });
  });
});
