import { expect, it } from 'vitest';
import { buildCollection } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { buildAsset, buildConnection, createSqliteSource, usageOf } from '../../../test/support/orders-source.ts';
import { useOrdersWorld } from '../../../test/support/orders-world.ts';

// The result cache (hits, single flight, version bumps, truncated results never kept), the usage record of every
// call, and the per-caller OpenAPI document, through HTTP.

interface Result {
  rows: Record<string, unknown>[];
  truncated: boolean;
  cached: boolean;
}

describeApp('calling layer: cache, usage and OpenAPI', (context) => {
  const world = useOrdersWorld(context);

  it('records a call with who, what, how it went and how big it was', async () => {
    const asset = await world.asset(world.sqliteConnection, {
      sql: 'select id from orders where amount <= :most order by id',
      parameters: [{ name: 'most', type: 'integer', required: true }],
    });
    const response = await world.reader.call('GET', `/data/v1/${asset.uid}?most=30`);
    expect(response.statusCode).toBe(200);
    const [record, ...others] = await usageOf(context(), asset.uid);
    expect(others).toEqual([]);
    expect(record).toMatchObject({
      user_id: world.reader.id,
      token_id: null,
      data_source_id: asset.id,
      collection_id: world.collection.id,
      channel: 'data-api',
      format: 'json',
      status: 200,
      cache_hit: 0,
      request_id: response.headers['x-request-id'],
    });
    expect(Number(record?.row_count)).toBe(3);
    expect(Number(record?.byte_count)).toBe(response.rawPayload.length);
    expect(Date.now() - Date.parse(record?.at ?? '')).toBeLessThan(60_000);
    await world.reader.call('GET', `/data/v1/${asset.uid}?most=30&format=csv`);
    const csvRecord = (await usageOf(context(), asset.uid))[1];
    expect(csvRecord).toMatchObject({ format: 'csv', status: 200 });
    expect(Number(csvRecord?.row_count)).toBe(3);
  });

  it('serves a repeated call from the cache until the asset changes, and records the hit', async () => {
    const t = context();
    const asset = await world.asset(world.sqliteConnection, {
      sql: 'select id, region from orders where region = :region order by id',
      parameters: [{ name: 'region', type: 'string', required: true }],
      cacheTtlSeconds: 60,
    });
    const first = (await world.reader.call('GET', `/data/v1/${asset.uid}?region=North`)).json<Result>();
    const second = (await world.reader.call('POST', `/data/v1/${asset.uid}`, { region: 'North' })).json<Result>();
    expect(first.cached).toBe(false);
    expect(second.cached).toBe(true);
    expect(second.rows).toEqual(first.rows);
    const other = (await world.reader.call('GET', `/data/v1/${asset.uid}?region=South`)).json<Result>();
    expect(other.cached).toBe(false);
    expect((await usageOf(t, asset.uid)).map((r) => [r.cache_hit, Number(r.row_count)])).toEqual([
      [0, 5],
      [1, 5],
      [0, 5],
    ]);

    // What every edit of the asset, its parameters or transformations does (the management tests cover the edits).
    const { version } = await t.app.db
      .selectFrom('data_sources')
      .select('version')
      .where('id', '=', asset.id)
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('data_sources')
      .set({ version: version + 1 })
      .where('id', '=', asset.id)
      .execute();
    const afterEdit = (await world.reader.call('GET', `/data/v1/${asset.uid}?region=North`)).json<Result>();
    expect(afterEdit.cached).toBe(false);
  });

  it('never caches a truncated result', async () => {
    const asset = await world.asset(world.sqliteConnection, {
      sql: 'select id from orders order by id',
      rowCap: 2,
      cacheTtlSeconds: 60,
    });
    for (let i = 0; i < 2; i += 1) {
      const body = (await world.reader.call('GET', `/data/v1/${asset.uid}`)).json<Result>();
      expect(body).toMatchObject({ truncated: true, cached: false });
    }
  });

  it('runs simultaneous identical calls once', async () => {
    const asset = await world.asset(world.postgresConnection, {
      sql: 'select pg_sleep(0.3)::text as slept, :n::int as n',
      parameters: [{ name: 'n', type: 'integer', required: true }],
      cacheTtlSeconds: 60,
    });
    const replies = await Promise.all([1, 2, 3].map(() => world.reader.call('GET', `/data/v1/${asset.uid}?n=7`)));
    const bodies = replies.map((reply) => reply.json<Result>());
    expect(bodies.map((b) => b.rows)).toEqual([[{ slept: '', n: 7 }], [{ slept: '', n: 7 }], [{ slept: '', n: 7 }]]);
    expect(bodies.filter((b) => !b.cached)).toHaveLength(1);
    const runs = (await usageOf(context(), asset.uid)).filter((record) => record.cache_hit === 0);
    expect(runs).toHaveLength(1);
  });

  it('publishes an OpenAPI 3.1 document of exactly the assets the caller may call', async () => {
    const t = context();
    const typed = await world.asset(world.sqliteConnection, {
      name: 'Typed orders',
      sql: 'select id from orders where amount >= :least and region in (:regions)',
      parameters: [
        { name: 'least', type: 'integer', required: true, min: 0 },
        { name: 'regions', type: 'string', list: true },
      ],
    });
    const elsewhere = await buildCollection(t, world.owner);
    const hidden = await buildAsset(
      world.owner,
      elsewhere,
      await buildConnection(world.owner, elsewhere, { driver: 'sqlite', path: createSqliteSource(t) }),
      {
        sql: 'select 1 as one',
      },
    );
    expect((await t.app.inject({ method: 'GET', url: '/data/v1/openapi.json' })).statusCode).toBe(401);
    const response = await world.reader.call('GET', '/data/v1/openapi.json');
    expect(response.statusCode).toBe(200);
    const doc = response.json<{
      openapi: string;
      info: { title: string; version: string };
      servers: { url: string }[];
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            parameters: { name: string; in: string; schema: Record<string, unknown> }[];
            requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
            responses: Record<string, { content?: Record<string, unknown> }>;
          }
        >
      >;
      components: { securitySchemes: Record<string, { type: string; scheme: string }> };
      security: Record<string, string[]>[];
    }>();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info.title).toBeTruthy();
    expect(doc.info.version).toBeTruthy();
    expect(doc.servers).toEqual([{ url: t.config.callingLayerUrl }]);
    expect(doc.components.securitySchemes['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearer: [] }]);
    const collectionAssets = await t.app.db
      .selectFrom('data_sources')
      .select('uid')
      .where('collection_id', '=', world.collection.id)
      .execute();
    expect(Object.keys(doc.paths).sort()).toEqual(collectionAssets.map((a) => `/data/v1/${a.uid}`).sort());
    expect(Object.keys(doc.paths)).not.toContain(`/data/v1/${hidden.uid}`);
    const item = doc.paths[`/data/v1/${typed.uid}`];
    const operationIds = Object.values(doc.paths).flatMap((path) => Object.values(path).map((op) => op.operationId));
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(item?.['get']?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          name: 'least',
          in: 'query',
          required: true,
          schema: expect.objectContaining({ type: 'integer', minimum: 0 }),
        }),
        expect.objectContaining({ name: 'regions', in: 'query', schema: expect.objectContaining({ type: 'array' }) }),
        expect.objectContaining({ name: 'format', in: 'query' }),
      ]),
    );
    expect(item?.['post']?.requestBody?.content['application/json']?.schema).toMatchObject({
      type: 'object',
      required: ['least'],
      properties: { least: { type: 'integer' }, regions: { type: 'array' } },
    });
    expect(Object.keys(item?.['get']?.responses['200']?.content ?? {})).toEqual(
      expect.arrayContaining([
        'text/csv',
        'application/x-ndjson',
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ]),
    );
    const strangers = (await world.stranger.call('GET', '/data/v1/openapi.json')).json<{
      paths: Record<string, unknown>;
    }>();
    expect(strangers.paths).toEqual({});
  });
});
