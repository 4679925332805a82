import { expect, it } from 'vitest';
import { dataSourceDetail, dataSourceSummary } from '@datalab/contract/api/data-sources';
import { previewResult } from '@datalab/contract/api/sql-data-sources';
import { pageOf } from '@datalab/contract/paging';
import type { TestApp } from '../../test/support/app.ts';
import { callAs } from '../../test/support/builders.ts';
import { describeApp } from '../../test/support/suite.ts';
import { seedDemoAssets } from './demo-assets.ts';

// A fresh embedded start has the demo's SQL side: the Shop connection, assets using every parameter type, a list
// parameter, a parameter data source and the dependent region → country pair, a mask on e-mails; and they run.

async function as(t: TestApp, username: string) {
  return callAs(t, await t.tokenFor(username));
}

async function detail(call: Awaited<ReturnType<typeof as>>, name: string) {
  const list = pageOf(dataSourceSummary).parse((await call('GET', '/api/DataSource/GetAll?pageSize=100')).json());
  const found = list.items.find((item) => item.name === name);
  if (!found) throw new Error(`no demo asset ${name}`);
  return dataSourceDetail.parse((await call('GET', `/api/DataSource/GetByUid/${found.uid}`)).json());
}

function previewOf(asset: ReturnType<typeof dataSourceDetail.parse>, collectionUid: string, values: object) {
  return {
    collectionUid,
    connectionId: asset.connection?.id,
    sql: asset.sql,
    parameters: asset.parameters.map(({ id: _id, position: _p, ...definition }) => definition),
    transformations: asset.transformations.map((t) => ({
      name: t.name,
      rules: t.rules.map(({ id: _id, position: _p, ...rule }) => rule),
    })),
    values,
  };
}

describeApp('demo SQL assets', (ctx) => {
  it('seeds the Shop connection and assets covering every parameter type', async () => {
    const analyst = await as(ctx(), 'analyst');
    const list = pageOf(dataSourceSummary).parse(
      (await analyst('GET', '/api/DataSource/GetAll?pageSize=100&kind=sql')).json(),
    );
    expect(list.items.map((i) => `${i.collection.name}/${i.name}`).sort()).toEqual([
      'Operations/Products by category',
      'Sales/Countries by region',
      'Sales/Customer activity',
      'Sales/Orders by country',
      'Sales/Regions',
    ]);
    expect(new Set(list.items.map((i) => i.connectionName))).toEqual(new Set(['Shop']));
    const assets = await Promise.all(list.items.map((i) => detail(analyst, i.name)));
    const parameters = assets.flatMap((a) => a.parameters);
    expect(new Set(parameters.map((p) => p.type))).toEqual(
      new Set(['string', 'integer', 'decimal', 'boolean', 'date', 'date-time']),
    );
    expect(parameters.some((p) => p.list === true)).toBe(true);
    const orders = assets.find((a) => a.name === 'Orders by country');
    expect(orders?.transformations[0]?.rules[0]).toMatchObject({ type: 'mask', column: 'email' });
  });

  it('runs them: regions feed the region list, the country list takes the region, e-mails masked', async () => {
    const analyst = await as(ctx(), 'analyst');
    const orders = await detail(analyst, 'Orders by country');
    const [region, country] = orders.parameters;
    const regions = await analyst('GET', `/api/DataSource/ParameterData/${region?.id}`);
    expect(regions.json<{ options: { label: string }[] }>().options.map((o) => o.label)).toEqual([
      'Asia Pacific',
      'Europe',
      'Latin America',
      'North America',
    ]);
    const europe = await analyst('GET', `/api/DataSource/ParameterData/${country?.id}?region=1`);
    expect(europe.json<{ options: { value: string }[] }>().options.map((o) => o.value)).toEqual([
      'FR',
      'DE',
      'NL',
      'ES',
      'SE',
    ]);

    const salesUid = (
      await ctx()
        .app.db.selectFrom('collections')
        .select('uid')
        .where('name_key', '=', 'sales')
        .executeTakeFirstOrThrow()
    ).uid;
    const run = await analyst(
      'POST',
      '/api/SqlDataSource/Preview',
      previewOf(orders, salesUid, { region: 1, country: ['DE', 'FR'], minTotal: '10.50', from: '2024-01-01' }),
    );
    expect(run.statusCode, run.body).toBe(200);
    const result = previewResult.parse(run.json());
    expect(result.rows.length).toBeGreaterThan(0);
    for (const row of result.rows) {
      expect(row['email']).toMatch(/^[a-z.]{2}\*+$/);
      expect(['Germany', 'France']).toContain(row['country']);
      expect(String(row['ordered_at']) >= '2024-01-01').toBe(true);
    }
    const outside = await analyst(
      'POST',
      '/api/SqlDataSource/Preview',
      previewOf(orders, salesUid, { region: 1, country: ['JP'] }),
    );
    expect(outside.statusCode).toBe(400);
    // The editor's preview lists the allowed values, as a call does.
    expect(outside.json()).toMatchObject({
      errors: { country: ['Invalid option: JP is not one of the allowed values of Countries: FR, DE, NL, ES, SE'] },
    });

    const customers = await detail(analyst, 'Customer activity');
    const activity = await analyst(
      'POST',
      '/api/SqlDataSource/Preview',
      previewOf(customers, salesUid, {
        segment: 'Business',
        since: '2024-06-01T00:00:00Z',
        includeCancelled: true,
        minOrders: 2,
      }),
    );
    expect(activity.statusCode, activity.body).toBe(200);
    const rows = previewResult.parse(activity.json()).rows;
    expect(
      rows.every(
        (r) => r['segment'] === 'Business' && Number(r['orders']) >= 2 && /^[0-9a-f]{64}$/.test(String(r['email'])),
      ),
    ).toBe(true);
  });

  it('runs the Operations asset for its Owner, and seeds only once', async () => {
    const admin = await as(ctx(), 'admin');
    const products = await detail(admin, 'Products by category');
    const opsUid = (
      await ctx()
        .app.db.selectFrom('collections')
        .select('uid')
        .where('name_key', '=', 'operations')
        .executeTakeFirstOrThrow()
    ).uid;
    const run = await admin('POST', '/api/SqlDataSource/Preview', previewOf(products, opsUid, { categories: ['Tea'] }));
    expect(run.statusCode, run.body).toBe(200);
    const rows = previewResult.parse(run.json()).rows;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r['category'] === 'Tea' && r['active'] === 1)).toBe(true);
    const count = async () => (await ctx().app.db.selectFrom('data_sources').select('id').execute()).length;
    const before = await count();
    await seedDemoAssets(ctx().app);
    expect(await count()).toBe(before);
  });

  it('keeps the region → country definitions byte for byte when the asset is saved unchanged', async () => {
    const analyst = await as(ctx(), 'analyst');
    const orders = await detail(analyst, 'Orders by country');
    const stored = () =>
      ctx()
        .app.db.selectFrom('parameters')
        .select(['id', 'definition'])
        .where('data_source_id', '=', orders.id)
        .orderBy('position')
        .execute();
    const before = await stored();
    const saved = await analyst('PUT', '/api/SqlDataSource', {
      uid: orders.uid,
      connectionId: orders.connection?.id,
      name: orders.name,
      description: orders.description,
      sql: orders.sql,
      parameters: orders.parameters.map(({ id: _id, position: _p, ...definition }) => definition),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await stored()).toEqual(before);
    expect(before.map((row) => JSON.parse(row.definition) as { name: string }).map((d) => d.name)).toEqual([
      'region',
      'country',
      'from',
      'minTotal',
    ]);
  });
});
