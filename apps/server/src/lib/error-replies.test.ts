import { beforeAll, expect, it } from 'vitest';
import { texts } from '@datalab/contract/texts';
import { buildPerson, buildTeam, type Person } from '../../test/support/builders.ts';
import {
  buildAsset,
  buildConnection,
  createSqliteSource,
  type CollectionRef,
} from '../../test/support/orders-source.ts';
import { describeApp } from '../../test/support/suite.ts';
import type { TestApp } from '../../test/support/app.ts';
import { createToken, withToken } from '../modules/tokens/test-world.ts';
import { INVALID_TOKEN } from './errors.ts';

// What error replies and stored records say, through HTTP: no token secret is stored or
// echoed (application log, usage and call records, error bodies, client error reports), a requested id comes back
// capped, the database's own text reaches the asset's authors only, a refused token says so, and a POST whose body
// fields are all optional may leave the body out.

describeApp('error replies and secrets', (context) => {
  let owner: Person;
  let editor: Person;
  let reader: Person;
  let admin: Person;
  let collection: CollectionRef;
  let connectionId: number;

  beforeAll(async () => {
    const t = context();
    ({ owner, editor, reader, collection } = await buildTeam(t));
    admin = await buildPerson(t, { canManageUsers: true });
    connectionId = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
  });

  /** Every application-log record and usage record, as one text, once everything buffered is written. */
  async function storedText(t: TestApp) {
    await t.app.usage.flush();
    const logs = await t.app.db.selectFrom('application_logs').selectAll().execute();
    const usage = await t.app.db.selectFrom('usage_records').selectAll().execute();
    return JSON.stringify([logs, usage]);
  }

  it('stores and echoes no token secret put in a data path or a client error report', async () => {
    const t = context();
    const token = await createToken(reader, { roles: [{ collectionUid: collection.uid, role: 'Reader' }] });
    const body = token.secret.slice(4, 44);

    const asSession = await reader.call('GET', `/data/v1/${token.secret}`);
    expect(asSession.statusCode).toBe(404);
    expect(asSession.json()).toMatchObject({ title: 'Data asset with id dlp_[redacted] does not exist' });
    const asToken = await withToken(t, token.secret, 'POST', `/data/v1/x${token.secret}`, {});
    expect(asToken.statusCode).toBe(404);
    for (const reply of [asSession, asToken]) expect(reply.body).not.toContain(body);

    const report = await reader.call('POST', '/api/ApplicationLog/ClientErrors', {
      message: `Request failed with DATALAB_TOKEN=${token.secret}`,
      path: `/collections/${token.secret}`,
      stack: `Error: ${token.secret}\n    at call (${token.secret}.js:1:1)`,
    });
    expect(report.statusCode).toBe(202);

    const stored = await storedText(t);
    expect(stored).not.toContain(body);
    // What was stored says where the secret stood.
    expect(stored).toContain('Call of dlp_[redacted] as json: 404');
    expect(stored).toContain('Request failed with DATALAB_TOKEN=dlp_[redacted]');
    const usage = await t.app.db
      .selectFrom('usage_records')
      .select('data_source_uid')
      .where('data_source_uid', 'like', '%dlp_[redacted]')
      .execute();
    expect(usage.map((row) => row.data_source_uid).sort()).toEqual(['dlp_[redacted]', 'xdlp_[redacted]']);
  });

  it('echoes a requested id capped to 64 characters', async () => {
    // The router takes path parameters of up to 200 characters (longer is 414).
    const long = 'a'.repeat(190);
    const missing = await reader.call('GET', `/data/v1/${long}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ title: `Data asset with id ${'a'.repeat(63)}… does not exist` });
    const collection = await reader.call('GET', `/api/DataSourceCollection/GetByUid/${'b'.repeat(190)}`);
    expect(collection.statusCode).toBe(404);
    expect(collection.body).not.toContain('b'.repeat(64));
  });

  it('answers a path segment over the router limit, or a bad escape, in the one error shape without echoing it', async () => {
    const t = context();
    const token = await createToken(reader, { roles: [{ collectionUid: collection.uid, role: 'Reader' }] });
    const pasted = `${token.secret}${'c'.repeat(300)}`;
    for (const url of [`/data/v1/${pasted}`, `/api/DataSource/GetByUid/${pasted}`]) {
      const tooLong = await reader.call('GET', url);
      expect(tooLong.statusCode).toBe(414);
      expect(tooLong.json()).toMatchObject({ status: 414, code: 'validation', requestId: expect.any(String) });
      expect(tooLong.body).not.toContain(token.secret.slice(4, 44));
      expect(tooLong.body).not.toContain('c'.repeat(64));
    }
    const badEscape = await reader.call('GET', `/api/DataSource/GetByUid/${token.secret}%E0%A4%A`);
    expect(badEscape.statusCode).toBe(400);
    expect(badEscape.json()).toMatchObject({ status: 400, code: 'validation', requestId: expect.any(String) });
    expect(badEscape.body).not.toContain(token.secret.slice(4, 44));
    expect(await storedText(t)).not.toContain(token.secret.slice(4, 44));
  });

  it('gives Readers and tokens the bad-gateway text for a database failure, and authors its own text', async () => {
    const t = context();
    const asset = await buildAsset(owner, collection, connectionId, { sql: 'select id from no_such_table' });
    const url = `/data/v1/${asset.uid}`;
    const token = await createToken(owner, { roles: [{ collectionUid: collection.uid, role: 'Owner' }] });

    for (const response of [await reader.call('GET', url), await withToken(t, token.secret, 'GET', url)]) {
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ status: 502, code: 'upstream', title: texts.badGateway });
      expect(response.json<{ detail: string }>().detail).toMatch(/Give the request id to an Editor/);
      expect(response.body).not.toMatch(/no such table|no_such_table/);
      // The cause waits in the application log under the reply's request id, for administrators.
      const { requestId } = response.json<{ requestId: string }>();
      const logs = await admin.call('GET', `/api/ApplicationLog/GetApplicationLogs?requestId=${requestId}`);
      const records = await t.app.db
        .selectFrom('application_logs')
        .select(['level', 'message'])
        .where('request_id', '=', requestId)
        .where('level', '=', 'warn')
        .execute();
      expect(logs.statusCode).toBe(200);
      expect(records.map((record) => record.message)).toContainEqual(expect.stringMatching(/no such table/));
    }

    for (const author of [editor, owner]) {
      const response = await author.call('GET', url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ errors: { sql: [expect.stringMatching(/no such table/)] } });
    }
  });

  it('tells a caller whose token was refused that it is invalid, revoked or expired', async () => {
    const t = context();
    const asset = await buildAsset(owner, collection, connectionId, { sql: 'select id from orders' });
    const url = `/data/v1/${asset.uid}`;
    const token = await createToken(reader, { roles: [{ collectionUid: collection.uid, role: 'Reader' }] });
    expect((await withToken(t, token.secret, 'GET', url)).statusCode).toBe(200);
    expect((await reader.call('PUT', `/api/Token/${token.id}/Revoke`)).statusCode).toBe(200);

    const revoked = await withToken(t, token.secret, 'GET', url);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toMatchObject({ status: 401, code: 'unauthenticated', ...INVALID_TOKEN });
    const ended = await withToken(t, 'not.a.session', 'GET', url);
    expect(ended.json()).toMatchObject(INVALID_TOKEN);
    // Without any credential, the sign-in text as before.
    const anonymous = await t.app.inject({ method: 'GET', url });
    expect(anonymous.json()).toMatchObject({ status: 401, title: texts.unauthenticated });
  });

  it('takes a POST without a body as {} when every body field is optional, and still requires required ones', async () => {
    const t = context();
    const purge = await t.app.inject({
      method: 'POST',
      url: '/api/Caching/PurgeCache',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(purge.statusCode, purge.body).toBe(200);
    expect(purge.json()).toEqual({ removed: expect.any(Number) });
    // Many clients send the JSON content type with no body at all: that body is absent too.
    const typed = await t.app.inject({
      method: 'POST',
      url: '/api/Caching/PurgeCache',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    });
    expect(typed.statusCode, typed.body).toBe(200);
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/UserGroup',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(group.statusCode).toBe(400);
  });
  it('says Unsupported Data Asset Type for an asset kind that does not exist', async () => {
    const response = await reader.call('GET', '/api/DataSource/GetAll?kind=csv');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: { 'querystring.kind': ['Unsupported Data Asset Type'] } });
  });

  it('says No UID provided for a call or an asset read without a uid', async () => {
    for (const [method, url] of [
      ['GET', '/data/v1'],
      ['POST', '/data/v1/'],
    ] as const) {
      const response = await reader.call(method, url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ errors: { dataAssetUid: ['No UID provided'] } });
    }
    const blank = await reader.call('GET', '/api/DataSource/GetByUid/%20');
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ errors: { 'params.uid': ['No UID provided'] } });
  });

  it('takes a usage report period as From and To together or neither (the last 30 days)', async () => {
    const base = '/api/Reporting/GetDataSourceMetricsSummaries';
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const half = await admin.call('GET', `${base}?from=${from}`);
    expect(half.statusCode).toBe(400);
    expect(half.json()).toMatchObject({
      errors: { 'querystring.to': ['From and To must be all present or all not present'] },
    });
    const other = await admin.call('GET', `${base}?to=${from}`);
    expect(other.json()).toMatchObject({
      errors: { 'querystring.from': ['From and To must be all present or all not present'] },
    });
    const neither = await admin.call('GET', base);
    expect(neither.statusCode, neither.body).toBe(200);
  });
});
