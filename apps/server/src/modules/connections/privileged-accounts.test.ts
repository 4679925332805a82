import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sqlConnection } from '@datalab/contract/api/sql-connections';
import { auditRecords, buildCollection, buildPerson, unique } from '../../../test/support/builders.ts';
import { buildAsset, createPostgresSource } from '../../../test/support/orders-source.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { PRIVILEGED_OVERRIDE_ADMIN_ONLY } from './privileged-account.service.ts';

// A connection whose database account may do more than read is refused on save, on test and before the first run
// of its pool, unless an administrator allowed it (audited; cleared when someone else changes the account). Runs
// stay read-only and rolled back whatever the account, and the statement guard refuses the file functions.

describeApp('Privileged database accounts', (ctx) => {
  let source: Awaited<ReturnType<typeof createPostgresSource>>;
  beforeAll(async () => {
    source = await createPostgresSource();
  });
  afterAll(async () => source?.drop());

  const body = (collectionUid: string, url: URL, overrides: Record<string, unknown> = {}) => ({
    collectionUid,
    name: unique('Warehouse'),
    kind: 'postgres',
    host: url.hostname,
    port: Number(url.port || 5432),
    database: url.pathname.slice(1),
    username: decodeURIComponent(url.username),
    password: 'any',
    ...overrides,
  });

  async function world() {
    const t = ctx();
    const admin = await buildPerson(t, { canManageUsers: true });
    const owner = await buildPerson(t);
    const reader = await buildPerson(t);
    const collection = await buildCollection(t, admin, {
      roles: [
        [owner, 'Owner'],
        [reader, 'Reader'],
      ],
    });
    return { t, admin, owner, reader, collection };
  }

  const refusedAccount = expect.objectContaining({
    status: 400,
    errors: {
      username: [
        expect.stringMatching(/superuser.*"Read-only database accounts" in docs\/operations\.md.*administrator/),
      ],
    },
  }) as unknown;

  it('refuses a superuser on save and on test, and saves a connection it cannot reach yet', async () => {
    const { owner, collection } = await world();
    const superuser = body(collection.uid, source.adminUrl);
    const saved = await owner.call('POST', '/api/SqlConnection', superuser);
    expect(saved.statusCode).toBe(400);
    expect(saved.json()).toEqual(refusedAccount);
    const tested = await owner.call('POST', '/api/SqlConnection/Test', superuser);
    expect(tested.json()).toEqual(refusedAccount);
    const readerSaved = await owner.call('POST', '/api/SqlConnection', body(collection.uid, source.url));
    expect(readerSaved.statusCode, readerSaved.body).toBe(201);
    const id = sqlConnection.parse(readerSaved.json()).id;
    expect(readerSaved.json()).toMatchObject({ allowPrivilegedAccount: false });
    // Changing the account to the superuser is refused too; the stored test of the reader passes.
    const { collectionUid: _c, ...settings } = superuser;
    const changed = await owner.call('PUT', `/api/SqlConnection/${id}`, settings);
    expect(changed.json()).toEqual(refusedAccount);
    expect((await owner.call('POST', `/api/SqlConnection/${id}/Test`)).json()).toMatchObject({ warnings: [] });
    const unreachable = await owner.call('POST', '/api/SqlConnection', { ...superuser, port: 1 });
    expect(unreachable.statusCode, unreachable.body).toBe(201);
  });

  it('lets only an administrator allow such an account, audited, and clears it when someone else changes the account', async () => {
    const { t, admin, owner, collection } = await world();
    const superuser = body(collection.uid, source.adminUrl, { allowPrivilegedAccount: true });
    const refused = await owner.call('POST', '/api/SqlConnection', superuser);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ title: PRIVILEGED_OVERRIDE_ADMIN_ONLY });

    const created = await admin.call('POST', '/api/SqlConnection', superuser);
    expect(created.statusCode, created.body).toBe(201);
    const connection = sqlConnection.parse(created.json());
    expect(connection.allowPrivilegedAccount).toBe(true);
    const tested = await owner.call('POST', `/api/SqlConnection/${connection.id}/Test`);
    expect(tested.statusCode).toBe(200);
    expect(tested.json<{ warnings: string[] }>().warnings.join(' ')).toMatch(/administrator allowed this account/);
    let records = (await auditRecords(t, 'connection.allowPrivilegedAccount')).filter(
      (record) => record.details.action === 'connection.allowPrivilegedAccount',
    );
    expect(records.map((r) => [r.details.actor.id, r.details.before, r.details.after])).toEqual([
      [admin.id, { allowPrivilegedAccount: false }, { allowPrivilegedAccount: true }],
    ]);

    // Someone else keeps it while the account stays; a change of the account clears it, and then refuses it.
    // The password is not sent: the stored one is kept (a new one would be a change of the account).
    const { collectionUid: _c, password: _p, ...rest } = body(collection.uid, source.adminUrl);
    const settings = { ...rest, name: connection.name };
    const renamed = await owner.call('PUT', `/api/SqlConnection/${connection.id}`, {
      ...settings,
      name: unique('Renamed'),
      allowPrivilegedAccount: true,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ allowPrivilegedAccount: true });
    const newPassword = await owner.call('PUT', `/api/SqlConnection/${connection.id}`, {
      ...settings,
      password: 'another',
    });
    expect(newPassword.json()).toEqual(refusedAccount);
    const toReader = await owner.call('PUT', `/api/SqlConnection/${connection.id}`, {
      ...settings,
      username: decodeURIComponent(source.url.username),
      allowPrivilegedAccount: true,
    });
    expect(toReader.statusCode, toReader.body).toBe(200);
    expect(toReader.json()).toMatchObject({ allowPrivilegedAccount: false });
    records = (await auditRecords(t, 'connection.allowPrivilegedAccount')).filter(
      (record) => record.details.action === 'connection.allowPrivilegedAccount',
    );
    expect(records.at(-1)?.details).toMatchObject({
      actor: { id: owner.id },
      before: { allowPrivilegedAccount: true },
      after: { allowPrivilegedAccount: false, reason: expect.stringMatching(/not an administrator/) as string },
    });
    const back = await owner.call('PUT', `/api/SqlConnection/${connection.id}`, settings);
    expect(back.json()).toEqual(refusedAccount);
  });

  it('keeps an allowed account read-only: file functions refused, writes refused on preview, call and export', async () => {
    const { admin, reader, collection } = await world();
    const created = await admin.call(
      'POST',
      '/api/SqlConnection',
      body(collection.uid, source.adminUrl, { allowPrivilegedAccount: true }),
    );
    const connectionId = sqlConnection.parse(created.json()).id;
    const preview = (sql: string) =>
      admin.call('POST', '/api/SqlDataSource/Preview', { collectionUid: collection.uid, connectionId, sql });
    const passwd = await preview("select pg_read_file('/etc/passwd') as f");
    expect(passwd.statusCode).toBe(400);
    expect(passwd.body).toContain('pg_read_file()');
    expect(passwd.body).not.toContain('root:');
    expect((await preview("select lo_import('/etc/passwd') as o")).body).toContain('lo_import()');
    const write = 'with d as (delete from orders returning id) select * from d';
    const deleted = await preview(write);
    expect(deleted.statusCode).toBe(400);
    expect(deleted.body).toMatch(/read-only/);
    const asset = await buildAsset(admin, collection, connectionId, { sql: write });
    for (const format of ['json', 'csv', 'ndjson']) {
      // Refused as a write before the rows are read (400), or by the read-only transaction, whose database text a
      // Reader does not see (502 with a request id); either way nothing was written (below).
      const called = await reader.call('GET', `/data/v1/${asset.uid}?format=${format}`);
      expect([400, 502], `${format}: ${called.body}`).toContain(called.statusCode);
    }
    const check = new pg.Client({ connectionString: source.adminUrl.href });
    await check.connect();
    try {
      expect((await check.query('select count(*)::int as n from orders')).rows[0]).toEqual({ n: 20 });
    } finally {
      await check.end();
    }
  });

  it("refuses an account before its pool's first run once it gained a privilege after the save", async () => {
    const { owner, reader, collection } = await world();
    const role = `datalab_test_acct_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: source.adminUrl.href });
    await admin.connect();
    try {
      await admin.query(`create role ${role} login`);
      await admin.query(`grant select on orders to ${role}`);
      const saved = await owner.call(
        'POST',
        '/api/SqlConnection',
        body(collection.uid, source.url, { username: role }),
      );
      expect(saved.statusCode, saved.body).toBe(201);
      const asset = await buildAsset(owner, collection, sqlConnection.parse(saved.json()).id, {
        sql: 'select count(*)::int as n from orders',
      });
      await admin.query(`grant pg_read_server_files to ${role}`);
      const called = await reader.call('GET', `/data/v1/${asset.uid}`);
      expect(called.statusCode).toBe(400);
      expect(called.body).toContain('member of pg_read_server_files');
    } finally {
      await admin.query(`drop owned by ${role}`).catch(() => undefined);
      await admin.query(`drop role if exists ${role}`).catch(() => undefined);
      await admin.end();
    }
  });
});
