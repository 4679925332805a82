import { beforeAll, expect, it } from 'vitest';
import { texts } from '@datalab/contract/texts';
import { buildCollection, buildPerson } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { ensureTestReader, postgresConnectionBody } from '../../../test/support/readers.ts';

// The engine's failures as replies (lib/engine-errors.ts), provoked for real against this machine's PostgreSQL
// through the preview call: over time → 504, no free connection → 503, unreachable → 502, bad SQL → 400; nothing
// internal in the reply, and the connection keeps serving afterwards.

// Connections sign in as the test reader: the server refuses a superuser as a data source's account.
beforeAll(ensureTestReader);

describeApp('engine errors through the API', (ctx) => {
  async function world(overrides: Record<string, unknown> = {}) {
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const connection = await owner.call(
      'POST',
      '/api/SqlConnection',
      postgresConnectionBody(collection.uid, { password: 'not-in-replies', ...overrides }),
    );
    expect(connection.statusCode, connection.body).toBe(201);
    const connectionId = connection.json<{ id: number }>().id;
    const preview = (sql: string, timeoutMs = 30_000) =>
      owner.call('POST', '/api/SqlDataSource/Preview', { collectionUid: collection.uid, connectionId, sql, timeoutMs });
    return { preview, owner, collection, connectionId };
  }

  it("names a rule's refused field by its path in the request, as every 400 does", async () => {
    const { owner, collection, connectionId } = await world();
    const sql = 'select 1 as id';
    const rules = [
      { type: 'rename', from: 'id', to: 'key' },
      { type: 'mask', column: 'nope', mode: 'full' },
    ];
    const refused = await owner.call('POST', '/api/SqlDataSource/Preview', {
      collectionUid: collection.uid,
      connectionId,
      sql,
      transformations: [
        { name: 'a', rules: [] },
        { name: 'b', rules },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      errors: { 'transformations.1.rules.1.column': ['Column nope does not exist'] },
    });
  });

  it('answers 504 over the time limit and 400 for bad SQL, then serves again', async () => {
    const { preview } = await world();
    const slow = await preview('select pg_sleep(5)', 200);
    expect(slow.statusCode).toBe(504);
    expect(slow.json()).toMatchObject({ title: 'The query ran over its time limit' });
    const syntax = await preview('selec 1');
    expect(syntax.statusCode).toBe(400);
    expect(syntax.json()).toMatchObject({ errors: { sql: [expect.any(String)] } });
    const write = await preview('select 1; delete from pg_class');
    expect(write.statusCode).toBe(400);
    expect(write.json()).toMatchObject({ title: 'Only one statement is allowed per query' });
    expect((await preview('select 1 as one')).json()).toMatchObject({ rows: [{ one: 1 }] });
  });

  it('answers 503 when the pool has no free connection, without queueing forever', async () => {
    const { preview } = await world({ poolMax: 1, acquireTimeoutMs: 100 });
    const busy = preview('select pg_sleep(1)');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the first run holds the only connection by now
    const second = await preview('select 2 as two');
    const first = await busy;
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(503);
    expect(second.json()).toMatchObject({ title: 'No free connection to the database; try again shortly' });
    expect(second.headers['retry-after']).toBe('1');
  });

  it('answers 502 with the product text when the database cannot be reached, the password nowhere', async () => {
    const { preview } = await world({ port: 1 });
    const response = await preview('select 1');
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ title: texts.badGateway });
    expect(response.body).not.toContain('not-in-replies');
  });
});
