import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { problem } from '@datalab/contract/errors';
import { buildApp } from '../app.ts';
import { BUILT_IN_AUDIENCE, loadConfig } from '../config.ts';
import { createTestApp, NO_LOAD_SHEDDING, TEST_PUBLIC_URL, type TestApp } from '../../test/support/app.ts';
import { injectClient } from '../../test/support/http.ts';
import { freePort } from '../../test/support/ports.ts';
import { signIn } from '../../test/support/sign-in.ts';
import { signWithPublicKeyAsSecret, signWithServerKey, unsignedToken } from '../../test/support/tokens.ts';

// The bearer check accepts access tokens for the API only: not the portal's ID token, not a token
// for another audience, not an unsigned or HMAC-confused one. An unreachable provider is a 503.

const now = () => Math.floor(Date.now() / 1000);

describe('the bearer check accepts access tokens only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  const getCurrentUser = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/Account/GetCurrentUser', headers: { authorization: `Bearer ${token}` } });
  const claims = (overrides: Record<string, unknown> = {}) => ({
    iss: `${TEST_PUBLIC_URL}/oidc`,
    aud: BUILT_IN_AUDIENCE,
    sub: 'token-tester',
    iat: now(),
    exp: now() + 300,
    ...overrides,
  });

  it('accepts the access token of a real sign-in and a well-formed access token', async () => {
    const tokens = await signIn(injectClient(t.app), {
      publicUrl: TEST_PUBLIC_URL,
      username: 'analyst',
      password: 'datalab',
    });
    expect((await getCurrentUser(tokens.access_token)).statusCode).toBe(200);
    expect((await getCurrentUser(await signWithServerKey(t.config.dataDir, claims()))).statusCode).toBe(200);
  });

  it('refuses the ID token of a real sign-in', async () => {
    const tokens = await signIn(injectClient(t.app), {
      publicUrl: TEST_PUBLIC_URL,
      username: 'analyst',
      password: 'datalab',
    });
    expect((await getCurrentUser(tokens.id_token)).statusCode).toBe(401);
  });

  it.each([
    [
      'addressed to the portal as well as the API (an ID token)',
      () => signWithServerKey(t.config.dataDir, claims({ aud: [BUILT_IN_AUDIENCE, 'datalab-portal'] })),
    ],
    ['typed as a plain JWT, not at+jwt', () => signWithServerKey(t.config.dataDir, claims(), { typ: 'JWT' })],
    ['marked as an ID token in its claims', () => signWithServerKey(t.config.dataDir, claims({ typ: 'ID' }))],
    ['for another audience', () => signWithServerKey(t.config.dataDir, claims({ aud: 'urn:someone:else' }))],
    ["with 'alg: none'", async () => unsignedToken(claims())],
    ['signed HS256 with the public key as the secret', () => signWithPublicKeyAsSecret(t.config.dataDir, claims())],
  ])('refuses a token %s with 401', async (_name, make) => {
    const response = await getCurrentUser(await make());
    expect(response.statusCode).toBe(401);
    expect(problem.parse(response.json()).status).toBe(401);
  });
});

describe('an external provider that is down or not what it claims', () => {
  const dir = mkdtempSync(join(tmpdir(), 'datalab-idp-down-'));
  let server: Server;
  let base: string;
  let announcedIssuer = '';
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = createServer((request, response) => {
      if (request.url === '/mismatch/.well-known/openid-configuration') {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ issuer: announcedIssuer, jwks_uri: `${base}/mismatch/jwks` }));
        return;
      }
      response.statusCode = 503;
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const build = (issuer: string) =>
    buildApp(
      loadConfig({
        NODE_ENV: 'test',
        ...NO_LOAD_SHEDDING,
        DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        OIDC_ISSUER: issuer,
        OIDC_AUDIENCE: 'api://datalab',
        WEB_DIST_DIR: join(dir, 'none'),
      }),
      { logger: false },
    );

  it('answers 503 with a clear message while the provider cannot be reached, not 500', async () => {
    const app = await build(`${base}/down`);
    try {
      const token = await signWithServerKey(dir, {
        iss: `${base}/down`,
        aud: 'api://datalab',
        sub: 'x',
        exp: now() + 60,
      });
      const response = await app.inject({
        method: 'GET',
        url: '/api/Account/GetCurrentUser',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(response.statusCode).toBe(503);
      expect(problem.parse(response.json()).detail).toMatch(/identity provider cannot be reached/);
    } finally {
      await app.close();
    }
  });

  it('refuses to start when the discovery document names another issuer, saying what to set', async () => {
    announcedIssuer = 'https://evil.example/realms/dl';
    await expect(build(`${base}/mismatch`)).rejects.toThrow(
      /names issuer "https:\/\/evil\.example\/realms\/dl".*Set OIDC_ISSUER/,
    );
  });
});

describe('ADMIN_SUBJECTS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { ADMIN_SUBJECTS: 'boss-subject, chosen-name' });
  });
  afterAll(async () => {
    await t?.close();
  });
  const permissionsOf = async (sub: string, username: string) => {
    const token = await signWithServerKey(t.config.dataDir, {
      iss: `${TEST_PUBLIC_URL}/oidc`,
      aud: BUILT_IN_AUDIENCE,
      sub,
      preferred_username: username,
      exp: now() + 300,
    });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/Account/GetCurrentUser',
      headers: { authorization: `Bearer ${token}` },
    });
    return response.json<{ permissions: { canManageUsers: boolean } }>().permissions.canManageUsers;
  };

  it('makes the listed subject an administrator', async () => {
    expect(await permissionsOf('boss-subject', 'boss')).toBe(true);
  });

  it('never matches a username, which people may choose themselves', async () => {
    expect(await permissionsOf('an-ordinary-subject', 'chosen-name')).toBe(false);
  });
});
