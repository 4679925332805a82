import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataSourceDetail, dataSourceSummary } from '@datalab/contract/api/data-sources';
import { callResultWithExchanges, EXCHANGE_HEADER, webApiConnection } from '@datalab/contract/api/web-api';
import { pageOf } from '@datalab/contract/paging';
import { texts } from '@datalab/contract/texts';
import { createTestApp, type TestApp } from '../../test/support/app.ts';
import { freePort } from '../../test/support/ports.ts';
import { describeApp } from '../../test/support/suite.ts';
import { DEMO_API_PREFIX, demoApiKey } from './demo-api.ts';
import { DEMO_WEB_API_ASSET, demoApiAddress, seedDemoWebApi } from './demo-web-api.ts';

// A fresh embedded start has the demo's Web API side: the sample API this server serves, a connection "Demo API"
// in Sales with an API-key credential and its own (loopback) host allowed, and the asset "Country indicators",
// whose region → country parameters come from the shop's SQL assets. Called through /data/v1 on a real port (the
// asset's requests go to this server's own address), it pages through the API and applies its transformation.

const port = await freePort();

async function as(t: TestApp, username: string) {
  const token = await t.tokenFor(username);
  return (method: 'GET' | 'POST', url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(payload ? { payload } : {}),
    });
}

async function demoAsset(call: Awaited<ReturnType<typeof as>>) {
  const list = pageOf(dataSourceSummary).parse((await call('GET', '/api/DataSource/GetAll?kind=webapi')).json());
  const found = list.items.find((item) => item.name === DEMO_WEB_API_ASSET);
  if (!found) throw new Error('no demo Web API asset');
  return dataSourceDetail.parse((await call('GET', `/api/DataSource/GetByUid/${found.uid}`)).json());
}

describeApp(
  'demo Web API',
  (ctx) => {
    beforeAll(async () => {
      await ctx().app.listen({ host: '127.0.0.1', port });
    });

    it('seeds the connection with its credential and allowed host, and the asset fed by SQL assets', async () => {
      const analyst = await as(ctx(), 'analyst');
      const asset = await demoAsset(analyst);
      expect(asset).toMatchObject({ kind: 'webapi', collection: { name: 'Sales' }, connectionName: 'Demo API' });
      expect(asset.webApi?.request).toMatchObject({ path: '/countries/{country}/indicators', rowsPath: 'data' });
      expect(asset.webApi?.credential).toMatchObject({ name: 'Demo key', kind: 'api-key' });
      const [region, country] = asset.parameters;
      expect(region?.allowedValues).toMatchObject({ kind: 'dataSource', valueColumn: 'id' });
      expect(country?.allowedValues).toMatchObject({ kind: 'dataSource', valueColumn: 'code', dependsOn: ['region'] });
      const countries = await analyst('GET', `/api/DataSource/ParameterData/${country?.id}?region=1`);
      expect(countries.json<{ options: { value: string }[] }>().options.map((o) => o.value)).toContain('DE');

      const connection = webApiConnection.parse(
        (await analyst('GET', `/api/WebApiConnection/${asset.connection?.id}`)).json(),
      );
      expect(connection.allowedHosts).toEqual([`127.0.0.1:${port}`]);
      expect(connection.baseUrl).toBe(`http://127.0.0.1:${port}${DEMO_API_PREFIX}`);
      expect(connection.credentials[0]?.secret).toBe(texts.maskedSecret);
    });

    it('calls the asset through /data/v1: pages, transformation, dependent parameter, key never shown', async () => {
      const analyst = await as(ctx(), 'analyst');
      const asset = await demoAsset(analyst);
      const url = `/data/v1/${asset.uid}?region=1&country=DE&fromYear=2012`;
      const call = await analyst('GET', url, undefined, { [EXCHANGE_HEADER]: '1' });
      expect(call.statusCode, call.body).toBe(200);
      const result = callResultWithExchanges.parse(call.json());
      expect(result.rows.map((row) => row['year'])).toEqual(Array.from({ length: 14 }, (_, i) => 2025 - i));
      const first = result.rows[0] ?? {};
      expect(Object.keys(first)).toEqual(
        expect.arrayContaining(['gdpUsdBillions', 'gdpPerPersonUsd', 'population', 'currency']),
      );
      expect(first['gdpPerPersonUsd']).toBe(
        Math.round((Number(first['gdpUsdBillions']) * 1e9) / Number(first['population'])),
      );
      // Two pages of ten, the second through the reply's next link; the key masked in each.
      expect(result.exchanges.map((e) => [e.status, e.requestHeaders['x-api-key']])).toEqual([
        [200, texts.maskedSecret],
        [200, texts.maskedSecret],
      ]);
      expect(result.exchanges[1]?.url).toContain('page=2');
      expect(call.body).not.toContain(demoApiKey(ctx().app.config));

      const csv = await analyst('GET', `${url}&format=csv`);
      expect(csv.statusCode).toBe(200);
      expect(csv.body.split('\r\n')[0]).toContain('gdpUsdBillions');

      const outside = await analyst('GET', `/data/v1/${asset.uid}?region=1&country=JP`);
      expect(outside.statusCode).toBe(400);
      expect(outside.json()).toMatchObject({
        errors: {
          country: [
            'Invalid option: JP is not one of the allowed values of Country: ' +
              'FR (France), DE (Germany), NL (Netherlands), ES (Spain), SE (Sweden)',
          ],
        },
      });
    });

    it('serves the sample API only with its key, and follows a change of the server address', async () => {
      const t = ctx();
      const path = `${DEMO_API_PREFIX}/countries/DE/indicators`;
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(401);
      const ok = await t.app.inject({ method: 'GET', url: path, headers: { 'x-api-key': demoApiKey(t.app.config) } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ page: 1, pageSize: 10, links: { next: expect.stringContaining('page=2') } });

      // Seeded once; a connection still at the seeded address follows the server to a new one.
      const old = { baseUrl: 'http://127.0.0.1:1/demo-api/v1', allowedHosts: ['127.0.0.1:1'] };
      const state = await t.app.db
        .selectFrom('app_state')
        .select('value')
        .where('key', '=', 'demo.webApi.seeded')
        .executeTakeFirstOrThrow();
      const { connectionId } = JSON.parse(state.value) as { connectionId: number };
      await t.app.db
        .updateTable('connections')
        .set({ base_url: old.baseUrl, allowed_hosts: JSON.stringify(old.allowedHosts) })
        .where('id', '=', connectionId)
        .execute();
      await t.app.db
        .updateTable('app_state')
        .set({ value: JSON.stringify({ connectionId, ...old }) })
        .where('key', '=', 'demo.webApi.seeded')
        .execute();
      const count = async () => (await t.app.db.selectFrom('data_sources').select('id').execute()).length;
      const before = await count();
      await seedDemoWebApi(t.app);
      expect(await count()).toBe(before);
      const moved = await t.app.db
        .selectFrom('connections')
        .select(['base_url', 'allowed_hosts'])
        .where('id', '=', connectionId)
        .executeTakeFirstOrThrow();
      expect(moved).toEqual({
        base_url: demoApiAddress(t.config).baseUrl,
        allowed_hosts: JSON.stringify(demoApiAddress(t.config).allowedHosts),
      });
    });
  },
  { env: { PORT: String(port), HOST: '127.0.0.1' } },
);

let withoutDemo: TestApp;
beforeAll(async () => {
  withoutDemo = await createTestApp('sqlite', { DEMO: 'false' });
});
afterAll(async () => {
  await withoutDemo?.close();
});

it('does not serve the sample API without the demo', async () => {
  const reply = await withoutDemo.app.inject({ method: 'GET', url: `${DEMO_API_PREFIX}/countries` });
  expect(reply.statusCode).toBe(404);
});
