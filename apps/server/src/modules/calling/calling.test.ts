import { beforeAll, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { resolve } from 'node:path';
import { buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { ORDER_COUNT, buildConnection, createSqliteSource, usageOf } from '../../../test/support/orders-source.ts';
import { useOrdersWorld } from '../../../test/support/orders-world.ts';

// The calling layer through HTTP (inject), on both metadata stores: who may call, values checked before anything
// runs and bound as data, each format's content, the row cap and exports, file names, errors' statuses.

const regionParameter = { name: 'region', type: 'string', required: true };

describeEachStore('calling layer /data/v1', (context) => {
  const world = useOrdersWorld(context);
  let admin: Person;

  beforeAll(async () => {
    admin = await buildPerson(context(), { canManageUsers: true });
  });

  // Asset names are unique in a collection.
  const byRegion = (name = unique('Orders by région')) =>
    world.asset(world.sqliteConnection, {
      name,
      sql: 'select id, region, customer, amount from orders where region = :region order by id',
      parameters: [regionParameter],
    });

  it('answers 401 without a token, 404 to a caller without a role, 403 to an administrator without one', async () => {
    const asset = await byRegion();
    const anonymous = await context().app.inject({ method: 'GET', url: `/data/v1/${asset.uid}?region=North` });
    expect(anonymous.statusCode).toBe(401);
    const hidden = await world.stranger.call('GET', `/data/v1/${asset.uid}?region=North`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ title: `Data asset with id ${asset.uid} does not exist` });
    const missing = await world.stranger.call('GET', '/data/v1/no-such-asset?region=North');
    expect(missing.json()).toMatchObject({ title: 'Data asset with id no-such-asset does not exist' });
    expect((await admin.call('GET', `/data/v1/${asset.uid}?region=North`)).statusCode).toBe(403);
  });

  it('lets a Reader call with GET and POST, answering JSON with a safe file name and no-store', async () => {
    const asset = await byRegion('Orders by région');
    const response = await world.reader.call('GET', `/data/v1/${asset.uid}?region=North`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['cache-control']).toBe('no-store');
    const date = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `inline; filename="orders-by-region-${date}.json"; filename*=UTF-8''orders-by-r%C3%A9gion-${date}.json`,
    );
    const body = response.json<{
      columns: { name: string }[];
      rows: { id: number }[];
      truncated: boolean;
      cached: boolean;
    }>();
    expect(body.columns.map((c) => c.name)).toEqual(['id', 'region', 'customer', 'amount']);
    expect(body.rows.map((r) => r.id)).toEqual([1, 5, 9, 13, 17]);
    expect(body).toMatchObject({ truncated: false, cached: false });
    const posted = await world.reader.call('POST', `/data/v1/${asset.uid}`, { region: 'South' });
    expect(posted.json<{ rows: { id: number }[] }>().rows.map((r) => r.id)).toEqual([2, 6, 10, 14, 18]);
  });

  it('refuses a wrong parameter type with the errors map before anything runs', async () => {
    // The SQL names a table that does not exist: had it run, the reply would be a query error.
    const asset = await world.asset(world.sqliteConnection, {
      sql: 'select * from no_such_table where id = :id',
      parameters: [{ name: 'id', type: 'integer', required: true }],
    });
    const response = await world.reader.call('GET', `/data/v1/${asset.uid}?id=abc`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: 400, errors: { id: ['id must be an integer'] } });
    const missing = await world.reader.call('POST', `/data/v1/${asset.uid}`, {});
    expect(missing.json()).toMatchObject({ errors: { id: ['id is required'] } });
    const notObject = await world.reader.call('POST', `/data/v1/${asset.uid}`, [1, 2]);
    expect(notObject.statusCode).toBe(400);
    const [record] = await usageOf(context(), asset.uid);
    expect(record).toMatchObject({ status: 400, cache_hit: 0 });
  });

  it('follows an edit of the asset and of its connection from the next call', async () => {
    const t = context();
    const connectionId = await buildConnection(world.owner, world.collection, {
      driver: 'sqlite',
      path: createSqliteSource(t),
    });
    const asset = await world.asset(connectionId, {
      name: 'Edited',
      sql: 'select count(*) as n from orders',
    });
    expect((await world.reader.call('GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({
      rows: [{ n: ORDER_COUNT }],
    });
    const edit = await world.owner.call('PUT', '/api/SqlDataSource', {
      uid: asset.uid,
      connectionId,
      name: 'Edited',
      sql: 'select count(*) * 2 as n from orders',
    });
    expect(edit.statusCode).toBe(200);
    expect((await world.reader.call('GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({
      rows: [{ n: 2 * ORDER_COUNT }],
    });
    const other = createSqliteSource(t);
    new DatabaseSync(resolve(t.config.dataDir, other)).exec('delete from orders where id > 1');
    const moved = await world.owner.call('PUT', `/api/SqlConnection/${connectionId}`, {
      name: 'Moved',
      kind: 'sqlite',
      database: other,
    });
    expect(moved.statusCode).toBe(200);
    expect((await world.reader.call('GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({ rows: [{ n: 2 }] });
  });

  it('checks a value against the options of its parameter data source', async () => {
    const regions = await world.asset(world.sqliteConnection, {
      sql: 'select distinct region from orders',
    });
    const allowedValues = {
      kind: 'dataSource',
      dataSourceId: regions.uid,
      valueColumn: 'region',
      labelColumn: 'region',
    };
    const asset = await world.asset(world.sqliteConnection, {
      sql: 'select count(*) as n from orders where region = :region',
      parameters: [{ ...regionParameter, allowedValues }],
      cacheTtlSeconds: 60,
    });
    const refused = await world.reader.call('GET', `/data/v1/${asset.uid}?region=Nowhere`);
    expect(refused.statusCode).toBe(400);
    // The refusal lists the allowed values (few here: all of them).
    const notAllowed = [
      "Invalid option: Nowhere is not one of the allowed values of region: North, South, O'Brien's, East",
    ];
    expect(refused.json()).toMatchObject({ errors: { region: notAllowed } });
    const refusedExport = await world.reader.call('GET', `/data/v1/${asset.uid}?region=Nowhere&format=csv`);
    expect(refusedExport.json()).toMatchObject({ status: 400, errors: { region: notAllowed } });
    const allowed = await world.reader.call('GET', `/data/v1/${asset.uid}?region=South`);
    expect(allowed.json()).toMatchObject({ rows: [{ n: 5 }] });
  });

  it('keeps quotes, comments and SQL in values as data', async () => {
    const asset = await byRegion();
    for (const value of ["x'; drop table orders; --", "North' or '1'='1", '/* */ North']) {
      const response = await world.reader.call('POST', `/data/v1/${asset.uid}`, { region: value });
      expect(response.statusCode).toBe(200);
      expect(response.json<{ rows: unknown[] }>().rows).toEqual([]);
    }
    const quoted = await world.reader.call('GET', `/data/v1/${asset.uid}?region=${encodeURIComponent("O'Brien's")}`);
    expect(quoted.json<{ rows: unknown[] }>().rows).toHaveLength(5);
    const file = new DatabaseSync(
      resolve(
        context().config.dataDir,
        (
          await context()
            .app.db.selectFrom('connections')
            .select('database_name')
            .where('id', '=', world.sqliteConnection)
            .executeTakeFirstOrThrow()
        ).database_name ?? '',
      ),
      { readOnly: true },
    );
    expect(file.prepare('select count(*) as n from orders').get()).toEqual({ n: ORDER_COUNT });
    file.close();
  });

  it('answers CSV, NDJSON and XLSX by format= or Accept, and refuses an unknown format', async () => {
    const asset = await byRegion();
    const csv = await world.reader.call('GET', `/data/v1/${asset.uid}?region=East&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['cache-control']).toBe('no-store');
    const head = await context().app.inject({ method: 'HEAD', url: `/data/v1/${asset.uid}?region=East` });
    expect(head.statusCode).toBe(404);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="orders-by-region-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(csv.body).toBe(
      'id,region,customer,amount\r\n4,East,"\'=HYPERLINK(""x"")",40\r\n8,East,customer 8,80\r\n' +
        '12,East,customer 12,120\r\n16,East,customer 16,160\r\n20,East,customer 20,200\r\n',
    );
    const ndjson = await context().app.inject({
      method: 'GET',
      url: `/data/v1/${asset.uid}?region=East`,
      headers: { authorization: `Bearer ${world.reader.token}`, accept: 'text/html;q=0.9, application/x-ndjson' },
    });
    expect(ndjson.headers['content-type']).toContain('application/x-ndjson');
    const lines = ndjson.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number });
    expect(lines.map((line) => line.id)).toEqual([4, 8, 12, 16, 20]);
    const xlsx = await world.reader.call('GET', `/data/v1/${asset.uid}?region=East&format=xlsx`);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
    const unknown = await world.reader.call('GET', `/data/v1/${asset.uid}?region=East&format=xml`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ errors: { format: ['Unsupported type xml'] } });
  });

  it('stops JSON at the row cap with truncated: true while an export streams every row', async () => {
    const asset = await world.asset(world.sqliteConnection, {
      sql: 'select id from orders order by id',
      rowCap: 5,
    });
    const json = await world.reader.call('GET', `/data/v1/${asset.uid}`);
    expect(json.json()).toMatchObject({
      truncated: true,
      rows: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }],
    });
    const csv = await world.reader.call('GET', `/data/v1/${asset.uid}?format=csv`);
    expect(csv.body.trim().split('\r\n')).toHaveLength(ORDER_COUNT + 1);
  });

  it('exports CSV from PostgreSQL through COPY with the values bound, masked through the writer', async () => {
    const sql = 'select id, customer from orders where region = :region and amount >= :least order by id';
    const parameters = [regionParameter, { name: 'least', type: 'integer', required: true }];
    const plain = await world.asset(world.postgresConnection, { sql, parameters });
    const csv = await world.reader.call(
      'GET',
      `/data/v1/${plain.uid}?region=${encodeURIComponent("O'Brien's")}&least=100&format=csv`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toBe('id,customer\r\n11,customer 11\r\n15,customer 15\r\n19,customer 19\r\n');
    const masked = await world.asset(world.postgresConnection, {
      sql,
      parameters,
      rules: [{ type: 'mask', column: 'customer', mode: 'full' }],
    });
    const maskedCsv = await world.reader.call('GET', `/data/v1/${masked.uid}?region=East&least=150&format=csv`);
    expect(maskedCsv.body).toBe('id,customer\r\n16,********\r\n20,********\r\n');
  });

  it('answers 504 when the query runs over its time limit and 503 when the pool has no free connection', async () => {
    const t = context();
    const slow = await world.asset(world.postgresConnection, {
      sql: 'select pg_sleep(3) as slept',
      timeoutMs: 300,
    });
    const timedOut = await world.reader.call('GET', `/data/v1/${slow.uid}`);
    expect(timedOut.statusCode).toBe(504);
    expect(timedOut.json()).toMatchObject({ status: 504, title: 'The query ran over its time limit' });

    const narrow = await buildConnection(
      world.owner,
      world.collection,
      { driver: 'postgres', url: await postgresUrlOf(t, world.postgresConnection) },
      {
        poolMax: 1,
        acquireTimeoutMs: 100,
      },
    );
    const busy = await world.asset(narrow, { sql: 'select pg_sleep(1) as slept', timeoutMs: 5000 });
    const first = world.reader.call('GET', `/data/v1/${busy.uid}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const second = await world.reader.call('GET', `/data/v1/${busy.uid}`);
    expect(second.statusCode).toBe(503);
    expect(second.json()).toMatchObject({
      status: 503,
      title: 'No free connection to the database; try again shortly',
    });
    expect((await first).statusCode).toBe(200);
  });
});

async function postgresUrlOf(
  t: ReturnType<Parameters<Parameters<typeof describeEachStore>[1]>[0]>,
  connectionId: number,
) {
  const row = await t.app.db
    .selectFrom('connections')
    .selectAll()
    .where('id', '=', connectionId)
    .executeTakeFirstOrThrow();
  return new URL(
    `postgres://${row.username ?? 'postgres'}@${row.host ?? '127.0.0.1'}:${row.port ?? 5432}/${row.database_name ?? ''}`,
  );
}
