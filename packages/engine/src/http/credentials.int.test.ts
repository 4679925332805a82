import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { collect } from '../../test/support/collect.ts';
import { type TestServer, json, startServer } from '../../test/support/http-server.ts';
import { type HttpConnector, createHttpConnector } from './connector.ts';
import type { CredentialInput } from './credentials.ts';
import { type HttpExchange, secretMask } from './exchange.ts';
import type { Resolver } from './guard.ts';

// Each credential kind as the upstream checks it, OAuth2 tokens fetched once for many calls and again near expiry
// or after a 401, credentials never sent off the connection's origin, and no secret in an exchange or an error.

const secrets = {
  apiKey: 'key-3f9a1c',
  password: 'pw-7c2e!',
  bearer: 'bearer-b81d',
  clientSecret: 'client-secret-42',
};

const credentials: CredentialInput[] = [
  { id: 'header-key', kind: 'apiKey', in: 'header', name: 'X-Api-Key', value: secrets.apiKey },
  { id: 'query-key', kind: 'apiKey', in: 'query', name: 'apikey', value: secrets.apiKey },
  { id: 'basic', kind: 'basic', username: 'ada', password: secrets.password },
  { id: 'bearer', kind: 'bearer', token: secrets.bearer },
];

let api: TestServer;
let auth: TestServer;
let elsewhere: TestServer;
let issued: string[] = [];
let tokenLifetime = 3600;
let tokenDelayMs = 0;
let revoked = new Set<string>();
let refuseTokens = false;
const open: HttpConnector[] = [];

function authorized(headers: Record<string, string | string[] | undefined>, url: string): boolean {
  const query = new URL(url, 'http://x').searchParams;
  const header = headers['authorization'];
  const token = header?.toString().replace(/^Bearer /, '');
  return (
    headers['x-api-key'] === secrets.apiKey ||
    query.get('apikey') === secrets.apiKey ||
    header === `Basic ${Buffer.from(`ada:${secrets.password}`).toString('base64')}` ||
    header === `Bearer ${secrets.bearer}` ||
    (token !== undefined && issued.includes(token) && !revoked.has(token) && !refuseTokens)
  );
}

beforeAll(async () => {
  api = await startServer((request, response) => {
    if (!authorized(request.headers, request.url)) return json(response, { error: 'unauthorized' }, 401);
    if (request.url.startsWith('/api/away')) {
      response.writeHead(302, { location: `http://elsewhere.test:${elsewhere.port}/landing?from=api` }).end();
      return;
    }
    if (request.url.startsWith('/api/here')) return void response.writeHead(302, { location: '/api/data' }).end();
    if (request.url.startsWith('/api/round-trip')) {
      response.writeHead(302, { location: `http://elsewhere.test:${elsewhere.port}/bounce` }).end();
      return;
    }
    json(response, [{ ok: true, echo: secrets.apiKey }]);
  });
  auth = await startServer(async (request, response) => {
    const form = new URLSearchParams(request.body);
    const basic = `Basic ${Buffer.from(`cid:${secrets.clientSecret}`).toString('base64')}`;
    const byBody = form.get('client_id') === 'cid' && form.get('client_secret') === secrets.clientSecret;
    if (form.get('grant_type') !== 'client_credentials' || (request.headers.authorization !== basic && !byBody))
      return json(response, { error: 'invalid_client' }, 401);
    if (tokenDelayMs) await new Promise((resolve) => setTimeout(resolve, tokenDelayMs));
    const token = `token-${issued.length + 1}-${form.get('scope') ?? ''}-${form.get('audience') ?? ''}`;
    issued.push(token);
    json(response, { access_token: token, token_type: 'Bearer', expires_in: tokenLifetime });
  });
  elsewhere = await startServer((request, response) => {
    if (request.url.startsWith('/bounce'))
      return void response.writeHead(302, { location: `http://api.test:${api.port}/api/data?back=1` }).end();
    json(response, [{ landed: true }]);
  });
});

afterAll(async () => {
  await Promise.all([api.close(), auth.close(), elsewhere.close()]);
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  issued = [];
  revoked = new Set();
  refuseTokens = false;
  tokenLifetime = 3600;
  tokenDelayMs = 0;
});

const names: Record<string, string> = {
  'api.test': '127.0.0.1',
  'auth.test': '127.0.0.1',
  'elsewhere.test': '127.0.0.1',
};
const resolve: Resolver = async (host) => [{ address: names[host] ?? '203.0.113.1', family: 4 }];

function connector(extra: CredentialInput[] = []): HttpConnector {
  const created = createHttpConnector(
    {
      baseUrl: `http://api.test:${api.port}/api`,
      allowedHosts: [`api.test:${api.port}`, `auth.test:${auth.port}`, `elsewhere.test:${elsewhere.port}`],
      headers: { 'X-Tenant-Secret': 'tenant-s3cret' },
      credentials: [...credentials, ...extra],
      retries: 0,
    },
    { resolve },
  );
  open.push(created);
  return created;
}

const oauth = (overrides: Partial<Extract<CredentialInput, { kind: 'oauth2' }>> = {}): CredentialInput => ({
  id: 'oauth',
  kind: 'oauth2',
  tokenUrl: `http://auth.test:${auth.port}/token`,
  clientId: 'cid',
  clientSecret: secrets.clientSecret,
  scope: 'read',
  audience: 'data',
  ...overrides,
});

async function call(c: HttpConnector, credential: string | undefined, path = '/data') {
  const exchanges: HttpExchange[] = [];
  const stream = await c.request({
    definition: { path, ...(credential ? { credential } : {}) },
    values: {},
    timeoutMs: 5_000,
    onExchange: (e) => exchanges.push(e),
  });
  return { rows: await collect(stream.rows), exchanges };
}

async function failure(work: Promise<unknown>): Promise<EngineError> {
  const error: unknown = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected an engine error, got ${String(error)}`);
  return error;
}

function expectNoSecret(text: string): void {
  for (const secret of [...Object.values(secrets), ...issued, 'tenant-s3cret'])
    expect(text, `leaks ${secret}`).not.toContain(secret);
}

describe('credentials', () => {
  it.each(['header-key', 'query-key', 'basic', 'bearer'])('sends the %s credential the upstream checks', async (id) => {
    const c = connector();
    expect((await failure(call(c, undefined))).message).toBe('The web API answered with status 401');
    const { rows, exchanges } = await call(c, id);
    expect(rows).toEqual([{ ok: true, echo: secrets.apiKey }]);
    expectNoSecret(JSON.stringify(exchanges));
    expect(JSON.stringify(exchanges)).toContain(secretMask);
  });

  it('fetches an OAuth2 token (client secret in Basic auth or in the body) with scope and audience', async () => {
    const c = connector([oauth(), oauth({ id: 'oauth-body', clientAuth: 'body' })]);
    const first = await call(c, 'oauth');
    expect(first.rows).toHaveLength(1);
    expect(issued).toEqual(['token-1-read-data']);
    expect(first.exchanges.map((e) => [e.kind, e.method, e.status])).toEqual([
      ['token', 'POST', 200],
      ['request', 'GET', 200],
    ]);
    expect(first.exchanges[0]?.requestBody).toBeUndefined();
    expectNoSecret(JSON.stringify(first.exchanges));
    await call(c, 'oauth-body');
    expect(issued).toHaveLength(2);
  });

  it('fetches the token once for many simultaneous calls, and reuses it', async () => {
    tokenDelayMs = 100;
    const c = connector([oauth()]);
    const before = auth.seen.length;
    const results = await Promise.all(Array.from({ length: 8 }, () => call(c, 'oauth')));
    expect(results.every((r) => r.rows.length === 1)).toBe(true);
    expect(auth.seen.length - before).toBe(1);
    expect(issued).toHaveLength(1);
    await call(c, 'oauth');
    expect(issued).toHaveLength(1);
  });

  it('fetches a new token once the cached one is within 60 s of its expiry', async () => {
    tokenLifetime = 61;
    const c = connector([oauth()]);
    await call(c, 'oauth');
    await call(c, 'oauth');
    expect(issued).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await call(c, 'oauth');
    expect(issued).toHaveLength(2);
  });

  it('replaces a token the API refuses (401) once, and does not loop when it keeps refusing', async () => {
    const c = connector([oauth()]);
    await call(c, 'oauth');
    revoked.add(issued[0] ?? '');
    const again = await call(c, 'oauth');
    expect(again.rows).toHaveLength(1);
    expect(issued).toHaveLength(2);
    expect(again.exchanges.map((e) => [e.kind, e.status])).toEqual([
      ['request', 401],
      ['token', 200],
      ['request', 200],
    ]);
    refuseTokens = true;
    expect((await failure(call(c, 'oauth'))).message).toBe('The web API answered with status 401');
    expect(issued).toHaveLength(3);
  });

  it('reports a refused client secret without showing it', async () => {
    const c = connector([oauth({ clientSecret: 'wrong-secret-99' })]);
    const error = await failure(call(c, 'oauth'));
    expect(error.code).toBe('UPSTREAM_FAILED');
    expect(error.message).toBe('The OAuth2 token request was refused (status 401)');
  });

  it('strips the credential and the headers on a redirect to another host, and keeps them on the same origin', async () => {
    for (const id of ['header-key', 'query-key', 'basic', 'bearer']) {
      const before = elsewhere.seen.length;
      const { rows, exchanges } = await call(connector(), id, '/away');
      expect(rows).toEqual([{ landed: true }]);
      const landed = elsewhere.seen.slice(before);
      expect(landed).toHaveLength(1);
      expect(landed[0]?.url).toBe('/landing?from=api');
      expect(landed[0]?.headers.authorization).toBeUndefined();
      expect(landed[0]?.headers['x-api-key']).toBeUndefined();
      expect(landed[0]?.headers['x-tenant-secret']).toBeUndefined();
      expectNoSecret(JSON.stringify(exchanges));
    }
    const same = await call(connector(), 'bearer', '/here');
    expect(same.rows).toEqual([{ ok: true, echo: secrets.apiKey }]);
    expect(same.exchanges.map((e) => e.status)).toEqual([302, 200]);
  });

  it('sends no credential to its own origin again once a redirect has left it', async () => {
    for (const id of ['header-key', 'query-key', 'bearer']) {
      const before = api.seen.length;
      const error = await failure(call(connector(), id, '/round-trip'));
      expect(error.message).toBe('The web API answered with status 401');
      const back = api.seen.slice(before).find((seen) => seen.url.startsWith('/api/data?back=1'));
      expect(back?.headers.authorization).toBeUndefined();
      expect(back?.headers['x-api-key']).toBeUndefined();
      expect(back?.url).not.toContain(secrets.apiKey);
    }
  });

  it('sends an OAuth2 token only to the base URL origin, not to a redirect target', async () => {
    const before = elsewhere.seen.length;
    const { rows } = await call(connector([oauth()]), 'oauth', '/away');
    expect(rows).toEqual([{ landed: true }]);
    expect(elsewhere.seen.slice(before)[0]?.headers.authorization).toBeUndefined();
  });

  it('tests a connection with and without a credential', async () => {
    const c = connector();
    const without = await c.test();
    expect(without).toMatchObject({ ok: true, status: 401 });
    expect(without.warnings).toEqual(['The base URL answered 401: the credential was not accepted']);
    expect(await c.test({ credential: 'bearer' })).toMatchObject({ ok: true, status: 200, warnings: [] });
    expect((await failure(c.test({ credential: 'nope' }))).message).toBe(
      'The credential nope does not exist on this connection',
    );
  });
});
