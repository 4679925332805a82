import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PUBLIC_URL, createTestApp, type TestApp } from '../../../test/support/app.ts';
import { injectClient, type HttpResponse } from '../../../test/support/http.ts';

// What an MCP client does when it has no token: it reads the protected resource metadata, registers itself with
// the built-in provider (RFC 7591), signs the person in with code + PKCE naming the MCP endpoint as the resource
// (RFC 8707), the person allows it on the consent page, and its access token opens /mcp. A resource other than the
// API's or the endpoint's is refused; with MCP_DYNAMIC_CLIENT_REGISTRATION=false nobody registers.

const REDIRECT = 'http://127.0.0.1:33418/callback';
const RESOURCE = `${TEST_PUBLIC_URL}/mcp`;

class Browser {
  readonly #cookies = new Map<string, string>();
  readonly t: TestApp;
  constructor(t: TestApp) {
    this.t = t;
  }
  async request(method: string, url: string, form?: Record<string, string>): Promise<HttpResponse> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await injectClient(this.t.app)({
      method,
      url: new URL(url, TEST_PUBLIC_URL).href,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    const raw = response.headers['set-cookie'];
    for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
    return response;
  }
}

const locationOf = (response: HttpResponse) => String(response.headers['location'] ?? '');
const formAction = (html: string) => /<form method="post" action="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');

async function register(t: TestApp) {
  return t.app.inject({
    method: 'POST',
    url: '/oidc/reg',
    headers: { host: 'localhost:8080', 'content-type': 'application/json' },
    payload: {
      client_name: 'Test Agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
    },
  });
}

describe('MCP sign-in through the built-in provider', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { MCP_ENABLED: 'true' });
  });
  afterAll(async () => t?.close());

  it('registers a client that signs a person in with PKCE for the MCP resource, after their consent', async () => {
    const discovery = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
    const metadata = discovery.json<Record<string, unknown>>();
    expect(metadata['registration_endpoint']).toBe(`${TEST_PUBLIC_URL}/oidc/reg`);
    expect(metadata['code_challenge_methods_supported']).toEqual(['S256']);
    const registered = await register(t);
    expect(registered.statusCode, registered.body).toBe(201);
    const clientId = registered.json<{ client_id: string }>().client_id;

    const browser = new Browser(t);
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${TEST_PUBLIC_URL}/oidc/auth`);
    authorize.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid profile',
      state: 'state-1',
      resource: RESOURCE,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    let response = await browser.request('GET', authorize.href);
    response = await browser.request('GET', locationOf(response));
    response = await browser.request('POST', formAction(response.body)!, { username: 'analyst', password: 'datalab' });
    for (let hops = 0; hops < 4 && locationOf(response); hops += 1) {
      response = await browser.request('GET', locationOf(response));
    }
    expect(response.body).toContain('Allow Test Agent?');
    response = await browser.request('POST', formAction(response.body)!, { decision: 'allow' });
    for (let hops = 0; hops < 4 && !locationOf(response).startsWith(REDIRECT); hops += 1) {
      response = await browser.request('GET', locationOf(response));
    }
    expect(locationOf(response), `${response.status} ${response.body.slice(0, 400)}`).toContain(REDIRECT);
    const back = new URL(locationOf(response));
    const code = back.searchParams.get('code');
    expect(code, back.href).toBeTruthy();
    const token = await browser.request('POST', '/oidc/token', {
      grant_type: 'authorization_code',
      code: String(code),
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource: RESOURCE,
    });
    expect(token.status, token.body).toBe(200);
    const accessToken = (JSON.parse(token.body) as { access_token: string }).access_token;
    const ping = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: {
        host: 'localhost:8080',
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'agent', version: '1' } },
      },
    });
    expect(ping.statusCode, ping.body).toBe(200);
    expect(ping.json()).toMatchObject({ result: { serverInfo: { name: 'datalab' } } });
  });

  it('refuses a resource that is neither the API nor the MCP endpoint', async () => {
    const clientId = (await register(t)).json<{ client_id: string }>().client_id;
    const authorize = new URL(`${TEST_PUBLIC_URL}/oidc/auth`);
    authorize.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      resource: 'https://elsewhere.example/mcp',
      code_challenge: createHash('sha256').update('x'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const response = await new Browser(t).request('GET', authorize.href);
    expect(locationOf(response)).toContain('error=invalid_target');
  });
});

describe('MCP sign-in with dynamic client registration off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { MCP_ENABLED: 'true', MCP_DYNAMIC_CLIENT_REGISTRATION: 'false' });
  });
  afterAll(async () => t?.close());

  it('offers no registration endpoint and registers nobody', async () => {
    const discovery = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
    expect(discovery.json<Record<string, unknown>>()['registration_endpoint']).toBeUndefined();
    expect((await register(t)).statusCode).toBeGreaterThanOrEqual(400);
  });
});
