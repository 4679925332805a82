import { beforeAll, expect, it } from 'vitest';
import { buildCollection, buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import { freePort } from '../../../test/support/ports.ts';
import { ensureTestReader, readerConnection } from '../../../test/support/readers.ts';
import { TEST_POSTGRES_URL } from '../../../test/support/stores.ts';
import { describeApp } from '../../../test/support/suite.ts';
import type { CollectionRef } from '../../../test/support/orders-source.ts';

// A failed connection test says why, through HTTP against the machine's real PostgreSQL and MariaDB: a closed port,
// an unknown host, a user the server refuses, a wrong password, a missing database, a missing SQLite file. Each is a
// 400 naming the field to fix and what to do, and a warn record an administrator reads in the application log.

const MYSQL = new URL(process.env['TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/mysql');
const POSTGRES = new URL(TEST_POSTGRES_URL);

interface LogPage {
  items: { level: string; category: string; message: string; requestId: string | null }[];
}

describeApp('connection test failures', (context) => {
  let owner: Person;
  let admin: Person;
  let collection: CollectionRef;

  beforeAll(async () => {
    const t = context();
    [owner, admin] = await Promise.all([buildPerson(t), buildPerson(t, { canManageUsers: true })]);
    collection = await buildCollection(t, owner);
  });

  const postgres = (overrides: Record<string, unknown>) => ({
    collectionUid: collection.uid,
    name: unique('Test'),
    kind: 'postgres',
    host: POSTGRES.hostname,
    port: Number(POSTGRES.port || 5432),
    database: POSTGRES.pathname.slice(1) || 'postgres',
    username: decodeURIComponent(POSTGRES.username || 'postgres'),
    ...overrides,
  });
  const mysql = (overrides: Record<string, unknown>) => ({
    collectionUid: collection.uid,
    name: unique('Test'),
    kind: 'mysql',
    host: MYSQL.hostname,
    port: Number(MYSQL.port || 3306),
    database: MYSQL.pathname.slice(1) || 'mysql',
    username: decodeURIComponent(MYSQL.username || 'root'),
    ...overrides,
  });

  async function expectFailure(settings: Record<string, unknown>, field: string, message: RegExp) {
    const response = await owner.call('POST', '/api/SqlConnection/Test', settings);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ title: string; errors: Record<string, string[]>; requestId: string }>();
    expect(body.title).toMatch(message);
    expect(body.errors).toEqual({ [field]: [body.title] });
    expect(response.body).not.toMatch(/unknown error/i);
    // The administrator finds it in the application log, by its request id, as a warning saying the same.
    const logged = new RegExp(`^SQL connection test failed: ${message.source.replace(/^\^/, '')}`);
    const logs = await admin.call(
      'GET',
      `/api/ApplicationLog/GetApplicationLogs?level=warn&category=connections&requestId=${body.requestId}`,
    );
    expect(logs.statusCode, logs.body).toBe(200);
    expect(logs.json<LogPage>().items).toEqual([
      expect.objectContaining({ level: 'warn', category: 'connections', message: expect.stringMatching(logged) }),
    ]);
    return body;
  }

  it('says the connection was refused at a closed port', async () => {
    const port = await freePort();
    await expectFailure(postgres({ port }), 'port', /^Connection refused: .*Check the port/);
    await expectFailure(mysql({ port }), 'port', /^Connection refused/);
  });

  it('says the host was not found', async () => {
    await expectFailure(postgres({ host: 'no-such-host.invalid' }), 'host', /^Host not found: .*Check the host name/);
  });

  it('says authentication failed for a wrong password or an unknown user, without echoing the password', async () => {
    const body = await expectFailure(
      mysql({ password: 'wrong-password-123' }),
      'password',
      /^Authentication failed: .*Check both/,
    );
    expect(JSON.stringify(body)).not.toContain('wrong-password-123');
    await expectFailure(postgres({ username: unique('nobody') }), 'password', /^Authentication failed/);
  });

  it('says the database is missing', async () => {
    await expectFailure(
      postgres({ database: unique('missing').replaceAll('-', '_') }),
      'database',
      /^Database missing/,
    );
    await expectFailure(mysql({ database: unique('missing').replaceAll('-', '_') }), 'database', /^Database missing/);
  });

  it('says a SQLite file is missing', async () => {
    const settings = { collectionUid: collection.uid, name: unique('File'), kind: 'sqlite', database: 'nope/x.db' };
    await expectFailure(settings, 'database', /^File not found: .*Check the path/);
  });

  it('keeps answering a working connection with its version', async () => {
    await ensureTestReader();
    const response = await owner.call('POST', '/api/SqlConnection/Test', postgres(readerConnection));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ ok: true, serverVersion: expect.stringMatching(/PostgreSQL/i) });
  });
});
