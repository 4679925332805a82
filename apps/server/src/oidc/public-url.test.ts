import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/support/app.ts';

// The built-in provider publishes only PUBLIC_URL: a forged Host (or X-Forwarded-Host) never ends
// up in discovery, redirects or the logout form. Behind a TLS terminator, X-Forwarded-Proto counts
// when TRUST_PROXY says so.

const authorizeQuery = (publicUrl: string) =>
  new URLSearchParams({
    client_id: 'datalab-portal',
    redirect_uri: `${publicUrl}/auth/token`,
    response_type: 'code',
    scope: 'openid profile',
    state: 'state-1234',
    code_challenge: createHash('sha256').update(randomBytes(16)).digest('base64url'),
    code_challenge_method: 'S256',
  });

describe('the built-in provider and the Host header', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('publishes only PUBLIC_URL in its discovery document, whatever Host says', async () => {
    for (const headers of [{ host: 'evil.example' }, { host: 'localhost:8080', 'x-forwarded-host': 'evil.example' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration', headers });
      expect(response.statusCode).toBe(200);
      const urls = Object.values(response.json<Record<string, unknown>>()).filter(
        (value): value is string => typeof value === 'string' && value.startsWith('http'),
      );
      expect(urls.length).toBeGreaterThan(3);
      for (const url of urls) expect(url.startsWith(`${TEST_PUBLIC_URL}/`)).toBe(true);
    }
  });

  it('sends the browser back to PUBLIC_URL after sign-in, whatever Host the flow began with', async () => {
    const started = await t.app.inject({
      method: 'GET',
      url: `/oidc/auth?${authorizeQuery(TEST_PUBLIC_URL)}`,
      headers: { host: 'evil.example' },
    });
    expect(started.statusCode).toBe(303);
    const cookie = ([] as string[])
      .concat(started.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');
    const page = await t.app.inject({
      method: 'GET',
      url: String(started.headers.location),
      headers: { host: 'evil.example', cookie },
    });
    const action = /<form method="post" action="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const posted = await t.app.inject({
      method: 'POST',
      url: action,
      headers: { host: 'evil.example', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=analyst&password=datalab',
    });
    expect(posted.statusCode).toBe(303);
    expect(String(posted.headers.location).startsWith(`${TEST_PUBLIC_URL}/oidc/auth/`)).toBe(true);
  });

  it('posts the logout form to PUBLIC_URL', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/oidc/session/end', headers: { host: 'evil.example' } });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('evil.example');
    expect(response.body).toContain(`action="${TEST_PUBLIC_URL}/oidc/session/end/confirm"`);
  });
});

describe.each([
  ['with TRUST_PROXY', { TRUST_PROXY: 'true' }, 303],
  ['without TRUST_PROXY', {}, 400],
])('behind a TLS-terminating proxy, %s', (_name, env, expected) => {
  const publicUrl = 'https://datalab.example';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { PUBLIC_URL: publicUrl, ...env });
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`answers the authorization request with ${expected}, never 500`, async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/oidc/auth?${authorizeQuery(publicUrl)}`,
      headers: { host: 'datalab.example', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
    });
    expect(response.statusCode).toBe(expected);
    if (expected === 303) {
      expect(String(response.headers['set-cookie'])).toMatch(/; secure/i);
      expect(String(response.headers.location)).toMatch(/^\/oidc\/interaction\//);
    } else {
      expect(response.body).toContain('Sign-in needs a secure connection');
    }
  });
});
