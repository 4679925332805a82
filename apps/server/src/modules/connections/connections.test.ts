import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { connectionTestResult, sqlConnection } from '@datalab/contract/api/sql-connections';
import { problem, validationProblem } from '@datalab/contract/errors';
import { texts } from '@datalab/contract/texts';
import { auditRecords, buildPerson, buildTeam, unique } from '../../../test/support/builders.ts';
import type { TestApp } from '../../../test/support/app.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import {
  TEST_READER_PASSWORD,
  ensureTestMysqlReader,
  ensureTestReader,
  postgresConnectionBody,
} from '../../../test/support/readers.ts';
import { collectionSqliteFile } from '../../../test/support/sqlite-files.ts';
import { SQLITE_OUTSIDE } from './service.ts';
import { collectionFolder } from './sqlite-files.ts';

// SQL connections through the API on both stores: secrets sealed and never returned, SQLite confined to the collection's folder,
// names unique per collection, a used connection kept, tests of the real databases with their warnings.

const SECRET = 'pa55-word-never-shown';

function sqliteFile(t: TestApp, collectionUid: string) {
  const sql = 'create table if not exists items (id integer primary key, label text)';
  return collectionSqliteFile(t.config.dataDir, collectionUid, 'conn/test.sqlite', sql);
}

// As the reader, an account that may only read: the server refuses a superuser (privileged-accounts.test.ts).
const postgresBody = (collectionUid: string, overrides: Record<string, unknown> = {}) => ({
  ...postgresConnectionBody(collectionUid),
  password: SECRET,
  ...overrides,
});

describeEachStore('SQL connections', (ctx) => {
  beforeAll(async () => {
    await ensureTestReader();
    await ensureTestMysqlReader();
  });

  it('seals the password, never returns it, and keeps it unless a new one is sent', async () => {
    const { owner, reader, collection } = await buildTeam(ctx());
    const created = await owner.call('POST', '/api/SqlConnection', postgresBody(collection.uid));
    expect(created.statusCode).toBe(201);
    expect(created.body).not.toContain(SECRET);
    const connection = sqlConnection.parse(created.json());
    expect(connection).toMatchObject({ kind: 'postgres', password: texts.maskedSecret, assetCount: 0 });
    const stored = await ctx()
      .app.db.selectFrom('connections')
      .select('secret')
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^v1\./);
    expect(stored.secret).not.toContain(SECRET);
    expect(ctx().app.sqlRuntime.box.open(stored.secret ?? '')).toBe(SECRET);

    const seen = await reader.call('GET', `/api/SqlConnection/${connection.id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ password: texts.maskedSecret });

    const { collectionUid: _c, password: _p, ...settings } = postgresBody(collection.uid, { name: connection.name });
    for (const keep of [{}, { password: texts.maskedSecret }]) {
      const kept = await owner.call('PUT', `/api/SqlConnection/${connection.id}`, {
        ...settings,
        ...keep,
        description: 'kept',
      });
      expect(kept.statusCode).toBe(200);
      const row = await ctx()
        .app.db.selectFrom('connections')
        .select('secret')
        .where('id', '=', connection.id)
        .executeTakeFirstOrThrow();
      expect(ctx().app.sqlRuntime.box.open(row.secret ?? '')).toBe(SECRET);
    }
    const replaced = await owner.call('PUT', `/api/SqlConnection/${connection.id}`, {
      ...settings,
      password: 'new-one',
    });
    expect(replaced.json()).toMatchObject({ password: texts.maskedSecret });
    const row = await ctx()
      .app.db.selectFrom('connections')
      .select('secret')
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    expect(ctx().app.sqlRuntime.box.open(row.secret ?? '')).toBe('new-one');

    const logs = await ctx().app.db.selectFrom('application_logs').select(['message', 'details']).execute();
    expect(JSON.stringify(logs)).not.toContain(SECRET);
    expect((await auditRecords(ctx(), 'connection.update')).length).toBeGreaterThanOrEqual(3);
  });

  it('lets Owners manage connections; Editors and Readers get 403, strangers 404', async () => {
    const { editor, reader, collection } = await buildTeam(ctx());
    const stranger = await buildPerson(ctx());
    const body = {
      collectionUid: collection.uid,
      name: unique('Local'),
      kind: 'sqlite',
      database: sqliteFile(ctx(), collection.uid),
    };
    expect((await editor.call('POST', '/api/SqlConnection', body)).statusCode).toBe(403);
    expect((await reader.call('POST', '/api/SqlConnection', body)).statusCode).toBe(403);
    const hidden = await stranger.call('POST', '/api/SqlConnection', body);
    expect(hidden.statusCode).toBe(404);
    expect(problem.parse(hidden.json()).title).toBe(`Collection with id ${collection.uid} does not exist`);
    expect((await stranger.call('GET', '/api/SqlConnection/987654')).json()).toMatchObject({
      status: 404,
      title: 'SQL connection with id 987654 does not exist',
    });
  });

  it("confines SQLite files to the collection's folder, away from the metadata store; one name per collection", async () => {
    const { owner, collection } = await buildTeam(ctx());
    // A folder inside the collection's folder that leads outside it.
    const folder = collectionFolder(ctx().config.dataDir, collection.uid);
    mkdirSync(folder, { recursive: true });
    if (!existsSync(join(folder, 'link'))) symlinkSync(tmpdir(), join(folder, 'link'));
    for (const database of [
      '/etc/passwd',
      join(ctx().config.dataDir, 'datalab.sqlite'),
      '../outside.sqlite',
      '.',
      '../../datalab.sqlite',
      'conn/../../../secrets.json',
      'link/x.sqlite',
    ]) {
      const refused = await owner.call('POST', '/api/SqlConnection', {
        collectionUid: collection.uid,
        name: unique('x'),
        kind: 'sqlite',
        database,
      });
      expect(refused.statusCode).toBe(400);
      expect(validationProblem.parse(refused.json()).errors).toEqual({
        database: [SQLITE_OUTSIDE],
      });
    }
    const name = unique('Local');
    const body = { collectionUid: collection.uid, name, kind: 'sqlite', database: sqliteFile(ctx(), collection.uid) };
    expect((await owner.call('POST', '/api/SqlConnection', body)).statusCode).toBe(201);
    const duplicate = await owner.call('POST', '/api/SqlConnection', { ...body, name: name.toUpperCase() });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ title: `SQL connection with name ${name.toUpperCase()} already exists` });
    const missing = await owner.call('POST', '/api/SqlConnection', {
      collectionUid: collection.uid,
      name: unique('pg'),
      kind: 'postgres',
      database: 'x',
    });
    expect(validationProblem.parse(missing.json()).errors).toEqual({
      host: ['Host is required'],
      username: ['Username is required'],
    });
  });

  it('tests a connection: server version, no warning for a reader, why it failed without the password', async () => {
    const { owner, editor, collection } = await buildTeam(ctx());
    const created = sqlConnection.parse(
      (await owner.call('POST', '/api/SqlConnection', postgresBody(collection.uid))).json(),
    );
    const tested = await owner.call('POST', `/api/SqlConnection/${created.id}/Test`);
    expect(tested.statusCode).toBe(200);
    const result = connectionTestResult.parse(tested.json());
    expect(result.serverVersion).toMatch(/PostgreSQL/i);
    expect(result.warnings).toEqual([]);

    const unreachable = await owner.call('POST', '/api/SqlConnection/Test', postgresBody(collection.uid, { port: 1 }));
    expect(unreachable.statusCode).toBe(400);
    expect(unreachable.json()).toMatchObject({ title: expect.stringMatching(/^Connection refused/) });
    expect(unreachable.body).not.toContain(SECRET);

    const local = await owner.call('POST', '/api/SqlConnection', {
      collectionUid: collection.uid,
      name: unique('Local'),
      kind: 'sqlite',
      database: sqliteFile(ctx(), collection.uid),
    });
    const localId = sqlConnection.parse(local.json()).id;
    const schema = await editor.call('GET', `/api/SqlConnection/${localId}/Schema`);
    expect(schema.statusCode).toBe(200);
    expect(schema.json()).toEqual({
      tables: [
        {
          schema: null,
          name: 'items',
          columns: [
            { name: 'id', type: 'INTEGER' },
            { name: 'label', type: 'TEXT' },
          ],
        },
      ],
    });
  });

  it('tests a MariaDB connection and previews through it', async () => {
    const { owner, collection } = await buildTeam(ctx());
    const body = postgresBody(collection.uid, { kind: 'mysql', port: 3306, database: 'information_schema' });
    const created = await owner.call('POST', '/api/SqlConnection', { ...body, password: TEST_READER_PASSWORD });
    expect(created.statusCode, created.body).toBe(201);
    const connection = sqlConnection.parse(created.json());
    expect(connection.password).toBe(texts.maskedSecret);
    const tested = connectionTestResult.parse(
      (await owner.call('POST', `/api/SqlConnection/${connection.id}/Test`)).json(),
    );
    expect(tested.serverVersion).toMatch(/MariaDB|MySQL/i);
    expect(tested.warnings).toEqual([]);
    const preview = await owner.call('POST', '/api/SqlDataSource/Preview', {
      collectionUid: collection.uid,
      connectionId: connection.id,
      sql: 'select :n + 1 as answer',
      parameters: [{ name: 'n', type: 'integer', required: true }],
      values: { n: 41 },
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ rows: [{ answer: 42 }] });
  });

  it('refuses to delete a connection an asset uses, with 409, and deletes an unused one', async () => {
    const { owner, collection } = await buildTeam(ctx());
    const body = {
      collectionUid: collection.uid,
      name: unique('Local'),
      kind: 'sqlite',
      database: sqliteFile(ctx(), collection.uid),
    };
    const id = sqlConnection.parse((await owner.call('POST', '/api/SqlConnection', body)).json()).id;
    const asset = await owner.call('POST', '/api/SqlDataSource', {
      collectionUid: collection.uid,
      connectionId: id,
      name: unique('Items'),
      sql: 'select * from items',
    });
    expect(asset.statusCode).toBe(201);
    const refused = await owner.call('DELETE', `/api/SqlConnection/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ title: string }>().title).toContain('is used by 1 data asset');
    await owner.call('DELETE', `/api/SqlDataSource?uid=${asset.json<{ uid: string }>().uid}`);
    expect((await owner.call('DELETE', `/api/SqlConnection/${id}`)).json()).toEqual({ id, deleted: true });
    expect((await owner.call('GET', `/api/SqlConnection/${id}`)).statusCode).toBe(404);
  });
});
