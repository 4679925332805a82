import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { BUILT_IN_AUDIENCE, loadConfig } from '../config.ts';
import { NO_LOAD_SHEDDING } from '../../test/support/app.ts';
import { fetchClient } from '../../test/support/http.ts';
import { freePort } from '../../test/support/ports.ts';
import { signIn } from '../../test/support/sign-in.ts';

// With OIDC_ISSUER set, Data Lab trusts an external provider: it finds the provider's keys through
// its discovery document over HTTP and provisions users under that issuer. Here the external
// provider is another Data Lab's built-in one, listening on a real port.

describe('an external OpenID Connect provider', () => {
  const dirs = [mkdtempSync(join(tmpdir(), 'datalab-idp-')), mkdtempSync(join(tmpdir(), 'datalab-rp-'))];
  let provider: FastifyInstance;
  let portal: FastifyInstance;
  let issuer: string;
  let publicUrl: string;

  beforeAll(async () => {
    const port = await freePort();
    publicUrl = `http://localhost:${port}`;
    issuer = `${publicUrl}/oidc`;
    provider = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        ...NO_LOAD_SHEDDING,
        DATA_DIR: dirs[0] ?? '',
        PORT: String(port),
        LOG_LEVEL: 'silent',
        WEB_DIST_DIR: join(dirs[0] ?? '', 'none'),
      }),
      { logger: false },
    );
    await provider.listen({ host: '127.0.0.1', port });
    portal = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        ...NO_LOAD_SHEDDING,
        DATA_DIR: dirs[1] ?? '',
        LOG_LEVEL: 'silent',
        OIDC_ISSUER: issuer,
        OIDC_AUDIENCE: BUILT_IN_AUDIENCE,
        ADMIN_SUBJECTS: 'admin',
        WEB_DIST_DIR: join(dirs[1] ?? '', 'none'),
      }),
      { logger: false },
    );
    await portal.ready();
  });

  afterAll(async () => {
    await portal?.close();
    await provider?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('runs no provider of its own and tells the portal to sign in at the external one', async () => {
    expect((await portal.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' })).statusCode).toBe(
      404,
    );
    const config = (await portal.inject({ method: 'GET', url: '/portal-config.json' })).json<{
      authority: string;
      demoAccounts: unknown[];
    }>();
    expect(config).toMatchObject({ authority: issuer, demoAccounts: [] });
  });

  it("accepts the provider's tokens, provisions the user under that issuer, and honours ADMIN_SUBJECTS", async () => {
    const tokens = await signIn(fetchClient(), { publicUrl, username: 'admin', password: 'datalab' });
    const response = await portal.inject({
      method: 'GET',
      url: '/api/Account/GetCurrentUser',
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      username: 'admin',
      name: 'Ada Admin',
      permissions: { canManageUsers: true },
    });
    const user = await portal.db
      .selectFrom('users')
      .select(['issuer', 'subject'])
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ issuer, subject: 'admin' });

    const analyst = await signIn(fetchClient(), { publicUrl, username: 'analyst', password: 'datalab' });
    const other = await portal.inject({
      method: 'GET',
      url: '/api/Account/GetCurrentUser',
      headers: { authorization: `Bearer ${analyst.access_token}` },
    });
    expect(other.json()).toMatchObject({ username: 'analyst', permissions: { canManageUsers: false } });
  });
});
