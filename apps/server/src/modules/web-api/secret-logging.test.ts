import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoggedTestApp, type TestApp } from '../../../test/support/app.ts';
import { startUpstream, UPSTREAM_KEY, webApiWorld, type Upstream } from './test-upstream.ts';

// A Web API credential's secret never reaches a log line: the app's own logger at debug level, its lines captured,
// while credentials of every kind are created and changed, the connection is tested with them, a draft is tried,
// and an asset is called through /data/v1 — successfully, against an upstream that fails (a 502, logged as a
// warning) and with the guard refusing the host (a 400). The application log (audit records) is searched too.

const SECRETS = {
  basic: 'basic-pass-3c9a-never-logged',
  bearer: 'bearer-tok-4d1b-never-logged',
  oauth: 'oauth-secret-8e2f-never-logged',
  replaced: 'replaced-key-6a7c-never-logged',
};

describe('Web API secrets and the log', () => {
  let t: TestApp & { output: () => string };
  let upstream: Upstream;

  beforeAll(async () => {
    upstream = await startUpstream();
    t = await createLoggedTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('never logs a credential secret', async () => {
    const w = await webApiWorld(t, upstream);
    const credential = (body: object) =>
      w.owner.call('POST', '/api/WebApiDataSource/Credentials', { connectionId: w.connectionId, ...body });
    expect(
      (await credential({ name: 'B', kind: 'basic', settings: { username: 'u' }, secret: SECRETS.basic })).statusCode,
    ).toBe(201);
    const bearer = await credential({ name: 'T', kind: 'bearer', secret: SECRETS.bearer });
    expect(bearer.statusCode).toBe(201);
    const oauth = await credential({
      name: 'O',
      kind: 'oauth2',
      settings: { tokenUrl: `${upstream.origin}/token`, clientId: 'c' },
      secret: SECRETS.oauth,
    });
    expect(oauth.statusCode).toBe(201);
    const bearerId = bearer.json<{ id: number }>().id;
    expect(
      (await w.owner.call('POST', `/api/WebApiConnection/${w.connectionId}/Credentials/${bearerId}`)).statusCode,
    ).toBe(200);
    // The OAuth2 token request fails (the upstream has no token endpoint): reported, never with the secret.
    const oauthId = oauth.json<{ id: number }>().id;
    expect(
      (await w.owner.call('POST', `/api/WebApiConnection/${w.connectionId}/Credentials/${oauthId}`)).statusCode,
    ).toBe(200);

    const asset = await w.editor.call('POST', '/api/WebApiDataSource', {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      credentialId: w.credentialId,
      name: 'Items',
      request: { path: '/items', rowsPath: 'data' },
    });
    const uid = asset.json<{ uid: string }>().uid;
    expect((await w.reader.call('GET', `/data/v1/${uid}`)).statusCode).toBe(200);
    const draft = {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      credentialId: oauthId,
      request: { path: '/items' },
    };
    expect((await w.editor.call('POST', '/api/WebApiDataSource/Preview', draft)).statusCode).toBe(200);

    const failing = await w.editor.call('POST', '/api/WebApiDataSource', {
      collectionUid: w.collection.uid,
      connectionId: w.connectionId,
      credentialId: w.credentialId,
      name: 'Failing',
      request: { path: '/fail' },
    });
    expect((await w.reader.call('GET', `/data/v1/${failing.json<{ uid: string }>().uid}`)).statusCode).toBe(502);

    expect(
      (
        await w.owner.call('PUT', '/api/WebApiDataSource/Credentials', {
          id: w.credentialId,
          name: 'Key',
          kind: 'api-key',
          settings: { in: 'query', name: 'api_key' },
          secret: SECRETS.replaced,
        })
      ).statusCode,
    ).toBe(200);
    expect((await w.reader.call('GET', `/data/v1/${uid}`)).statusCode).toBe(502);
    await w.owner.call('PUT', `/api/WebApiConnection/${w.connectionId}`, {
      name: 'Upstream',
      baseUrl: `${upstream.origin}/v1`,
      allowedHosts: [],
    });
    expect((await w.reader.call('GET', `/data/v1/${uid}`)).statusCode).toBe(400);

    const all = t.output();
    expect(all).toContain('"status":502'); // the warnings were captured
    const logs = await t.app.db.selectFrom('application_logs').select(['message', 'details']).execute();
    const stored = JSON.stringify(logs);
    expect(stored).toContain('connection.credential.update');
    for (const secret of [UPSTREAM_KEY, ...Object.values(SECRETS)]) {
      expect(all).not.toContain(secret);
      expect(stored).not.toContain(secret);
    }
    // The upstream did receive them: what was kept out of the logs was really sent.
    expect(upstream.requests.some((r) => r.url.includes(SECRETS.replaced))).toBe(true);
  });
});
