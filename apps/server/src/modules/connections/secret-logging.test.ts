import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedTestApp, type TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson } from '../../../test/support/builders.ts';
import { TEST_READER, ensureTestReader } from '../../../test/support/readers.ts';

// A connection's password never reaches a log line: the app's own logger at debug level, its lines captured,
// while a connection is created, changed, tested against a port nobody listens on (a 400 saying the connection was
// refused, and a warn record) and previewed (a 502 that is logged as a warning).

const SECRET = 'conn-secret-9d2e-never-logged';

// Connections sign in as the test reader: the server refuses a superuser as a data source's account.
beforeAll(ensureTestReader);

describe('connection secrets and the log', () => {
  let t: TestApp & { output: () => string };

  beforeAll(async () => {
    t = await createLoggedTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('never logs the password', async () => {
    const owner = await buildPerson(t);
    const collection = await buildCollection(t, owner);
    const settings = {
      name: 'Unreachable',
      kind: 'postgres',
      host: '127.0.0.1',
      port: 1,
      database: 'postgres',
      username: TEST_READER,
      password: SECRET,
    };
    const created = await owner.call('POST', '/api/SqlConnection', { collectionUid: collection.uid, ...settings });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ id: number }>().id;
    expect((await owner.call('POST', `/api/SqlConnection/${id}/Test`)).statusCode).toBe(400);
    expect(
      (await owner.call('PUT', `/api/SqlConnection/${id}`, { ...settings, password: `${SECRET}-2` })).statusCode,
    ).toBe(200);
    const preview = { collectionUid: collection.uid, connectionId: id, sql: 'select 1' };
    expect((await owner.call('POST', '/api/SqlDataSource/Preview', preview)).statusCode).toBe(502);
    const all = t.output();
    expect(all).toContain('"status":502'); // the warnings were captured
    expect(all).not.toContain(SECRET);
  });
});
