import { afterAll, beforeAll, expect, it } from 'vitest';
import { webApiConnection, webApiCredential, webApiTestResult } from '@datalab/contract/api/web-api';
import { texts } from '@datalab/contract/texts';
import { auditRecords, buildCollection, buildPerson, unique } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { freePort } from '../../../test/support/ports.ts';
import { ALLOWED_HOSTS_ADMIN_ONLY, SECRET_HEADER } from './service.ts';
import { startUpstream, UPSTREAM_KEY, webApiWorld, type Upstream } from './test-upstream.ts';

// Web API connections and their credentials through the API: secrets sealed and never returned,
// the allow-list changed only by an administrator who owns the collection and audited before/after, names unique,
// a used credential or connection kept, and tests against a real local upstream (with and without a credential,
// and refused by the outbound guard when the host is not allowed).

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await upstream.close();
});

const BEARER = 'bearer-token-77c1-never-shown';

describeApp('Web API connections and credentials', (ctx) => {
  it('shows connections to Readers with every secret masked, and keeps a secret unless a new one is sent', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const seen = await w.reader.call('GET', `/api/WebApiConnection/${w.connectionId}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.body).not.toContain(UPSTREAM_KEY);
    const connection = webApiConnection.parse(seen.json());
    expect(connection).toMatchObject({ kind: 'webapi', allowedHosts: [upstream.host], canChangeAllowedHosts: false });
    expect(connection.credentials).toEqual([
      expect.objectContaining({ name: 'Key', kind: 'api-key', secret: texts.maskedSecret }),
    ]);
    const listed = await w.reader.call('GET', `/api/WebApiConnection?collectionUid=${w.collection.uid}`);
    expect(listed.json<{ id: number }[]>().map((c) => c.id)).toEqual([w.connectionId]);
    // SQL connection calls do not see it, and the reverse.
    expect((await w.reader.call('GET', `/api/SqlConnection/${w.connectionId}`)).statusCode).toBe(404);
    const sqlList = await w.reader.call('GET', `/api/SqlConnection?collectionUid=${w.collection.uid}`);
    expect(sqlList.json()).toEqual([]);
    // Nor do they change or delete it: the connection stays as it was.
    const sqlEdit = { name: 'Renamed', kind: 'sqlite', database: 'x/y.sqlite' };
    expect((await w.owner.call('PUT', `/api/SqlConnection/${w.connectionId}`, sqlEdit)).statusCode).toBe(404);
    expect((await w.owner.call('DELETE', `/api/SqlConnection/${w.connectionId}`)).statusCode).toBe(404);
    const after = await w.reader.call('GET', `/api/WebApiConnection/${w.connectionId}`);
    expect(after.json()).toMatchObject({ id: w.connectionId, name: connection.name, baseUrl: connection.baseUrl });

    const stored = await ctx()
      .app.db.selectFrom('web_api_credentials')
      .select('secret')
      .where('id', '=', w.credentialId)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^v1\./);
    expect(stored.secret).not.toContain(UPSTREAM_KEY);
    expect(ctx().app.sqlRuntime.box.open(stored.secret ?? '')).toBe(UPSTREAM_KEY);

    const base = { id: w.credentialId, kind: 'api-key', settings: { in: 'header', name: 'X-Api-Key' } };
    for (const keep of [{}, { secret: texts.maskedSecret }]) {
      const kept = await w.owner.call('PUT', '/api/WebApiDataSource/Credentials', { ...base, name: 'Key', ...keep });
      expect(kept.statusCode, kept.body).toBe(200);
      expect(webApiCredential.parse(kept.json()).secret).toBe(texts.maskedSecret);
    }
    const test = await w.owner.call('POST', `/api/WebApiConnection/${w.connectionId}/Credentials/${w.credentialId}`);
    expect(webApiTestResult.parse(test.json())).toMatchObject({ ok: true, status: 200, error: null });

    // A kind change needs the secret again; a new secret replaces the old one.
    const noSecret = await w.owner.call('PUT', '/api/WebApiDataSource/Credentials', {
      id: w.credentialId,
      name: 'Key',
      kind: 'bearer',
    });
    expect(noSecret.statusCode).toBe(400);
    expect(noSecret.json()).toMatchObject({ errors: { secret: ['Secret is required'] } });
    const replaced = await w.owner.call('PUT', '/api/WebApiDataSource/Credentials', {
      ...base,
      name: 'Key',
      secret: 'wrong-key',
    });
    expect(replaced.statusCode).toBe(200);
    const refused = await w.owner.call('POST', `/api/WebApiConnection/${w.connectionId}/Credentials/${w.credentialId}`);
    // The test GETs the base URL, which answers without a key; the items need it (see the asset tests).
    expect(refused.statusCode).toBe(200);
    const audit = await auditRecords(ctx(), 'connection.credential.update');
    expect(JSON.stringify(audit)).not.toContain('wrong-key');
    expect(audit.at(-1)?.details).toMatchObject({ after: { name: 'Key', kind: 'api-key', secretChanged: true } });
  });

  it('creates credentials of every kind, checks them, and keeps one an asset sends', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const create = (body: Record<string, unknown>) =>
      w.owner.call('POST', '/api/WebApiDataSource/Credentials', { connectionId: w.connectionId, ...body });
    const kinds = [
      { name: 'Basic', kind: 'basic', settings: { username: 'svc' }, secret: 'basic-pass' },
      { name: 'Bearer', kind: 'bearer', secret: BEARER },
      {
        name: 'OAuth',
        kind: 'oauth2',
        settings: { tokenUrl: `${upstream.origin}/token`, clientId: 'client', scope: 'read' },
        secret: 'client-secret',
      },
      { name: 'Query key', kind: 'api-key', settings: { in: 'query', name: 'key' }, secret: 'q-key' },
    ];
    for (const body of kinds) {
      const created = await create(body);
      expect(created.statusCode, created.body).toBe(201);
      expect(created.body).not.toContain(body.secret);
      expect(webApiCredential.parse(created.json())).toMatchObject({ kind: body.kind, secret: texts.maskedSecret });
    }
    const withoutSecret = await create({ name: 'Empty', kind: 'bearer' });
    expect(withoutSecret.json()).toMatchObject({ errors: { secret: ['Secret is required'] } });
    const badHeader = await create({ name: 'Bad', kind: 'api-key', settings: { name: 'X Key' }, secret: 's' });
    expect(badHeader.json()).toMatchObject({ errors: { 'settings.name': ['Invalid header name'] } });
    const badUrl = await create({ name: 'Bad', kind: 'oauth2', settings: { tokenUrl: 'ftp://x', clientId: 'c' } });
    expect(badUrl.statusCode).toBe(400);
    const dup = await create({ name: 'key', kind: 'bearer', secret: 'x' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ title: 'Credential with name key already exists' });

    // Editors and Readers do not manage credentials.
    expect((await w.editor.call('POST', '/api/WebApiDataSource/Credentials', kinds[1])).statusCode).toBe(400);
    const asEditor = await w.editor.call('POST', '/api/WebApiDataSource/Credentials', {
      connectionId: w.connectionId,
      ...kinds[1],
      name: 'Mine',
    });
    expect(asEditor.statusCode).toBe(403);

    const asset = await w.editor.call('POST', '/api/WebApiDataSource', {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      credentialId: w.credentialId,
      name: unique('Items'),
      request: { path: '/items', rowsPath: 'data' },
    });
    expect(asset.statusCode, asset.body).toBe(201);
    const used = await w.owner.call('DELETE', `/api/WebApiDataSource/Credentials/${w.credentialId}`);
    expect(used.statusCode).toBe(409);
    const connection = webApiConnection.parse(
      (await w.owner.call('GET', `/api/WebApiConnection/${w.connectionId}`)).json(),
    );
    const bearer = connection.credentials.find((c) => c.name === 'Bearer');
    const other = await w.owner.call(
      'DELETE',
      `/api/WebApiConnection/${w.connectionId + 1000}/Credentials/${bearer?.id}`,
    );
    expect(other.statusCode).toBe(404);
    const removed = await w.owner.call('DELETE', `/api/WebApiConnection/${w.connectionId}/Credentials/${bearer?.id}`);
    expect(removed.statusCode).toBe(200);
    expect(webApiConnection.parse(removed.json()).credentials.map((c) => c.name)).not.toContain('Bearer');
    expect((await w.owner.call('DELETE', `/api/WebApiConnection/${w.connectionId}`)).statusCode).toBe(409);
  });

  it('lets only an administrator who owns the collection change the allowed hosts, and audits each change', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const plainOwner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), plainOwner);
    const settings = { name: unique('Api'), baseUrl: `${upstream.origin}/v1`, retries: 0 };
    const refused = await plainOwner.call('POST', '/api/WebApiConnection', {
      collectionUid: collection.uid,
      ...settings,
      allowedHosts: [upstream.host],
    });
    expect(refused.statusCode).toBe(403);
    const created = await plainOwner.call('POST', '/api/WebApiConnection', {
      collectionUid: collection.uid,
      ...settings,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ id: number }>().id;
    expect(webApiConnection.parse(created.json()).canChangeAllowedHosts).toBe(false);
    // Loopback is refused by the outbound guard until allowed: the test says so, with the exchange.
    const blocked = webApiTestResult.parse((await plainOwner.call('POST', `/api/WebApiConnection/${id}/Test`)).json());
    expect(blocked).toMatchObject({ ok: false, status: null, error: { status: 400 } });
    expect(blocked.error?.message).toMatch(/loopback/);
    expect(blocked.error?.message).toMatch(/administrator can allow the host/);
    const change = await plainOwner.call('PUT', `/api/WebApiConnection/${id}`, {
      ...settings,
      allowedHosts: [upstream.host],
    });
    expect(change.statusCode).toBe(403);
    // Leaving the list out (or sending it unchanged) changes everything else.
    const renamed = await plainOwner.call('PUT', `/api/WebApiConnection/${id}`, { ...settings, description: 'd' });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const before = (await auditRecords(ctx(), 'connection.allowedHosts')).length;
    const changed = await w.owner.call('PUT', `/api/WebApiConnection/${w.connectionId}`, {
      name: 'Upstream',
      baseUrl: `${upstream.origin}/v1`,
      allowedHosts: [upstream.host, '10.0.0.5'],
      retries: 0,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(webApiConnection.parse(changed.json())).toMatchObject({
      allowedHosts: [upstream.host, '10.0.0.5'],
      canChangeAllowedHosts: true,
    });
    const records = await auditRecords(ctx(), 'connection.allowedHosts');
    expect(records.length).toBe(before + 1);
    expect(records.at(-1)?.details).toMatchObject({
      before: { allowedHosts: [upstream.host] },
      after: { allowedHosts: [upstream.host, '10.0.0.5'] },
    });
    const bad = await w.owner.call('PUT', `/api/WebApiConnection/${w.connectionId}`, {
      name: 'Upstream',
      baseUrl: `${upstream.origin}/v1`,
      allowedHosts: ['http://x/y'],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json<{ errors: object }>().errors)).toEqual(['allowedHosts.0']);
    expect(ALLOWED_HOSTS_ADMIN_ONLY).toBeTruthy();
  });

  it('refuses bad settings with the errors map, a secret-named default header, and a taken name', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const post = (body: Record<string, unknown>) =>
      w.owner.call('POST', '/api/WebApiConnection', { collectionUid: w.collection.uid, name: unique('Api'), ...body });
    expect((await post({ baseUrl: 'file:///etc/passwd' })).statusCode).toBe(400);
    expect((await post({ baseUrl: 'gopher://example.com/' })).statusCode).toBe(400);
    const userInfo = await post({ baseUrl: 'https://user:pw@example.com/' });
    expect(userInfo.statusCode).toBe(400);
    expect(JSON.stringify(userInfo.json())).toContain('use a credential');
    const secretHeader = await post({ baseUrl: 'https://example.com', headers: { Authorization: 'Bearer x' } });
    expect(secretHeader.json()).toMatchObject({ errors: { 'headers.Authorization': [SECRET_HEADER] } });
    const hostHeader = await post({ baseUrl: 'https://example.com', headers: { Host: 'other' } });
    expect(hostHeader.statusCode).toBe(400);
    const dup = await post({ baseUrl: 'https://example.com', name: 'shop' });
    expect(dup.statusCode).toBe(201);
    const sql = await w.owner.call('POST', '/api/SqlConnection', {
      collectionUid: w.collection.uid,
      name: 'SHOP',
      kind: 'sqlite',
      database: 'x/y.sqlite',
    });
    // Names are unique in a collection whatever the kind.
    expect(sql.statusCode).toBe(409);
  });

  it('tests unsaved settings, a stored credential with them, and an upstream that answers 401', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const unsaved = await w.owner.call('POST', '/api/WebApiConnection/Test', {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      credentialId: w.credentialId,
      name: 'Draft',
      baseUrl: `${upstream.origin}/v1/items`,
    });
    expect(unsaved.statusCode, unsaved.body).toBe(200);
    const result = webApiTestResult.parse(unsaved.json());
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.exchanges[0]?.requestHeaders['x-api-key']).toBe(texts.maskedSecret);
    expect(unsaved.body).not.toContain(UPSTREAM_KEY);
    const last = upstream.requests.at(-1);
    expect(last?.headers['x-api-key']).toBe(UPSTREAM_KEY);

    const anonymous = await w.owner.call('POST', '/api/WebApiConnection/Test', {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      name: 'Draft',
      baseUrl: `${upstream.origin}/v1/items`,
    });
    const noKey = webApiTestResult.parse(anonymous.json());
    expect(noKey).toMatchObject({ ok: true, status: 401 });
    expect(noKey.warnings[0]).toMatch(/credential was not accepted/);
  });
  it('says why a test failed (refused, host not found, blocked by the guard), each with a warn record', async () => {
    const w = await webApiWorld(ctx(), upstream);
    const closed = await freePort();
    const test = async (baseUrl: string, allowedHosts: string[]) => {
      const response = await w.owner.call('POST', '/api/WebApiConnection/Test', {
        collectionUid: w.collection.uid,
        name: 'Draft',
        baseUrl,
        allowedHosts,
      });
      expect(response.statusCode, response.body).toBe(200);
      const result = webApiTestResult.parse(response.json());
      expect(result.ok).toBe(false);
      const records = await ctx()
        .app.db.selectFrom('application_logs')
        .select(['level', 'category', 'message'])
        .where('request_id', '=', response.headers['x-request-id'] as string)
        .execute();
      return { message: result.error?.message ?? '', records };
    };
    const refused = await test(`http://127.0.0.1:${closed}/v1`, [`127.0.0.1:${closed}`]);
    expect(refused.message).toMatch(/^Connection refused: .*web API server is running/);
    expect(refused.records).toEqual([
      { level: 'warn', category: 'connections', message: `Web API connection test failed: ${refused.message}` },
    ]);
    const unknown = await test('http://no-such-host.invalid/v1', ['no-such-host.invalid']);
    expect(unknown.message).toMatch(/^Host not found/);
    expect(unknown.records).toHaveLength(1);
    const blocked = await test(`http://127.0.0.1:${closed}/v1`, []);
    expect(blocked.message).not.toMatch(/unknown error/i);
    expect(blocked.records).toHaveLength(1);
  });
});
